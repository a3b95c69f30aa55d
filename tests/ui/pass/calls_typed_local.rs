// A constant whose type the macro cannot see (a `const` from outside, a field of a struct) is
// passed to a differentiated callee once bound to a typed local; `f64::consts` and associated
// constants of `f64` are read as `f64`s, and an untyped constant call is a constant.
use autodiff_runtime::grad;

const K: f64 = 2.0;
const N: usize = 3;

#[derive(Clone, Copy)]
struct Model {
    scale: f64,
}

#[grad(jvp, hvp)]
fn scale(x: f64, c: f64) -> f64 {
    x * c
}

#[grad(jvp, hvp)]
fn repeat(x: f64, n: usize) -> f64 {
    x * n as f64
}

#[grad(jvp, hvp, wrt(x))]
fn caller(x: f64, model: Model) -> f64 {
    let k: f64 = K;
    let s: f64 = model.scale;
    let n: usize = N;
    scale(x, k) + scale(s, x) + scale(x, std::f64::consts::PI) + scale(f64::EPSILON, x) + repeat(x, n)
}

fn main() {
    let model = Model { scale: 0.5 };
    let (_, d) = caller_grad(1.5, model);
    let expected = 2.0 + 0.5 + std::f64::consts::PI + f64::EPSILON + 3.0;
    assert!((d - expected).abs() < 1e-12);
    let (_, slope) = caller_jvp(1.5, model, 1.0);
    assert!((slope - expected).abs() < 1e-12);
}
