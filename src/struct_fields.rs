//! Array fields of a struct parameter read whole (issue 15): passed to calls by value and by
//! reference (`g(s.c)`, `g(&s.c)`), bound to locals (`let y = s.m;`, `let c: [f64; 3] = s.c;`),
//! and a row of a two-dimensional field used as an array (`let r = s.m[0];`, `g(s.m[1])`).
//! A macro sees no types: the body says that a field is an array by indexing it, or a local
//! bound to it, or by a typed `let`.

use autodiff_runtime::{Differentiable, grad};

/// A struct with a vector, a 2×2 matrix and a scalar.
#[derive(Clone, Copy, Debug, PartialEq, Differentiable)]
pub struct Fields {
    /// A vector.
    pub c: [f64; 3],
    /// A 2×2 matrix, by rows.
    pub m: [[f64; 2]; 2],
    /// A scalar.
    pub b: f64,
}

/// `a₀a₁ + sin a₂`, of an array taken by value.
#[grad(jvp, hvp)]
pub fn dot3(a: [f64; 3]) -> f64 {
    a[0] * a[1] + a[2].sin()
}

/// `a₀a₁ + sin a₂`, of an array taken by reference.
#[grad(jvp, hvp)]
pub fn dot3_ref(a: &[f64; 3]) -> f64 {
    a[0] * a[1] + a[2].sin()
}

/// `a₀ cos a₁`, of a row.
#[grad(jvp, hvp)]
pub fn row2(a: [f64; 2]) -> f64 {
    a[0] * a[1].cos()
}

/// The array field `s.c` passed to calls by value and by reference (the body indexes it too).
#[grad(jvp, hvp)]
pub fn call_field(s: &Fields) -> f64 {
    dot3(s.c) * s.c[1] + dot3_ref(&s.c) * s.b
}

/// Fields bound with their types (`let c: [f64; 3] = s.c;`), then passed to calls: the typed
/// `let` tells the macro what is an array.
#[grad(jvp, hvp)]
pub fn call_typed(s: &Fields) -> f64 {
    let c: [f64; 3] = s.c;
    let r: [f64; 2] = s.m[1];
    dot3(c) * row2(r) + s.b
}

/// Array fields bound whole to locals, read through them.
#[grad(jvp, hvp)]
pub fn bound_whole(s: &Fields) -> f64 {
    let y = s.m;
    let z = s.c;
    y[0][1] * y[1][0] + z[0] * z[2] * s.b
}

/// Rows of a matrix field used as arrays: bound to locals, and passed to a call.
#[grad(jvp, hvp)]
pub fn rows(s: &Fields) -> f64 {
    let r = s.m[0];
    let q = s.m[1];
    r[1] * q[0] + row2(r) * s.b + row2(s.m[1])
}

/// A function returning an array, of rows and an array field passed to calls.
#[grad(jvp, hvp)]
pub fn rows_out(s: &Fields) -> [f64; 2] {
    let r = s.m[1];
    [row2(r) * s.c[0], r[0] * s.b + dot3(s.c)]
}
