// Checks that a cast to `f32` (`x as f32`) is rejected at the cast.
use autodiff_runtime::grad;

#[grad]
fn narrow(x: f64) -> f64 {
    let _single = x as f32;
    x * x
}

fn main() {}
