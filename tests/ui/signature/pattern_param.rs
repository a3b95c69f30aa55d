// Checks that a parameter bound by a pattern instead of an identifier is rejected at the pattern.
use autodiff_runtime::grad;

#[grad]
fn product((a, b): (f64, f64)) -> f64 {
    a * b
}

fn main() {}
