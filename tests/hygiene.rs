//! Hygiene corpus derivatives against closed forms and finite differences.

use autodiff_runtime::{Tolerance, check_close, check_gradient, check_hvp};
use autodiff_suite::hygiene::shadowed_prelude::{
    spring, spring_grad, spring_hessian, spring_hvp, spring_jvp, weighted, weighted_grad,
    weighted_hessian, weighted_hvp, weighted_jvp,
};
use autodiff_suite::hygiene::{
    adjoint_params, adjoint_params_grad, adjoint_params_hessian, adjoint_params_hvp,
    adjoint_params_jvp, bar_names, bar_names_grad, bar_names_hessian, bar_names_hvp, bar_names_jvp,
    direction_names, direction_names_grad, direction_names_hessian, direction_names_hvp,
    direction_names_jvp, dot_names, dot_names_grad, dot_names_hessian, dot_names_hvp,
    dot_names_jvp, hessian, hessian_grad, hessian_hessian, hessian_hvp, hessian_jvp, single,
    single_grad, single_hessian, single_hvp, single_jvp, temp_names, temp_names_grad,
    temp_names_hessian, temp_names_hvp, temp_names_jvp, wave, wave_grad, wave_hessian, wave_hvp,
    wave_jvp,
};
use autodiff_suite::hygiene::{
    index_shadows_parameter, index_shadows_parameter_grad, index_shadows_parameter_hessian,
    index_shadows_parameter_hvp, index_shadows_parameter_jvp, let_shadows_index,
    let_shadows_index_grad, let_shadows_index_hessian, let_shadows_index_hvp,
    let_shadows_index_jvp, let_shadows_parameter, let_shadows_parameter_grad,
    let_shadows_parameter_hessian, let_shadows_parameter_hvp, let_shadows_parameter_jvp,
    local_named_like_index, local_named_like_index_grad, local_named_like_index_hessian,
    local_named_like_index_hvp, local_named_like_index_jvp, nested_index_shadows_outer,
    nested_index_shadows_outer_grad, nested_index_shadows_outer_hessian,
    nested_index_shadows_outer_hvp, nested_index_shadows_outer_jvp,
};

/// Finite differences against analytic derivatives.
const FD: Tolerance = Tolerance { epsilon: 1e-6, max_relative: 1e-6 };
/// Generated derivatives against closed forms: equal up to rounding.
const EXACT: Tolerance = Tolerance { epsilon: 1e-12, max_relative: 1e-10 };

/// Points with a positive second coordinate, inside the domain of every function here.
const POINTS: [[f64; 2]; 4] = [[0.7, 1.2], [1.9, 0.4], [-0.6, 1.3], [-1.1, 0.8]];
const DIRECTIONS: [[f64; 2]; 3] = [[1.0, 0.0], [0.0, 1.0], [0.6, -1.4]];

/// What `f_hvp` of a function of two parameters returns: value, gradient, H·v.
type Hvp2 = (f64, (f64, f64), (f64, f64));

/// A function of two parameters and its generated derivatives.
struct Binary {
    name: &'static str,
    f: fn(f64, f64) -> f64,
    grad: fn(f64, f64) -> (f64, (f64, f64)),
    jvp: fn(f64, f64, f64, f64) -> (f64, f64),
    hvp: fn(f64, f64, f64, f64) -> Hvp2,
    hessian: fn(f64, f64) -> [[f64; 2]; 2],
}

/// The [`Binary`] of a function and its generated derivatives.
macro_rules! binary {
    ($f:path, $grad:path, $jvp:path, $hvp:path, $hessian:path) => {
        Binary { name: stringify!($f), f: $f, grad: $grad, jvp: $jvp, hvp: $hvp, hessian: $hessian }
    };
}

fn assert_close(what: &str, actual: &[f64], expected: &[f64], tol: Tolerance) {
    if let Err(mismatch) = check_close(actual, expected, tol) {
        panic!("{what}: {mismatch}");
    }
}

/// `h·v` for a square matrix given as rows.
fn mat_vec<const N: usize>(h: [[f64; N]; N], v: &[f64]) -> Vec<f64> {
    h.iter().map(|row| row.iter().zip(v).map(|(a, b)| a * b).sum()).collect()
}

