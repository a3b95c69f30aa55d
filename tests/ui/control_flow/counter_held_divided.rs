// Checks that a counter held as a number (counted in a branch) is refused where it is divided:
// integer division would not be the division of the numbers.
use autodiff_runtime::grad;

#[grad]
fn half_mean(x: [f64; 4]) -> f64 {
    let mut s = 0.0;
    let mut n = 0;
    for v in x {
        if v > 0.0 {
            s += v;
            n += 1;
        }
    }
    s / (n / 2) as f64
}

fn main() {}
