//! The documented conventions at non-differentiable points, identical in `_grad`, `_jvp` and
//! `_hvp`, and the property `_jvp(x, v) = _grad(x)·v` over grids and random points.

use autodiff_suite::methods::*;
use proptest::prelude::*;

/// Equal, counting NaN as equal to NaN (a documented NaN partial must be NaN everywhere).
fn same(a: f64, b: f64) -> bool {
    a == b || (a.is_nan() && b.is_nan())
}

/// Whether `jvp` is `Σ gᵢvᵢ` up to a few ulps of rounding, relative to the size of the terms.
fn is_dot(jvp: f64, g: &[f64], v: &[f64]) -> bool {
    let terms: Vec<f64> = g.iter().zip(v).map(|(gi, vi)| gi * vi).collect();
    let scale: f64 = terms.iter().map(|t| t.abs()).sum();
    same(jvp, terms.iter().sum())
        || (jvp - terms.iter().sum::<f64>()).abs() <= 8.0 * f64::EPSILON * scale
}

/// A one-parameter corpus function with its generated `_grad`, `_jvp` and `_hvp`.
#[derive(Clone, Copy)]
struct Unary {
    name: &'static str,
    f: fn(f64) -> f64,
    grad: fn(f64) -> (f64, f64),
    jvp: fn(f64, f64) -> (f64, f64),
    hvp: fn(f64, f64) -> (f64, f64, f64),
}

/// `unary!(f, f_grad, f_jvp, f_hvp)`.
macro_rules! unary {
    ($f:ident, $grad:ident, $jvp:ident, $hvp:ident) => {
        Unary { name: stringify!($f), f: $f, grad: $grad, jvp: $jvp, hvp: $hvp }
    };
}

impl Unary {
    /// Asserts the derivative at `x` is `d` in `_grad`, `_jvp` and `_hvp` alike, and that `H·v`
    /// is `h·v` when `h` is given.
    fn expect(&self, x: f64, d: f64, h: Option<f64>) {
        let (name, value) = (self.name, (self.f)(x));
        let (grad_value, grad) = (self.grad)(x);
        assert!(same(grad_value, value) && same(grad, d), "{name}_grad({x:?}) = {grad}, not {d}");
        for v in [1.0, -2.5] {
            let (jvp_value, jvp) = (self.jvp)(x, v);
            assert!(same(jvp_value, value) && same(jvp, d * v), "{name}_jvp({x:?}, {v}) = {jvp}");
            let (hvp_value, hvp_grad, hv) = (self.hvp)(x, v);
            assert!(same(hvp_value, value) && same(hvp_grad, d), "{name}_hvp({x:?}) gradient");
            if let Some(h) = h {
                assert!(same(hv, h * v), "{name}_hvp({x:?}, {v}): H·v = {hv}, not {}", h * v);
            }
        }
    }

    /// Where the value and gradient are finite: `_jvp = _grad·v` and `_hvp`'s first parts are
    /// `_grad`'s.
    fn assert_consistent(&self, x: f64, v: f64) {
        let (value, d) = (self.grad)(x);
        if !value.is_finite() || !d.is_finite() {
            return;
        }
        let (jvp_value, jvp) = (self.jvp)(x, v);
        assert_eq!(jvp_value, value, "{}_jvp value at {x:?}", self.name);
        assert!(is_dot(jvp, &[d], &[v]), "{}_jvp({x:?}, {v}) = {jvp}, not {}", self.name, d * v);
        let (hvp_value, hvp_grad, _) = (self.hvp)(x, v);
        assert_eq!((hvp_value, hvp_grad), (value, d), "{}_hvp at {x:?}", self.name);
    }
}

/// A value with a gradient of two partials, or a pair of partials.
type Pair = (f64, f64);

