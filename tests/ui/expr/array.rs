// Checks that an array expression in the body is rejected at the array.
use autodiff_runtime::grad;

#[grad]
fn make_array(x: f64) -> f64 {
    let _items = [x, 2.0 * x];
    x * x
}

fn main() {}
