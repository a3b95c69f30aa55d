// Checks that a call of a function returning an array or a tuple is reported at the call, however
// its result is used: indexed directly, a field read, destructured, bound with an array type, or
// bound to a variable whose element is then updated. Each call is reported once.
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
    let (a, b) = pair(r, 0.7);
    let q: [f64; 2] = polar(r, 0.1);
    let mut w = polar(r, 0.2);
    w[0] += 1.0;
    direct + p.0 * p.1 + a * b + q[0] + w[0]
}

fn main() {}
