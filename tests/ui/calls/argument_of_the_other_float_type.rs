// Checks that a value of the other float type (`x as f64` in an `f32` function) passed to a
// called function is refused at the argument, saying to cast it back or compute the piece here.
use autodiff_runtime::grad;

#[grad]
fn g(x: f64) -> f64 {
    x.sin()
}

#[grad]
fn f(x: f32) -> f32 {
    g(x as f64) as f32
}

fn main() {}
