//! One minimal differentiated function per supported `f64` method, plus a few compositions.
//!
//! Every function is annotated `#[grad(jvp, hvp, hessian)]`, so each also has `_grad`, `_jvp`,
//! `_hvp` and `_hessian` siblings; the tests check them against hand-written derivatives.

use autodiff_runtime::grad;

/// `x.sin()`.
#[grad(jvp, hvp, hessian)]
pub fn m_sin(x: f64) -> f64 {
    x.sin()
}

/// `x.cos()`.
#[grad(jvp, hvp, hessian)]
pub fn m_cos(x: f64) -> f64 {
    x.cos()
}

/// `x.tan()`.
#[grad(jvp, hvp, hessian)]
pub fn m_tan(x: f64) -> f64 {
    x.tan()
}

/// `x.asin()`.
#[grad(jvp, hvp, hessian)]
pub fn m_asin(x: f64) -> f64 {
    x.asin()
}

/// `x.acos()`.
#[grad(jvp, hvp, hessian)]
pub fn m_acos(x: f64) -> f64 {
    x.acos()
}

/// `x.atan()`.
#[grad(jvp, hvp, hessian)]
pub fn m_atan(x: f64) -> f64 {
    x.atan()
}

/// `x.sinh()`.
#[grad(jvp, hvp, hessian)]
pub fn m_sinh(x: f64) -> f64 {
    x.sinh()
}

/// `x.cosh()`.
#[grad(jvp, hvp, hessian)]
pub fn m_cosh(x: f64) -> f64 {
    x.cosh()
}

/// `x.tanh()`.
#[grad(jvp, hvp, hessian)]
pub fn m_tanh(x: f64) -> f64 {
    x.tanh()
}

/// `x.asinh()`.
#[grad(jvp, hvp, hessian)]
pub fn m_asinh(x: f64) -> f64 {
    x.asinh()
}

/// `x.acosh()`.
#[grad(jvp, hvp, hessian)]
pub fn m_acosh(x: f64) -> f64 {
    x.acosh()
}

/// `x.atanh()`.
#[grad(jvp, hvp, hessian)]
pub fn m_atanh(x: f64) -> f64 {
    x.atanh()
}

/// `x.exp()`.
#[grad(jvp, hvp, hessian)]
pub fn m_exp(x: f64) -> f64 {
    x.exp()
}

/// `x.exp2()`.
#[grad(jvp, hvp, hessian)]
pub fn m_exp2(x: f64) -> f64 {
    x.exp2()
}

/// `x.exp_m1()`.
#[grad(jvp, hvp, hessian)]
pub fn m_exp_m1(x: f64) -> f64 {
    x.exp_m1()
}

/// `x.ln()`.
#[grad(jvp, hvp, hessian)]
pub fn m_ln(x: f64) -> f64 {
    x.ln()
}

/// `x.ln_1p()`.
#[grad(jvp, hvp, hessian)]
pub fn m_ln_1p(x: f64) -> f64 {
    x.ln_1p()
}

/// `x.log2()`.
#[grad(jvp, hvp, hessian)]
pub fn m_log2(x: f64) -> f64 {
    x.log2()
}

/// `x.log10()`.
#[grad(jvp, hvp, hessian)]
pub fn m_log10(x: f64) -> f64 {
    x.log10()
}

/// `x.sqrt()`.
#[grad(jvp, hvp, hessian)]
pub fn m_sqrt(x: f64) -> f64 {
    x.sqrt()
}

/// `x.cbrt()`.
#[grad(jvp, hvp, hessian)]
pub fn m_cbrt(x: f64) -> f64 {
    x.cbrt()
}

/// `x.powi(3)`.
#[grad(jvp, hvp, hessian)]
pub fn m_powi_3(x: f64) -> f64 {
    x.powi(3)
}

/// `x.powi(-2)`.
#[grad(jvp, hvp, hessian)]
pub fn m_powi_neg2(x: f64) -> f64 {
    x.powi(-2)
}

/// `x.powi(0)`.
#[grad(jvp, hvp, hessian)]
pub fn m_powi_0(x: f64) -> f64 {
    x.powi(0)
}

