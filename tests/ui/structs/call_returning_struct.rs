// Checks that the value of a call of a free function returning a struct, read as a struct without
// being bound with its type, is refused at the call, saying what `#[grad]` infers and what to
// write instead (a method's value takes its receiver's type: see `call_struct_inferred_wrong`).
use autodiff_runtime::{Differentiable, grad};

#[derive(Clone, Copy, Differentiable)]
pub struct Quat {
    pub w: f64,
    pub x: f64,
}

#[grad(jvp)]
pub fn scaled(q: &Quat, k: f64) -> Quat {
    Quat { w: q.w * k, x: q.x * k }
}

#[grad]
pub fn sum_scaled(q: &Quat, k: f64) -> f64 {
    let r = scaled(q, k);
    r.w + r.x
}

fn main() {}
