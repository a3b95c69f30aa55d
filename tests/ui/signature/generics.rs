// Checks that a generic function is rejected at its generic parameters.
use autodiff_runtime::grad;

#[grad]
fn generic<T>(x: f64, _tag: T) -> f64 {
    x * x
}

fn main() {}
