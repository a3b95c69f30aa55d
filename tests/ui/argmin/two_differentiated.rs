// Checks that `argmin` refuses a function with two differentiated parameters: argmin optimises
// one vector.
use autodiff_runtime::grad;

#[grad(argmin)]
fn f(x: [f64; 2], y: f64) -> f64 {
    x[0] * x[1] + y * y
}

fn main() {}
