// Checks that a macro invocation in statement position (`println!`) is rejected at the macro.
use autodiff_runtime::grad;

#[grad]
fn with_println(x: f64) -> f64 {
    let y = x * 2.0;
    println!("y = {y}");
    y + 1.0
}

fn main() {}
