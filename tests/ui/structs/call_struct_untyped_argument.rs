// Checks that the value of a call of a free function returning a struct, lent to another call
// without being bound, is refused at the call, saying to bind it first: lent, it could be an array
// or a struct. As a receiver (`conj(q).mul(p)`), it is of the type `conj_value` that `#[grad]`
// writes next to `conj` (a method's value, `p.conj()`, takes its receiver's type).
use autodiff_runtime::{Differentiable, grad};

#[derive(Clone, Copy, Differentiable)]
pub struct Quat {
    pub w: f64,
    pub x: f64,
}

impl Quat {
    #[grad(jvp)]
    pub fn mul(&self, o: &Quat) -> Quat {
        Quat { w: self.w * o.w - self.x * o.x, x: self.w * o.x + self.x * o.w }
    }
}

#[grad(jvp)]
pub fn conj(q: &Quat) -> Quat {
    Quat { w: q.w, x: -q.x }
}

#[grad]
pub fn argument(q: &Quat, p: &Quat) -> f64 {
    let r: Quat = q.mul(&conj(p));
    r.w
}

#[grad]
pub fn receiver(q: &Quat, p: &Quat) -> f64 {
    let r: Quat = conj(q).mul(p);
    r.x
}

#[grad]
pub fn receiver_untyped(q: &Quat, p: &Quat) -> f64 {
    let r = conj(q).mul(p);
    r.x
}

fn main() {}
