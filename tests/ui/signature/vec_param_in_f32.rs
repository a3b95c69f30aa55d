// Checks that a `Vec` of floats taken by value is refused at its type whatever else the signature
// has, also when its element type is not the function's scalar type (here `Vec<f64>` beside an
// `f32`, which would otherwise be a constant).
use autodiff_runtime::grad;

#[grad]
fn weighted(v: Vec<f64>, x: f32) -> f32 {
    v[0] as f32 * x * x
}

fn main() {}
