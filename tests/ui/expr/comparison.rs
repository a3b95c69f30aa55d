// Checks that a comparison outside the condition of an `if` (a `bool` variable) is rejected at
// the comparison.
use autodiff_runtime::grad;

#[grad]
fn compare(x: f64) -> f64 {
    let _above = x > 1.0;
    x * x
}

fn main() {}
