// Checks that the return type decides the scalar type: a function returning `f32` computes in
// `f32`, so its `f64` parameter is refused at its type (not silently a constant).
use autodiff_runtime::grad;

#[grad]
fn narrow(_x: f64) -> f32 {
    1.0
}

fn main() {}
