// Checks an array field of a struct returned by a call bound to a `let` whose type is not the
// field's: reported at the field. (Bound to an untyped local and passed whole, `let w = r.v;
// sum3(w)`, it is held as its scalars laid flat and rebuilt in the parameter's type: see
// `passed_untyped` in tests/struct_fields.rs.)
use autodiff_runtime::{Differentiable, grad};

#[derive(Clone, Copy, Differentiable)]
pub struct Out {
    pub a: f64,
    pub v: [f64; 3],
}

#[grad]
pub fn make(x: [f64; 3], c: f64) -> Out {
    Out { a: c * c, v: [x[0] * x[1], x[1] * x[2], x[2] * c] }
}

#[grad]
pub fn sum3(v: [f64; 3]) -> f64 {
    v[0] + v[1] + v[2]
}

#[grad]
pub fn mistyped(x: [f64; 3], c: f64) -> f64 {
    let r: Out = make(x, c);
    let w: [f64; 2] = r.v;
    w[0] + r.a
}

fn main() {}
