// Checks that a counter advanced by an amount read from `f64` values is refused at that value:
// an index must not depend on what is differentiated.
use autodiff_runtime::grad;

#[grad]
fn jumps(x: [f64; 8]) -> f64 {
    let mut s = 0.0;
    let mut k = 0;
    for i in 0..3 {
        s += x[k];
        k += x[i] as usize;
    }
    s
}

fn main() {}
