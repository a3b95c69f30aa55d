// Checks that a `for` loop in the body is rejected at the loop.
use autodiff_runtime::grad;

#[grad]
fn cube_for(x: f64) -> f64 {
    let mut y = 1.0;
    for _ in 0..3 {
        y *= x;
    }
    y
}

fn main() {}
