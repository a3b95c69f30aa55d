// A row of a two-dimensional array field of a generic struct (`s: &S<N>`) passed whole to a
// call, the field never indexed deeper. Rows of a concrete struct's field are held laid flat and
// rebuilt in the callee's type (`g(s.m[0])` works for `s: &S<2>`), but stable Rust does not take
// a length computed from a generic parameter in a type, so the row is taken for an `f64`, and
// rustc says so at the field, with how to bind the row with its type.
use autodiff_runtime::{Differentiable, grad};

#[derive(Differentiable)]
pub struct S<const N: usize> {
    pub m: [[f64; N]; 2],
    pub b: f64,
}

#[grad]
pub fn g<const N: usize>(a: [f64; N]) -> f64 {
    a[0] * a[N - 1]
}

#[grad]
pub fn f<const N: usize>(s: &S<N>) -> f64 {
    g(s.m[0]) * s.b
}

fn main() {}
