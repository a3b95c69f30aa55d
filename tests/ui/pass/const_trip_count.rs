// A trip count of a `const` item the macro cannot read, with no option: rustc chooses the
// checkpointed sweep (a stored one would take 8 MB), and the gradient is finite.
use autodiff_runtime::grad;

const STEPS: usize = 1_000_000;

#[grad]
fn logistic(x0: f64, r: f64) -> f64 {
    let mut x = x0;
    for _ in 0..STEPS {
        x = r * x * (1.0 - x);
    }
    x
}

fn main() {
    let (value, (dx0, dr)) = logistic_grad(0.5, 2.5);
    assert!(value.is_finite() && dx0.is_finite() && dr.is_finite());
}
