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

/// A struct nested in [`Nested`], with a `#[grad]` method.
#[derive(Clone, Copy, Debug, PartialEq, Differentiable)]
pub struct Inner {
    /// A scalar.
    pub c: f64,
    /// A vector.
    pub d: [f64; 2],
}

impl Inner {
    /// `c² + d₀ d₁ + sin d₁`, a method taking `&self`.
    #[grad(jvp, hvp)]
    pub fn norm(&self) -> f64 {
        self.c * self.c + self.d[0] * self.d[1] + self.d[1].sin()
    }

    /// `c exp(d₀) + t d₁`, a method taking `self` by value.
    #[grad(jvp, hvp)]
    pub fn scaled(self, t: f64) -> f64 {
        self.c * self.d[0].exp() + t * self.d[1]
    }
}

/// A struct with a nested struct and a matrix, whose fields the functions below pass whole to
/// calls and never index: nothing in their bodies tells the fields' types.
#[derive(Clone, Copy, Debug, PartialEq, Differentiable)]
pub struct Nested {
    /// A scalar.
    pub b: f64,
    /// A nested struct.
    pub inner: Inner,
    /// A 2×3 matrix, by rows.
    pub w: [[f64; 3]; 2],
}

/// `c d₀ + cos(c d₁)`, of an [`Inner`] by reference.
#[grad(jvp, hvp)]
pub fn inner_ref(q: &Inner) -> f64 {
    q.c * q.d[0] + (q.c * q.d[1]).cos()
}

/// `c d₁²`, of an [`Inner`] by value.
#[grad(jvp, hvp)]
pub fn inner_val(q: Inner) -> f64 {
    q.c * q.d[1] * q.d[1]
}

/// `Σ w₀ⱼ w₁ⱼ + sin w₁₂`, of a matrix by reference.
#[grad(jvp, hvp)]
pub fn mat_ref(w: &[[f64; 3]; 2]) -> f64 {
    w[0][0] * w[1][0] + w[0][1] * w[1][1] + w[0][2] * w[1][2] + w[1][2].sin()
}

/// `w₀₀ w₁₂ exp(w₀₁)`, of a matrix by value.
#[grad(jvp, hvp)]
pub fn mat_val(w: [[f64; 3]; 2]) -> f64 {
    w[0][0] * w[1][2] * w[0][1].exp()
}

/// A nested struct field passed whole by reference and by value, and read by its fields too.
#[grad(jvp, hvp)]
pub fn nested_calls(m: &Nested) -> f64 {
    inner_ref(&m.inner) * m.b + inner_val(m.inner) + m.inner.c * m.inner.d[1]
}

/// A nested struct field as the receiver of `#[grad]` methods (by `&self` and by `self`).
#[grad(jvp, hvp)]
pub fn nested_methods(m: &Nested) -> f64 {
    m.inner.norm() * m.b + m.inner.scaled(m.b)
}

/// A matrix field passed whole by reference and by value, never indexed.
#[grad(jvp, hvp)]
pub fn matrix_calls(m: &Nested) -> f64 {
    mat_ref(&m.w) * m.b + mat_val(m.w)
}

/// An array field passed whole by value, never indexed.
#[grad(jvp, hvp)]
pub fn vector_by_value(s: &Fields) -> f64 {
    dot3(s.c) * s.b + s.m[1][0]
}

/// Fields passed whole, in a function returning an array.
#[grad(jvp, hvp, jacobian)]
pub fn whole_out(m: &Nested) -> [f64; 2] {
    [mat_ref(&m.w) * m.inner.norm(), inner_val(m.inner) + m.b * mat_val(m.w)]
}

/// Fields passed whole and left out of `wrt`: constants of the calls, with zero directions.
#[grad(jvp, hvp, wrt(m.b))]
pub fn selected(m: &Nested) -> f64 {
    mat_ref(&m.w) * m.b * m.b + m.inner.scaled(m.b) + mat_val(m.w)
}

