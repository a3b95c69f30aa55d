// Checks that a counter multiplied inside a loop (a geometric progression) is refused.
use autodiff_runtime::grad;

#[grad]
fn powers(x: [f64; 16]) -> f64 {
    let mut s = 0.0;
    let mut k = 1;
    for _ in 0..4 {
        s += x[k];
        k *= 2;
    }
    s
}

fn main() {}
