// The same call compiles when the callee differentiates only what the caller passes as values.
use autodiff_runtime::grad;

#[grad(wrt(x))]
fn scale(x: f64, c: f64) -> f64 {
    x * c
}

#[grad]
fn caller(x: f64) -> f64 {
    scale(x, 2.0).sin()
}

fn main() {
    let (_, d) = caller_grad(0.5);
    assert_eq!(d, 2.0 * 1.0_f64.cos());
}
