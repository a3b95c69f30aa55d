// Checks a nested struct field read only whole where `#[grad]` holds it as its scalars laid flat
// and rebuilds it in the type of where it goes: copied into the returned struct, and, of a
// struct returned by a call, bound to an untyped local and passed to a call. A struct is not
// rebuilt from its scalars (its fields that are not differentiated are not among them): rustc
// reports it at the field of the literal, and at the call.
use autodiff_runtime::{Differentiable, grad};

#[derive(Clone, Copy, Default, Differentiable)]
pub struct Inner {
    pub c: f64,
    #[no_grad]
    pub steps: usize,
}

#[derive(Clone, Copy, Differentiable)]
pub struct Outer {
    pub inner: Inner,
    pub b: f64,
}

#[grad]
pub fn norm(q: &Inner) -> f64 {
    q.c * q.c
}

#[grad]
pub fn copied(m: &Outer) -> Outer {
    Outer { inner: m.inner, b: m.b * 2.0 }
}

#[grad]
pub fn passed(m: &Outer) -> f64 {
    let r: Outer = copied(m);
    let inner = r.inner;
    norm(&inner) + r.b
}

fn main() {}
