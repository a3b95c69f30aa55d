// Checks that a comparison of `bool` values (`above == true`) is rejected at the comparison: the
// `bool` itself, or its negation, is the condition.
use autodiff_runtime::grad;

#[grad]
fn compare(x: f64) -> f64 {
    let above = x > 1.0;
    if above == true { x } else { x * x }
}

fn main() {}
