// Checks that a `match` pattern that is not a literal, a range, `|`, `_`, a name or a constant
// (here a tuple pattern) is refused at the pattern.
use autodiff_runtime::grad;

#[grad]
fn pick(x: f64, a: usize, b: usize) -> f64 {
    match (a, b) {
        (0, _) => x,
        _ => -x,
    }
}

fn main() {}
