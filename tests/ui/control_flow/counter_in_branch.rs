// Checks that an integer counter advanced inside an `if`, which has no closed form there (its
// value depends on the branches taken) and is held as a number, is refused where it is read as an
// index.
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
