// Checks that a counter advanced by the loop variable in a loop over `1..n` (which may run
// backwards) is refused where it is read after the loop, and accepted inside it.
use autodiff_runtime::grad;

#[grad]
fn tail(x: [f64; 8], n: usize) -> f64 {
    let mut s = 0.0;
    let mut k = 0;
    for i in 1..n {
        s += x[k % 8];
        k += i;
    }
    s * x[k % 8]
}

fn main() {}
