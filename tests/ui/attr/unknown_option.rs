// Checks that an unknown option (a misspelt `hvp`) is rejected at the option.
use autodiff_runtime::grad;

#[grad(hvpp)]
fn square(x: f64) -> f64 {
    x * x
}

fn main() {}
