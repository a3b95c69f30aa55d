// Checks that a macro invocation in expression position (`dbg!`) is rejected at the macro.
use autodiff_runtime::grad;

#[grad]
fn with_dbg(x: f64) -> f64 {
    let y = dbg!(x * 2.0);
    y + 1.0
}

fn main() {}
