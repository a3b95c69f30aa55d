// Checks that an attribute on a parameter is rejected at the attribute: the generated functions
// must take the same parameters as the original.
use autodiff_runtime::grad;

#[grad]
fn configured(x: f64, #[cfg(any())] y: f64) -> f64 {
    x * x
}

fn main() {}
