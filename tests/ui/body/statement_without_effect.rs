// Checks that an expression statement that has no effect is rejected at the statement.
use autodiff_runtime::grad;

#[grad]
fn idle(x: f64) -> f64 {
    x * 2.0;
    x
}

fn main() {}
