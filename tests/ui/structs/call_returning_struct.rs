// Checks that a call of a function returning a struct, its value read as a struct, is refused at
// the call, saying what to write instead.
use autodiff_runtime::{Differentiable, grad};

#[derive(Clone, Copy, Differentiable)]
pub struct Quat {
    pub w: f64,
    pub x: f64,
}

impl Quat {
    #[grad(jvp)]
    pub fn scale(&self, k: f64) -> Quat {
        Quat { w: self.w * k, x: self.x * k }
    }

    #[grad]
    pub fn sum_scaled(&self, k: f64) -> f64 {
        let r = self.scale(k);
        r.w + r.x
    }
}

fn main() {}
