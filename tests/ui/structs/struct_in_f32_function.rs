// Checks that a differentiated struct parameter in a function that computes in `f32` (or in a
// type parameter `T: Float`) is refused at its type, saying to write the function over `f64`
// or to leave the struct out of `wrt(...)`.
use autodiff_runtime::{Differentiable, Float, grad};

#[derive(Clone, Copy, Differentiable)]
pub struct Pair {
    pub a: f64,
    pub b: f64,
}

#[grad]
pub fn scaled(p: &Pair, x: f32) -> f32 {
    x * (p.a + p.b) as f32
}

#[grad]
pub fn generic<T: Float>(p: &Pair, x: T) -> T {
    x * T::from(p.a).unwrap()
}

fn main() {}
