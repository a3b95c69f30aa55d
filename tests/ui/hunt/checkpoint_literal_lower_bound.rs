// Bug: a checkpointed loop whose lower bound is a nonzero literal (`for i in 1..3`) does not
// compile: its trip count is emitted as `(3).saturating_sub(1)`, a method call on an ambiguous
// `{integer}` (E0689; `codegen/body.rs`, `checkpoint`: `(#end).saturating_sub(#lo)`). The same
// with a bound depending on an outer index: `(3).saturating_sub(i)`.
use autodiff_runtime::grad;

#[grad(checkpoint)]
fn checkpointed_from_one(x: [f64; 3]) -> f64 {
    let mut s = x[0];
    for i in 1..3 {
        s *= x[i];
    }
    s
}

#[grad(checkpoint)]
fn checkpointed_suffix(x: [f64; 3]) -> f64 {
    let mut s = x[0];
    for i in 0..3 {
        for j in i..3 {
            s *= x[j];
        }
    }
    s
}

fn main() {
    // f = x0 x1 x2
    let x = [0.5, 1.5, 2.0];
    assert_eq!(checkpointed_from_one_grad(x), (1.5, [3.0, 1.0, 0.75]));
    // f = x0 · (x0 x1 x2) · (x1 x2) · x2 = x0² x1² x2³
    let (value, grad) = checkpointed_suffix_grad(x);
    assert_eq!(value, checkpointed_suffix(x));
    let f = x[0] * x[0] * x[1] * x[1] * x[2].powi(3);
    let expected = [2.0 * f / x[0], 2.0 * f / x[1], 3.0 * f / x[2]];
    for k in 0..3 {
        assert!((grad[k] - expected[k]).abs() < 1e-12);
    }
}
