// Checks that a float literal with an `f32` suffix is rejected at the literal.
use autodiff_runtime::grad;

#[grad]
fn single_literal(x: f64) -> f64 {
    let _half = 0.5f32;
    x * x
}

fn main() {}
