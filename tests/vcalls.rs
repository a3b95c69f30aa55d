//! Calls of functions returning arrays and tuples (`src/vcalls.rs`), in every mode: each
//! caller's gradient against central finite differences (and closed forms where short), its
//! `_jvp` against the gradient, its H·v against finite differences of the gradient and for
//! symmetry; each vector callee's `_vjp`, `_jvp` and `_hvp` (the forward mode of its VJP)
//! against finite differences of its value and of its VJP. The two-layer perceptron through
//! `layer` against the same network written inline; Runge–Kutta through `rhs`, 100 steps,
//! stored and checkpointed.

use autodiff_runtime::{Tolerance, check_close, numeric_gradient};
use autodiff_suite::vcalls::*;

fn close(what: &str, values: &[f64], reference: &[f64], tol: f64) {
    let tol = Tolerance { epsilon: tol, max_relative: tol };
    if let Err(e) = check_close(values, reference, tol) {
        panic!("{what}: {e}");
    }
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Central differences of the vector function `g` at `x` along `v`: `(g(x + hv) − g(x − hv)) / 2h`.
fn derivative_along(g: &dyn Fn(&[f64]) -> Vec<f64>, x: &[f64], v: &[f64]) -> Vec<f64> {
    let h = 1e-6;
    let at = |s: f64| g(&x.iter().zip(v).map(|(a, b)| a + s * h * b).collect::<Vec<_>>());
    at(1.0).iter().zip(at(-1.0)).map(|(p, m)| (p - m) / (2.0 * h)).collect()
}

/// `x ↦ (value, gradient)`.
type GradFn<'a> = &'a dyn Fn(&[f64]) -> (f64, Vec<f64>);
/// `(x, v) ↦ (value, ∇f·v)`.
type JvpFn<'a> = &'a dyn Fn(&[f64], &[f64]) -> (f64, f64);
/// `(x, v) ↦ (value, gradient, H·v)`.
type HvpFn<'a> = &'a dyn Fn(&[f64], &[f64]) -> (f64, Vec<f64>, Vec<f64>);
/// `(x, ȳ or v) ↦ (value, cotangents or value_dot)`.
type LinearFn<'a> = &'a dyn Fn(&[f64], &[f64]) -> (Vec<f64>, Vec<f64>);
/// `(x, ȳ, v, ȳ̇) ↦ (value, cotangents, value_dot, cotangents_dot)`.
type VectorHvpFn<'a> = &'a dyn Fn(&[f64], &[f64], &[f64], &[f64]) -> [Vec<f64>; 4];
/// The perceptron's parameters.
type Params = ([[f64; 4]; 4], [f64; 4], [[f64; 4]; 4], [f64; 4]);

/// A scalar function of flat parameters and its generated derivatives.
struct Scalar<'a> {
    f: &'a dyn Fn(&[f64]) -> f64,
    grad: GradFn<'a>,
    jvp: Option<JvpFn<'a>>,
    hvp: Option<HvpFn<'a>>,
}

impl Scalar<'_> {
    /// Every mode at `x`: the gradient against finite differences, the JVP along `v` against
    /// the gradient, H·v against finite differences of the gradient, `w·Hv = v·Hw`.
    fn check(&self, what: &str, x: &[f64], v: &[f64], w: &[f64], tol: f64) {
        let value = (self.f)(x);
        let (y, g) = (self.grad)(x);
        assert_eq!(y.to_bits(), value.to_bits(), "{what}: the value of `_grad`");
        close(&format!("{what}: gradient"), &g, &numeric_gradient(self.f, x), tol);
        if let Some(jvp) = self.jvp {
            let (y, d) = jvp(x, v);
            close(&format!("{what}: value of `_jvp`"), &[y], &[value], 1e-14);
            close(&format!("{what}: `_jvp`"), &[d], &[dot(&g, v)], 1e-12);
        }
        if let Some(hvp) = self.hvp {
            let (y, g2, hv) = hvp(x, v);
            close(&format!("{what}: value of `_hvp`"), &[y], &[value], 1e-14);
            close(&format!("{what}: gradient of `_hvp`"), &g2, &g, 1e-12);
            let grad = |p: &[f64]| (self.grad)(p).1;
            close(&format!("{what}: H·v"), &hv, &derivative_along(&grad, x, v), tol);
            let (_, _, hw) = hvp(x, w);
            close(&format!("{what}: w·Hv = v·Hw"), &[dot(w, &hv)], &[dot(v, &hw)], 1e-10);
        }
    }
}

