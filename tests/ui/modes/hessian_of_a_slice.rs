// Checks that `hessian` is refused for a function with a differentiated slice, whose number of
// scalars is known only at run time, and that the message points to `hvp`.
use autodiff_runtime::grad;

#[grad(wrt(x), hessian)]
fn norm2(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        s += x[i] * x[i];
    }
    s
}

fn main() {}
