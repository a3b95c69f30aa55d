// Checks that a lifetime parameter is refused at it, also on a differentiated slice, saying to
// write the reference without a named lifetime.
use autodiff_runtime::grad;

#[grad(wrt(x))]
fn first<'a>(x: &'a [f64]) -> f64 {
    x[0] * x[0]
}

fn main() {}
