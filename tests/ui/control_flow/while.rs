// Checks that a `while` loop in the body is rejected at the loop.
use autodiff_runtime::grad;

#[grad]
fn halve_while(x: f64, again: bool) -> f64 {
    let mut y = x;
    while again {
        y *= 0.5;
    }
    y
}

fn main() {}
