// Checks that a field of the elements of an array of structs read where an integer goes is
// reported at the read.
use autodiff_runtime::{Differentiable, grad};

#[derive(Clone, Copy, Differentiable)]
pub struct Particle {
    pub x: f64,
    pub cell: usize,
}

#[grad]
pub fn total(ps: &[Particle; 3], table: &[f64; 4]) -> f64 {
    ps[0].x * table[ps[1].cell]
}

fn main() {}
