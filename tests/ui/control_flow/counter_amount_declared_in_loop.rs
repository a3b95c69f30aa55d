// Checks that a counter advanced by a variable that changes inside the loop (a counter of the
// loop's body) is refused at the amount.
use autodiff_runtime::grad;

#[grad]
fn steps(x: [f64; 16]) -> f64 {
    let mut s = 0.0;
    let mut k = 0;
    for i in 0..3 {
        let mut step = 1;
        step += i;
        s += x[k];
        k += step;
    }
    s
}

fn main() {}
