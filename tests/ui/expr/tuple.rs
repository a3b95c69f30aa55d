// Checks that a tuple expression in the body is rejected at the tuple.
use autodiff_runtime::grad;

#[grad]
fn make_tuple(x: f64) -> f64 {
    let _pair = (x, 2.0 * x);
    x * x
}

fn main() {}
