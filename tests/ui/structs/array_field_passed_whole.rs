// An array field of a struct parameter passed whole to a call by value, and never indexed in the
// body: the macro takes it for an `f64`, and rustc says so at the field, with how to bind it
// with its type (`let c: [f64; 3] = s.c;`).
use autodiff_runtime::{Differentiable, grad};

#[derive(Differentiable)]
pub struct S {
    pub c: [f64; 3],
    pub b: f64,
}

#[grad]
pub fn g(a: [f64; 3]) -> f64 {
    a[0] * a[1] + a[2]
}

#[grad]
pub fn f(s: &S) -> f64 {
    g(s.c) * s.b
}

fn main() {}
