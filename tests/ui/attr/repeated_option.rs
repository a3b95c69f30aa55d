// Checks that an option given twice is rejected at its second occurrence.
use autodiff_runtime::grad;

#[grad(hvp, jvp, hvp)]
fn square(x: f64) -> f64 {
    x * x
}

fn main() {}