impl Binary {
    /// Every generated derivative at every point against the closed forms of the gradient and
    /// the Hessian, and the gradient and HVP also against finite differences.
    fn check(
        &self,
        closed_grad: impl Fn(f64, f64) -> [f64; 2],
        closed_hessian: impl Fn(f64, f64) -> [[f64; 2]; 2],
    ) {
        for [x, y] in POINTS {
            let what = format!("{} at ({x}, {y})", self.name);
            let (value, (gx, gy)) = (self.grad)(x, y);
            assert!(EXACT.agree(value, (self.f)(x, y)), "{what}: value");
            assert_close(&format!("{what}: gradient"), &[gx, gy], &closed_grad(x, y), EXACT);
            let f = |p: &[f64]| (self.f)(p[0], p[1]);
            assert_eq!(check_gradient(f, &[x, y], &[gx, gy], FD), Ok(()), "{what}");
            let closed_hessian = closed_hessian(x, y);
            let hessian = (self.hessian)(x, y);
            assert_close(
                &format!("{what}: hessian"),
                &hessian.concat(),
                &closed_hessian.concat(),
                EXACT,
            );
            for [vx, vy] in DIRECTIONS {
                let (jvp_value, jvp) = (self.jvp)(x, y, vx, vy);
                assert!(EXACT.agree(jvp_value, value), "{what}: jvp value");
                assert!(EXACT.agree(jvp, gx * vx + gy * vy), "{what}: jvp along ({vx}, {vy})");
                let (hvp_value, (hgx, hgy), (hx, hy)) = (self.hvp)(x, y, vx, vy);
                assert!(EXACT.agree(hvp_value, value), "{what}: hvp value");
                assert_close(&format!("{what}: hvp gradient"), &[hgx, hgy], &[gx, gy], EXACT);
                let expected = mat_vec(closed_hessian, &[vx, vy]);
                assert_close(
                    &format!("{what}: hvp along ({vx}, {vy})"),
                    &[hx, hy],
                    &expected,
                    EXACT,
                );
                let grad = |p: &[f64]| {
                    let (_, (a, b)) = (self.grad)(p[0], p[1]);
                    vec![a, b]
                };
                assert_eq!(check_hvp(grad, &[x, y], &[vx, vy], &[hx, hy], FD), Ok(()), "{what}");
            }
        }
    }
}

#[test]
fn locals_named_like_adjoints_and_tangents() {
    // f = p (A² - S), S = sin(xp), C = cos(xp), A = S + x
    binary!(bar_names, bar_names_grad, bar_names_jvp, bar_names_hvp, bar_names_hessian).check(
        |x, p| {
            let (s, c) = (x * p).sin_cos();
            let a = s + x;
            [2.0 * p * a * (p * c + 1.0) - p * p * c, a * a - s + p * x * c * (2.0 * a - 1.0)]
        },
        |x, p| {
            let (s, c) = (x * p).sin_cos();
            let a = s + x;
            let xx = 2.0 * p * ((p * c + 1.0).powi(2) - p * p * a * s) + p.powi(3) * s;
            let xp = 2.0 * a * (p * c + 1.0)
                + 2.0 * p * (x * c * (p * c + 1.0) + a * (c - p * x * s))
                - 2.0 * p * c
                + p * p * x * s;
            let pp = 2.0 * x * c * (2.0 * a - 1.0) - p * x * x * s * (2.0 * a - 1.0)
                + 2.0 * p * x * x * c * c;
            [[xx, xp], [xp, pp]]
        },
    );
}

#[test]
fn a_parameter_named_like_an_adjoint() {
    // f = x e^(xy) + y²
    binary!(
        adjoint_params,
        adjoint_params_grad,
        adjoint_params_jvp,
        adjoint_params_hvp,
        adjoint_params_hessian
    )
    .check(
        |x, y| {
            let e = (x * y).exp();
            [(1.0 + x * y) * e, x * x * e + 2.0 * y]
        },
        |x, y| {
            let e = (x * y).exp();
            let xy = (2.0 * x + x * x * y) * e;
            [[(2.0 * y + x * y * y) * e, xy], [xy, x.powi(3) * e + 2.0]]
        },
    );
}

