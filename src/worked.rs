//! The worked examples of the lessons, as differentiated corpus functions.

use autodiff_runtime::grad;

/// `f(t1, t2) = t1·t2 + t1`, the first worked example: gradient `(t2 + 1, t1)`.
#[grad(jvp, hvp, hessian)]
pub fn f(t1: f64, t2: f64) -> f64 {
    let p = t1 * t2;
    p + t1
}

/// `g(x1, x2) = ln x1 + x1·x2 − sin x2`, the second worked example: gradient
/// `(x2 + 1/x1, x1 − cos x2)`.
#[grad(jvp, hvp, hessian)]
pub fn g(x1: f64, x2: f64) -> f64 {
    x1.ln() + x1 * x2 - x2.sin()
}
