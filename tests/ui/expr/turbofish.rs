// Checks that turbofish arguments on a method are rejected at the turbofish.
use autodiff_runtime::grad;

#[grad]
fn bigger(x: f64) -> f64 {
    x.max::<>(1.0)
}

fn main() {}
