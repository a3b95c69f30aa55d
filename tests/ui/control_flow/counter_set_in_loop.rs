// Checks that a counter declared outside a loop and set (not advanced) in it is refused: only
// `+=` and `-=` have a closed form there.
use autodiff_runtime::grad;

#[grad]
fn restart(x: [f64; 8]) -> f64 {
    let mut s = 0.0;
    let mut k = 0;
    s += x[k];
    for _ in 0..2 {
        k = 0;
        for _ in 0..4 {
            s += x[k];
            k += 1;
        }
    }
    s
}

fn main() {}