/// A vector function of flat parameters and its generated derivatives.
struct Vector<'a> {
    g: &'a dyn Fn(&[f64]) -> Vec<f64>,
    vjp: LinearFn<'a>,
    jvp: LinearFn<'a>,
    /// `(value, cotangents, value_dot, cotangents_dot)` at `(x, ȳ)` along `(ẋ, ȳ̇)`.
    hvp: VectorHvpFn<'a>,
}

impl Vector<'_> {
    /// Every mode at `x`: the VJP with `y_bar` against finite differences of `y_bar · g`, the
    /// JVP along `v` against finite differences of `g`, the `_hvp` against the VJP and JVP and
    /// against finite differences of the VJP along `(v, y_bar_dot)`.
    fn check(&self, what: &str, x: &[f64], y_bar: &[f64], v: &[f64], y_bar_dot: &[f64]) {
        let value = (self.g)(x);
        let (y, c) = (self.vjp)(x, y_bar);
        close(&format!("{what}: value of `_vjp`"), &y, &value, 1e-15);
        let weighted = |p: &[f64]| dot(y_bar, &(self.g)(p));
        close(&format!("{what}: `_vjp`"), &c, &numeric_gradient(weighted, x), 1e-7);
        let (y, d) = (self.jvp)(x, v);
        close(&format!("{what}: value of `_jvp`"), &y, &value, 1e-15);
        close(&format!("{what}: `_jvp`"), &d, &derivative_along(self.g, x, v), 1e-7);
        let [y, c2, d2, c_dot] = (self.hvp)(x, y_bar, v, y_bar_dot);
        close(&format!("{what}: value of `_hvp`"), &y, &value, 1e-15);
        close(&format!("{what}: cotangents of `_hvp`"), &c2, &c, 1e-14);
        close(&format!("{what}: value_dot of `_hvp`"), &d2, &d, 1e-14);
        // The VJP as a function of (x, ȳ), along (v, ȳ̇).
        let n = x.len();
        let both = |p: &[f64]| (self.vjp)(&p[..n], &p[n..]).1;
        let point: Vec<f64> = x.iter().chain(y_bar).copied().collect();
        let along: Vec<f64> = v.iter().chain(y_bar_dot).copied().collect();
        close(
            &format!("{what}: cotangents_dot of `_hvp`"),
            &c_dot,
            &derivative_along(&both, &point, &along),
            1e-7,
        );
    }
}

fn a2(p: &[f64]) -> [f64; 2] {
    [p[0], p[1]]
}

fn a3(p: &[f64]) -> [f64; 3] {
    [p[0], p[1], p[2]]
}

fn a4(p: &[f64]) -> [f64; 4] {
    [p[0], p[1], p[2], p[3]]
}

fn m4(p: &[f64]) -> [[f64; 4]; 4] {
    std::array::from_fn(|i| a4(&p[4 * i..]))
}

