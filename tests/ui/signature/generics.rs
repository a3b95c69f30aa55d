// Checks that a generic function with a type parameter is rejected at the type parameter.
use autodiff_runtime::grad;

#[grad]
fn generic<T>(x: f64, _tag: T) -> f64 {
    x * x
}

fn main() {}
