// Checks that an `if` expression in the body is rejected at the `if`.
use autodiff_runtime::grad;

#[grad]
fn flip_if(x: f64, negate: bool) -> f64 {
    if negate { -x } else { x }
}

fn main() {}
