// Checks that a differentiated slice passed to a called function is refused at the argument
// (its partials would need a buffer of its length), saying to pass elements instead.
use autodiff_runtime::grad;

#[grad]
fn scaled_sum(x: &[f64], c: f64) -> f64 {
    c * (x[0] + x[1])
}

#[grad(wrt(x))]
fn caller(x: &[f64]) -> f64 {
    scaled_sum(x, 2.0) * x[0]
}

fn main() {}
