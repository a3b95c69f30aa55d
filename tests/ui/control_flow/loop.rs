// Checks that a `loop` in the body is rejected at the loop.
use autodiff_runtime::grad;

#[grad]
fn halve_loop(x: f64) -> f64 {
    let mut y = x;
    loop {
        y *= 0.5;
        break;
    }
    y
}

fn main() {}
