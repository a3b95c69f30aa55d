// Checks that an `f64` parameter of an `f32` function is refused at its type (not silently a
// constant), saying how the scalar type is decided and how to make it a constant.
use autodiff_runtime::grad;

#[grad]
fn weighted(x: f32, w: f64) -> f32 {
    x * x * w as f32
}

fn main() {}
