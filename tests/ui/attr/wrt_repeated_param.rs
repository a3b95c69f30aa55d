// Checks that `wrt` naming the same parameter twice is rejected at the second name.
use autodiff_runtime::grad;

#[grad(wrt(x, x))]
fn product(x: f64, y: f64) -> f64 {
    x * y
}

fn main() {}
