// A call of a function returning an array is differentiated, in a gradient, through its `_fwd`
// and `_rev` (the halves of its `_vjp`): a callee that has none (no `#[grad]`, and none written
// by hand) is an error at the call, which names one.
use autodiff_runtime::grad;

fn scaled(x: [f64; 2], s: f64) -> [f64; 2] {
    [s * x[0], s * x[1]]
}

#[grad]
fn caller(x: [f64; 2]) -> f64 {
    let y: [f64; 2] = scaled(x, 3.0);
    y[0] * y[1]
}

fn main() {
    let _ = caller_grad([1.0, 2.0]);
}
