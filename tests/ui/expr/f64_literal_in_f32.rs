// Checks that an `f64` literal read as a value in an `f32` function is refused at the literal,
// with the literals that are supported.
use autodiff_runtime::grad;

#[grad]
fn scaled(x: f32) -> f32 {
    let _wide = 0.5_f64;
    2.0 * x
}

fn main() {}
