// Checks that a `Vec<f64>` taken by value is refused at its type even when another parameter is
// differentiated (it used to be a constant without a word), with what to take instead.
use autodiff_runtime::grad;

#[grad]
fn weighted(v: Vec<f64>, x: f64) -> f64 {
    v[0] * x * x
}

fn main() {}
