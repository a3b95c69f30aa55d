// Checks that a `loop` used as a value (whose `break` gives its value) is rejected at the `loop`:
// the value goes into a variable declared before the loop.
use autodiff_runtime::grad;

#[grad]
fn halve_until(x: f64) -> f64 {
    let mut y = x;
    let z = loop {
        y *= 0.5;
        if y < 1.0 {
            break y;
        }
    };
    y + z
}

fn main() {}
