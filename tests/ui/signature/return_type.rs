// Checks that a return type other than `f64` (here `f32`) is rejected at the return type.
use autodiff_runtime::grad;

#[grad]
fn narrow(_x: f64) -> f32 {
    1.0
}

fn main() {}