#[test]
fn names_of_temporaries_and_outputs() {
    // f = (E + a) b + E, E = e^(ab)
    binary!(temp_names, temp_names_grad, temp_names_jvp, temp_names_hvp, temp_names_hessian).check(
        |a, b| {
            let e = (a * b).exp();
            [b * b * e + b + b * e, a * b * e + e + a + a * e]
        },
        |a, b| {
            let e = (a * b).exp();
            let ab = 2.0 * b * e + a * b * b * e + 1.0 + e + a * b * e;
            [[b.powi(3) * e + b * b * e, ab], [ab, 2.0 * a * e + a * a * b * e + a * a * e]]
        },
    );
}

#[test]
fn a_parameter_named_like_a_direction() {
    // f = x cos y + x² y²
    binary!(dot_names, dot_names_grad, dot_names_jvp, dot_names_hvp, dot_names_hessian).check(
        |x, y| [y.cos() + 2.0 * x * y * y, -x * y.sin() + 2.0 * x * x * y],
        |x, y| {
            let xy = -y.sin() + 4.0 * x * y;
            [[2.0 * y * y, xy], [xy, -x * y.cos() + 2.0 * x * x]]
        },
    );
}

#[test]
fn parameters_named_like_the_generated_functions() {
    // f = cos(ab) + a²
    binary!(wave, wave_grad, wave_jvp, wave_hvp, wave_hessian).check(
        |a, b| {
            let s = (a * b).sin();
            [-b * s + 2.0 * a, -a * s]
        },
        |a, b| {
            let (s, c) = (a * b).sin_cos();
            let ab = -s - a * b * c;
            [[-b * b * c + 2.0, ab], [ab, -a * a * c]]
        },
    );
}

#[test]
fn a_function_named_hessian_with_parameters_grad_and_hessian() {
    // f = a² e^b - b
    binary!(hessian, hessian_grad, hessian_jvp, hessian_hvp, hessian_hessian).check(
        |a, b| [2.0 * a * b.exp(), a * a * b.exp() - 1.0],
        |a, b| {
            let e = b.exp();
            [[2.0 * e, 2.0 * a * e], [2.0 * a * e, a * a * e]]
        },
    );
}

#[test]
fn a_shadowed_prelude_and_shadowed_crate_roots() {
    // f = k (x - 1)² / 2 + sin(x) √k
    binary!(spring, spring_grad, spring_jvp, spring_hvp, spring_hessian).check(
        |x, k| {
            [
                k * (x - 1.0) + x.cos() * k.sqrt(),
                0.5 * (x - 1.0).powi(2) + x.sin() / (2.0 * k.sqrt()),
            ]
        },
        |x, k| {
            let xk = (x - 1.0) + x.cos() / (2.0 * k.sqrt());
            [[k - x.sin() * k.sqrt(), xk], [xk, -x.sin() / (4.0 * k.powf(1.5))]]
        },
    );
}

#[test]
fn parameters_and_locals_named_like_hessian_loop_variables() {
    // f = (v i + sin row) row + e^v
    for [v, i, row] in [[0.4_f64, -1.3, 0.9], [-0.8, 0.6, 2.1]] {
        let closed_grad = [i * row + v.exp(), v * row, row.cos() * row + v * i + row.sin()];
        let closed_hessian =
            [[v.exp(), row, i], [row, 0.0, v], [i, v, 2.0 * row.cos() - row * row.sin()]];
        let (value, (gv, gi, grow)) = direction_names_grad(v, i, row);
        assert!(EXACT.agree(value, direction_names(v, i, row)));
        assert_close("gradient", &[gv, gi, grow], &closed_grad, EXACT);
        let f = |p: &[f64]| direction_names(p[0], p[1], p[2]);
        assert_eq!(check_gradient(f, &[v, i, row], &closed_grad, FD), Ok(()));
        let hessian = direction_names_hessian(v, i, row);
        assert_close("hessian", &hessian.concat(), &closed_hessian.concat(), EXACT);
        for d in [[1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.5, -0.7, 1.1]] {
            let (_, jvp) = direction_names_jvp(v, i, row, d[0], d[1], d[2]);
            assert!(EXACT.agree(jvp, gv * d[0] + gi * d[1] + grow * d[2]));
            let (_, grad, (hv, hi, hrow)) = direction_names_hvp(v, i, row, d[0], d[1], d[2]);
            assert_close("hvp gradient", &[grad.0, grad.1, grad.2], &[gv, gi, grow], EXACT);
            assert_close("hvp", &[hv, hi, hrow], &mat_vec(closed_hessian, &d), EXACT);
        }
    }
}

