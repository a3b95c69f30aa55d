// Checks that a `break`, a `continue` and a `return` inside an expression (not a statement of the
// loop's body or of an `if` there) are each rejected at the keyword.
use autodiff_runtime::grad;

#[grad]
fn clipped(x: [f64; 4]) -> f64 {
    let mut s = 0.0;
    for i in 0..4 {
        let a = if x[i] > 2.0 { break } else { x[i] };
        let b = if x[i] < 0.0 { continue } else { x[i] };
        let c = if x[i] > 1.0 { return s } else { x[i] };
        s += a * b * c;
    }
    s
}

fn main() {}
