// Checks that `hvp` on a function returning a struct is refused at the option, saying what is
// generated instead.
use autodiff_runtime::{Differentiable, grad};

#[derive(Clone, Copy, Differentiable)]
pub struct Pair {
    pub a: f64,
    pub b: f64,
}

#[grad(hvp)]
pub fn scaled(p: &Pair, k: f64) -> Pair {
    Pair { a: p.a * k, b: p.b * k }
}

fn main() {}
