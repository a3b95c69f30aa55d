// Checks that a method called on an element of an array of structs (`ps[i].energy(k)`, and
// `p.energy(k)` in a loop over `ps.iter()`) is reported at the call, saying that the elements
// are read through their fields.
use autodiff_runtime::{Differentiable, grad};

#[derive(Clone, Copy, Differentiable)]
pub struct Particle {
    pub x: f64,
    pub v: f64,
}

impl Particle {
    pub fn energy(&self, k: f64) -> f64 {
        0.5 * (self.v * self.v + k * self.x * self.x)
    }
}

#[grad]
pub fn total(ps: &[Particle; 3], k: f64) -> f64 {
    let mut e = ps[0].energy(k);
    for p in ps.iter() {
        e += p.energy(k);
    }
    e
}

fn main() {}
