// Checks that an empty `wrt()` is rejected at the `wrt` option.
use autodiff_runtime::grad;

#[grad(wrt())]
fn square(x: f64) -> f64 {
    x * x
}

fn main() {}
