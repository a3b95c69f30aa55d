// Checks that a loop bound computed from an `f64` value is rejected at the `f64` value it reads.
use autodiff_runtime::grad;

#[grad]
fn partial_sum(x: [f64; 4], t: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..t as usize {
        s += x[i];
    }
    s
}

fn main() {}
