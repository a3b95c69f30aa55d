// Checks that a counter advanced in an inner loop whose range may run backwards for some value
// of the outer loop variable is refused at that range: its trip count is not `n - i - 2` there.
use autodiff_runtime::grad;

#[grad]
fn gaps(x: [f64; 8], n: usize) -> f64 {
    let mut s = 0.0;
    let mut k = 0;
    for i in 0..n {
        s += x[k % 8];
        for _ in i + 2..n {
            k += 1;
        }
    }
    s
}

fn main() {}
