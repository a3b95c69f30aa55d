// Checks that `[v; N]` repeating an array (rather than an `f64`) is rejected at the expression.
use autodiff_runtime::grad;

#[grad]
fn tile(x: [f64; 2]) -> f64 {
    let m = [x; 3];
    m[2][1]
}

fn main() {}
