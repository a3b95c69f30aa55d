// Checks that an `f32` parameter is rejected at its type rather than silently treated as a constant.
use autodiff_runtime::grad;

#[grad]
fn mixed(x: f64, _weight: f32) -> f64 {
    x * x
}

fn main() {}