#[test]
fn a_tuple_returned_by_polar_against_its_closed_forms() {
    let vector = Vector {
        g: &|p| {
            let (x, y) = polar(p[0], p[1]);
            vec![x, y]
        },
        vjp: &|p, b| {
            let ((x, y), (r, t)) = polar_vjp(p[0], p[1], (b[0], b[1]));
            (vec![x, y], vec![r, t])
        },
        jvp: &|p, v| {
            let ((x, y), (dx, dy)) = polar_jvp(p[0], p[1], v[0], v[1]);
            (vec![x, y], vec![dx, dy])
        },
        hvp: &|p, b, v, bd| {
            let ((x, y), (r, t), (dx, dy), (rd, td)) =
                polar_hvp(p[0], p[1], (b[0], b[1]), v[0], v[1], (bd[0], bd[1]));
            [vec![x, y], vec![r, t], vec![dx, dy], vec![rd, td]]
        },
    };
    vector.check("polar", &[1.3, 0.7], &[0.4, -1.1], &[0.5, 2.0], &[-0.3, 0.9]);
    for (r, t) in [(1.3_f64, 0.7_f64), (0.6, -2.1), (2.2, 3.0)] {
        // f = x y² + sin x with x = r cos t, y = r sin t.
        let (c, s) = (t.cos(), t.sin());
        let (x, y) = (r * c, r * s);
        let (fx, fy) = (y * y + x.cos(), 2.0 * x * y);
        let expected = [fx * c + fy * s, -fx * r * s + fy * r * c];
        let (value, (gr, gt)) = through_polar_grad(r, t);
        assert_eq!(value, through_polar(r, t));
        close("through_polar gradient", &[gr, gt], &expected, 1e-13);
    }
    let scalar = Scalar {
        f: &|p| through_polar(p[0], p[1]),
        grad: &|p| {
            let (y, (a, b)) = through_polar_grad(p[0], p[1]);
            (y, vec![a, b])
        },
        jvp: Some(&|p, v| through_polar_jvp(p[0], p[1], v[0], v[1])),
        hvp: Some(&|p, v| {
            let (y, (a, b), (c, d)) = through_polar_hvp(p[0], p[1], v[0], v[1]);
            (y, vec![a, b], vec![c, d])
        }),
    };
    scalar.check("through_polar", &[1.3, 0.7], &[0.5, -1.0], &[2.0, 0.25], 1e-7);
    // The Hessian, row by row H·eᵢ.
    let h = through_polar_hessian(1.3, 0.7);
    let (_, _, (a, b)) = through_polar_hvp(1.3, 0.7, 1.0, 0.0);
    let (_, _, (c, d)) = through_polar_hvp(1.3, 0.7, 0.0, 1.0);
    assert_eq!(h, [[a, b], [c, d]]);
    close("Hessian symmetry", &[h[0][1]], &[h[1][0]], 1e-12);
}

#[test]
fn a_part_unused_a_constant_argument_and_calls_in_branches() {
    // x of polar(2, t) times t: 2 t cos t.
    for t in [0.3_f64, -1.7, 2.5] {
        let (value, g) = polar_x_only_grad(t);
        close(
            "polar_x_only",
            &[value, g],
            &[2.0 * t * t.cos(), 2.0 * (t.cos() - t * t.sin())],
            1e-14,
        );
    }
    let scalar = Scalar {
        f: &|p| polar_x_only(p[0]),
        grad: &|p| {
            let (y, g) = polar_x_only_grad(p[0]);
            (y, vec![g])
        },
        jvp: Some(&|p, v| polar_x_only_jvp(p[0], v[0])),
        hvp: Some(&|p, v| {
            let (y, g, h) = polar_x_only_hvp(p[0], v[0]);
            (y, vec![g], vec![h])
        }),
    };
    scalar.check("polar_x_only", &[0.8], &[1.5], &[-0.5], 1e-7);
    let scalar = Scalar {
        f: &|p| polar_in_branch(p[0], p[1]),
        grad: &|p| {
            let (y, (a, b)) = polar_in_branch_grad(p[0], p[1]);
            (y, vec![a, b])
        },
        jvp: Some(&|p, v| polar_in_branch_jvp(p[0], p[1], v[0], v[1])),
        hvp: Some(&|p, v| {
            let (y, (a, b), (c, d)) = polar_in_branch_hvp(p[0], p[1], v[0], v[1]);
            (y, vec![a, b], vec![c, d])
        }),
    };
    for x in [[1.4, 0.6], [0.7, 0.6], [1.4, -0.6], [0.7, -0.6]] {
        scalar.check("polar_in_branch", &x, &[0.5, -1.0], &[2.0, 0.25], 1e-7);
    }
}

/// The perceptron's parameters, flat: `w1`, `b1`, `w2`, `b2`.
fn unpack(p: &[f64]) -> Params {
    (m4(p), a4(&p[16..]), m4(&p[20..]), a4(&p[36..]))
}

