// Checks that a struct parameter whose type does not derive `Differentiable` is reported at the
// parameter's type, saying to add the derive.
use autodiff_runtime::grad;

#[derive(Clone, Copy)]
pub struct Model {
    pub w: [f64; 2],
    pub b: f64,
}

#[grad]
pub fn loss(m: &Model, x: f64) -> f64 {
    m.w[0] * x + m.w[1] * x * x + m.b
}

fn main() {}
