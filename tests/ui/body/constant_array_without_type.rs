// Checks that a `const` array copied into a variable without a type, then updated, is reported at
// the update with what to write: the macro sees no types, and reads the constant as an `f64`.
use autodiff_runtime::grad;

const INIT: [f64; 2] = [2.0, 5.0];

#[grad]
fn scaled(a: f64) -> f64 {
    let mut x = INIT;
    x[0] *= a;
    x[0] + x[1]
}

fn main() {}
