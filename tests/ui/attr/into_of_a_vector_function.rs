// Checks that `into` is refused at the option on a function with several outputs: its `f_vjp`
// takes a cotangent, and `f_grad_into` is for a function returning one `f64`.
use autodiff_runtime::grad;

#[grad(into)]
fn pair(x: &[f64; 2]) -> (f64, f64) {
    (x[0] * x[1], x[0] + x[1])
}

fn main() {}
