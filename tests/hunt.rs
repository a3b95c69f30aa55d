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

#[test]
fn call_result_yielded() {
    use autodiff_suite::hunt::call_result_yielded::*;

    assert_eq!(call_yielded_by_loop_grad(2.0), (8.0, 12.0));
    assert_eq!(call_yielded_by_loop_jvp(2.0, 1.0), (8.0, 12.0));
    assert_eq!(call_yielded_by_loop_hvp(2.0, 1.0), (8.0, 12.0, 12.0));
    assert_eq!(call_yielded_by_branch_grad(3.0), (9.0, 6.0));
    assert_eq!(call_yielded_by_branch_hvp(3.0, 1.0), (9.0, 6.0, 2.0));
}

#[test]
fn cast_in_comparison() {
    use autodiff_suite::hunt::cast_in_comparison::*;

    assert_eq!(cast_compare_grad(2.0, 1), (4.0, 4.0));
    assert_eq!(cast_compare_grad(0.5, 1), (0.5, 1.0));
    assert_eq!(index_compare_grad([1.0, 2.0, 3.0]), (3.0, [1.0, 1.0, 0.0]));
}

#[test]
fn checkpoint_inner_bound_index() {
    use autodiff_suite::hunt::checkpoint_inner_bound_index::*;

    // f = x0 · x0 · (x0 · x1) = x0³ x1
    let x = [0.5_f64, 1.5, 2.0];
    let (value, grad) = checkpointed_triangle_grad(x);
    assert_eq!(value, checkpointed_triangle(x));
    let expected = [3.0 * x[0] * x[0] * x[1], x[0].powi(3), 0.0];
    for k in 0..3 {
        assert!((grad[k] - expected[k]).abs() < 1e-12);
    }
}

#[test]
fn checkpoint_literal_lower_bound() {
    use autodiff_suite::hunt::checkpoint_literal_lower_bound::*;

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

#[test]
fn stack_budget_not_monotonic() {
    use autodiff_suite::hunt::stack_budget_not_monotonic::*;

    let x = [0.3, 0.5, 0.7];
    assert_eq!(budgeted_grad(x), unbudgeted_grad(x));
    let v = [1.0, -0.5, 0.25];
    assert_eq!(budgeted_hvp(x, v), unbudgeted_hvp(x, v));
}

#[test]
fn suffixed_loop_bound() {
    use autodiff_suite::hunt::suffixed_loop_bound::*;

    // f = 0·x1 + 1·x0 + 2·x1
    let x = [0.3, 0.5, 0.7];
    assert_eq!(suffixed_bound_grad(x), (suffixed_bound(x), [1.0, 2.0, 0.0]));
}

#[test]
fn typed_literal_carried() {
    use autodiff_suite::hunt::typed_literal_carried::*;

    // s ← sin s + x, ds/dx ← cos(s)·ds/dx + 1, by the chain rule.
    let x = 0.7_f64;
    let (mut s, mut d) = (0.5_f64, 0.0);
    for _ in 0..3 {
        d = s.cos() * d + 1.0;
        s = s.sin() + x;
    }
    let (value, slope) = annotated_grad(x);
    assert_eq!(value, annotated(x));
    assert!((slope - d).abs() < 1e-12);
    // s ← x sin s, ds/dx ← sin s + x cos(s)·ds/dx.
    let (mut s, mut d) = (0.5_f64, 0.0);
    for _ in 0..3 {
        d = s.sin() + x * s.cos() * d;
        s = s.sin() * x;
    }
    let (value, slope) = suffixed_grad(x);
    assert_eq!(value, suffixed(x));
    assert!((slope - d).abs() < 1e-12);
}
