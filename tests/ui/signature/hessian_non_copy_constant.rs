// Checks that `hessian` with a constant parameter that is not `Copy` is reported at that
// parameter's type: `f_hessian` passes it to `f_hvp` once per direction. (`wrt(x)` makes the
// `Vec<f64>` a constant; without it, it is refused.)
use autodiff_runtime::grad;

#[grad(wrt(x), hessian)]
fn weighted(x: f64, weights: Vec<f64>) -> f64 {
    weights[0] * x * x
}

fn main() {}
