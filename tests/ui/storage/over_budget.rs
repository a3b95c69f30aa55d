// A loop whose reverse sweep must store a value per iteration (the state of a nonlinear
// recurrence) for a million iterations: 8 MB, over the default stack budget. Refused at the loop,
// with both numbers and the way to raise the budget.
use autodiff_runtime::grad;

#[grad]
fn logistic(x0: f64, r: f64) -> f64 {
    let mut x = x0;
    for _ in 0..1_000_000 {
        x = r * x * (1.0 - x);
    }
    x
}

fn main() {}