fn pack(w1: [[f64; 4]; 4], b1: [f64; 4], w2: [[f64; 4]; 4], b2: [f64; 4]) -> Vec<f64> {
    w1.iter().flatten().chain(&b1).chain(w2.iter().flatten()).chain(&b2).copied().collect()
}

const DATA: [f64; 4] = [0.5, -1.0, 0.25, 2.0];

fn point(seed: f64, n: usize) -> Vec<f64> {
    (0..n).map(|i| 0.6 * (seed + 1.3 * i as f64).sin()).collect()
}

#[test]
fn the_layer_and_a_two_layer_perceptron_through_it() {
    let vector = Vector {
        g: &|p| {
            let (w, b) = (m4(p), a4(&p[16..]));
            layer(&w, &b, &DATA).to_vec()
        },
        vjp: &|p, y| {
            let (w, b) = (m4(p), a4(&p[16..]));
            let (h, (wb, bb, _)) = layer_vjp(&w, &b, &DATA, a4(y));
            (h.to_vec(), wb.iter().flatten().chain(&bb).copied().collect())
        },
        jvp: &|p, v| {
            let (w, b, wd, bd) = (m4(p), a4(&p[16..]), m4(v), a4(&v[16..]));
            let (h, hd) = layer_jvp(&w, &b, &DATA, &wd, &bd, &[0.0; 4]);
            (h.to_vec(), hd.to_vec())
        },
        hvp: &|p, y, v, yd| {
            let (w, b, wd, bd) = (m4(p), a4(&p[16..]), m4(v), a4(&v[16..]));
            let (h, (wb, bb, _), hd, (wbd, bbd, _)) =
                layer_hvp(&w, &b, &DATA, a4(y), &wd, &bd, &[0.0; 4], a4(yd));
            let flat = |w: [[f64; 4]; 4], b: [f64; 4]| {
                w.iter().flatten().chain(&b).copied().collect::<Vec<f64>>()
            };
            [h.to_vec(), flat(wb, bb), hd.to_vec(), flat(wbd, bbd)]
        },
    };
    let (x, v) = (point(0.3, 20), point(1.1, 20));
    vector.check("layer", &x, &[0.5, -1.0, 1.5, 0.25], &v, &[1.0, 0.0, -0.5, 2.0]);
    let f = |p: &[f64]| {
        let (w1, b1, w2, b2) = unpack(p);
        mlp(&w1, &b1, &w2, &b2, &DATA)
    };
    let grad = |p: &[f64]| {
        let (w1, b1, w2, b2) = unpack(p);
        let (y, (a, b, c, d)) = mlp_grad(&w1, &b1, &w2, &b2, &DATA);
        (y, pack(a, b, c, d))
    };
    let scalar = Scalar {
        f: &f,
        grad: &grad,
        jvp: Some(&|p, v| {
            let ((w1, b1, w2, b2), (a, b, c, d)) = (unpack(p), unpack(v));
            mlp_jvp(&w1, &b1, &w2, &b2, &DATA, &a, &b, &c, &d)
        }),
        hvp: Some(&|p, v| {
            let ((w1, b1, w2, b2), (a, b, c, d)) = (unpack(p), unpack(v));
            let (y, (ga, gb, gc, gd), (ha, hb, hc, hd)) =
                mlp_hvp(&w1, &b1, &w2, &b2, &DATA, &a, &b, &c, &d);
            (y, pack(ga, gb, gc, gd), pack(ha, hb, hc, hd))
        }),
    };
    for seed in [0.3, -0.8, 2.0] {
        let (p, v, w) = (point(seed, 40), point(seed + 1.0, 40), point(seed - 2.0, 40));
        scalar.check("mlp", &p, &v, &w, 1e-7);
        // The same network written inline: the same value and the same gradient, to the bit
        // (`layer_rev` sums in the order the inline sweep does).
        let (w1, b1, w2, b2) = unpack(&p);
        let (value, (a, b, c, d)) = mlp_inline_grad(&w1, &b1, &w2, &b2, &DATA);
        assert_eq!(value.to_bits(), f(&p).to_bits());
        assert_eq!(grad(&p).1, pack(a, b, c, d), "mlp against mlp_inline");
        // `mlp_hvp` calls `layer_vjp` in its sweep, `mlp_grad` `layer_rev`: the same gradient.
        let (_, g, _) = (scalar.hvp.unwrap())(&p, &v);
        assert_eq!(g, grad(&p).1);
    }
}

