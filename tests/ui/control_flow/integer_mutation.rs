// Checks that assigning to an integer variable is rejected at the assignment: integer variables
// (indices) must be immutable.
use autodiff_runtime::grad;

#[grad]
fn strided(x: [f64; 8]) -> f64 {
    let mut s = 0.0;
    let mut k = 0;
    for _ in 0..4 {
        s += x[k];
        k += 2;
    }
    s
}

fn main() {}
