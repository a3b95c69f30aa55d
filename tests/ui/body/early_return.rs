// Checks that a `return` that is not the last statement of the body is rejected at the `return`.
// The code after it is unreachable, which rustc would warn about; that warning is not under test.
#![allow(unreachable_code)]
use autodiff_runtime::grad;

#[grad]
fn early(x: f64) -> f64 {
    let y = x * x;
    return y;
    let z = y + 1.0;
    z
}

fn main() {}
