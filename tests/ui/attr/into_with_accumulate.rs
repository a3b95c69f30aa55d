// Checks that `into` with `accumulate` is refused at `into`: one overwrites the caller's arrays,
// the other adds into its buffers.
use autodiff_runtime::grad;

#[grad(into, accumulate, wrt(x, y))]
fn total(x: &[f64; 2], y: &[f64]) -> f64 {
    x[0] * y[0] + x[1] * y[1]
}

fn main() {}
