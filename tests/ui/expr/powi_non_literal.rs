// Checks that `powi` with an exponent that is not an integer literal is rejected at the exponent.
use autodiff_runtime::grad;

#[grad]
fn power(x: f64, n: i32) -> f64 {
    x.powi(n)
}

fn main() {}
