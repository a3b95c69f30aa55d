//! Calls of functions returning a struct (`src/struct_calls.rs`), in every mode: the rotation
//! `q p q*` through `q.mul(&p)` and `.mul(&c)` on its value against its rotation matrix and
//! finite differences; gradients against central finite differences, H·v against finite
//! differences of the gradient and for symmetry, the Hessian against H·v; loops carrying a
//! product (stored and checkpointed) or making one per iteration; and `_hvp` of functions
//! returning a struct against finite differences of their `_vjp`. The same calls written without
//! a typed `let` are checked in `chains.rs`.

use autodiff_runtime::{Differentiable, Tolerance, check_close, numeric_gradient};
use autodiff_suite::struct_calls::*;
use autodiff_suite::structs::Quat;

#[path = "struct_calls/chains.rs"]
mod chains;

fn close(what: &str, values: &[f64], reference: &[f64], tol: f64) {
    let tol = Tolerance { epsilon: tol, max_relative: tol };
    if let Err(e) = check_close(values, reference, tol) {
        panic!("{what}: {e}");
    }
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// The differentiated scalars of `s`, in `Differentiable`'s order.
fn scalars<T: Differentiable>(s: &T) -> Vec<f64> {
    (0..T::LEN).map(|k| s.get(k)).collect()
}

fn quat(p: &[f64]) -> Quat {
    Quat { w: p[0], x: p[1], y: p[2], z: p[3] }
}

fn a3(p: &[f64]) -> [f64; 3] {
    [p[0], p[1], p[2]]
}

fn a4(p: &[f64]) -> [f64; 4] {
    [p[0], p[1], p[2], p[3]]
}

/// Central differences of `g` at `x` along `v`.
fn derivative_along(g: &dyn Fn(&[f64]) -> Vec<f64>, x: &[f64], v: &[f64]) -> Vec<f64> {
    let h = 1e-6;
    let at = |s: f64| g(&x.iter().zip(v).map(|(a, b)| a + s * h * b).collect::<Vec<_>>());
    at(1.0).iter().zip(at(-1.0)).map(|(p, m)| (p - m) / (2.0 * h)).collect()
}

/// The rotation of `v` by the unit quaternion `q / |q|`, from its rotation matrix.
fn rotated(q: &Quat, v: [f64; 3]) -> [f64; 3] {
    let n = q.norm2();
    let (w, x, y, z) = (q.w, q.x, q.y, q.z);
    let r = [
        [w * w + x * x - y * y - z * z, 2.0 * (x * y - w * z), 2.0 * (x * z + w * y)],
        [2.0 * (x * y + w * z), w * w - x * x + y * y - z * z, 2.0 * (y * z - w * x)],
        [2.0 * (x * z - w * y), 2.0 * (y * z + w * x), w * w - x * x - y * y + z * z],
    ];
    std::array::from_fn(|i| (0..3).map(|j| r[i][j] * v[j]).sum::<f64>() / n)
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

/// A scalar function of flat parameters and its generated derivatives.
struct Scalar<'a> {
    f: &'a dyn Fn(&[f64]) -> f64,
    grad: GradFn<'a>,
    jvp: JvpFn<'a>,
    hvp: HvpFn<'a>,
}

impl Scalar<'_> {
    /// The gradient against finite differences, the JVP against the gradient, H·v against
    /// finite differences of the gradient, `w·Hv = v·Hw`.
    fn check(&self, what: &str, x: &[f64], v: &[f64], w: &[f64]) {
        let value = (self.f)(x);
        let (y, g) = (self.grad)(x);
        assert_eq!(y.to_bits(), value.to_bits(), "{what}: the value of `_grad`");
        close(&format!("{what}: gradient"), &g, &numeric_gradient(self.f, x), 1e-7);
        let (y, d) = (self.jvp)(x, v);
        close(&format!("{what}: value of `_jvp`"), &[y], &[value], 1e-14);
        close(&format!("{what}: `_jvp`"), &[d], &[dot(&g, v)], 1e-12);
        let (y, g2, hv) = (self.hvp)(x, v);
        close(&format!("{what}: value of `_hvp`"), &[y], &[value], 1e-14);
        close(&format!("{what}: gradient of `_hvp`"), &g2, &g, 1e-12);
        let grad = |p: &[f64]| (self.grad)(p).1;
        close(&format!("{what}: H·v"), &hv, &derivative_along(&grad, x, v), 1e-6);
        let (_, _, hw) = (self.hvp)(x, w);
        close(&format!("{what}: w·Hv = v·Hw"), &[dot(w, &hv)], &[dot(v, &hw)], 1e-10);
    }
}

