// Checks that `accumulate` on a function that differentiates no slice is refused at the option:
// its derivatives are returned, and there is no buffer to add into.
use autodiff_runtime::grad;

#[grad(accumulate)]
fn square(x: f64, data: &[f64]) -> f64 {
    x * x * data[0]
}

fn main() {}
