// Checks that `wrt` with brackets instead of parentheses is rejected at the option.
use autodiff_runtime::grad;

#[grad(wrt[x])]
fn square(x: f64, y: f64) -> f64 {
    x * x + y
}

fn main() {}
