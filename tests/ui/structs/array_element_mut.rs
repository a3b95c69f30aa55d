// Checks that an array of structs taken by `&mut` is refused as every `&mut` parameter is.
use autodiff_runtime::{Differentiable, grad};

#[derive(Clone, Copy, Differentiable)]
pub struct Particle {
    pub x: f64,
    pub v: f64,
}

#[grad]
pub fn total(ps: &mut [Particle; 3]) -> f64 {
    ps[0].x * ps[1].v
}

fn main() {}
