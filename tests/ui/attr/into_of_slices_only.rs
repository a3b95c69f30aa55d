// Checks that `into` is refused at the option when only slices are differentiated: `f_grad`
// already writes their gradients into the caller's buffers.
use autodiff_runtime::grad;

#[grad(into, wrt(x))]
fn total(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        s += x[i] * x[i];
    }
    s
}

fn main() {}
