// Checks that a closure used as a value (here passed to a function) is refused where it is used,
// saying a closure can only be called or passed to an iterator adaptor.
use autodiff_runtime::grad;

fn apply(f: impl Fn(f64) -> f64, x: f64) -> f64 {
    f(x)
}

#[grad]
fn twice(x: f64) -> f64 {
    let double = |t: f64| 2.0 * t;
    apply(double, x)
}

fn main() {}
