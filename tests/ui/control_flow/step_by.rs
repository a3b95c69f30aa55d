// Checks that a range with a step (`.step_by(2)`) is rejected at the method, with the plain loop
// to write instead.
use autodiff_runtime::grad;

#[grad]
fn even_sum(x: [f64; 8]) -> f64 {
    let mut s = 0.0;
    for i in (0..8).step_by(2) {
        s += x[i];
    }
    s
}

fn main() {}
