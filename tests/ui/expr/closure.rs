// Checks that a closure expression in the body is rejected at the closure.
use autodiff_runtime::grad;

#[grad]
fn with_closure(x: f64) -> f64 {
    let _double = |t: f64| 2.0 * t;
    x * x
}

fn main() {}
