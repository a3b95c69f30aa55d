// Checks a struct generic over a type (`P<T>`): in a function over `T: Float`, a struct
// parameter is refused at its type (structs are differentiated in `f64` functions only); at
// `f64` (`P<f64>`), a type with type arguments is taken for data, and a function with no other
// parameter to differentiate is refused at that type, saying to write the struct over `f64`.
use autodiff_runtime::{Differentiable, Float, grad};

#[derive(Clone, Copy, Default, Differentiable)]
pub struct P<T> {
    pub a: T,
    pub b: T,
}

#[grad]
pub fn generic<T: Float>(p: &P<T>) -> T {
    p.a * p.b.sin()
}

#[grad]
pub fn at_f64(p: &P<f64>) -> f64 {
    p.a * p.b.sin()
}

fn main() {}
