// Checks that an integer counter advanced in a loop of unknown length (a `while` loop), which has
// no closed form there and is held as a number, is refused where it is read as an index.
use autodiff_runtime::grad;

#[grad]
fn halvings(x: [f64; 8], y: f64) -> f64 {
    let mut s = y;
    let mut k = 0;
    while s > 1.0 {
        s = 0.5 * s + x[k];
        k += 1;
    }
    s
}

fn main() {}
