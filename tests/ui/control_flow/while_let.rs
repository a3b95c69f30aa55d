// Checks that a `while let` loop is rejected at its `let` (a `while` loop tests a comparison).
use autodiff_runtime::grad;

#[grad]
fn halve_while_some(x: f64, again: Option<f64>) -> f64 {
    let mut y = x;
    while let Some(factor) = again {
        y *= factor;
    }
    y
}

fn main() {}
