// Checks that a function without a return type is rejected at its signature.
use autodiff_runtime::grad;

#[grad]
fn nothing(x: f64) {
    let _y = x * x;
}

fn main() {}
