//! Every supported `f64` method's `_grad`: the value is exactly the primal's and the gradient
//! equals the hand-written derivative to rounding and central finite differences inside the domain.

use autodiff_runtime::{Tolerance, check_gradient};
use autodiff_suite::methods::*;
use std::f64::consts::{LN_2, LN_10};

/// A corpus function called with a slice of arguments; `A` only tells the arities apart.
trait Primal<A> {
    fn value(&self, p: &[f64]) -> f64;
}

/// A generated `_grad` called with a slice of arguments, its gradient flattened.
trait Grad<A> {
    fn grad(&self, p: &[f64]) -> (f64, Vec<f64>);
}

/// `f64`, once per token: spells an arity's parameter list.
macro_rules! f64_for {
    ($i:tt) => {
        f64
    };
}

/// Implements [`Primal`] and [`Grad`] for the functions of one arity, whose gradient type `$g`
/// the closure `$flat` turns into a vector.
macro_rules! arity {
    ($n:literal, $g:ty, $flat:expr; $($i:tt),+) => {
        impl<F: Fn($(f64_for!($i)),+) -> f64> Primal<[(); $n]> for F {
            fn value(&self, p: &[f64]) -> f64 {
                self($(p[$i]),+)
            }
        }

        impl<F: Fn($(f64_for!($i)),+) -> (f64, $g)> Grad<[(); $n]> for F {
            fn grad(&self, p: &[f64]) -> (f64, Vec<f64>) {
                let (value, gradient): (f64, $g) = self($(p[$i]),+);
                (value, $flat(gradient))
            }
        }
    };
}

arity!(1, f64, |g| vec![g]; 0);
arity!(2, (f64, f64), |g: (f64, f64)| vec![g.0, g.1]; 0, 1);
arity!(3, (f64, f64, f64), |g: (f64, f64, f64)| vec![g.0, g.1, g.2]; 0, 1, 2);

/// Whether a generated derivative equals a hand-written one up to rounding.
fn close(got: f64, want: f64) -> bool {
    approx::relative_eq!(got, want, epsilon = 1e-14, max_relative = 1e-12)
}

/// Checks `grad` at every point: value equal to `f`'s, gradient equal to `want` up to rounding
/// and to central finite differences of `f`.
fn check<A>(
    f: impl Primal<A>,
    grad: impl Grad<A>,
    want: impl Fn(&[f64]) -> Vec<f64>,
    points: &[&[f64]],
) {
    for &x in points {
        let (value, gradient) = grad.grad(x);
        assert_eq!(value, f.value(x), "value at {x:?}");
        let expected = want(x);
        assert_eq!(gradient.len(), expected.len(), "one partial per parameter");
        for (i, (&got, &exp)) in gradient.iter().zip(&expected).enumerate() {
            assert!(close(got, exp), "partial {i} at {x:?}: {got} but by hand {exp}");
        }
        if let Err(e) = check_gradient(|p| f.value(p), x, &gradient, Tolerance::default()) {
            panic!("at {x:?}: {e}");
        }
    }
}

/// One test per method: `name: function, its _grad (params) => [partials by hand] at points;`.
macro_rules! grads {
    ($($test:ident: $f:ident, $grad:ident ($($x:ident),+) => [$($d:expr),+] at $at:expr;)+) => {$(
        #[test]
        fn $test() {
            let want = |p: &[f64]| {
                let &[$($x),+] = p else { unreachable!("arity") };
                vec![$($d),+]
            };
            check($f, $grad, want, $at);
        }
    )+};
}

