// `stack` takes the budget in bytes as an integer literal.
use autodiff_runtime::grad;

#[grad(stack = "1 MiB")]
fn f(x: f64) -> f64 {
    x * x
}

fn main() {}
