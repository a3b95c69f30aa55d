// Checks that an iterator chain ending in `collect` (which allocates) is refused at the method,
// with the chains and consumers that are supported.
use autodiff_runtime::grad;

#[grad]
fn squares(x: [f64; 3]) -> f64 {
    let v: Vec<f64> = x.iter().map(|t| t * t).collect();
    v[0]
}

fn main() {}