#[test]
fn runge_kutta_through_rhs_100_steps() {
    let vector = Vector {
        g: &|p| rhs(a2(p), p[2]).to_vec(),
        vjp: &|p, y| {
            let (v, (s, k)) = rhs_vjp(a2(p), p[2], a2(y));
            (v.to_vec(), vec![s[0], s[1], k])
        },
        jvp: &|p, d| {
            let (v, vd) = rhs_jvp(a2(p), p[2], a2(d), d[2]);
            (v.to_vec(), vd.to_vec())
        },
        hvp: &|p, y, d, yd| {
            let (v, (s, k), vd, (sd, kd)) = rhs_hvp(a2(p), p[2], a2(y), a2(d), d[2], a2(yd));
            [v.to_vec(), vec![s[0], s[1], k], vd.to_vec(), vec![sd[0], sd[1], kd]]
        },
    };
    vector.check("rhs", &[0.8, -0.3, 2.5], &[1.5, -0.5], &[0.3, 1.0, -0.7], &[0.25, 2.0]);
    for (name, grad, hvp) in [
        (
            "rk4",
            rk4_grad as fn([f64; 2], f64) -> (f64, ([f64; 2], f64)),
            rk4_hvp as fn([f64; 2], f64, [f64; 2], f64) -> (f64, ([f64; 2], f64), ([f64; 2], f64)),
        ),
        ("rk4_checkpointed", rk4_checkpointed_grad, rk4_checkpointed_hvp),
    ] {
        let grad = |p: &[f64]| {
            let (y, (s, k)) = grad(a2(p), p[2]);
            (y, vec![s[0], s[1], k])
        };
        let scalar = Scalar {
            f: &|p| rk4(a2(p), p[2]),
            grad: &grad,
            jvp: Some(&|p, v| rk4_jvp(a2(p), p[2], a2(v), v[2])),
            hvp: Some(&|p, v| {
                let (y, (s, k), (hs, hk)) = hvp(a2(p), p[2], a2(v), v[2]);
                (y, vec![s[0], s[1], k], vec![hs[0], hs[1], hk])
            }),
        };
        scalar.check(name, &[1.0, 0.2, 1.5], &[0.5, -1.0, 0.3], &[0.1, 0.4, -2.0], 1e-6);
    }
    // The checkpointed sweep recomputes the same operations: the same gradient to the bit; and
    // `rk4_hvp` (through `rhs_vjp`) the same as `rk4_grad` (through `rhs_fwd` and `rhs_rev`).
    let (a, b) = (rk4_grad([1.0, 0.2], 1.5), rk4_checkpointed_grad([1.0, 0.2], 1.5));
    assert_eq!(a, b);
    let (y, g, _) = rk4_hvp([1.0, 0.2], 1.5, [0.5, -1.0], 0.3);
    assert_eq!((y, g), a);
}

