// Checks that three different unsupported constructs in one body (`%`, an unknown method and
// `powi` with an exponent read from an `f64`) are all reported, not only the first.
use autodiff_runtime::grad;

#[grad]
fn three(x: f64) -> f64 {
    let a = x % 2.0;
    let b = x.to_degrees();
    let c = x.powi(x as i32);
    a + b + c
}

fn main() {}
