// A row of a two-dimensional array field passed whole to a call (`g(s.m[0])`), the field never
// indexed deeper: the macro takes the field for an array of one dimension and the row for an
// `f64` (a field passed whole itself, `g(s.m)`, or a local bound to it, `let m = s.m; g(m)`, is
// held as its scalars whatever its type; a row is not), and rustc says so, with how to bind the
// row with its type (`let r: [f64; 2] = s.m[0];`).
use autodiff_runtime::{Differentiable, grad};

#[derive(Differentiable)]
pub struct S {
    pub m: [[f64; 2]; 2],
    pub b: f64,
}

#[grad]
pub fn g(a: [f64; 2]) -> f64 {
    a[0] * a[1]
}

#[grad]
pub fn f(s: &S) -> f64 {
    g(s.m[0]) * s.b
}

fn main() {}
