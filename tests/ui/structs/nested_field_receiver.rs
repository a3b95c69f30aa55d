// A method called on a field of a nested struct of a struct parameter (`m.a.inner.norm()`): a
// field one level down is passed whole (`m.a.norm()` would be), a field of a nested struct is
// refused at the receiver, with what to write (copy it into a struct value).
use autodiff_runtime::{Differentiable, grad};

#[derive(Clone, Copy, Differentiable)]
pub struct Inner {
    pub c: f64,
}

impl Inner {
    #[grad]
    pub fn norm(&self) -> f64 {
        self.c * self.c
    }
}

#[derive(Clone, Copy, Differentiable)]
pub struct A {
    pub inner: Inner,
}

#[derive(Clone, Copy, Differentiable)]
pub struct M {
    pub a: A,
    pub b: f64,
}

#[grad]
pub fn f(m: &M) -> f64 {
    m.a.inner.norm() * m.b
}

fn main() {}
