// Checks that an element of an array of structs destructured by a pattern, and `filter` over the
// elements, are reported with what to write instead.
use autodiff_runtime::{Differentiable, grad};

#[derive(Clone, Copy, Differentiable)]
pub struct Particle {
    pub x: f64,
    pub v: f64,
}

#[grad]
pub fn total(ps: &[Particle; 3]) -> f64 {
    let mut e = 0.0;
    for Particle { x, v } in ps.iter() {
        e += x * v;
    }
    e + ps.iter().filter(|p| p.x > 0.0).map(|p| p.v).sum::<f64>()
}

fn main() {}
