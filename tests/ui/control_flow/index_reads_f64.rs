// Checks that an index computed from an `f64` value is rejected at the `f64` value it reads.
use autodiff_runtime::grad;

#[grad]
fn lookup(x: [f64; 4], t: f64) -> f64 {
    x[t as usize] * t
}

fn main() {}
