// Checks that the generated functions of a deprecated function are deprecated too: calling
// `old_grad` warns like calling `old` (an error here, under `deny(deprecated)`).
#![deny(deprecated)]
use autodiff_runtime::grad;

#[grad]
#[deprecated(note = "use `new` instead")]
fn old(x: f64) -> f64 {
    x * x
}

fn main() {
    let _ = old_grad(1.0);
}
