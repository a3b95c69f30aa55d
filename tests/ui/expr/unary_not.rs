// Checks that a `bool` variable made from a `bool` parameter (`!on`) is rejected at the
// parameter: conditions read comparisons and the body's own `bool` variables.
use autodiff_runtime::grad;

#[grad]
fn flipped(x: f64, on: bool) -> f64 {
    let _off = !on;
    x
}

fn main() {}
