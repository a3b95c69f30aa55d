// An array field of a struct parameter bound to a local that is passed whole to a call and never
// indexed: the macro takes the local for an `f64` (a field passed whole itself, `g(s.c)`, is
// held as its scalars whatever its type; a local bound to it is not), and rustc says so at the
// field, with how to bind it with its type (`let c: [f64; 3] = s.c;`).
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
    let c = s.c;
    g(c) * s.b
}

fn main() {}
