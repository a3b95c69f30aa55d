// Checks the reads of a struct returned by a call that `#[grad]` refuses: a field that is not
// differentiated (`#[no_grad]`), of the struct (`r.rate`) or of a nested one (`r.inner.k`), each
// at the read (`r.inner.c` is read).
use autodiff_runtime::{Differentiable, grad};

#[derive(Clone, Copy, Default, Differentiable)]
pub struct Inner {
    pub c: f64,
    #[no_grad]
    pub k: f64,
}

#[derive(Clone, Copy, Differentiable)]
pub struct State {
    pub a: f64,
    pub inner: Inner,
    #[no_grad]
    pub rate: f64,
}

#[grad]
pub fn step(s: &State, h: f64) -> State {
    State { a: s.a + h * s.inner.c, inner: Inner { c: s.inner.c * h, k: 1.0 }, rate: 0.5 }
}

#[grad]
pub fn nested(s: &State) -> f64 {
    let r: State = step(s, 0.1);
    r.inner.c * r.inner.k
}

#[grad]
pub fn not_differentiated(s: &State) -> f64 {
    let r: State = step(s, 0.1);
    r.a * r.rate
}

fn main() {}
