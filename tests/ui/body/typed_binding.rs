// Checks that a binding of a type other than `f64` is rejected at the type.
use autodiff_runtime::grad;

#[grad]
fn narrowed(x: f64) -> f64 {
    let y: f32 = 2.0;
    x * y as f64
}

fn main() {}
