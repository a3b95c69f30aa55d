// Checks that a real `f64` method outside the supported list (`to_degrees`) is rejected at the call.
use autodiff_runtime::grad;

#[grad]
fn degrees(x: f64) -> f64 {
    x.to_degrees() * 2.0
}

fn main() {}
