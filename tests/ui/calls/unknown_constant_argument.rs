// A constant argument whose type the macro cannot read from the tokens (a `const` from outside,
// a field of a struct) in a call with differentiated arguments: whether it fills a partial and a
// direction of the callee depends on whether it is an `f64`, so the error asks for a typed local.
use autodiff_runtime::grad;

const K: f64 = 2.0;

#[derive(Clone, Copy)]
struct Model {
    scale: f64,
}

#[grad]
fn scale(x: f64, c: f64) -> f64 {
    x * c
}

#[grad(wrt(x))]
fn caller(x: f64, model: Model) -> f64 {
    scale(x, K) + scale(model.scale, x)
}

fn main() {}
