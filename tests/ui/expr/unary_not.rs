// Checks that a unary operator other than `-` (here `!`, which makes a `bool` variable) is
// rejected at the expression.
use autodiff_runtime::grad;

#[grad]
fn flipped(x: f64, on: bool) -> f64 {
    let _off = !on;
    x
}

fn main() {}
