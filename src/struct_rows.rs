//! Rows of array fields passed whole to calls (issue 15): `g(s.m[0])`, `g(&s.m[i])` in a loop,
//! of a struct parameter, of `self` in a method, and of a struct returned by a call, where the
//! body never indexes the field as deep as its elements (a macro sees no types, and the row
//! could be an `f64` as well as an array); each beside its twin that binds the row with its
//! type first (`let r: [f64; 2] = s.m[0];`), the form it is checked against bit for bit.

use autodiff_runtime::{Differentiable, grad};

/// A 2×2 matrix, a scalar, and a constant matrix.
#[derive(Clone, Copy, Debug, PartialEq, Differentiable)]
pub struct Rows {
    /// A 2×2 matrix, by rows.
    pub m: [[f64; 2]; 2],
    /// A scalar.
    pub b: f64,
    /// A constant matrix, not differentiated.
    #[no_grad]
    pub k: [[f64; 2]; 2],
}

/// `a₀ sin a₁`, of a row by value.
#[grad(jvp, hvp)]
pub fn pair(a: [f64; 2]) -> f64 {
    a[0] * a[1].sin()
}

/// `exp(a₀) a₁`, of a row by reference.
#[grad(jvp, hvp)]
pub fn pair_ref(a: &[f64; 2]) -> f64 {
    a[0].exp() * a[1]
}

/// `x²`, of an `f64`.
#[grad(jvp, hvp)]
pub fn square(x: f64) -> f64 {
    x * x
}

/// Rows passed by value.
#[grad(jvp, hvp, hessian)]
pub fn by_value(s: &Rows) -> f64 {
    pair(s.m[0]) * s.b + pair(s.m[1])
}

/// [`by_value`] with the rows bound with their types.
#[grad(jvp, hvp, hessian)]
pub fn by_value_typed(s: &Rows) -> f64 {
    let r0: [f64; 2] = s.m[0];
    let r1: [f64; 2] = s.m[1];
    pair(r0) * s.b + pair(r1)
}

/// Rows passed by reference.
#[grad(jvp, hvp)]
pub fn by_ref(s: &Rows) -> f64 {
    pair_ref(&s.m[1]) * s.b + pair_ref(&s.m[0])
}

/// [`by_ref`] with the rows bound with their types.
#[grad(jvp, hvp)]
pub fn by_ref_typed(s: &Rows) -> f64 {
    let r0: [f64; 2] = s.m[0];
    let r1: [f64; 2] = s.m[1];
    pair_ref(&r1) * s.b + pair_ref(&r0)
}

/// Rows passed in a loop, indexed by its index, the struct taken by value.
#[grad(jvp, hvp)]
pub fn in_loop(s: Rows) -> f64 {
    let mut acc = 0.0;
    for i in 0..2 {
        acc += pair(s.m[i]) * s.b + pair_ref(&s.m[1 - i]);
    }
    acc
}

/// [`in_loop`] with the rows bound with their types.
#[grad(jvp, hvp)]
pub fn in_loop_typed(s: Rows) -> f64 {
    let mut acc = 0.0;
    for i in 0..2 {
        let r: [f64; 2] = s.m[i];
        let q: [f64; 2] = s.m[1 - i];
        acc += pair(r) * s.b + pair_ref(&q);
    }
    acc
}

/// A row passed whole, the field indexed as deep as its elements elsewhere, elements passed to
/// a call of an `f64`, and rows of a constant field (`#[no_grad]`).
#[grad(jvp, hvp)]
pub fn mixed(s: &Rows) -> f64 {
    pair(s.m[0]) * s.m[1][0] + square(s.m[1][1]) + pair(s.k[1]) * s.b + square(s.k[0][1])
}

/// [`mixed`] with the rows bound with their types.
#[grad(jvp, hvp)]
pub fn mixed_typed(s: &Rows) -> f64 {
    let r: [f64; 2] = s.m[0];
    let k: [f64; 2] = s.k[1];
    let e: f64 = s.m[1][1];
    let c: f64 = s.k[0][1];
    pair(r) * s.m[1][0] + square(e) + pair(k) * s.b + square(c)
}

