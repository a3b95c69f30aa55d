// Checks that a differentiated `f32` value cast to `f64` is refused at the cast: the function
// computes in one scalar type, and says to compute in `f32` throughout (or over `T: Float`).
use autodiff_runtime::grad;

#[grad]
fn widened(x: f32) -> f32 {
    let wide = (x as f64).sin();
    wide as f32
}

fn main() {}
