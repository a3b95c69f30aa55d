// The same with the number of iterations in a `const` the macro cannot read: rustc evaluates the
// budget check and reports both numbers.
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
    let _ = logistic_grad(0.5, 3.0);
}
