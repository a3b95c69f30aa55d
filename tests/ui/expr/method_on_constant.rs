// Checks that a method call on a constant (non-differentiated) parameter is rejected with a
// message about the constant, not as a method that cannot be differentiated.
use autodiff_runtime::grad;

#[grad]
fn mean_scaled(x: f64, data: &[f64]) -> f64 {
    x * data.len() as f64
}

fn main() {}
