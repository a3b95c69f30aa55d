// Checks that an integer counter advanced inside an `if` in a loop of unknown length (a `while`
// loop), which has no closed form there and is held as a number, is refused where it is read as
// an index. (One advanced once per iteration, `k += 1` in the loop's body, is an index there.)
use autodiff_runtime::grad;

#[grad]
fn halvings(x: [f64; 8], y: f64) -> f64 {
    let mut s = y;
    let mut k = 0;
    while s > 1.0 {
        if s > 2.0 {
            k += 1;
        }
        s = 0.5 * s + x[k];
    }
    s
}

fn main() {}
