// Checks that `#[grad]` on something other than a function (a struct) is rejected at the item.
use autodiff_runtime::grad;

#[grad]
struct Point {
    x: f64,
}

fn main() {}
