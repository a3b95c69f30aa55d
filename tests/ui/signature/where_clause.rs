// Checks that a `where` clause is rejected at the clause, even on a function without generic
// parameters.
use autodiff_runtime::grad;

#[grad]
fn bounded(x: f64) -> f64
where
    f64: Copy,
{
    x * x
}

fn main() {}
