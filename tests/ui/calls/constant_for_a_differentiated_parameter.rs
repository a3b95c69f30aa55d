// At a call, each argument that is not a constant in the caller is one partial of the callee's
// `_grad`; constants are passed through. A callee that differentiates a parameter the caller
// passes a constant to returns one partial more: a type error at the call. (Fix: `wrt(x)` on
// `scale`, or pass a value.)
use autodiff_runtime::grad;

#[grad]
fn scale(x: f64, c: f64) -> f64 {
    x * c
}

#[grad]
fn caller(x: f64) -> f64 {
    scale(x, 2.0).sin()
}

fn main() {}
