// Checks that `into` is refused at the option when a differentiated parameter is a scalar: its
// derivative has no `&mut [f64; N]` buffer to go to, and the message names the parameter.
use autodiff_runtime::grad;

#[grad(into)]
fn scaled(x: &[f64; 3], c: f64) -> f64 {
    c * (x[0] + x[1] + x[2])
}

fn main() {}
