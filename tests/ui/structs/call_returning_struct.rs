// Checks that the value of a call of a free function returning a struct, read as a struct without
// being bound with its type, is of the type `g_value` that `#[grad]` writes next to such a
// function, named at the call: a generic function has none (a type alias of its value would need
// its parameters), and rustc says so there. A method's value takes its receiver's type (see
// `call_struct_inferred_wrong`); the same call bound with its type works.
use autodiff_runtime::{Differentiable, grad};

#[derive(Clone, Copy, Differentiable)]
pub struct Quat {
    pub w: f64,
    pub x: f64,
}

#[grad(jvp)]
pub fn scaled<const N: usize>(q: &Quat, k: [f64; N]) -> Quat {
    Quat { w: q.w * k[0], x: q.x * k[N - 1] }
}

#[grad]
pub fn sum_scaled(q: &Quat, k: f64) -> f64 {
    let r = scaled(q, [k; 2]);
    r.w + r.x
}

#[grad]
pub fn sum_scaled_typed(q: &Quat, k: f64) -> f64 {
    let r: Quat = scaled(q, [k; 2]);
    r.w + r.x
}

fn main() {}
