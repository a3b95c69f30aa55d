// A caller's `hvp` differentiates a call through the callee's `_hvp`: when `#[grad]` on the callee
// did not generate it, the error is at the call, names what is missing and how to get it.
use autodiff_runtime::grad;

#[grad]
fn square(x: f64) -> f64 {
    x * x
}

#[grad(hvp)]
fn caller(x: f64) -> f64 {
    square(x).sin()
}

fn main() {
    let _ = caller_hvp(1.0, 1.0);
}
