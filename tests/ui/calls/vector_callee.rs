// A call whose value is indexed, bound without its type: a macro sees tokens, not types, and takes
// a call's value to be one `f64` unless told; the error is at the call and says to write the type.
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
