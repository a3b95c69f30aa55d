// Checks that an `if` whose branches give different types (an array and an `f64`) is rejected at
// the `if`.
use autodiff_runtime::grad;

#[grad]
fn either(x: [f64; 2], t: f64) -> f64 {
    let y = if t > 0.0 { x } else { t };
    y[0]
}

fn main() {}
