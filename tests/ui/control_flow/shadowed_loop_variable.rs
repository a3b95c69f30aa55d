// Checks that a loop variable with the name of an enclosing loop's variable is rejected at the
// inner name (indices are re-emitted as written, so a name must mean one loop variable).
use autodiff_runtime::grad;

#[grad]
fn trace_sum(x: [[f64; 2]; 2]) -> f64 {
    let mut s = 0.0;
    for i in 0..2 {
        s += x[i][0];
        for i in 0..2 {
            s += x[i][i];
        }
    }
    s
}

fn main() {}
