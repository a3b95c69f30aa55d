// Checks that a call whose value is read as a tuple without its type written is reported at the
// call, however it is read: a field read directly, or bound to a variable then a field of it
// read; each call once. The typed forms in `accepted` compile, and so do the arrays bound without
// their type, indexed directly, or updated by element (their lengths are the callee's
// `polar_shape`).
use autodiff_runtime::grad;

#[grad]
fn polar(r: f64, t: f64) -> [f64; 2] {
    [r * t.cos(), r * t.sin()]
}

#[grad]
fn pair(r: f64, t: f64) -> (f64, f64) {
    (r * t.cos(), r * t.sin())
}

#[grad]
fn caller(r: f64) -> f64 {
    let direct = polar(r, 0.5)[1] + pair(r, 0.3).0;
    let p = pair(r, 0.5);
    let mut w = polar(r, 0.2);
    w[0] += 1.0;
    let q = polar(r, 0.1);
    direct + p.0 * p.1 + w[0] + q[1]
}

#[grad]
fn accepted(r: f64) -> f64 {
    let (a, b) = pair(r, 0.7);
    let p: (f64, f64) = pair(r, 0.5);
    let q: [f64; 2] = polar(r, 0.1);
    let [c, d] = polar(r, 0.3);
    let mut w: [f64; 2] = polar(r, 0.2);
    w[0] += 1.0;
    a * b + p.0 * p.1 + q[0] + c * d + w[0]
}

fn main() {}
