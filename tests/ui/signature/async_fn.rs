// Checks that an `async fn` is rejected at `async`.
use autodiff_runtime::grad;

#[grad]
async fn square(x: f64) -> f64 {
    x * x
}

fn main() {}