/// A two-parameter corpus function with its generated `_grad`, `_jvp` and `_hvp`.
#[derive(Clone, Copy)]
struct Binary {
    name: &'static str,
    f: fn(f64, f64) -> f64,
    grad: fn(f64, f64) -> (f64, Pair),
    jvp: fn(f64, f64, f64, f64) -> Pair,
    hvp: fn(f64, f64, f64, f64) -> (f64, Pair, Pair),
}

/// `binary!(f, f_grad, f_jvp, f_hvp)`.
macro_rules! binary {
    ($f:ident, $grad:ident, $jvp:ident, $hvp:ident) => {
        Binary { name: stringify!($f), f: $f, grad: $grad, jvp: $jvp, hvp: $hvp }
    };
}

impl Binary {
    /// Asserts the gradient at `(a, b)` is `d` in `_grad`, `_jvp` and `_hvp` alike, and that
    /// `H·v` is `h·v` when `h` is given. A NaN partial meeting a zero direction is not checked.
    fn expect(&self, (a, b): (f64, f64), d: [f64; 2], h: Option<[[f64; 2]; 2]>) {
        let (name, value) = (self.name, (self.f)(a, b));
        let (grad_value, (da, db)) = (self.grad)(a, b);
        let grad_ok = same(grad_value, value) && same(da, d[0]) && same(db, d[1]);
        assert!(grad_ok, "{name}_grad({a:?}, {b:?}) = ({da}, {db}), not {d:?}");
        for v in [[1.0, 0.0], [0.0, 1.0], [0.5, -2.0]] {
            if !d.iter().zip(v).any(|(di, vi)| di.is_nan() && vi == 0.0) {
                let (jvp_value, jvp) = (self.jvp)(a, b, v[0], v[1]);
                let want = d[0] * v[0] + d[1] * v[1];
                let jvp_ok = same(jvp_value, value) && same(jvp, want);
                assert!(jvp_ok, "{name}_jvp({a:?}, {b:?}, {v:?}) = {jvp}, not {want}");
            }
            let (hvp_value, (ha, hb), hv) = (self.hvp)(a, b, v[0], v[1]);
            let hvp_ok = same(hvp_value, value) && same(ha, d[0]) && same(hb, d[1]);
            assert!(hvp_ok, "{name}_hvp({a:?}, {b:?}) gradient ({ha}, {hb}), not {d:?}");
            if let Some([h0, h1]) = h {
                let want = (h0[0] * v[0] + h0[1] * v[1], h1[0] * v[0] + h1[1] * v[1]);
                assert!(same(hv.0, want.0) && same(hv.1, want.1), "{name}_hvp H·v = {hv:?}");
            }
        }
    }

    /// Where the value and gradient are finite: `_jvp = _grad·v` and `_hvp`'s first parts are
    /// `_grad`'s.
    fn assert_consistent(&self, (a, b): (f64, f64), v: [f64; 2]) {
        let (value, (da, db)) = (self.grad)(a, b);
        if !(value.is_finite() && da.is_finite() && db.is_finite()) {
            return;
        }
        let (jvp_value, jvp) = (self.jvp)(a, b, v[0], v[1]);
        assert_eq!(jvp_value, value, "{}_jvp value at ({a:?}, {b:?})", self.name);
        let ok = is_dot(jvp, &[da, db], &v);
        assert!(
            ok,
            "{}_jvp({a:?}, {b:?}, {v:?}) = {jvp}, not ∇·v with ∇ = ({da}, {db})",
            self.name
        );
        let (hvp_value, hvp_grad, _) = (self.hvp)(a, b, v[0], v[1]);
        assert_eq!((hvp_value, hvp_grad), (value, (da, db)), "{}_hvp at ({a:?}, {b:?})", self.name);
    }
}

