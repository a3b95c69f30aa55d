// Checks that errors in the signature (an `f32` parameter) and in the body (a `while` loop on a
// `bool` parameter and a closure assigning to what it captures) are all reported together.
use autodiff_runtime::grad;

#[grad]
fn mixed(x: f64, _weight: f32, again: bool) -> f64 {
    let mut y = x;
    while again {
        y *= 0.5;
    }
    let mut halve = || y *= 0.5;
    halve();
    y
}

fn main() {}
