// Checks that taking a reference (`&x`) is rejected at the reference, even where rustc accepts it.
use autodiff_runtime::grad;

#[grad]
fn by_ref(x: f64) -> f64 {
    x * &x
}

fn main() {}
