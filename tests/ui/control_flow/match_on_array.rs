// Checks that a `match` on an array is refused at the `match`, saying to compare its elements.
use autodiff_runtime::grad;

#[grad]
fn first(x: [f64; 2]) -> f64 {
    let y = [x[0] * 2.0, x[1]];
    match y {
        _ => y[0],
    }
}

fn main() {}