/// A function returning a struct (or an array), of flat parameters: its value, `_vjp`, `_jvp`
/// and `_hvp` (`(value, cotangents, value_dot, cotangents_dot)`).
struct Vector<'a> {
    g: &'a dyn Fn(&[f64]) -> Vec<f64>,
    vjp: LinearFn<'a>,
    jvp: LinearFn<'a>,
    hvp: VectorHvpFn<'a>,
}

impl Vector<'_> {
    /// The VJP with `y_bar` against finite differences of `y_bar · g`, the JVP along `v`
    /// against finite differences of `g`, the `_hvp` against both and against finite
    /// differences of the VJP along `(v, y_bar_dot)`.
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
        let n = x.len();
        let both = |p: &[f64]| (self.vjp)(&p[..n], &p[n..]).1;
        let point: Vec<f64> = x.iter().chain(y_bar).copied().collect();
        let along: Vec<f64> = v.iter().chain(y_bar_dot).copied().collect();
        let numeric = derivative_along(&both, &point, &along);
        close(&format!("{what}: cotangents_dot of `_hvp`"), &c_dot, &numeric, 1e-7);
    }
}

const Q: [f64; 4] = [0.9, -0.3, 0.5, 0.2];
const V: [f64; 3] = [1.0, -2.0, 0.5];

fn point() -> Vec<f64> {
    Q.iter().chain(&V).copied().collect()
}

/// Two directions over `n` parameters.
fn directions(n: usize) -> (Vec<f64>, Vec<f64>) {
    let v = (0..n).map(|k| (k as f64 * 0.7 + 0.3).cos()).collect();
    let w = (0..n).map(|k| (k as f64 * 1.3 - 0.4).sin()).collect();
    (v, w)
}

#[test]
fn a_rotation_through_calls_returning_a_struct_against_its_matrix() {
    let (q, v) = (quat(&Q), V);
    close("rotation", &rotate_by_calls(&q, v), &rotated(&q, v), 1e-14);
    let vector = Vector {
        g: &|p| rotate_by_calls(&quat(p), a3(&p[4..])).to_vec(),
        vjp: &|p, b| {
            let (y, (gq, gv)) = rotate_by_calls_vjp(&quat(p), a3(&p[4..]), a3(b));
            (y.to_vec(), scalars(&gq).into_iter().chain(gv).collect())
        },
        jvp: &|p, d| {
            let (y, dy) = rotate_by_calls_jvp(&quat(p), a3(&p[4..]), &quat(d), a3(&d[4..]));
            (y.to_vec(), dy.to_vec())
        },
        hvp: &|p, b, d, bd| {
            let (y, (gq, gv), dy, (hq, hv)) =
                rotate_by_calls_hvp(&quat(p), a3(&p[4..]), a3(b), &quat(d), a3(&d[4..]), a3(bd));
            [
                y.to_vec(),
                scalars(&gq).into_iter().chain(gv).collect(),
                dy.to_vec(),
                scalars(&hq).into_iter().chain(hv).collect(),
            ]
        },
    };
    let (d, _) = directions(7);
    vector.check("rotate_by_calls", &point(), &[0.3, -1.1, 0.8], &d, &[1.0, 0.25, -0.5]);
    // The Jacobian against the matrix form's, by finite differences.
    let (value, j) = rotate_by_calls_jacobian(&q, v);
    assert_eq!(value, rotate_by_calls(&q, v));
    for (i, row) in j.iter().enumerate() {
        let f = |p: &[f64]| rotated(&quat(p), a3(&p[4..]))[i];
        close("Jacobian row against the matrix form", row, &numeric_gradient(f, &point()), 1e-7);
    }
}

#[test]
fn a_scalar_through_calls_by_path_and_method_against_finite_differences() {
    let f = |p: &[f64]| rotation_energy(&quat(p), a3(&p[4..]));
    let scalar = Scalar {
        f: &f,
        grad: &|p| {
            let (y, (gq, gv)) = rotation_energy_grad(&quat(p), a3(&p[4..]));
            (y, scalars(&gq).into_iter().chain(gv).collect())
        },
        jvp: &|p, d| rotation_energy_jvp(&quat(p), a3(&p[4..]), &quat(d), a3(&d[4..])),
        hvp: &|p, d| {
            let (y, (gq, gv), (hq, hv)) =
                rotation_energy_hvp(&quat(p), a3(&p[4..]), &quat(d), a3(&d[4..]));
            (
                y,
                scalars(&gq).into_iter().chain(gv).collect(),
                scalars(&hq).into_iter().chain(hv).collect(),
            )
        },
    };
    let (v, w) = directions(7);
    scalar.check("rotation_energy", &point(), &v, &w);
    // The Hessian: symmetric, and each row H·eᵢ.
    let h = rotation_energy_hessian(&quat(&Q), V);
    for (i, row) in h.iter().enumerate() {
        let e: Vec<f64> = (0..7).map(|k| if k == i { 1.0 } else { 0.0 }).collect();
        let (_, _, he) = (scalar.hvp)(&point(), &e);
        close("Hessian row", row, &he, 0.0);
        for (j, hij) in row.iter().enumerate() {
            close("symmetry", &[*hij], &[h[j][i]], 1e-12);
        }
    }
}

