// Checks an array field of a struct returned by a call bound to a local that the body never
// indexes (`let w = r.v;` passed whole to a call): `#[grad]` reads the field's shape from how the
// body indexes it, takes this one for an `f64`, and rustc reports the call (a typed `let`,
// `let w: [f64; 3] = r.v;`, says what it is); a `let` whose type is not the field's is reported
// at the field.
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
pub fn untyped(x: [f64; 3], c: f64) -> f64 {
    let r: Out = make(x, c);
    let w = r.v;
    sum3(w) + r.a
}

#[grad]
pub fn mistyped(x: [f64; 3], c: f64) -> f64 {
    let r: Out = make(x, c);
    let w: [f64; 2] = r.v;
    w[0] + r.a
}

fn main() {}
