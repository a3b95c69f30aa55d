// Checks that a function whose only numbers are a slice is refused at the slice's type, saying
// that a slice is constant data unless `wrt(...)` names it, and how to name it.
use autodiff_runtime::grad;

#[grad]
fn norm2(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for v in x {
        s += v * v;
    }
    s
}

fn main() {}