/// A [`Nested`] scaled by `t`: a function returning a struct with a nested struct.
#[grad(jvp, hvp)]
pub fn scaled_nested(m: &Nested, t: f64) -> Nested {
    let w = [[m.w[0][0] * t, m.w[0][1], m.w[0][2]], [m.w[1][0], m.w[1][1], m.w[1][2].sin()]];
    let inner = Inner { c: m.inner.c * t, d: [m.inner.d[0].exp(), t * m.inner.d[1]] };
    Nested { b: t * m.b, inner, w }
}

/// The value of a call returning a struct, read by the fields of its nested struct.
#[grad(jvp, hvp)]
pub fn nested_read(m: &Nested) -> f64 {
    let r: Nested = scaled_nested(m, m.b);
    r.inner.c * r.inner.d[1] + r.b * r.inner.d[0] + r.inner.c.sin()
}

impl Nested {
    /// Fields of `self` passed whole: a nested struct as a receiver, a matrix by reference.
    #[grad(jvp, hvp)]
    pub fn through_self(&self) -> f64 {
        self.inner.norm() * self.b + mat_ref(&self.w) * self.inner.c
    }
}

/// Fields bound whole to untyped locals, then passed whole to calls and used as a receiver:
/// the locals are copies of the fields, passed as the fields themselves are.
#[grad(jvp, hvp, hessian)]
pub fn bound_then_passed(m: &Nested) -> f64 {
    let w = m.w;
    let inner = m.inner;
    let v = w;
    mat_ref(&w) * m.b + mat_val(v) + inner.norm() * inner_val(inner)
}

/// [`bound_then_passed`] with the fields passed themselves: the form it is checked against bit
/// for bit.
#[grad(jvp, hvp)]
pub fn passed_directly(m: &Nested) -> f64 {
    mat_ref(&m.w) * m.b + mat_val(m.w) + m.inner.norm() * inner_val(m.inner)
}

/// An array field bound to an untyped local, passed whole by value and by reference, in a
/// function returning an array.
#[grad(jvp, hvp, jacobian)]
pub fn bound_out(s: &Fields) -> [f64; 2] {
    let c = s.c;
    [dot3(c) * s.b, dot3_ref(&c) + s.m[0][1]]
}

/// A struct with [`Nested`] inside: fields two and three levels down.
#[derive(Clone, Copy, Debug, PartialEq, Differentiable)]
pub struct Deep {
    /// A scalar.
    pub k: f64,
    /// A nested struct, with a nested struct and a matrix of its own.
    pub a: Nested,
}

/// Fields of a nested struct passed whole, never indexed: a matrix (by reference and by
/// value), a struct (by value, and as the receiver of methods by `&self` and `self`), a vector
/// three levels down.
#[grad(jvp, hvp, hessian)]
pub fn deep_calls(m: &Deep) -> f64 {
    let prod = m.a.inner.norm() * inner_val(m.a.inner) + m.a.inner.scaled(m.k);
    mat_ref(&m.a.w) * m.k + mat_val(m.a.w) + prod + m.a.b * m.a.inner.c + row2(m.a.inner.d)
}

/// [`deep_calls`] with the fields bound with their types and copied into a struct value first:
/// the form it is checked against.
#[grad(jvp, hvp)]
pub fn deep_typed(m: &Deep) -> f64 {
    let w: [[f64; 3]; 2] = m.a.w;
    let inner = Inner { c: m.a.inner.c, d: [m.a.inner.d[0], m.a.inner.d[1]] };
    let d: [f64; 2] = m.a.inner.d;
    let prod = inner.norm() * inner_val(inner) + inner.scaled(m.k);
    mat_ref(&w) * m.k + mat_val(w) + prod + m.a.b * m.a.inner.c + row2(d)
}

/// Fields two levels down passed whole and left out of `wrt`: constants of the calls.
#[grad(jvp, hvp, wrt(m.k))]
pub fn deep_selected(m: &Deep) -> f64 {
    mat_ref(&m.a.w) * m.k * m.k + m.a.inner.scaled(m.k)
}

impl Deep {
    /// Fields of `self` two levels down passed whole, and a copy of one.
    #[grad(jvp, hvp)]
    pub fn deep_self(&self) -> f64 {
        let inner = self.a.inner;
        inner.norm() * mat_ref(&self.a.w) + self.k * inner_ref(&inner)
    }
}

