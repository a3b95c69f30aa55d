// Checks that a binding typed with the other float type (`let y: f32` in an `f64` function) is
// refused at the type, saying to bind it without a type (`let y = 2.0_f32;`, `x as f32`).
use autodiff_runtime::grad;

#[grad]
fn narrowed(x: f64) -> f64 {
    let y: f32 = 2.0;
    x * y as f64
}

fn main() {}
