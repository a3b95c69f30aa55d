// Checks that a slice of structs named in `wrt` is reported at the name, saying to take an
// array of structs or the fields as slices (unnamed, it is constant data, as a slice of `f64`
// is).
use autodiff_runtime::{Differentiable, grad};

#[derive(Clone, Copy, Differentiable)]
pub struct Particle {
    pub x: f64,
    pub v: f64,
}

#[grad(wrt(ps))]
pub fn total(ps: &[Particle], k: f64) -> f64 {
    k * ps[0].x
}

fn main() {}
