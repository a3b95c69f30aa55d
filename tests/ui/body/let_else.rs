// Checks that `let ... else` is rejected at the statement.
use autodiff_runtime::grad;

#[grad]
fn unwrapped(x: f64) -> f64 {
    let y = x * 2.0 else { return 0.0 };
    y
}

fn main() {}
