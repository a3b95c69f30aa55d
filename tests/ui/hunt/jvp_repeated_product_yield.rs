// Bug: `#[grad(jvp)]` fails with "internal error ... the forward transform produced invalid IR"
// when a branch or loop body computes the same product twice (`x * p`, then `p * x`) and yields
// the second: the forward transform's builder merges the two, and the primal yield is copied
// without being resolved before the block's scope (where the merge is recorded) is closed
// (`transform/forward.rs`, `for_loop` and `branch`: `l.yields.clone()` / `yields.to_vec()`).
use autodiff_runtime::grad;

// f = 2xy for x > 0.
#[grad(jvp)]
fn in_branch(x: f64, y: f64) -> f64 {
    let mut s = 0.0;
    let mut p = y;
    if x > 0.0 {
        s = x * p;
        p = p * x;
    }
    s + p
}

// p = x², q = x²: f = 2x².
#[grad(jvp)]
fn in_loop(x: f64) -> f64 {
    let mut p = 1.0;
    let mut q = 0.0;
    for _ in 0..2 {
        q = p * x;
        p = x * p;
    }
    p + q
}

fn main() {
    assert_eq!(in_branch_jvp(2.0, 3.0, 1.0, 0.0), (12.0, 6.0));
    assert_eq!(in_branch_jvp(2.0, 3.0, 0.0, 1.0), (12.0, 4.0));
    assert_eq!(in_loop_jvp(1.5, 1.0), (4.5, 6.0));
}
