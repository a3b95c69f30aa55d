// A pattern that does not tell what a call returns (a `..`, a nested tuple) is an error at the
// pattern that says to write the type.
use autodiff_runtime::grad;

#[grad]
fn triple(x: f64) -> (f64, f64, f64) {
    (x, 2.0 * x, 3.0 * x)
}

fn nested(x: f64) -> (f64, (f64, f64)) {
    (x, (2.0 * x, 3.0 * x))
}

#[grad]
fn caller(x: f64) -> f64 {
    let (a, ..) = triple(x);
    let (b, (c, d)) = nested(x);
    a + b + c + d
}

fn main() {}
