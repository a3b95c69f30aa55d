// Bug: with `checkpoint`, an outer loop whose inner loop's bounds depend on the outer index
// (`for j in 0..i`) does not compile: the outer sweep's closure binds its index as `_`, while the
// inner checkpoint's trip count reads it ("cannot find value `i`"). `block_reads` in
// `codegen/body.rs` does not look at a nested `Checkpoint`'s range.
use autodiff_runtime::grad;

#[grad(hvp, checkpoint)]
fn checkpointed_triangle(x: [f64; 3]) -> f64 {
    let mut s = x[0];
    for i in 0..3 {
        for j in 0..i {
            s *= x[j];
        }
    }
    s
}

fn main() {
    // f = x0 · x0 · (x0 · x1) = x0³ x1
    let x = [0.5_f64, 1.5, 2.0];
    let (value, grad) = checkpointed_triangle_grad(x);
    assert_eq!(value, checkpointed_triangle(x));
    let expected = [3.0 * x[0] * x[0] * x[1], x[0].powi(3), 0.0];
    for k in 0..3 {
        assert!((grad[k] - expected[k]).abs() < 1e-12);
    }
}
