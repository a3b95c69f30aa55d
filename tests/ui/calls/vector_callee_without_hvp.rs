// A caller's `hvp` differentiates a call of a function returning an array through the callee's
// `_jvp` and `_hvp` (the forward mode of its VJP): when `#[grad]` on the callee did not generate
// them, the errors are at the call, name what is missing and say how to get it.
use autodiff_runtime::grad;

#[grad]
fn scaled(x: [f64; 2], s: f64) -> [f64; 2] {
    [s * x[0], s * x[1]]
}

#[grad(hvp)]
fn caller(x: [f64; 2]) -> f64 {
    let y: [f64; 2] = scaled(x, 3.0);
    y[0] * y[1]
}

fn main() {
    let _ = caller_hvp([1.0, 2.0], [1.0, 0.0]);
}
