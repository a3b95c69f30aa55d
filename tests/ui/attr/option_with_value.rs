// Checks that a flag option written with a value (`hvp = true`) is rejected at the option.
use autodiff_runtime::grad;

#[grad(hvp = true)]
fn square(x: f64) -> f64 {
    x * x
}

fn main() {}
