// Checks that `hessian` with a constant parameter that is not `Copy` is reported at that
// parameter's type: `f_hessian` passes it to `f_hvp` once per direction.
use autodiff_runtime::grad;

#[grad(hessian)]
fn weighted(x: f64, weights: Vec<f64>) -> f64 {
    weights[0] * x * x
}

fn main() {}
