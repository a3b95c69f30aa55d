// A field of a nested struct passed whole to a call (`g(&m.a.w)`), where the nested struct's
// `Differentiable` is written by hand and leaves `TREE` empty: the field's scalars cannot be
// found, and the build fails at the call, saying to derive `Differentiable`.
use autodiff_runtime::{Differentiable, grad};

#[derive(Clone, Copy)]
pub struct A {
    pub w: [f64; 2],
}

impl Differentiable for A {
    const LEN: usize = 2;
    fn zero_like(&self) -> Self {
        A { w: [0.0; 2] }
    }
    fn zero() -> Self {
        A { w: [0.0; 2] }
    }
    fn get(&self, k: usize) -> f64 {
        self.w.get(k).copied().unwrap_or(f64::NAN)
    }
    fn set(&mut self, k: usize, value: f64) {
        if let Some(e) = self.w.get_mut(k) {
            *e = value;
        }
    }
    fn tangent(&self) -> Self {
        *self
    }
    fn clear_constants(&mut self) {}
}

#[derive(Clone, Copy, Differentiable)]
pub struct M {
    pub a: A,
    pub b: f64,
}

#[grad]
pub fn g(w: &[f64; 2]) -> f64 {
    w[0] * w[1]
}

#[grad]
pub fn f(m: &M) -> f64 {
    g(&m.a.w) * m.b
}

fn main() {}