const ABS: Unary = unary!(m_abs, m_abs_grad, m_abs_jvp, m_abs_hvp);
const SQRT: Unary = unary!(m_sqrt, m_sqrt_grad, m_sqrt_jvp, m_sqrt_hvp);
const RELU: Unary = unary!(m_relu, m_relu_grad, m_relu_jvp, m_relu_hvp);
const POWI_0: Unary = unary!(m_powi_0, m_powi_0_grad, m_powi_0_jvp, m_powi_0_hvp);
const POWF_LIT: Unary = unary!(m_powf_lit, m_powf_lit_grad, m_powf_lit_jvp, m_powf_lit_hvp);
const STEPS: [Unary; 5] = [
    unary!(m_signum, m_signum_grad, m_signum_jvp, m_signum_hvp),
    unary!(m_floor, m_floor_grad, m_floor_jvp, m_floor_hvp),
    unary!(m_ceil, m_ceil_grad, m_ceil_jvp, m_ceil_hvp),
    unary!(m_round, m_round_grad, m_round_jvp, m_round_hvp),
    unary!(m_trunc, m_trunc_grad, m_trunc_jvp, m_trunc_hvp),
];
const MIN: Binary = binary!(m_min, m_min_grad, m_min_jvp, m_min_hvp);
const MAX: Binary = binary!(m_max, m_max_grad, m_max_jvp, m_max_hvp);
const HYPOT: Binary = binary!(m_hypot, m_hypot_grad, m_hypot_jvp, m_hypot_hvp);
const POWF: Binary = binary!(m_powf, m_powf_grad, m_powf_jvp, m_powf_hvp);

/// Every one-parameter method, for the `_jvp = _grad·v` property.
const UNARY: [Unary; 35] = [
    ABS,
    SQRT,
    RELU,
    POWI_0,
    POWF_LIT,
    STEPS[0],
    STEPS[1],
    STEPS[2],
    STEPS[3],
    STEPS[4],
    unary!(m_sin, m_sin_grad, m_sin_jvp, m_sin_hvp),
    unary!(m_ufcs_sin, m_ufcs_sin_grad, m_ufcs_sin_jvp, m_ufcs_sin_hvp),
    unary!(m_cos, m_cos_grad, m_cos_jvp, m_cos_hvp),
    unary!(m_tan, m_tan_grad, m_tan_jvp, m_tan_hvp),
    unary!(m_asin, m_asin_grad, m_asin_jvp, m_asin_hvp),
    unary!(m_acos, m_acos_grad, m_acos_jvp, m_acos_hvp),
    unary!(m_atan, m_atan_grad, m_atan_jvp, m_atan_hvp),
    unary!(m_sinh, m_sinh_grad, m_sinh_jvp, m_sinh_hvp),
    unary!(m_cosh, m_cosh_grad, m_cosh_jvp, m_cosh_hvp),
    unary!(m_tanh, m_tanh_grad, m_tanh_jvp, m_tanh_hvp),
    unary!(m_asinh, m_asinh_grad, m_asinh_jvp, m_asinh_hvp),
    unary!(m_acosh, m_acosh_grad, m_acosh_jvp, m_acosh_hvp),
    unary!(m_atanh, m_atanh_grad, m_atanh_jvp, m_atanh_hvp),
    unary!(m_exp, m_exp_grad, m_exp_jvp, m_exp_hvp),
    unary!(m_exp2, m_exp2_grad, m_exp2_jvp, m_exp2_hvp),
    unary!(m_exp_m1, m_exp_m1_grad, m_exp_m1_jvp, m_exp_m1_hvp),
    unary!(m_ln, m_ln_grad, m_ln_jvp, m_ln_hvp),
    unary!(m_ln_1p, m_ln_1p_grad, m_ln_1p_jvp, m_ln_1p_hvp),
    unary!(m_log2, m_log2_grad, m_log2_jvp, m_log2_hvp),
    unary!(m_log10, m_log10_grad, m_log10_jvp, m_log10_hvp),
    unary!(m_cbrt, m_cbrt_grad, m_cbrt_jvp, m_cbrt_hvp),
    unary!(m_powi_3, m_powi_3_grad, m_powi_3_jvp, m_powi_3_hvp),
    unary!(m_powi_neg2, m_powi_neg2_grad, m_powi_neg2_jvp, m_powi_neg2_hvp),
    unary!(m_recip, m_recip_grad, m_recip_jvp, m_recip_hvp),
    unary!(c_atan_sqrt, c_atan_sqrt_grad, c_atan_sqrt_jvp, c_atan_sqrt_hvp),
];

