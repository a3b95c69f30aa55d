// Checks that `sin_cos` used as a value (here a field of its tuple) is rejected at the
// expression, saying to bind both values with `let (s, c) = x.sin_cos();`.
use autodiff_runtime::grad;

#[grad]
fn sine(x: f64) -> f64 {
    x.sin_cos().0 * 2.0
}

fn main() {}
