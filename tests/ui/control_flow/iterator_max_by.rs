// Checks that `max_by(..).unwrap()` is refused at `max_by` (it was named at `unwrap`), with the
// fold that computes a largest value.
use autodiff_runtime::grad;

#[grad]
fn largest(x: [f64; 3]) -> f64 {
    x.iter().copied().max_by(|a, b| a.total_cmp(b)).unwrap()
}

fn main() {}
