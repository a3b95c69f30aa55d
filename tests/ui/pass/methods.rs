// Checks that every supported method, and a UFCS call, compiles warning-free through `_grad`,
// `_jvp` and `_hvp` (so every rule's output can be differentiated again), `powi` with a literal
// exponent and with an integer parameter, and `sin_cos` in a tuple `let`.
#![deny(warnings)]
use autodiff_runtime::grad;

#[grad(jvp, hvp)]
fn methods(x: f64, y: f64, k: i32) -> f64 {
    let trig = x.sin() + x.cos() + x.tan() + x.asin() + x.acos() + x.atan() + x.atan2(y);
    let hyperbolic = x.sinh() + x.cosh() + x.tanh() + x.asinh() + y.acosh() + x.atanh();
    let exps = x.exp() + x.exp2() + x.exp_m1() + y.ln() + x.ln_1p() + y.log(3.0) + x.log(y);
    let logs = y.log2() + y.log10() + y.sqrt() + x.cbrt();
    let powers = x.powi(3) + y.powi(-2) + y.powi(k) + x.powi(k - 1) + y.powf(x) + y.powf(1.5);
    let others = x.mul_add(y, 1.0) + x.abs() + x.min(y) + x.max(y) + x.clamp(-1.0, y);
    let (s, c) = x.sin_cos();
    let more = x.hypot(y) + y.recip() + s * c;
    let flat = x.signum() + y.floor() + y.ceil() + y.round() + y.trunc();
    let ufcs = f64::cos(y) * f64::max(x, 0.0);
    trig + hyperbolic + exps + logs + powers + others + more + flat + ufcs
}

fn main() {
    let value: f64 = methods(0.5, 1.5, 2);
    let grad: (f64, (f64, f64)) = methods_grad(0.5, 1.5, 2);
    let jvp: (f64, f64) = methods_jvp(0.5, 1.5, 2, 1.0, 0.5);
    let hvp: (f64, (f64, f64), (f64, f64)) = methods_hvp(0.5, 1.5, 2, 1.0, 0.5);
    assert!(value.is_finite() && grad.1.0.is_finite() && jvp.1.is_finite() && hvp.2.1.is_finite());
}
