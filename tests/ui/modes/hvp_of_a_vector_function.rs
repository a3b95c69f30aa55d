// `hvp` and `hessian` need a scalar function: on a function returning an array they are refused
// at the option, saying why and what to use instead.
use autodiff_runtime::grad;

#[grad(hvp, hessian)]
fn polar(r: f64, t: f64) -> [f64; 2] {
    [r * t.cos(), r * t.sin()]
}

fn main() {}