const REALS: &[&[f64]] = &[&[-2.3], &[-0.7], &[0.0], &[0.4], &[1.9]];
const NONZERO: &[&[f64]] = &[&[-2.3], &[-0.7], &[0.4], &[1.9]];
const POSITIVE: &[&[f64]] = &[&[0.3], &[1.0], &[2.5], &[7.0]];
const UNIT: &[&[f64]] = &[&[-0.9], &[-0.4], &[0.0], &[0.3], &[0.8]];
const ABOVE_ONE: &[&[f64]] = &[&[1.2], &[2.0], &[5.0]];
const ABOVE_MINUS_ONE: &[&[f64]] = &[&[-0.6], &[0.0], &[0.5], &[3.0]];
/// Away from every jump of `signum`, `floor`, `ceil`, `round` and `trunc`.
const OFF_JUMPS: &[&[f64]] = &[&[-2.3], &[-0.7], &[0.3], &[1.2], &[2.8]];
const PLANE: &[&[f64]] = &[&[1.0, 2.0], &[-0.5, 0.3], &[2.0, -1.0], &[-1.5, -0.8]];
const UNTIED: &[&[f64]] = &[&[1.0, 2.0], &[2.0, 1.0], &[-3.0, 0.5], &[0.5, -3.0]];

grads! {
    sin: m_sin, m_sin_grad (x) => [x.cos()] at REALS;
    ufcs_sin: m_ufcs_sin, m_ufcs_sin_grad (x) => [x.cos()] at REALS;
    cos: m_cos, m_cos_grad (x) => [-x.sin()] at REALS;
    tan: m_tan, m_tan_grad (x) => [1.0 / (x.cos() * x.cos())] at REALS;
    asin: m_asin, m_asin_grad (x) => [1.0 / (1.0 - x * x).sqrt()] at UNIT;
    acos: m_acos, m_acos_grad (x) => [-1.0 / (1.0 - x * x).sqrt()] at UNIT;
    atan: m_atan, m_atan_grad (x) => [1.0 / (1.0 + x * x)] at REALS;
    sinh: m_sinh, m_sinh_grad (x) => [x.cosh()] at REALS;
    cosh: m_cosh, m_cosh_grad (x) => [x.sinh()] at REALS;
    tanh: m_tanh, m_tanh_grad (x) => [1.0 / (x.cosh() * x.cosh())] at REALS;
    asinh: m_asinh, m_asinh_grad (x) => [1.0 / (x * x + 1.0).sqrt()] at REALS;
    acosh: m_acosh, m_acosh_grad (x) => [1.0 / (x * x - 1.0).sqrt()] at ABOVE_ONE;
    atanh: m_atanh, m_atanh_grad (x) => [1.0 / (1.0 - x * x)] at UNIT;
    exp: m_exp, m_exp_grad (x) => [x.exp()] at REALS;
    exp2: m_exp2, m_exp2_grad (x) => [x.exp2() * LN_2] at REALS;
    exp_m1: m_exp_m1, m_exp_m1_grad (x) => [x.exp()] at REALS;
    ln: m_ln, m_ln_grad (x) => [1.0 / x] at POSITIVE;
    ln_1p: m_ln_1p, m_ln_1p_grad (x) => [1.0 / (1.0 + x)] at ABOVE_MINUS_ONE;
    log2: m_log2, m_log2_grad (x) => [1.0 / (x * LN_2)] at POSITIVE;
    log10: m_log10, m_log10_grad (x) => [1.0 / (x * LN_10)] at POSITIVE;
    sqrt: m_sqrt, m_sqrt_grad (x) => [0.5 / x.sqrt()] at POSITIVE;
    cbrt: m_cbrt, m_cbrt_grad (x) => [1.0 / (3.0 * x.cbrt() * x.cbrt())] at NONZERO;
    powi_3: m_powi_3, m_powi_3_grad (x) => [3.0 * x * x] at REALS;
    powi_neg2: m_powi_neg2, m_powi_neg2_grad (x) => [-2.0 / (x * x * x)] at NONZERO;
    powi_0: m_powi_0, m_powi_0_grad (_x) => [0.0] at REALS;
    recip: m_recip, m_recip_grad (x) => [-1.0 / (x * x)] at NONZERO;
    abs: m_abs, m_abs_grad (x) => [x.signum()] at NONZERO;
    signum: m_signum, m_signum_grad (_x) => [0.0] at OFF_JUMPS;
    floor: m_floor, m_floor_grad (_x) => [0.0] at OFF_JUMPS;
    ceil: m_ceil, m_ceil_grad (_x) => [0.0] at OFF_JUMPS;
    round: m_round, m_round_grad (_x) => [0.0] at OFF_JUMPS;
    trunc: m_trunc, m_trunc_grad (_x) => [0.0] at OFF_JUMPS;
    powf_lit: m_powf_lit, m_powf_lit_grad (x) => [2.5 * x.powf(1.5)] at POSITIVE;
    relu: m_relu, m_relu_grad (x) => [if x > 0.0 { 1.0 } else { 0.0 }] at NONZERO;
    atan2: m_atan2, m_atan2_grad (y, x) => [x / (x * x + y * y), -y / (x * x + y * y)] at PLANE;
    log: m_log, m_log_grad (x, b) => [1.0 / (x * b.ln()), -x.ln() / (b * b.ln().powi(2))]
        at &[&[2.0, 10.0], &[0.5, 3.0], &[5.0, 0.4], &[1.3, 2.0]];
    powf: m_powf, m_powf_grad (x, y) => [y * x.powf(y - 1.0), x.powf(y) * x.ln()]
        at &[&[2.0, 3.0], &[0.5, -1.5], &[3.0, 0.7], &[1.2, 0.0]];
    hypot: m_hypot, m_hypot_grad (x, y) => [x / x.hypot(y), y / x.hypot(y)] at PLANE;
    min: m_min, m_min_grad (a, b) => [f64::from(a < b), f64::from(b < a)] at UNTIED;
    max: m_max, m_max_grad (a, b) => [f64::from(a > b), f64::from(b > a)] at UNTIED;
    mul_add: m_mul_add, m_mul_add_grad (a, b, _c) => [b, a, 1.0]
        at &[&[2.0, 3.0, -1.0], &[-0.5, 1.5, 4.0], &[0.0, -2.0, 0.3]];
    exp_sin_sqrt: c_exp_sin_sqrt, c_exp_sin_sqrt_grad (x, y)
        => [x.sin().exp() * x.cos() * y.sqrt(), x.sin().exp() / (2.0 * y.sqrt())]
        at &[&[0.3, 2.0], &[-1.2, 0.5], &[2.0, 4.0]];
    ln_hypot: c_ln_hypot, c_ln_hypot_grad (x, y) => [x / (x * x + y * y), y / (x * x + y * y)]
        at PLANE;
    atan_sqrt: c_atan_sqrt, c_atan_sqrt_grad (x)
        => [x / ((x * x + 1.0).sqrt() * (x * x + 2.0))] at REALS;
    recip_mul_add: c_recip_mul_add, c_recip_mul_add_grad (x, y)
        => [-y / (x * y + 1.0).powi(2), -x / (x * y + 1.0).powi(2)]
        at &[&[0.3, 2.0], &[1.2, 0.5], &[-2.0, 4.0]];
}

/// `wrt(x)` leaves the exponent `p` a constant: the gradient is the bare `∂/∂x = p·x^(p−1)`.
#[test]
fn powf_with_a_constant_exponent() {
    for (x, p) in [(0.5, 2.5), (2.0, -1.5), (3.0, 0.0), (1.7, 3.0), (-2.0, 3.0)] {
        let (value, d) = m_powf_wrt_grad(x, p);
        assert_eq!(value, m_powf_wrt(x, p), "value at x = {x}, p = {p}");
        let by_hand = p * x.powf(p - 1.0);
        assert!(close(d, by_hand), "at x = {x}, p = {p}: {d} but by hand {by_hand}");
        if let Err(e) = check_gradient(|q| m_powf_wrt(q[0], p), &[x], &[d], Tolerance::default()) {
            panic!("at x = {x}, p = {p}: {e}");
        }
    }
}
