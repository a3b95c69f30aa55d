// Checks that a loop label, and a `break` and a `continue` naming one (leaving several loops at
// once), are rejected at the label and at each keyword.
use autodiff_runtime::grad;

#[grad]
fn first_pair(x: [f64; 4]) -> f64 {
    let mut s = 0.0;
    'rows: for i in 0..4 {
        for j in 0..4 {
            if x[i] * x[j] > 1.0 {
                break 'rows;
            }
            if x[j] < 0.0 {
                continue 'rows;
            }
            s += x[i] * x[j];
        }
    }
    s
}

fn main() {}
