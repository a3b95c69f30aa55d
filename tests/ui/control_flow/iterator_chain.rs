// Checks that an iterator chain is rejected once, as a whole (not as an unknown method `sum` and a
// closure), with the indexed loop to write instead.
use autodiff_runtime::grad;

#[grad]
fn weighted(x: f64, data: &[f64]) -> f64 {
    data.iter().map(|v| v * x).sum::<f64>()
}

fn main() {}