/// The checks of a scalar function of a quaternion.
fn of_quat(what: &str, f: fn(&Quat) -> f64, grad: fn(&Quat) -> (f64, Quat)) -> impl Fn(&[f64]) {
    move |x: &[f64]| {
        let q = quat(x);
        let (y, g) = grad(&q);
        assert_eq!(y.to_bits(), f(&q).to_bits(), "{what}: value");
        let numeric = numeric_gradient(|p| f(&quat(p)), x);
        close(&format!("{what}: gradient"), &scalars(&g), &numeric, 1e-7);
    }
}

/// A scalar function of a quaternion's derivatives.
pub(crate) type PowGrad = fn(&Quat) -> (f64, Quat);
pub(crate) type PowJvp = fn(&Quat, &Quat) -> (f64, f64);
pub(crate) type PowHvp = fn(&Quat, &Quat) -> (f64, Quat, Quat);

/// Checks a scalar function of a quaternion with the harness; returns everything it computes.
pub(crate) fn quat_checks(
    what: &str,
    f: fn(&Quat) -> f64,
    (grad, jvp, hvp): (PowGrad, PowJvp, PowHvp),
) -> Vec<Vec<f64>> {
    let scalar = Scalar {
        f: &|p| f(&quat(p)),
        grad: &|p| {
            let (y, g) = grad(&quat(p));
            (y, scalars(&g))
        },
        jvp: &|p, d| jvp(&quat(p), &quat(d)),
        hvp: &|p, d| {
            let (y, g, h) = hvp(&quat(p), &quat(d));
            (y, scalars(&g), scalars(&h))
        },
    };
    checked(what, &scalar, &Q)
}

/// The harness's checks of `scalar` at `x`, and everything it computes there.
pub(crate) fn checked(what: &str, scalar: &Scalar, x: &[f64]) -> Vec<Vec<f64>> {
    let (v, w) = directions(x.len());
    scalar.check(what, x, &v, &w);
    let (y, g) = (scalar.grad)(x);
    let (_, d) = (scalar.jvp)(x, &v);
    let (_, _, hv) = (scalar.hvp)(x, &v);
    vec![vec![y, d], g, hv]
}

#[test]
fn calls_returning_a_struct_in_loops_stored_and_checkpointed() {
    of_quat("power_by_calls", power_by_calls, power_by_calls_grad)(&Q);
    of_quat("checkpointed", power_by_calls_checkpointed, power_by_calls_checkpointed_grad)(&Q);
    let checks = (
        power_by_calls_grad as PowGrad,
        power_by_calls_jvp as PowJvp,
        power_by_calls_hvp as PowHvp,
    );
    quat_checks("power_by_calls", power_by_calls, checks);
    let (v, _) = directions(4);
    // The checkpointed sweep is the stored one's, to the bit.
    let q = quat(&Q);
    let (a, b) = (power_by_calls_grad(&q), power_by_calls_checkpointed_grad(&q));
    assert_eq!(scalars(&a.1), scalars(&b.1));
    let (_, g, h) = power_by_calls_checkpointed_hvp(&q, &quat(&v));
    let (_, g2, h2) = power_by_calls_hvp(&q, &quat(&v));
    assert_eq!((scalars(&g), scalars(&h)), (scalars(&g2), scalars(&h2)));
    let angles = [0.3, -1.2, 2.0, 0.7];
    let x: Vec<f64> = Q.iter().chain(&angles).copied().collect();
    let scalar = Scalar {
        f: &|p| turns(&quat(p), a4(&p[4..])),
        grad: &|p| {
            let (y, (g, ga)) = turns_grad(&quat(p), a4(&p[4..]));
            (y, scalars(&g).into_iter().chain(ga).collect())
        },
        jvp: &|p, d| turns_jvp(&quat(p), a4(&p[4..]), &quat(d), a4(&d[4..])),
        hvp: &|p, d| {
            let (y, (g, ga), (h, ha)) = turns_hvp(&quat(p), a4(&p[4..]), &quat(d), a4(&d[4..]));
            (
                y,
                scalars(&g).into_iter().chain(ga).collect(),
                scalars(&h).into_iter().chain(ha).collect(),
            )
        },
    };
    let (v, w) = directions(8);
    scalar.check("turns", &x, &v, &w);
}

