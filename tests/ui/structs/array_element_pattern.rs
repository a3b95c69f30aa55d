// Checks that an element of an array of structs matched by a pattern other than a name or a
// struct pattern of names (here `ref x`), and an adaptor that `#[grad]` does not rewrite over the
// elements (`skip_while`), are reported with what to write instead.
use autodiff_runtime::{Differentiable, grad};

#[derive(Clone, Copy, Differentiable)]
pub struct Particle {
    pub x: f64,
    pub v: f64,
}

#[grad]
pub fn total(ps: &[Particle; 3]) -> f64 {
    let mut e = 0.0;
    for &Particle { ref x, v } in ps.iter() {
        e += x * v;
    }
    e + ps.iter().skip_while(|p| p.x < 0.0).map(|p| p.v).sum::<f64>()
}

fn main() {}
