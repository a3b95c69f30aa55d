// `checkpoint` takes the number of snapshots as `s = N`, at least 1.
use autodiff_runtime::grad;

#[grad(checkpoint(s = 0), stack = 1000000)]
fn f(x: f64) -> f64 {
    x * x
}

#[grad(checkpoint(16))]
fn g(x: f64) -> f64 {
    x * x
}

fn main() {}