#[test]
fn hvp_of_functions_returning_a_struct_against_finite_differences_of_their_vjp() {
    let two = |p: &[f64]| (quat(p), quat(&p[4..]));
    let pair = |a: Quat, b: Quat| scalars(&a).into_iter().chain(scalars(&b)).collect::<Vec<_>>();
    let mul = Vector {
        g: &|p| scalars(&quat(p).mul(&quat(&p[4..]))),
        vjp: &|p, b| {
            let (a, o) = two(p);
            let (y, (ga, go)) = a.mul_vjp(&o, quat(b));
            (scalars(&y), pair(ga, go))
        },
        jvp: &|p, d| {
            let ((a, o), (da, dor)) = (two(p), two(d));
            let (y, dy) = a.mul_jvp(&o, &da, &dor);
            (scalars(&y), scalars(&dy))
        },
        hvp: &|p, b, d, bd| {
            let ((a, o), (da, dor)) = (two(p), two(d));
            let (y, (ga, go), dy, (ha, ho)) = a.mul_hvp(&o, quat(b), &da, &dor, quat(bd));
            [scalars(&y), pair(ga, go), scalars(&dy), pair(ha, ho)]
        },
    };
    let x: Vec<f64> = Q.iter().chain(&[-0.4, 1.1, 0.7, -0.6]).copied().collect();
    let (v, _) = directions(8);
    let (b, bd) = ([0.3, -1.0, 0.2, 0.9], [1.0, 0.5, -0.25, 0.1]);
    mul.check("mul", &x, &b, &v, &bd);
    let sandwich = Vector {
        g: &|p| scalars(&quat(p).sandwich(&quat(&p[4..]))),
        vjp: &|p, b| {
            let (a, o) = two(p);
            let (y, (ga, go)) = a.sandwich_vjp(&o, quat(b));
            (scalars(&y), pair(ga, go))
        },
        jvp: &|p, d| {
            let ((a, o), (da, dor)) = (two(p), two(d));
            let (y, dy) = a.sandwich_jvp(&o, &da, &dor);
            (scalars(&y), scalars(&dy))
        },
        hvp: &|p, b, d, bd| {
            let ((a, o), (da, dor)) = (two(p), two(d));
            let (y, (ga, go), dy, (ha, ho)) = a.sandwich_hvp(&o, quat(b), &da, &dor, quat(bd));
            [scalars(&y), pair(ga, go), scalars(&dy), pair(ha, ho)]
        },
    };
    sandwich.check("sandwich", &x, &b, &v, &bd);
    let twice = Vector {
        g: &|p| scalars(&quat(p).sandwich_twice(&quat(&p[4..]))),
        vjp: &|p, b| {
            let (a, o) = two(p);
            let (y, (ga, go)) = a.sandwich_twice_vjp(&o, quat(b));
            (scalars(&y), pair(ga, go))
        },
        jvp: &|p, d| {
            let ((a, o), (da, dor)) = (two(p), two(d));
            let (y, dy) = a.sandwich_twice_jvp(&o, &da, &dor);
            (scalars(&y), scalars(&dy))
        },
        hvp: &|p, b, d, bd| {
            let ((a, o), (da, dor)) = (two(p), two(d));
            let (y, (ga, go), dy, (ha, ho)) =
                a.sandwich_twice_hvp(&o, quat(b), &da, &dor, quat(bd));
            [scalars(&y), pair(ga, go), scalars(&dy), pair(ha, ho)]
        },
    };
    twice.check("sandwich_twice", &x, &b, &v, &bd);
    // Two sandwiches by a unit quaternion rotate twice: against the rotation matrix applied twice.
    let (u, p) = (quat(&Q).normalized(), Quat { w: 0.0, x: V[0], y: V[1], z: V[2] });
    let r = u.sandwich_twice(&p);
    close("twice", &[r.x, r.y, r.z], &rotated(&u, rotated(&u, V)), 1e-14);
    let normalized = Vector {
        g: &|p| scalars(&quat(p).normalized()),
        vjp: &|p, b| {
            let (y, g) = quat(p).normalized_vjp(quat(b));
            (scalars(&y), scalars(&g))
        },
        jvp: &|p, d| {
            let (y, dy) = quat(p).normalized_jvp(&quat(d));
            (scalars(&y), scalars(&dy))
        },
        hvp: &|p, b, d, bd| {
            let (y, g, dy, h) = quat(p).normalized_hvp(quat(b), &quat(d), quat(bd));
            [scalars(&y), scalars(&g), scalars(&dy), scalars(&h)]
        },
    };
    normalized.check("normalized", &Q, &b, &v[..4], &bd);
    // The Jacobian of `sandwich` (a function returning a struct through calls returning one).
    let (q, p) = two(&x);
    let (value, j) = q.sandwich_jacobian(&p);
    assert_eq!(value, q.sandwich(&p));
    for (i, row) in j.iter().enumerate() {
        let f = |z: &[f64]| scalars(&quat(z).sandwich(&quat(&z[4..])))[i];
        close("sandwich Jacobian", row, &numeric_gradient(f, &x), 1e-7);
    }
}
