// Reading a field of a call's result (calling a derivative function in a `#[grad]` body) is
// refused with a message that says to call the function itself.
use autodiff_runtime::grad;

#[grad]
fn square(x: f64) -> f64 {
    x * x
}

#[grad]
fn caller(x: f64) -> f64 {
    square_grad(x).0 + x
}

fn main() {}
