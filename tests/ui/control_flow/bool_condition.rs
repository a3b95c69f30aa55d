// Checks that an `if` whose condition is a `bool` parameter, not a comparison, is rejected at the
// condition.
use autodiff_runtime::grad;

#[grad]
fn flip_if(x: f64, negate: bool) -> f64 {
    if negate { -x } else { x }
}

fn main() {}
