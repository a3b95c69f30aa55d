// Checks that a vector-valued function is rejected at its return type, with the type written as
// in the source.
use autodiff_runtime::grad;

#[grad]
fn polar(r: f64, theta: f64) -> Option<(f64, f64)> {
    Some((r * theta.cos(), r * theta.sin()))
}

fn main() {}
