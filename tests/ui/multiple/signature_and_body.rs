// Checks that errors in the signature (an `f32` parameter) and in the body (a `while` loop and a
// closure) are all reported together.
use autodiff_runtime::grad;

#[grad]
fn mixed(x: f64, _weight: f32, again: bool) -> f64 {
    let mut y = x;
    while again {
        y *= 0.5;
    }
    let _double = |t: f64| 2.0 * t;
    y
}

fn main() {}
