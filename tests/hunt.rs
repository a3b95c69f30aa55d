//! The bugs found by a bug hunt over loops, branches, calls and checkpoints (see `src/hunt.rs`),
//! fixed, as regression tests: each reproducer checked against values computed outside the code
//! under test (closed forms, or the chain rule step by step).

use autodiff_suite::hunt::*;

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

/// `|a − b| ≤ 1e-12 (1 + |b|)` for each component.
fn close(what: &str, values: &[f64], reference: &[f64]) {
    assert_eq!(values.len(), reference.len(), "{what}");
    for (k, (a, b)) in values.iter().zip(reference).enumerate() {
        assert!((a - b).abs() <= 1e-12 * (1.0 + b.abs()), "{what} {k}: {a} against {b}");
    }
}

#[test]
fn inner_loop_then_cost_against_its_closed_form() {
    // t = sin u + sin w with u = a b², w = a b⁴.
    let (a, b) = (0.7_f64, 1.1_f64);
    let (u, w) = (a * b * b, a * b.powi(4));
    let value = u.sin() + w.sin();
    let grad = [
        b * b * u.cos() + b.powi(4) * w.cos(),
        2.0 * a * b * u.cos() + 4.0 * a * b.powi(3) * w.cos(),
    ];
    let haa = -b.powi(4) * u.sin() - b.powi(8) * w.sin();
    let hab = 2.0 * b * u.cos() - 2.0 * a * b.powi(3) * u.sin() + 4.0 * b.powi(3) * w.cos()
        - 4.0 * a * b.powi(7) * w.sin();
    let hbb = 2.0 * a * u.cos() - (2.0 * a * b).powi(2) * u.sin() + 12.0 * a * b * b * w.cos()
        - (4.0 * a * b.powi(3)).powi(2) * w.sin();
    let v = [0.4, -1.3];
    let hv = [haa * v[0] + hab * v[1], hab * v[0] + hbb * v[1]];

    let (t, (da, db)) = inner_loop_then_cost_grad(a, b);
    assert_eq!(t, inner_loop_then_cost(a, b));
    close("value", &[t], &[value]);
    close("gradient", &[da, db], &grad);
    let (_, g, (ha, hb)) = inner_loop_then_cost_hvp(a, b, v[0], v[1]);
    assert_eq!(g, (da, db));
    close("H·v", &[ha, hb], &hv);
    let (_, slope) = inner_loop_then_cost_jvp(a, b, v[0], v[1]);
    close("jvp", &[slope], &[grad[0] * v[0] + grad[1] * v[1]]);

    // Checkpointed, in the source (`checkpoint(s = 2)`) or for a run-time number of steps: the
    // stored sweep's numbers, to the bit.
    let stored = (inner_loop_then_cost_grad(a, b), inner_loop_then_cost_hvp(a, b, v[0], v[1]));
    let checkpointed = (
        inner_loop_then_cost_checkpointed_grad(a, b),
        inner_loop_then_cost_checkpointed_hvp(a, b, v[0], v[1]),
    );
    assert_eq!(checkpointed, stored);
    let steps = (
        inner_loop_then_cost_steps_grad(a, b, 2),
        inner_loop_then_cost_steps_hvp(a, b, 2, v[0], v[1]),
    );
    assert_eq!(steps, stored);
}

#[test]
fn inner_array_loop_then_cost_against_its_closed_form() {
    // Each component on its own: g(x) = sin s₁ + sin s₂ with s₁ = sin x, s₂ = sin s₁.
    let x = [0.4_f64, 0.9];
    let v = [1.0, -0.5];
    let (value, grad) = inner_array_loop_then_cost_grad(x);
    assert_eq!(value, inner_array_loop_then_cost(x));
    let (_, g, hv) = inner_array_loop_then_cost_hvp(x, v);
    assert_eq!(g, grad);
    let (_, slope) = inner_array_loop_then_cost_jvp(x, v);
    let mut total = 0.0;
    for k in 0..2 {
        let (c, s) = (x[k].cos(), x[k].sin());
        let (s1, s2) = (s, s.sin());
        total += s1.sin() + s2.sin();
        let d = s1.cos() * c + s2.cos() * s1.cos() * c;
        let dd = -s1.sin() * c * c
            - s1.cos() * s
            - s2.sin() * (s1.cos() * c).powi(2)
            - s2.cos() * s1.sin() * c * c
            - s2.cos() * s1.cos() * s;
        close("gradient", &[grad[k]], &[d]);
        close("H·v", &[hv[k]], &[dd * v[k]]);
    }
    close("value", &[value], &[total]);
    close("jvp", &[slope], &[grad[0] * v[0] + grad[1] * v[1]]);
}

#[test]
fn repeated_product_in_branch_against_its_closed_form() {
    // x > 0: f = 2xy, ∇f = (2y, 2x), H = [[0, 2], [2, 0]]. Otherwise f = y, ∇f = (0, 1), H = 0.
    assert_eq!(repeated_product_in_branch_jvp(2.0, 3.0, 1.0, 0.0), (12.0, 6.0));
    assert_eq!(repeated_product_in_branch_jvp(2.0, 3.0, 0.0, 1.0), (12.0, 4.0));
    assert_eq!(repeated_product_in_branch_grad(2.0, 3.0), (12.0, (6.0, 4.0)));
    assert_eq!(
        repeated_product_in_branch_hvp(2.0, 3.0, 0.5, -1.0),
        (12.0, (6.0, 4.0), (-2.0, 1.0))
    );
    assert_eq!(repeated_product_in_branch_jvp(-0.5, 3.0, 1.0, 2.0), (3.0, 2.0));
    assert_eq!(repeated_product_in_branch_grad(-0.5, 3.0), (3.0, (0.0, 1.0)));
    assert_eq!(repeated_product_in_branch_hvp(-0.5, 3.0, 0.5, -1.0), (3.0, (0.0, 1.0), (0.0, 0.0)));
}

#[test]
fn repeated_product_in_loop_against_its_closed_form() {
    // f = 2x², f' = 4x, f'' = 4.
    assert_eq!(repeated_product_in_loop_jvp(1.5, 1.0), (4.5, 6.0));
    assert_eq!(repeated_product_in_loop_grad(1.5), (4.5, 6.0));
    assert_eq!(repeated_product_in_loop_hvp(1.5, 0.5), (4.5, 6.0, 2.0));
}
