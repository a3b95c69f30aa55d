// Checks that a variable made from a struct literal and assigned the value of a method returning
// the struct is refused at the call, saying to start the variable from a call (it was "assigning
// to a tuple variable").
use autodiff_runtime::{Differentiable, grad};

#[derive(Clone, Copy, Differentiable)]
pub struct P {
    pub x: f64,
    pub v: f64,
}

impl P {
    #[grad]
    pub fn step(self, dt: f64) -> Self {
        P { x: self.x + dt * self.v, v: self.v - dt * self.x }
    }
}

#[grad]
fn run(p: P) -> f64 {
    let mut s = P { x: p.x, v: p.v };
    s = s.step(0.1);
    s.x
}

fn main() {}
