// Checks that a counter advanced by an amount of the second degree in the loop variable is
// refused at the amount: only amounts linear in it are summed.
use autodiff_runtime::grad;

#[grad]
fn squares(x: [f64; 16]) -> f64 {
    let mut s = 0.0;
    let mut k = 0;
    for i in 0..3 {
        s += x[k];
        k += i * i;
    }
    s
}

fn main() {}
