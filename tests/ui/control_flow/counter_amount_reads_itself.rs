// Checks that a counter advanced by an amount that reads itself (doubling) is refused.
use autodiff_runtime::grad;

#[grad]
fn doubling(x: [f64; 16]) -> f64 {
    let mut s = 0.0;
    let mut k = 1;
    for _ in 0..3 {
        s += x[k];
        k += k;
    }
    s
}

fn main() {}
