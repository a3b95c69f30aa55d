// Checks that `hessian` of a function of an array of structs of a const generic length is
// reported at the parameter's type, saying to use `hvp`.
use autodiff_runtime::{Differentiable, grad};

#[derive(Clone, Copy, Differentiable)]
pub struct Particle {
    pub x: f64,
    pub v: f64,
}

#[grad(hessian)]
pub fn total<const N: usize>(ps: &[Particle; N]) -> f64 {
    let mut e = 0.0;
    for p in ps.iter() {
        e += p.x * p.v;
    }
    e
}

fn main() {}
