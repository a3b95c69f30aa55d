// Checks that a method whose value is read as a struct without a typed `let` is taken to return
// its receiver's type, and that a method returning another type is rustc's type error at the
// call, naming both types (never a wrong value).
use autodiff_runtime::{Differentiable, grad};

#[derive(Clone, Copy, Differentiable)]
pub struct Quat {
    pub w: f64,
    pub x: f64,
}

#[derive(Clone, Copy, Differentiable)]
pub struct Polar {
    pub w: f64,
    pub x: f64,
}

impl Quat {
    #[grad(jvp)]
    pub fn polar(&self) -> Polar {
        Polar { w: self.w * self.x, x: self.x }
    }
}

#[grad]
pub fn bound(q: &Quat) -> f64 {
    let r = q.polar();
    r.w + r.x
}

#[grad]
pub fn chained(q: &Quat) -> f64 {
    q.polar().w
}

fn main() {}
