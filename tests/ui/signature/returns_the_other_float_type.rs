// Checks that an `f32` function whose value is of type `f64` (a cast not cast back) is refused
// at the value, saying to cast it.
use autodiff_runtime::grad;

#[grad]
fn f(x: f32) -> f32 {
    let w = (x as f64).exp();
    w
}

fn main() {}
