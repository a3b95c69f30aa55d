// Checks that an item declared inside the body (a `const`) is rejected at the item.
use autodiff_runtime::grad;

#[grad]
fn scaled(x: f64) -> f64 {
    const SCALE: f64 = 3.0;
    x * SCALE
}

fn main() {}
