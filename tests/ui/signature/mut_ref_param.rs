// Checks that a `&mut` parameter is rejected at its type.
use autodiff_runtime::grad;

#[grad]
fn scaled(x: f64, scale: &mut f64) -> f64 {
    x * *scale
}

fn main() {}
