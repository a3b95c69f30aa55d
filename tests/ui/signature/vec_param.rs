// Checks that a function whose only numbers come in a `Vec<f64>` is rejected at that type, with
// what to take instead (an array to differentiate, a slice for constant data).
use autodiff_runtime::grad;

#[grad]
fn mean(v: Vec<f64>) -> f64 {
    v[0] + v[1]
}

fn main() {}