#[test]
fn vector_functions_calling_vector_functions() {
    let vector = Vector {
        g: &|p| euler(a2(p), p[2], p[3]).to_vec(),
        vjp: &|p, y| {
            let (v, (s, k, h)) = euler_vjp(a2(p), p[2], p[3], a2(y));
            (v.to_vec(), vec![s[0], s[1], k, h])
        },
        jvp: &|p, d| {
            let (v, vd) = euler_jvp(a2(p), p[2], p[3], a2(d), d[2], d[3]);
            (v.to_vec(), vd.to_vec())
        },
        hvp: &|p, y, d, yd| {
            let (v, (s, k, h), vd, (sd, kd, hd)) =
                euler_hvp(a2(p), p[2], p[3], a2(y), a2(d), d[2], d[3], a2(yd));
            [v.to_vec(), vec![s[0], s[1], k, h], vd.to_vec(), vec![sd[0], sd[1], kd, hd]]
        },
    };
    vector.check(
        "euler",
        &[0.8, -0.3, 2.5, 0.1],
        &[1.5, -0.5],
        &[0.3, 1.0, -0.7, 0.2],
        &[0.25, 2.0],
    );
    let vector = Vector {
        g: &|p| rhs_again(a2(p), p[2]).to_vec(),
        vjp: &|p, y| {
            let (v, (s, k)) = rhs_again_vjp(a2(p), p[2], a2(y));
            (v.to_vec(), vec![s[0], s[1], k])
        },
        jvp: &|p, d| {
            let (v, vd) = rhs_again_jvp(a2(p), p[2], a2(d), d[2]);
            (v.to_vec(), vd.to_vec())
        },
        hvp: &|p, y, d, yd| {
            let (v, (s, k), vd, (sd, kd)) = rhs_again_hvp(a2(p), p[2], a2(y), a2(d), d[2], a2(yd));
            [v.to_vec(), vec![s[0], s[1], k], vd.to_vec(), vec![sd[0], sd[1], kd]]
        },
    };
    vector.check("rhs_again", &[0.8, -0.3, 2.5], &[1.5, -0.5], &[0.3, 1.0, -0.7], &[0.25, 2.0]);
    let scalar = Scalar {
        f: &|p| euler_flow(a2(p), p[2]),
        grad: &|p| {
            let (y, (s, k)) = euler_flow_grad(a2(p), p[2]);
            (y, vec![s[0], s[1], k])
        },
        jvp: Some(&|p, v| euler_flow_jvp(a2(p), p[2], a2(v), v[2])),
        hvp: Some(&|p, v| {
            let (y, (s, k), (hs, hk)) = euler_flow_hvp(a2(p), p[2], a2(v), v[2]);
            (y, vec![s[0], s[1], k], vec![hs[0], hs[1], hk])
        }),
    };
    scalar.check("euler_flow", &[0.9, 0.4, 1.7], &[0.5, -1.0, 0.3], &[0.1, 0.4, -2.0], 1e-7);
}

#[test]
fn a_tuple_of_a_scalar_and_an_array() {
    let w = [0.5, 2.0, 1.5];
    let vector = Vector {
        g: &|p| {
            let (m, d) = centered(&a3(p));
            vec![m, d[0], d[1], d[2]]
        },
        vjp: &|p, y| {
            let ((m, d), x) = centered_vjp(&a3(p), (y[0], a3(&y[1..])));
            (vec![m, d[0], d[1], d[2]], x.to_vec())
        },
        jvp: &|p, v| {
            let ((m, d), (md, dd)) = centered_jvp(&a3(p), &a3(v));
            (vec![m, d[0], d[1], d[2]], vec![md, dd[0], dd[1], dd[2]])
        },
        hvp: &|p, y, v, yd| {
            let ((m, d), x, (md, dd), xd) =
                centered_hvp(&a3(p), (y[0], a3(&y[1..])), &a3(v), (yd[0], a3(&yd[1..])));
            [vec![m, d[0], d[1], d[2]], x.to_vec(), vec![md, dd[0], dd[1], dd[2]], xd.to_vec()]
        },
    };
    vector.check(
        "centered",
        &[0.3, -1.2, 2.0],
        &[1.0, 0.5, -0.5, 2.0],
        &[0.2, 0.7, -1.0],
        &[0.3, -0.1, 0.4, 1.0],
    );
    // m² + Σ wᵢ (xᵢ − m)²: ∂/∂xⱼ = 2m/3 + 2 wⱼ dⱼ − (2/3) Σ wᵢ dᵢ.
    let x = [0.3, -1.2, 2.0];
    let m = (x[0] + x[1] + x[2]) / 3.0;
    let d = x.map(|e| e - m);
    let wd: f64 = (0..3).map(|i| w[i] * d[i]).sum();
    let expected: [f64; 3] =
        std::array::from_fn(|j| 2.0 * m / 3.0 + 2.0 * w[j] * d[j] - 2.0 * wd / 3.0);
    let (_, g) = weighted_spread_grad(x, &w);
    close("weighted_spread gradient", &g, &expected, 1e-14);
    let scalar = Scalar {
        f: &|p| weighted_spread(a3(p), &w),
        grad: &|p| {
            let (y, g) = weighted_spread_grad(a3(p), &w);
            (y, g.to_vec())
        },
        jvp: Some(&|p, v| weighted_spread_jvp(a3(p), &w, a3(v))),
        hvp: Some(&|p, v| {
            let (y, g, h) = weighted_spread_hvp(a3(p), &w, a3(v));
            (y, g.to_vec(), h.to_vec())
        }),
    };
    scalar.check("weighted_spread", &x, &[0.5, -1.0, 0.3], &[0.1, 0.4, -2.0], 1e-7);
}