/// A 2×2 matrix by reference: `a₀₀a₁₁ − a₁₀ cos a₀₁`.
#[grad(jvp, hvp)]
pub fn det_cos(a: &[[f64; 2]; 2]) -> f64 {
    a[0][0] * a[1][1] - a[1][0] * a[0][1].cos()
}

/// `b eᵇ`, of an `f64`.
#[grad(jvp, hvp)]
pub fn bexp(b: f64) -> f64 {
    b * b.exp()
}

/// Array fields copied whole into the returned struct (`c: s.c`, `m: s.m`, never indexed):
/// held as their scalars laid flat and rebuilt in the fields' types.
#[grad(jvp, hvp)]
pub fn copied_whole(s: &Fields) -> Fields {
    Fields { c: s.c, m: s.m, b: s.b * s.b.sin() }
}

/// Every field copied whole, the `f64` one too (`b: s.b`, held as one scalar laid flat).
#[grad(jvp, hvp)]
pub fn copied_all(s: &Fields) -> Fields {
    Fields { c: s.c, m: s.m, b: s.b }
}

/// [`copied_whole`] with the fields' elements written out.
#[grad(jvp, hvp)]
pub fn copied_elements(s: &Fields) -> Fields {
    let m = [[s.m[0][0], s.m[0][1]], [s.m[1][0], s.m[1][1]]];
    Fields { c: [s.c[0], s.c[1], s.c[2]], m, b: s.b * s.b.sin() }
}

/// [`copied_whole`] through locals: `let c = s.c; let out = Fields { c, .. }; out`.
#[grad(jvp, hvp)]
#[allow(
    clippy::let_and_return,
    reason = "the literal bound to a local, then returned, is the case"
)]
pub fn copied_through_locals(s: &Fields) -> Fields {
    let c = s.c;
    let m = s.m;
    let out = Fields { c, m, b: s.b * s.b.sin() };
    out
}

/// The fields of a struct returned by a call copied whole into the returned struct.
#[grad(jvp, hvp)]
pub fn recopied(s: &Fields) -> Fields {
    let r: Fields = copied_whole(s);
    Fields { c: r.c, m: r.m, b: r.b * 2.0 }
}

/// [`recopied`] with the fields' elements written out.
#[grad(jvp, hvp)]
pub fn recopied_elements(s: &Fields) -> Fields {
    let r: Fields = copied_whole(s);
    let m = [[r.m[0][0], r.m[0][1]], [r.m[1][0], r.m[1][1]]];
    Fields { c: [r.c[0], r.c[1], r.c[2]], m, b: r.b * 2.0 }
}

/// A struct value of the body holding copies of array fields, read by its elements.
#[grad(jvp, hvp)]
pub fn copied_then_read(s: &Fields) -> f64 {
    let n = Fields { c: s.c, m: s.m, b: s.b };
    n.c[0] * n.m[1][0] + n.c[2].sin() * n.b + n.m[0][1] * n.c[1]
}

/// The struct of [`recopied`], a call's value, read by its elements.
#[grad(jvp, hvp)]
pub fn loss_of_recopied(s: &Fields) -> f64 {
    let n: Fields = recopied(s);
    n.c[0] * n.m[1][0] + n.c[2].sin() * n.b + n.m[0][1] * n.c[1]
}

/// Fields of a struct returned by a call bound to untyped locals and passed whole to calls,
/// never indexed (a vector, a matrix, an `f64`), and one passed by reference itself.
#[grad(jvp, hvp)]
pub fn passed_untyped(s: &Fields) -> f64 {
    let r: Fields = copied_whole(s);
    let c = r.c;
    let m = r.m;
    let b = r.b;
    dot3(c) * det_cos(&m) + dot3_ref(&r.c) + bexp(b)
}

/// [`passed_untyped`] with the locals' types written.
#[grad(jvp, hvp)]
pub fn passed_typed(s: &Fields) -> f64 {
    let r: Fields = copied_whole(s);
    let c: [f64; 3] = r.c;
    let m: [[f64; 2]; 2] = r.m;
    let b: f64 = r.b;
    dot3(c) * det_cos(&m) + dot3_ref(&r.c) + bexp(b)
}
