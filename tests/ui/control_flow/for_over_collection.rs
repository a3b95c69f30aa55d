// Checks that a `for` loop over a slice itself (not over its indices) is rejected at the slice.
use autodiff_runtime::grad;

#[grad]
fn sum_slice(x: f64, data: &[f64]) -> f64 {
    let mut s = x;
    for v in data {
        s += v;
    }
    s
}

fn main() {}
