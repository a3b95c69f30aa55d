// Checks that an integer counter advanced inside an `if` is refused at the update: its value
// after the branch would depend on the branch taken.
use autodiff_runtime::grad;

#[grad]
fn positives(x: [f64; 8]) -> f64 {
    let mut s = 0.0;
    let mut k = 0;
    for i in 0..8 {
        if x[i] > 0.0 {
            s += x[k];
            k += 1;
        }
    }
    s
}

fn main() {}