#[test]
fn a_single_parameter_named_out() {
    // f = o (ln(1 + o²) + sin o)
    for o in [0.3_f64, -1.7, 2.4] {
        let q = 1.0 + o * o;
        let d1 = q.ln() + o.sin() + o * (2.0 * o / q + o.cos());
        let d2 = 4.0 * o / q + 2.0 * o.cos() + o * (2.0 * (1.0 - o * o) / (q * q) - o.sin());
        let (value, grad) = single_grad(o);
        assert!(EXACT.agree(value, single(o)));
        assert!(EXACT.agree(grad, d1), "{grad} vs {d1}");
        assert_eq!(check_gradient(|p: &[f64]| single(p[0]), &[o], &[grad], FD), Ok(()));
        let (_, jvp) = single_jvp(o, -2.5);
        assert!(EXACT.agree(jvp, -2.5 * d1));
        let (hvp_value, hvp_grad, hv) = single_hvp(o, -2.5);
        assert!(EXACT.agree(hvp_value, value) && EXACT.agree(hvp_grad, grad));
        assert!(EXACT.agree(hv, -2.5 * d2), "{hv} vs {}", -2.5 * d2);
        let [[h]] = single_hessian(o);
        assert!(EXACT.agree(h, d2), "{h} vs {d2}");
    }
}

#[test]
fn a_single_differentiated_parameter_next_to_a_slice_in_a_shadowed_prelude() {
    // f = w0 e^x + w1 x²
    let w = [0.7, -1.5];
    for x in [0.2_f64, -0.9, 1.6] {
        let d1 = w[0] * x.exp() + 2.0 * w[1] * x;
        let d2 = w[0] * x.exp() + 2.0 * w[1];
        let (value, grad) = weighted_grad(x, &w);
        assert!(EXACT.agree(value, weighted(x, &w)));
        assert!(EXACT.agree(grad, d1), "{grad} vs {d1}");
        assert_eq!(check_gradient(|p: &[f64]| weighted(p[0], &w), &[x], &[grad], FD), Ok(()));
        let (_, jvp) = weighted_jvp(x, &w, 0.5);
        assert!(EXACT.agree(jvp, 0.5 * d1));
        let (_, _, hv) = weighted_hvp(x, &w, 0.5);
        assert!(EXACT.agree(hv, 0.5 * d2));
        let [[h]] = weighted_hessian(x, &w);
        assert!(EXACT.agree(h, d2), "{h} vs {d2}");
    }
}

/// What a flattened `f_hvp` returns: value, gradient, H·v.
type FlatHvp = (f64, Vec<f64>, Vec<f64>);
/// A closed form of the gradient of a function of four scalars.
type ClosedGrad<'a> = &'a dyn Fn(&[f64]) -> [f64; 4];
/// A closed form of its Hessian.
type ClosedHessian<'a> = &'a dyn Fn(&[f64]) -> [[f64; 4]; 4];

/// A function of four scalars (its parameters flattened) and its generated derivatives,
/// flattened too.
struct Four {
    name: &'static str,
    f: fn(&[f64]) -> f64,
    grad: fn(&[f64]) -> (f64, Vec<f64>),
    jvp: fn(&[f64], &[f64]) -> (f64, f64),
    hvp: fn(&[f64], &[f64]) -> FlatHvp,
    hessian: fn(&[f64]) -> [[f64; 4]; 4],
}

