// Checks that assigning to an integer variable declared without `mut` is refused at the
// assignment, saying how to declare a counter.
use autodiff_runtime::grad;

#[grad]
fn shifted(x: [f64; 8]) -> f64 {
    let (k, _) = (1, 2);
    k += 1;
    x[k]
}

fn main() {}
