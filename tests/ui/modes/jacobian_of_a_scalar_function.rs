// `jacobian` is for functions with several outputs: on a scalar function it is refused, pointing
// to the gradient.
use autodiff_runtime::grad;

#[grad(jacobian)]
fn norm2(x: f64, y: f64) -> f64 {
    x * x + y * y
}

fn main() {}