impl Four {
    /// Every generated derivative at `points` against the closed forms of the gradient and the
    /// Hessian when given (else against finite differences and symmetry), and the gradient and
    /// H·v against finite differences.
    fn check(
        &self,
        points: &[[f64; 4]],
        closed_grad: Option<ClosedGrad>,
        closed_hessian: Option<ClosedHessian>,
    ) {
        for p in points {
            let what = format!("{} at {p:?}", self.name);
            let (value, g) = (self.grad)(p);
            assert!(EXACT.agree(value, (self.f)(p)), "{what}: value");
            if let Some(closed) = closed_grad {
                assert_close(&format!("{what}: gradient"), &g, &closed(p), EXACT);
            }
            assert_eq!(check_gradient(self.f, p, &g, FD), Ok(()), "{what}");
            let h = (self.hessian)(p);
            match closed_hessian {
                Some(closed) => assert_close(
                    &format!("{what}: hessian"),
                    &h.concat(),
                    &closed(p).concat(),
                    EXACT,
                ),
                None => {
                    let transposed: Vec<f64> = (0..16).map(|k| h[k % 4][k / 4]).collect();
                    assert_close(&format!("{what}: symmetry"), &h.concat(), &transposed, EXACT);
                }
            }
            for v in [[1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0], [0.5, -0.7, 1.1, 0.3]] {
                let (jvp_value, slope) = (self.jvp)(p, &v);
                let dot: f64 = g.iter().zip(&v).map(|(a, b)| a * b).sum();
                assert!(EXACT.agree(jvp_value, value) && EXACT.agree(slope, dot), "{what}: jvp");
                let (_, hvp_grad, hv) = (self.hvp)(p, &v);
                assert_close(&format!("{what}: hvp gradient"), &hvp_grad, &g, EXACT);
                assert_close(&format!("{what}: hvp"), &hv, &mat_vec(h, &v), EXACT);
                let grad = |q: &[f64]| (self.grad)(q).1;
                assert_eq!(check_hvp(grad, p, &v, &hv, FD), Ok(()), "{what}");
            }
        }
    }
}

fn three(p: &[f64]) -> [f64; 3] {
    [p[0], p[1], p[2]]
}

fn two_by_two(p: &[f64]) -> [[f64; 2]; 2] {
    [[p[0], p[1]], [p[2], p[3]]]
}

const POINTS4: [[f64; 4]; 3] =
    [[0.7, -1.2, 0.4, 1.3], [1.9, 0.4, -0.6, 0.8], [-0.3, 1.1, 0.9, -1.4]];

#[test]
fn a_loop_index_shadowing_an_f64_parameter() {
    // f = i·Σ (k+1) xₖ + i²: ∂/∂xₖ = (k+1) i, ∂/∂i = Σ (k+1) xₖ + 2i.
    let s = |p: &[f64]| p[0] + 2.0 * p[1] + 3.0 * p[2];
    Four {
        name: "index_shadows_parameter",
        f: |p| index_shadows_parameter(three(p), p[3]),
        grad: |p| {
            let (v, (gx, gi)) = index_shadows_parameter_grad(three(p), p[3]);
            (v, vec![gx[0], gx[1], gx[2], gi])
        },
        jvp: |p, v| index_shadows_parameter_jvp(three(p), p[3], three(v), v[3]),
        hvp: |p, v| {
            let (value, (gx, gi), (hx, hi)) =
                index_shadows_parameter_hvp(three(p), p[3], three(v), v[3]);
            (value, vec![gx[0], gx[1], gx[2], gi], vec![hx[0], hx[1], hx[2], hi])
        },
        hessian: |p| index_shadows_parameter_hessian(three(p), p[3]),
    }
    .check(
        &POINTS4,
        Some(&|p| [p[3], 2.0 * p[3], 3.0 * p[3], s(p) + 2.0 * p[3]]),
        Some(&|_| {
            [[0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 0.0, 2.0], [0.0, 0.0, 0.0, 3.0], [1.0, 2.0, 3.0, 2.0]]
        }),
    );
}

