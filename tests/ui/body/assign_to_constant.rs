// Checks that an assignment to something other than a local `f64` variable (here a constant
// integer parameter) is rejected at the place assigned to.
use autodiff_runtime::grad;

#[grad]
fn overwrite(x: f64, mut n: i32) -> f64 {
    n += 1;
    x * n as f64
}

fn main() {}
