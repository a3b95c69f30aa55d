// Checks that `#[derive(Differentiable)]` refuses a field of a float type other than `f64` and a
// tuple of floats, each at the field's type, saying what is supported.
use autodiff_runtime::Differentiable;

#[derive(Differentiable)]
pub struct Model {
    pub w: [f64; 2],
    pub rate: f32,
    pub pair: (f64, f64),
    pub steps: usize,
}

fn main() {}