/// `det m`, of a matrix by reference.
#[grad(jvp, hvp)]
pub fn mat(m: &[[f64; 2]; 2]) -> f64 {
    m[0][0] * m[1][1] - m[0][1] * m[1][0]
}

/// A field passed whole and by rows, and elements of rows passed to a call of an `f64`.
#[grad(jvp, hvp)]
pub fn whole_and_rows(s: &Rows) -> f64 {
    mat(&s.m) * s.b + pair(s.m[1]) + square(s.m[0][1])
}

/// [`whole_and_rows`] with the row and the element bound with their types.
#[grad(jvp, hvp)]
pub fn whole_and_rows_typed(s: &Rows) -> f64 {
    let m: [[f64; 2]; 2] = s.m;
    let r: [f64; 2] = s.m[1];
    let e: f64 = s.m[0][1];
    mat(&m) * s.b + pair(r) + square(e)
}

impl Rows {
    /// Rows of `self`'s field passed to calls, in a method.
    #[grad(jvp, hvp)]
    pub fn energy(&self, t: f64) -> f64 {
        pair(self.m[0]) * t + pair_ref(&self.m[1]) * self.b
    }

    /// [`Rows::energy`] with the rows bound with their types.
    #[grad(jvp, hvp)]
    pub fn energy_typed(&self, t: f64) -> f64 {
        let r0: [f64; 2] = self.m[0];
        let r1: [f64; 2] = self.m[1];
        pair(r0) * t + pair_ref(&r1) * self.b
    }

    /// `self` with its first row turned by `t` and `b` moved by it.
    #[grad(jvp, hvp)]
    pub fn turned(&self, t: f64) -> Rows {
        let (c, d) = (t.cos(), t.sin());
        let m = [
            [c * self.m[0][0] - d * self.m[0][1], d * self.m[0][0] + c * self.m[0][1]],
            [self.m[1][0], self.m[1][1]],
        ];
        Rows { m, b: self.b + t, k: self.k }
    }
}

/// Rows of a field of a struct returned by a call passed to calls, and the field passed whole.
#[grad(jvp, hvp)]
pub fn via_call(s: &Rows, t: f64) -> f64 {
    let r: Rows = s.turned(t);
    let mut acc = pair(r.m[0]) * r.b + mat(&r.m);
    for i in 0..2 {
        acc += pair_ref(&r.m[i]);
    }
    acc
}

/// [`via_call`] with the rows bound with their types.
#[grad(jvp, hvp)]
pub fn via_call_typed(s: &Rows, t: f64) -> f64 {
    let r: Rows = s.turned(t);
    let r0: [f64; 2] = r.m[0];
    let m: [[f64; 2]; 2] = r.m;
    let mut acc = pair(r0) * r.b + mat(&m);
    for i in 0..2 {
        let q: [f64; 2] = r.m[i];
        acc += pair_ref(&q);
    }
    acc
}

/// A quaternion, its components in an array.
#[derive(Clone, Copy, Debug, PartialEq, Differentiable)]
pub struct Quat {
    /// `w, x, y, z`.
    pub v: [f64; 4],
}

impl Quat {
    /// The quaternion of the components `w, x, y, z`.
    #[grad(jvp, hvp)]
    pub fn new(w: f64, x: f64, y: f64, z: f64) -> Self {
        Quat { v: [w, x, y, z] }
    }

    /// The Hamilton product `self · p`.
    #[grad(jvp, hvp)]
    pub fn mul(&self, p: &Quat) -> Self {
        let a = self.v;
        let b = p.v;
        let w = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
        let x = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
        let y = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
        let z = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
        Quat { v: [w, x, y, z] }
    }
}

