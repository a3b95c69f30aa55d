// Checks that `argmin` refuses a differentiated `f64` (argmin's parameter is a vector) and a
// function returning `f32`.
use autodiff_runtime::grad;

#[grad(argmin)]
fn f(x: f64) -> f64 {
    x * x
}

#[grad(argmin)]
fn g(x: [f32; 2]) -> f32 {
    x[0] * x[1]
}

fn main() {}
