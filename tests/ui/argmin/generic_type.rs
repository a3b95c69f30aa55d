// Checks that `argmin` refuses a function generic over its float type (the problem is over
// `Vec<f64>`); a lifetime parameter is refused by `#[grad]` itself.
use autodiff_runtime::{Float, grad};

#[grad(argmin)]
fn f<T: Float>(x: [T; 2]) -> T {
    x[0] * x[1]
}

#[grad(wrt(x), argmin)]
fn g<'a>(x: &[f64], data: &'a [f64]) -> f64 {
    x[0] * data[0]
}

fn main() {}
