// Checks that a field of a struct type that does not derive `Differentiable` is reported at the
// field's type, saying to derive it or mark the field `#[no_grad]`.
use autodiff_runtime::Differentiable;

pub struct Inner {
    pub c: f64,
}

#[derive(Differentiable)]
pub struct Model {
    pub b: f64,
    pub inner: Inner,
}

fn main() {}
