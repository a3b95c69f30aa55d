// Checks that a `powi` exponent computed from a differentiated `f64` value (which Rust accepts
// as `y as i32`) is rejected at the value it reads, with a pointer to `powf`.
use autodiff_runtime::grad;

#[grad]
fn power(x: f64, y: f64) -> f64 {
    x.powi(y as i32)
}

fn main() {}
