// Checks that an element of an array of structs read where a local shadows the array (its
// index would read the local) is reported at the read, saying to rename the local.
use autodiff_runtime::{Differentiable, grad};

#[derive(Clone, Copy, Differentiable)]
pub struct Particle {
    pub x: f64,
}

#[grad]
pub fn total(ps: &[Particle; 3]) -> f64 {
    let mut s = 0.0;
    for p in ps.iter() {
        let ps = 2.0;
        s += p.x * ps;
    }
    s
}

fn main() {}
