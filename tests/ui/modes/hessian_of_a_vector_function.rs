// `hessian` needs a scalar function: on a function returning an array it is refused at the
// option, saying why and what to use instead (`hvp` is accepted: the forward mode of its VJP).
use autodiff_runtime::grad;

#[grad(hvp, hessian)]
fn polar(r: f64, t: f64) -> [f64; 2] {
    [r * t.cos(), r * t.sin()]
}

fn main() {}
