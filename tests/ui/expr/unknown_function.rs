// Checks that a call to a function `#[grad]` does not know is rejected at the call.
use autodiff_runtime::grad;

fn square(t: f64) -> f64 {
    t * t
}

#[grad]
fn calls_helper(x: f64) -> f64 {
    square(x) + 1.0
}

fn main() {}
