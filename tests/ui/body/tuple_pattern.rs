// Checks that a tuple pattern in `let` is rejected at the pattern, whose message names the one
// tuple pattern supported (`let (s, c) = x.sin_cos();`). `wrt(x)` makes the tuple parameter a
// constant, so the pattern is the only error.
use autodiff_runtime::grad;

#[grad(wrt(x))]
fn unpack(x: f64, pair: (f64, f64)) -> f64 {
    let (a, b) = pair;
    x * a + b
}

fn main() {}
