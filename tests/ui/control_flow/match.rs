// Checks that a `match` expression in the body is rejected at the `match`.
use autodiff_runtime::grad;

#[grad]
fn flip_match(x: f64, mode: i32) -> f64 {
    match mode {
        0 => x,
        _ => -x,
    }
}

fn main() {}
