// Likewise a caller's `jvp` needs the callee's `_jvp`.
use autodiff_runtime::grad;

#[grad(hvp)]
fn square(x: f64) -> f64 {
    x * x
}

#[grad(jvp)]
fn caller(x: f64, y: f64) -> f64 {
    square(x) * y
}

fn main() {
    let _ = caller_jvp(1.0, 2.0, 1.0, 0.0);
}
