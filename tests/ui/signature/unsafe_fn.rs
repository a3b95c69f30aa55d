// Checks that an `unsafe fn` is rejected at `unsafe`.
use autodiff_runtime::grad;

#[grad]
unsafe fn square(x: f64) -> f64 {
    x * x
}

fn main() {}
