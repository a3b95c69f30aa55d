//! Reproducers of the bugs found by a bug hunt (see `src/hunt.rs` and `tests/ui/hunt/`). Each is
//! checked against values computed outside the code under test (closed forms, or the chain rule
//! step by step). The trybuild cases in `tests/ui/hunt/` do not compile until their bug is fixed,
//! so `hunt_compile_cases` fails until then; the functions in `src/hunt.rs` compile but fail the
//! lint run (`cargo clippy --workspace --all-targets -- -D warnings`).

use autodiff_suite::hunt::*;

#[test]
fn hunt_compile_cases() {
    let t = trybuild::TestCases::new();
    t.pass("tests/ui/hunt/*.rs");
}

#[test]
fn piecewise_linear_steps_values() {
    // At x = (0.5, 2): s = 0.5 → 0.5 + 0.25 = 0.75 (else) → 0.75 + 4 = 4.75 (else), so on this
    // path f = x0 + x0² + x1²: ∇f = (1 + 2x0, 2x1) = (2, 4), H = 2I.
    let x = [0.5, 2.0];
    assert_eq!(piecewise_linear_steps_grad(x), (4.75, [2.0, 4.0]));
    let v = [1.0, -0.5];
    assert_eq!(piecewise_linear_steps_hvp(x, v), (4.75, [2.0, 4.0], [2.0, -1.0]));
    assert_eq!(piecewise_linear_steps_jvp(x, v), (4.75, 0.0));
    // At x = (1.5, 0.25): s = 1.5 → 0.75 + 1.5 = 2.25 (then) → 1.125 + 0.25 = 1.375 (then):
    // f = x0/4 + x0/2 + x1, linear: ∇f = (0.75, 1), H = 0.
    let x = [1.5, 0.25];
    assert_eq!(piecewise_linear_steps_grad(x), (1.375, [0.75, 1.0]));
    assert_eq!(piecewise_linear_steps_hvp(x, v), (1.375, [0.75, 1.0], [0.0, 0.0]));
}

#[test]
fn branch_expression_update_values() {
    // At x = (0.7, 0.4, 0.9): s = 0.3 → 1.0 (else) → 0.4 (then) → 1.3 (else), so on this path
    // f = (0.3 + x0) x1 + x2: ∇f = (x1, 0.3 + x0, 1), H·v = (v1, v0, 0).
    let x = [0.7, 0.4, 0.9];
    let (value, grad) = branch_expression_update_grad(x);
    assert_eq!(value, branch_expression_update(x));
    assert!((value - 1.3).abs() < 1e-15);
    assert_eq!(grad, [0.4, 1.0, 1.0]);
    let v = [0.5, -2.0, 3.0];
    let (_, _, hv) = branch_expression_update_hvp(x, v);
    assert_eq!(hv, [-2.0, 0.5, 0.0]);
}

#[test]
fn else_block_opening_with_if_runs_its_rest_only_on_its_side() {
    // For s > 0: f = 1.5 x0 · x1 · x0² = 1.5 x0³ x1, ∇f = (4.5 x0² x1, 1.5 x0³),
    // H = [[9 x0 x1, 4.5 x0²], [4.5 x0², 0]].
    let x = [2.0, 3.0];
    assert_eq!(else_block_opening_with_if(x), 36.0);
    assert_eq!(else_block_opening_with_if_grad(x), (36.0, [54.0, 12.0]));
    assert_eq!(else_block_opening_with_if_jvp(x, [1.0, 0.0]), (36.0, 54.0));
    assert_eq!(else_block_opening_with_if_hvp(x, [1.0, 0.0]), (36.0, [54.0, 12.0], [54.0, 18.0]));
}
