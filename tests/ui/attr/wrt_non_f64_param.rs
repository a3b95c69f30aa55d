// Checks that `wrt` naming a parameter that is not `f64` is rejected at that name.
use autodiff_runtime::grad;

#[grad(wrt(n))]
fn scaled(x: f64, n: i32) -> f64 {
    x * n as f64
}

fn main() {}
