// A callee whose `wrt` leaves out an `f64` parameter has one partial and one direction fewer
// than its callers pass: rustc's error is at the call. (Fix: drop `wrt` from `scale`.)
use autodiff_runtime::grad;

#[grad(jvp, wrt(x))]
fn scale(x: f64, c: f64) -> f64 {
    x * c
}

#[grad(jvp)]
fn caller(x: f64) -> f64 {
    scale(x, 2.0).sin()
}

fn main() {}
