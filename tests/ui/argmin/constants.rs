// Checks the constants an argmin problem cannot hold as fields: a `&mut` (refused by `#[grad]`
// itself), a parameter written `_`, and a reference below the top of a type.
use autodiff_runtime::grad;

#[grad(wrt(x), argmin)]
fn f(x: &[f64], scratch: &mut [f64]) -> f64 {
    scratch[0] = 1.0;
    x[0] * x[0]
}

#[grad(wrt(x), argmin)]
fn g(x: &[f64], _: usize) -> f64 {
    x[0] * x[0]
}

#[grad(wrt(x), argmin)]
fn h(x: &[f64], data: Option<&f64>) -> f64 {
    let _ = data;
    x[0] * x[0]
}

fn main() {}