/// `x.recip()`.
#[grad(jvp, hvp, hessian)]
pub fn m_recip(x: f64) -> f64 {
    x.recip()
}

/// `x.abs()`.
#[grad(jvp, hvp, hessian)]
pub fn m_abs(x: f64) -> f64 {
    x.abs()
}

/// `x.signum()`.
#[grad(jvp, hvp, hessian)]
pub fn m_signum(x: f64) -> f64 {
    x.signum()
}

/// `x.floor()`.
#[grad(jvp, hvp, hessian)]
pub fn m_floor(x: f64) -> f64 {
    x.floor()
}

/// `x.ceil()`.
#[grad(jvp, hvp, hessian)]
pub fn m_ceil(x: f64) -> f64 {
    x.ceil()
}

/// `x.round()`.
#[grad(jvp, hvp, hessian)]
pub fn m_round(x: f64) -> f64 {
    x.round()
}

/// `x.trunc()`.
#[grad(jvp, hvp, hessian)]
pub fn m_trunc(x: f64) -> f64 {
    x.trunc()
}

/// `f64::sin(x)`, the UFCS spelling of `x.sin()`.
#[grad(jvp, hvp, hessian)]
pub fn m_ufcs_sin(x: f64) -> f64 {
    f64::sin(x)
}

/// `y.atan2(x)`.
#[grad(jvp, hvp, hessian)]
pub fn m_atan2(y: f64, x: f64) -> f64 {
    y.atan2(x)
}

/// `x.log(b)`.
#[grad(jvp, hvp, hessian)]
pub fn m_log(x: f64, b: f64) -> f64 {
    x.log(b)
}

/// `x.powf(y)`.
#[grad(jvp, hvp, hessian)]
pub fn m_powf(x: f64, y: f64) -> f64 {
    x.powf(y)
}

/// `x.hypot(y)`.
#[grad(jvp, hvp, hessian)]
pub fn m_hypot(x: f64, y: f64) -> f64 {
    x.hypot(y)
}

/// `a.min(b)`.
#[grad(jvp, hvp, hessian)]
pub fn m_min(a: f64, b: f64) -> f64 {
    a.min(b)
}

/// `a.max(b)`.
#[grad(jvp, hvp, hessian)]
pub fn m_max(a: f64, b: f64) -> f64 {
    a.max(b)
}

/// `a.mul_add(b, c)`.
#[grad(jvp, hvp, hessian)]
pub fn m_mul_add(a: f64, b: f64, c: f64) -> f64 {
    a.mul_add(b, c)
}

/// `x.powf(2.5)`: a literal exponent.
#[grad(jvp, hvp, hessian)]
pub fn m_powf_lit(x: f64) -> f64 {
    x.powf(2.5)
}

/// `x.powf(p)` with only `x` differentiated: `p` is a constant exponent.
#[grad(wrt(x), jvp, hvp, hessian)]
pub fn m_powf_wrt(x: f64, p: f64) -> f64 {
    x.powf(p)
}

/// `x.max(0.0)`: a literal second argument.
#[grad(jvp, hvp, hessian)]
pub fn m_relu(x: f64) -> f64 {
    x.max(0.0)
}

/// `e^(sin x)·√y`: a chain of methods times another.
#[grad(jvp, hvp, hessian)]
pub fn c_exp_sin_sqrt(x: f64, y: f64) -> f64 {
    x.sin().exp() * y.sqrt()
}

/// `ln(hypot(x, y))`, half the log of the squared norm.
#[grad(jvp, hvp, hessian)]
pub fn c_ln_hypot(x: f64, y: f64) -> f64 {
    x.hypot(y).ln()
}

/// `atan(√(x² + 1))`: a method on a parenthesized expression.
#[grad(jvp, hvp, hessian)]
pub fn c_atan_sqrt(x: f64) -> f64 {
    (x * x + 1.0).sqrt().atan()
}

/// `1 / (x·y + 1)`: a fused multiply-add with a literal addend.
#[grad(jvp, hvp, hessian)]
pub fn c_recip_mul_add(x: f64, y: f64) -> f64 {
    x.mul_add(y, 1.0).recip()
}
