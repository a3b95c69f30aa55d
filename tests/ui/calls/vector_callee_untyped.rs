// A call of a function returning an array, bound without its type and passed on whole: `#[grad]`
// took its value to be one `f64` and calls the callee's `_grad`, a stand-in whose error at the
// call says to write the type.
use autodiff_runtime::grad;

#[grad]
fn polar(r: f64, t: f64) -> [f64; 2] {
    [r * t.cos(), r * t.sin()]
}

#[grad]
fn norm(p: [f64; 2]) -> f64 {
    (p[0] * p[0] + p[1] * p[1]).sqrt()
}

#[grad]
fn caller(r: f64) -> f64 {
    let p = polar(r, 0.5);
    norm(p)
}

fn main() {}
