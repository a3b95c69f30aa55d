// Checks that a struct parameter copied whole into a variable (`let mut s = p;`) is refused at
// the parameter's read, saying to write a struct literal of its fields instead, and nothing is
// reported at the uses of the variable it binds.
use autodiff_runtime::{Differentiable, grad};

#[derive(Clone, Copy, Differentiable)]
pub struct P {
    pub x: f64,
    pub v: f64,
}

#[grad]
fn copied(p: P) -> f64 {
    let mut s = p;
    s.x *= s.v;
    s.x
}

fn main() {}
