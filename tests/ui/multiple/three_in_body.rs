// Checks that three different unsupported constructs in one body (`%`, an unknown method and
// `powi` with a variable exponent) are all reported, not only the first.
use autodiff_runtime::grad;

#[grad]
fn three(x: f64, n: i32) -> f64 {
    let a = x % 2.0;
    let b = x.to_degrees();
    let c = x.powi(n);
    a + b + c
}

fn main() {}
