// Checks that a `for` loop over an iterator is rejected at the iterator, with the indexed loop to
// write instead.
use autodiff_runtime::grad;

#[grad]
fn sum_iter(x: f64, data: &[f64]) -> f64 {
    let mut s = x;
    for v in data.iter() {
        s += v;
    }
    s
}

fn main() {}
