// Checks that an element of an array of structs taken whole (an argument of a call, a copy to
// change) and the array itself passed to a call are reported, saying what is read instead.
use autodiff_runtime::{Differentiable, grad};

#[derive(Clone, Copy, Differentiable)]
pub struct Particle {
    pub x: f64,
    pub v: f64,
}

fn speed(p: &Particle) -> f64 {
    p.v
}

fn count(ps: &[Particle; 3]) -> f64 {
    ps.len() as f64
}

#[grad]
pub fn total(ps: &[Particle; 3]) -> f64 {
    let mut q = ps[1];
    q.x += 1.0;
    speed(&ps[0]) + count(ps) + q.x
}

fn main() {}
