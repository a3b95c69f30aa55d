// Checks that a `match` on an `f64` value is refused at the `match`, saying to use `if`.
use autodiff_runtime::grad;

#[grad]
fn sign(x: f64) -> f64 {
    let y = x * 2.0;
    match y {
        _ => y,
    }
}

fn main() {}
