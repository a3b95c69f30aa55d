// Checks that an array of structs whose struct does not derive `Differentiable` is reported,
// saying to add the derive.
use autodiff_runtime::grad;

#[derive(Clone, Copy)]
pub struct Particle {
    pub x: f64,
    pub v: f64,
}

#[grad]
pub fn total(ps: &[Particle; 3]) -> f64 {
    ps[0].x * ps[1].v + ps[2].x
}

fn main() {}
