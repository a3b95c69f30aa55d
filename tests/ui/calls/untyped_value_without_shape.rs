// A call's value bound without its type and indexed is an array whose lengths `#[grad]` reads
// from the callee's `_shape` constant, which `#[grad]` writes next to an array-returning
// function's derivatives. A callee without one is rustc's error at the call, naming it: one whose
// derivatives are written by hand (without `_shape`), and one generic over its value's length
// (a constant item cannot read a generic parameter). The typed `let` works for both.
use autodiff_runtime::grad;

/// `[2x, 3x]`, with its derivatives written by hand and no `twice_shape`.
fn twice(x: f64) -> [f64; 2] {
    [2.0 * x, 3.0 * x]
}

fn twice_fwd(x: f64) -> ([f64; 2], ()) {
    (twice(x), ())
}

fn twice_rev(_x: f64, _r: (), out_bar: [f64; 2]) -> f64 {
    2.0 * out_bar[0] + 3.0 * out_bar[1]
}

#[grad]
fn repeated<const N: usize>(x: f64) -> [f64; N] {
    [x; N]
}

#[grad]
fn hand_written(x: f64) -> f64 {
    let y = twice(x);
    y[0] * y[1]
}

#[grad]
fn generic(x: f64) -> f64 {
    let y: [f64; 3] = repeated(x);
    y[0] + repeated(x)[1] * y[2]
}

#[grad]
fn typed(x: f64) -> f64 {
    let y: [f64; 2] = twice(x);
    let z: [f64; 3] = repeated(x);
    y[0] * y[1] + z[2]
}

fn main() {}
