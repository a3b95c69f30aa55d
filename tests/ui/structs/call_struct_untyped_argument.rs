// Checks that the value of a call returning a struct, passed to another call or used as a
// receiver without being bound with its type, is refused at the call, saying to bind it with
// the struct's type first.
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

    #[grad(jvp)]
    pub fn conj(&self) -> Quat {
        Quat { w: self.w, x: -self.x }
    }
}

#[grad]
pub fn argument(q: &Quat, p: &Quat) -> f64 {
    let r: Quat = q.mul(&p.conj());
    r.w
}

#[grad]
pub fn receiver(q: &Quat, p: &Quat) -> f64 {
    let r: Quat = q.mul(p).mul(q);
    r.x
}

fn main() {}