/// Every two-parameter method and composition, for the `_jvp = _grad·v` property.
const BINARY: [Binary; 9] = [
    MIN,
    MAX,
    HYPOT,
    POWF,
    binary!(m_atan2, m_atan2_grad, m_atan2_jvp, m_atan2_hvp),
    binary!(m_log, m_log_grad, m_log_jvp, m_log_hvp),
    binary!(c_exp_sin_sqrt, c_exp_sin_sqrt_grad, c_exp_sin_sqrt_jvp, c_exp_sin_sqrt_hvp),
    binary!(c_ln_hypot, c_ln_hypot_grad, c_ln_hypot_jvp, c_ln_hypot_hvp),
    binary!(c_recip_mul_add, c_recip_mul_add_grad, c_recip_mul_add_jvp, c_recip_mul_add_hvp),
];

/// Grid points, including both zeros, the integers and half-integers where steps jump, and ±1.
const GRID: [f64; 11] = [-3.0, -1.0, -0.5, -0.0, 0.0, 0.25, 0.5, 1.0, 1.5, 2.5, 4.0];

#[test]
fn abs_has_derivative_zero_at_both_zeros() {
    ABS.expect(0.0, 0.0, Some(0.0));
    ABS.expect(-0.0, 0.0, Some(0.0));
    ABS.expect(3.0, 1.0, Some(0.0));
    ABS.expect(-3.0, -1.0, Some(0.0));
}

#[test]
fn max_on_a_tie_differentiates_the_receiver() {
    for (a, b) in [(1.5, 1.5), (-2.0, -2.0), (0.0, 0.0), (0.0, -0.0), (-0.0, 0.0)] {
        MAX.expect((a, b), [1.0, 0.0], Some([[0.0; 2]; 2]));
    }
    RELU.expect(0.0, 1.0, Some(0.0));
    RELU.expect(-0.0, 1.0, Some(0.0));
}

#[test]
fn max_elsewhere_differentiates_the_larger_argument() {
    MAX.expect((3.0, 1.0), [1.0, 0.0], Some([[0.0; 2]; 2]));
    MAX.expect((1.0, 3.0), [0.0, 1.0], Some([[0.0; 2]; 2]));
    MAX.expect((-0.5, -4.0), [1.0, 0.0], Some([[0.0; 2]; 2]));
    RELU.expect(2.0, 1.0, Some(0.0));
    RELU.expect(-2.0, 0.0, Some(0.0));
}

#[test]
fn min_on_a_tie_differentiates_the_receiver() {
    for (a, b) in [(1.5, 1.5), (-2.0, -2.0), (0.0, 0.0), (0.0, -0.0), (-0.0, 0.0)] {
        MIN.expect((a, b), [1.0, 0.0], Some([[0.0; 2]; 2]));
    }
}

#[test]
fn min_elsewhere_differentiates_the_smaller_argument() {
    MIN.expect((3.0, 1.0), [0.0, 1.0], Some([[0.0; 2]; 2]));
    MIN.expect((1.0, 3.0), [1.0, 0.0], Some([[0.0; 2]; 2]));
    MIN.expect((-0.5, -4.0), [0.0, 1.0], Some([[0.0; 2]; 2]));
}

#[test]
fn sqrt_at_zero_has_derivative_plus_infinity() {
    SQRT.expect(0.0, f64::INFINITY, None);
}

#[test]
fn hypot_at_the_origin_has_gradient_zero() {
    HYPOT.expect((0.0, 0.0), [0.0, 0.0], None);
    HYPOT.expect((-0.0, 0.0), [0.0, 0.0], None);
    HYPOT.expect((0.0, -0.0), [0.0, 0.0], None);
}

