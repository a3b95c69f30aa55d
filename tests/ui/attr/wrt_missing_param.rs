// Checks that `wrt` naming a parameter the function does not have is rejected at that name.
use autodiff_runtime::grad;

#[grad(wrt(y))]
fn square(x: f64) -> f64 {
    x * x
}

fn main() {}