#[test]
fn hand_written_derivatives_of_a_vector_function() {
    // The contract of a vector callee, written by hand, checked as the generated ones are.
    let vector = Vector {
        g: &|p| normalize(a3(p)).to_vec(),
        vjp: &|p, y| {
            let (u, c) = normalize_vjp(a3(p), a3(y));
            (u.to_vec(), c.to_vec())
        },
        jvp: &|p, v| {
            let (u, d) = normalize_jvp(a3(p), a3(v));
            (u.to_vec(), d.to_vec())
        },
        hvp: &|p, y, v, yd| {
            let (u, c, d, cd) = normalize_hvp(a3(p), a3(y), a3(v), a3(yd));
            [u.to_vec(), c.to_vec(), d.to_vec(), cd.to_vec()]
        },
    };
    vector.check(
        "normalize",
        &[0.3, -1.2, 2.0],
        &[1.0, 0.5, -0.5],
        &[0.2, 0.7, -1.0],
        &[0.3, -0.1, 0.4],
    );
    let t = [0.6, 0.0, 0.8];
    let scalar = Scalar {
        f: &|p| direction_cost(a3(p), p[3], &t),
        grad: &|p| {
            let (y, (g, a)) = direction_cost_grad(a3(p), p[3], &t);
            (y, vec![g[0], g[1], g[2], a])
        },
        jvp: Some(&|p, v| direction_cost_jvp(a3(p), p[3], &t, a3(v), v[3])),
        hvp: Some(&|p, v| {
            let (y, (g, a), (h, ha)) = direction_cost_hvp(a3(p), p[3], &t, a3(v), v[3]);
            (y, vec![g[0], g[1], g[2], a], vec![h[0], h[1], h[2], ha])
        }),
    };
    scalar.check(
        "direction_cost",
        &[0.3, -1.2, 2.0, 1.5],
        &[0.5, -1.0, 0.3, 2.0],
        &[0.1, 0.4, -2.0, 0.5],
        1e-7,
    );
}

