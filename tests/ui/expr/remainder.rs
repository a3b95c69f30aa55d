// Checks that the `%` operator is rejected at the operation.
use autodiff_runtime::grad;

#[grad]
fn wrap(x: f64) -> f64 {
    x % 2.0 + x
}

fn main() {}
