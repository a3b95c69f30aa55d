// Checks that a struct returned by a call, with a field that is not differentiated, passed on
// to another call is a build error saying why (its scalars cannot rebuild it) and what to do.
use autodiff_runtime::{Differentiable, grad};

#[derive(Clone, Copy, Differentiable)]
pub struct State {
    pub a: f64,
    #[no_grad]
    pub rate: f64,
}

#[grad]
pub fn step(s: &State, h: f64) -> State {
    State { a: s.a + h * s.rate, rate: s.rate }
}

#[grad]
pub fn passed_on(s: &State) -> f64 {
    let r: State = step(s, 0.1);
    let t: State = step(&r, 0.2);
    t.a
}

fn main() {}
