// Checks that an `unsafe` block in the body is rejected at the block.
use autodiff_runtime::grad;

#[grad]
fn read_raw(x: f64, scale: *const f64) -> f64 {
    let k = unsafe { *scale };
    x * k
}

fn main() {}
