// A `#[grad]` function calls only functions returning one `f64`: a call of a function with several
// outputs is an error at the call.
use autodiff_runtime::grad;

#[grad]
fn polar(r: f64, t: f64) -> [f64; 2] {
    [r * t.cos(), r * t.sin()]
}

#[grad]
fn caller(r: f64) -> f64 {
    let p = polar(r, 0.5);
    p[0]
}

fn main() {}
