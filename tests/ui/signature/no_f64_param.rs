// Checks that a function without any `f64` parameter to differentiate is rejected at its name.
use autodiff_runtime::grad;

#[grad]
fn constant(n: i32) -> f64 {
    n as f64
}

fn main() {}