#[test]
fn a_vector_call_in_a_stored_loop_and_in_a_checkpointed_one() {
    // `h = layer(w, b, &h)` six times: the stored loop keeps each call's residuals, the
    // checkpointed one runs `layer_fwd` again from its snapshots.
    let flat = |w: [[f64; 4]; 4], b: [f64; 4]| -> Vec<f64> {
        w.iter().flatten().chain(&b).copied().collect()
    };
    type Grad = fn(&[[f64; 4]; 4], &[f64; 4], &[f64; 4]) -> (f64, ([[f64; 4]; 4], [f64; 4]));
    type Hvp = fn(
        &[[f64; 4]; 4],
        &[f64; 4],
        &[f64; 4],
        &[[f64; 4]; 4],
        &[f64; 4],
    ) -> (f64, ([[f64; 4]; 4], [f64; 4]), ([[f64; 4]; 4], [f64; 4]));
    let kernels: [(&str, Grad, Hvp); 2] = [
        ("recurrent", recurrent_grad, recurrent_hvp),
        ("recurrent_checkpointed", recurrent_checkpointed_grad, recurrent_checkpointed_hvp),
    ];
    for seed in [0.3, -0.8] {
        let (p, v, w) = (point(seed, 20), point(seed + 1.0, 20), point(seed - 2.0, 20));
        for (name, grad, hvp) in kernels {
            let grad = |p: &[f64]| {
                let (y, (a, b)) = grad(&m4(p), &a4(&p[16..]), &DATA);
                (y, flat(a, b))
            };
            let scalar = Scalar {
                f: &|p| recurrent(&m4(p), &a4(&p[16..]), &DATA),
                grad: &grad,
                jvp: None,
                hvp: Some(&|p, v| {
                    let (y, (a, b), (c, d)) =
                        hvp(&m4(p), &a4(&p[16..]), &DATA, &m4(v), &a4(&v[16..]));
                    (y, flat(a, b), flat(c, d))
                }),
            };
            scalar.check(name, &p, &v, &w, 1e-7);
        }
        let (w1, b1) = (m4(&p), a4(&p[16..]));
        let stored = recurrent_grad(&w1, &b1, &DATA);
        // The checkpointed sweep runs the same operations: the same gradient to the bit; and
        // H·v, which calls `layer_vjp` in its sweep, the same gradient as `layer_rev` gives.
        assert_eq!(stored, recurrent_checkpointed_grad(&w1, &b1, &DATA));
        let (y, g, _) = recurrent_hvp(&w1, &b1, &DATA, &w1, &b1);
        assert_eq!((y, g), stored);
        let (value, (a, b)) = recurrent_inline_grad(&w1, &b1, &DATA);
        assert_eq!(value.to_bits(), stored.0.to_bits());
        assert_eq!(flat(stored.1.0, stored.1.1), flat(a, b), "recurrent against recurrent_inline");
    }
}

#[test]
fn the_halves_of_each_vjp_give_the_vjp_to_the_bit() {
    // `g_fwd` then `g_rev` is `g_vjp` split at the end of its forward pass: the same value and
    // the same cotangents, to the bit.
    let (w, b) = (m4(&point(0.3, 16)), a4(&point(1.7, 4)));
    let ybar = [0.5, -1.0, 1.5, 0.25];
    let (h, r) = layer_fwd(&w, &b, &DATA);
    assert_eq!(h, layer(&w, &b, &DATA));
    let (v, c) = layer_vjp(&w, &b, &DATA, ybar);
    assert_eq!((v, c), (h, layer_rev(&w, &b, &DATA, r, ybar)));
    let (y, r) = rhs_fwd([0.8, -0.3], 2.5);
    assert_eq!(y, rhs([0.8, -0.3], 2.5));
    assert_eq!(rhs_vjp([0.8, -0.3], 2.5, [1.5, -0.5]).1, rhs_rev([0.8, -0.3], 2.5, r, [1.5, -0.5]));
    let (y, r) = polar_fwd(1.5, 0.4);
    assert_eq!(y, polar(1.5, 0.4));
    assert_eq!(polar_vjp(1.5, 0.4, (0.3, -2.0)).1, polar_rev(1.5, 0.4, r, (0.3, -2.0)));
    let x = [0.3, -1.2, 2.0];
    let (y, r) = centered_fwd(&x);
    assert_eq!(y, centered(&x));
    let bar = (0.7, [1.0, -0.5, 0.25]);
    assert_eq!(centered_vjp(&x, bar).1, centered_rev(&x, r, bar));
    let (y, r) = euler_fwd([0.8, -0.3], 2.5, 0.1);
    assert_eq!(y, euler([0.8, -0.3], 2.5, 0.1));
    assert_eq!(
        euler_vjp([0.8, -0.3], 2.5, 0.1, [1.5, -0.5]).1,
        euler_rev([0.8, -0.3], 2.5, 0.1, r, [1.5, -0.5])
    );
    // The hand-written halves of `normalize`.
    let (u, r) = normalize_fwd(x);
    assert_eq!(u, normalize(x));
    assert_eq!(normalize_vjp(x, [1.0, 0.5, -0.5]).1, normalize_rev(x, r, [1.0, 0.5, -0.5]));
}