/// Elements of the array field of calls' struct values, read without binding the values.
#[grad(jvp, hvp)]
pub fn unbound(q: &Quat, p: &Quat, t: f64) -> f64 {
    let mut acc = q.mul(p).v[0] * Quat::new(t, 0.5, -t, 1.0).v[2];
    for i in 0..4 {
        acc += q.mul(p).v[i] * p.v[i];
    }
    acc
}

/// [`unbound`] with the values bound first.
#[grad(jvp, hvp)]
pub fn unbound_bound(q: &Quat, p: &Quat, t: f64) -> f64 {
    let r = q.mul(p);
    let n = Quat::new(t, 0.5, -t, 1.0);
    let mut acc = r.v[0] * n.v[2];
    for i in 0..4 {
        let r = q.mul(p);
        acc += r.v[i] * p.v[i];
    }
    acc
}

/// Rows passed to calls in a function returning an array, and a row of an untyped local bound
/// to a call's struct value (its type taken from the method's receiver).
#[grad(jvp, hvp, jacobian)]
pub fn rows_out(s: &Rows, t: f64) -> [f64; 2] {
    let r = s.turned(t);
    [pair(s.m[0]) * s.b + pair(r.m[1]), pair_ref(&s.m[1]) * t]
}

/// [`rows_out`] with the rows bound with their types.
#[grad(jvp, hvp, jacobian)]
pub fn rows_out_typed(s: &Rows, t: f64) -> [f64; 2] {
    let r = s.turned(t);
    let r0: [f64; 2] = s.m[0];
    let r1: [f64; 2] = s.m[1];
    let q1: [f64; 2] = r.m[1];
    [pair(r0) * s.b + pair(q1), pair_ref(&r1) * t]
}

/// Rows of a field of calls' struct values passed to calls without binding the values, and
/// rows of an untyped local copy of a field.
#[grad(jvp, hvp)]
pub fn unbound_rows(s: &Rows, t: f64) -> f64 {
    let y = s.m;
    pair(s.turned(t).m[0]) + pair_ref(&s.turned(t).m[1]) * s.b + pair(y[1]) * t
}

/// [`unbound_rows`] with the values bound and the rows bound with their types.
#[grad(jvp, hvp)]
pub fn unbound_rows_bound(s: &Rows, t: f64) -> f64 {
    let r0 = s.turned(t);
    let q0: [f64; 2] = r0.m[0];
    let r1 = s.turned(t);
    let q1: [f64; 2] = r1.m[1];
    let y1: [f64; 2] = s.m[1];
    pair(q0) + pair_ref(&q1) * s.b + pair(y1) * t
}

/// A row passed to a call, and elements of the field's other row passed to a closure: read as
/// `f64`s from the field's scalars laid flat.
#[grad(jvp, hvp)]
pub fn with_closure(s: &Rows) -> f64 {
    let h = |x: f64| x * x.sin();
    pair(s.m[0]) * h(s.m[1][0]) + h(s.m[1][1]) * s.b
}

/// [`with_closure`] with the row and the elements bound with their types.
#[grad(jvp, hvp)]
pub fn with_closure_typed(s: &Rows) -> f64 {
    let h = |x: f64| x * x.sin();
    let r: [f64; 2] = s.m[0];
    let e0: f64 = s.m[1][0];
    let e1: f64 = s.m[1][1];
    pair(r) * h(e0) + h(e1) * s.b
}

/// [`by_value`] differentiated in `b` alone: the rows of `m` are constants of the calls.
#[grad(jvp, hvp, wrt(s.b))]
pub fn by_value_b(s: &Rows) -> f64 {
    pair(s.m[0]) * s.b + pair(s.m[1])
}

/// [`by_value_typed`] differentiated in `b` alone.
#[grad(jvp, hvp, wrt(s.b))]
pub fn by_value_typed_b(s: &Rows) -> f64 {
    let r0: [f64; 2] = s.m[0];
    let r1: [f64; 2] = s.m[1];
    pair(r0) * s.b + pair(r1)
}
