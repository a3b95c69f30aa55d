// Checks that an `f64` exponent of `powi` is rejected at the exponent with a pointer to `powf`
// (rustc reports the mismatched type too: the function itself is re-emitted as written).
use autodiff_runtime::grad;

#[grad]
fn power(x: f64, y: f64) -> f64 {
    x.powi(y)
}

fn main() {}
