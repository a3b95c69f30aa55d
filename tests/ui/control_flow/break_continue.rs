// Checks that `break` and `continue` in a loop are each rejected at their keyword.
use autodiff_runtime::grad;

#[grad]
fn capped(x: [f64; 4]) -> f64 {
    let mut s = 0.0;
    for i in 0..4 {
        if x[i] < 0.0 {
            continue;
        }
        if s > 10.0 {
            break;
        }
        s += x[i];
    }
    s
}

fn main() {}
