// Checks that a closure assigning to a variable it captures (an `FnMut`) is refused at the
// closure, saying to return the new value instead.
use autodiff_runtime::grad;

#[grad]
fn counter(x: f64) -> f64 {
    let mut s = 0.0;
    let mut add = |t: f64| s += t;
    add(x);
    add(x * x);
    s
}

fn main() {}
