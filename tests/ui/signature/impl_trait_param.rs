// Checks that an `impl Trait` parameter is rejected at its type.
use autodiff_runtime::grad;

#[grad]
fn with_impl(x: f64, _tag: impl Copy) -> f64 {
    x * x
}

fn main() {}
