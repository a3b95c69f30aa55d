// Bug: the result of a call that is read only as a loop's or a branch's result (`s = g(s, x)` as
// the last update of a loop-carried `s`; `if c { g(x, x) } else { x }`) is bound to `_`
// (`let (_, (d…)) = g_grad(s, x);`), then assigned: "cannot find value `s_1`". `codegen/reads.rs`
// (`collect`) does not count the yields of loops, branches and checkpoints as reads.
use autodiff_runtime::grad;

#[grad(jvp, hvp)]
fn scaled(a: f64, b: f64) -> f64 {
    a * b
}

// s = x · x · x
#[grad(jvp, hvp)]
fn call_yielded_by_loop(x: f64) -> f64 {
    let mut s = x;
    for _ in 0..2 {
        s = scaled(s, x);
    }
    s
}

// x² for x > 0
#[grad(jvp, hvp)]
fn call_yielded_by_branch(x: f64) -> f64 {
    if x > 0.0 { scaled(x, x) } else { x }
}

fn main() {
    assert_eq!(call_yielded_by_loop_grad(2.0), (8.0, 12.0));
    assert_eq!(call_yielded_by_loop_jvp(2.0, 1.0), (8.0, 12.0));
    assert_eq!(call_yielded_by_loop_hvp(2.0, 1.0), (8.0, 12.0, 12.0));
    assert_eq!(call_yielded_by_branch_grad(3.0), (9.0, 6.0));
    assert_eq!(call_yielded_by_branch_hvp(3.0, 1.0), (9.0, 6.0, 2.0));
}