#[test]
fn piecewise_constant_methods_have_derivative_zero_at_and_between_jumps() {
    let points = [-2.7, -1.5, -1.0, -0.5, -0.0, 0.0, 0.3, 0.5, 1.0, 2.5, 1e300];
    for step in STEPS {
        for x in points {
            step.expect(x, 0.0, Some(0.0));
        }
    }
}

#[test]
fn powi_0_has_derivative_zero_even_at_zero() {
    for x in [0.0, -0.0, 2.0, -3.5] {
        POWI_0.expect(x, 0.0, Some(0.0));
    }
}

#[test]
fn powf_with_a_literal_exponent_is_differentiable_at_zero() {
    // d/dx x^2.5 = 2.5 x^1.5 and d²/dx² = 3.75 x^0.5, both 0 at 0: no ln(0) is computed
    POWF_LIT.expect(0.0, 0.0, Some(0.0));
}

#[test]
fn powf_with_a_constant_exponent_never_takes_the_log_of_the_base() {
    // (x, p, p x^(p-1), p (p-1) x^(p-2)), exact in binary floating point
    for (x, p, d, h) in [(0.0, 3.0, 0.0, 0.0), (0.0, 2.0, 0.0, 2.0), (-2.0, 3.0, 12.0, -12.0)] {
        let value = m_powf_wrt(x, p);
        assert_eq!(m_powf_wrt_grad(x, p), (value, d), "grad at x = {x}, p = {p}");
        for v in [1.0, -2.5] {
            assert_eq!(m_powf_wrt_jvp(x, p, v), (value, d * v), "jvp at x = {x}, p = {p}");
            assert_eq!(m_powf_wrt_hvp(x, p, v), (value, d, h * v), "hvp at x = {x}, p = {p}");
        }
    }
}

#[test]
fn powf_with_a_differentiated_exponent_has_a_nan_exponent_partial_at_nonpositive_base() {
    // ∂/∂x x^y = y x^(y-1) stays finite; ∂/∂y = x^y ln x is NaN for x <= 0
    POWF.expect((0.0, 2.0), [0.0, f64::NAN], None);
    POWF.expect((-2.0, 3.0), [12.0, f64::NAN], None);
}

#[test]
fn jvp_is_the_gradient_times_the_direction_on_a_grid() {
    for m in UNARY {
        for x in GRID {
            for v in [1.0, -2.5, 0.25] {
                m.assert_consistent(x, v);
            }
        }
    }
    for m in BINARY {
        for (a, b) in GRID.iter().flat_map(|&a| GRID.map(|b| (a, b))) {
            for v in [[1.0, 0.0], [0.0, 1.0], [0.5, -2.0]] {
                m.assert_consistent((a, b), v);
            }
        }
    }
}

#[test]
fn mul_add_jvp_is_the_gradient_times_the_direction_on_a_grid() {
    for (a, b, c) in GRID.iter().flat_map(|&a| GRID.map(|b| (a, b, 0.5 - a))) {
        let (value, (da, db, dc)) = m_mul_add_grad(a, b, c);
        assert_eq!((da, db, dc), (b, a, 1.0), "m_mul_add_grad at ({a}, {b}, {c})");
        let (jvp_value, jvp) = m_mul_add_jvp(a, b, c, 0.5, -2.0, 1.5);
        assert_eq!(jvp_value, value);
        assert!(is_dot(jvp, &[da, db, dc], &[0.5, -2.0, 1.5]), "m_mul_add_jvp = {jvp}");
    }
}

proptest! {
    #[test]
    fn jvp_is_the_gradient_times_the_direction_at_random_points(
        a in -4.0..4.0_f64,
        b in -4.0..4.0_f64,
        va in -3.0..3.0_f64,
        vb in -3.0..3.0_f64,
    ) {
        for m in UNARY {
            m.assert_consistent(a, va);
        }
        for m in BINARY {
            m.assert_consistent((a, b), [va, vb]);
        }
    }
}
