// Checks that `reduce` whose `Option` is used other than by unwrapping it at once is refused at
// `reduce`, saying which form is rewritten.
use autodiff_runtime::grad;

#[grad]
fn top(x: [f64; 3]) -> f64 {
    x.iter().copied().reduce(f64::max).unwrap_or(0.0)
}

fn main() {}
