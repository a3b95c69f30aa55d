// Checks that a return type other than `f64`, an array or a tuple of `f64` (here an `Option`) is
// rejected at the return type, with the type written as in the source.
use autodiff_runtime::grad;

#[grad]
fn polar(r: f64, theta: f64) -> Option<(f64, f64)> {
    Some((r * theta.cos(), r * theta.sin()))
}

fn main() {}