#[test]
fn lets_shadowing_a_loop_index_and_a_parameter() {
    // f = Σ ((k+2) xₖ)²: ∂/∂xₖ = 2 (k+2)² xₖ (the fourth scalar is not a parameter: 0).
    let c = [4.0, 9.0, 16.0];
    Four {
        name: "let_shadows_index",
        f: |p| let_shadows_index(three(p)),
        grad: |p| {
            let (v, g) = let_shadows_index_grad(three(p));
            (v, vec![g[0], g[1], g[2], 0.0])
        },
        jvp: |p, v| let_shadows_index_jvp(three(p), three(v)),
        hvp: |p, v| {
            let (value, g, h) = let_shadows_index_hvp(three(p), three(v));
            (value, vec![g[0], g[1], g[2], 0.0], vec![h[0], h[1], h[2], 0.0])
        },
        hessian: |p| {
            let h = let_shadows_index_hessian(three(p));
            let row = |k: usize| [h[k][0], h[k][1], h[k][2], 0.0];
            [row(0), row(1), row(2), [0.0; 4]]
        },
    }
    .check(
        &POINTS4,
        Some(&|p| [2.0 * c[0] * p[0], 2.0 * c[1] * p[1], 2.0 * c[2] * p[2], 0.0]),
        Some(&|_| {
            let mut h = [[0.0; 4]; 4];
            for k in 0..3 {
                h[k][k] = 2.0 * c[k];
            }
            h
        }),
    );
    // f = y² Σ xₖ² + y: ∂/∂xₖ = 2y² xₖ, ∂/∂y = 2y Σ xₖ² + 1.
    let q = |p: &[f64]| p[0] * p[0] + p[1] * p[1] + p[2] * p[2];
    Four {
        name: "let_shadows_parameter",
        f: |p| let_shadows_parameter(three(p), p[3]),
        grad: |p| {
            let (v, (gx, gy)) = let_shadows_parameter_grad(three(p), p[3]);
            (v, vec![gx[0], gx[1], gx[2], gy])
        },
        jvp: |p, v| let_shadows_parameter_jvp(three(p), p[3], three(v), v[3]),
        hvp: |p, v| {
            let (value, (gx, gy), (hx, hy)) =
                let_shadows_parameter_hvp(three(p), p[3], three(v), v[3]);
            (value, vec![gx[0], gx[1], gx[2], gy], vec![hx[0], hx[1], hx[2], hy])
        },
        hessian: |p| let_shadows_parameter_hessian(three(p), p[3]),
    }
    .check(
        &POINTS4,
        Some(&|p| {
            let y2 = 2.0 * p[3] * p[3];
            [y2 * p[0], y2 * p[1], y2 * p[2], 2.0 * p[3] * q(p) + 1.0]
        }),
        Some(&|p| {
            let (y, y2) = (p[3], 2.0 * p[3] * p[3]);
            [
                [y2, 0.0, 0.0, 4.0 * y * p[0]],
                [0.0, y2, 0.0, 4.0 * y * p[1]],
                [0.0, 0.0, y2, 4.0 * y * p[2]],
                [4.0 * y * p[0], 4.0 * y * p[1], 4.0 * y * p[2], 2.0 * q(p)],
            ]
        }),
    );
}

#[test]
fn a_nested_loop_index_shadowing_the_outer_one() {
    // f = (x₀₀ + x₁₀)(x₀₀ + x₁₁), flattened as (x₀₀, x₀₁, x₁₀, x₁₁).
    Four {
        name: "nested_index_shadows_outer",
        f: |p| nested_index_shadows_outer(two_by_two(p)),
        grad: |p| {
            let (v, g) = nested_index_shadows_outer_grad(two_by_two(p));
            (v, g.concat())
        },
        jvp: |p, v| nested_index_shadows_outer_jvp(two_by_two(p), two_by_two(v)),
        hvp: |p, v| {
            let (value, g, h) = nested_index_shadows_outer_hvp(two_by_two(p), two_by_two(v));
            (value, g.concat(), h.concat())
        },
        hessian: |p| nested_index_shadows_outer_hessian(two_by_two(p)),
    }
    .check(
        &POINTS4,
        Some(&|p| {
            let (a, b) = (p[0] + p[2], p[0] + p[3]);
            [a + b, 0.0, b, a]
        }),
        Some(&|_| [[2.0, 0.0, 1.0, 1.0], [0.0; 4], [1.0, 0.0, 0.0, 1.0], [1.0, 0.0, 1.0, 0.0]]),
    );
}

#[test]
fn a_local_named_like_a_later_loop_index() {
    // f = x₀x₁·s with s ← s + xₖ cos s from 0: against finite differences and symmetry.
    Four {
        name: "local_named_like_index",
        f: |p| local_named_like_index(three(p)),
        grad: |p| {
            let (v, g) = local_named_like_index_grad(three(p));
            (v, vec![g[0], g[1], g[2], 0.0])
        },
        jvp: |p, v| local_named_like_index_jvp(three(p), three(v)),
        hvp: |p, v| {
            let (value, g, h) = local_named_like_index_hvp(three(p), three(v));
            (value, vec![g[0], g[1], g[2], 0.0], vec![h[0], h[1], h[2], 0.0])
        },
        hessian: |p| {
            let h = local_named_like_index_hessian(three(p));
            let row = |k: usize| [h[k][0], h[k][1], h[k][2], 0.0];
            [row(0), row(1), row(2), [0.0; 4]]
        },
    }
    .check(&POINTS4, None, None);
}
