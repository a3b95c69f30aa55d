//! Iterative solvers with iteration counters and counts kept in branches (`src/solvers.rs`):
//! values against the plain functions, gradients against closed forms and central differences,
//! JVPs against the gradient along the direction, H·v against differences of the gradient.

use autodiff_runtime::{Tolerance, check_close, check_gradient, check_hvp};
use autodiff_suite::solvers::*;

fn close(what: &str, values: &[f64], reference: &[f64], tol: f64) {
    let tol = Tolerance { epsilon: tol, max_relative: tol };
    if let Err(e) = check_close(values, reference, tol) {
        panic!("{what}: {e}");
    }
}

/// The steps of Newton's method for √a from `a`, counted here in plain Rust.
fn newton_steps(a: f64, max_iter: usize) -> usize {
    let (mut x, mut it) = (a, 0);
    while (x * x - a).abs() > 1e-12 && it < max_iter {
        x = 0.5 * (x + a / x);
        it += 1;
    }
    it
}

#[test]
fn newton_sqrt_with_a_step_limit_has_the_derivatives_of_the_square_root() {
    // 2e6: x² never comes within 1e-12 of a (the spacing of `f64`s there is 2.3e-10), so the
    // limit of 50 steps ends the loop.
    assert_eq!(newton_steps(2e6, 50), 50);
    for a in [0.5, 2.0, 9.0, 123.4, 2e6] {
        let (x, g) = newton_sqrt_grad(a);
        assert_eq!(x.to_bits(), newton_sqrt(a).to_bits());
        close("√a", &[x], &[a.sqrt()], 1e-14);
        close("d√a/da", &[g], &[0.5 / a.sqrt()], 1e-12);
        let f = |p: &[f64]| newton_sqrt(p[0]);
        assert_eq!(check_gradient(f, &[a], &[g], Tolerance::default()), Ok(()));
        let (_, t) = newton_sqrt_jvp(a, 0.7);
        close("jvp", &[t], &[0.7 * g], 1e-14);
        let (_, g2, hv) = newton_sqrt_hvp(a, -1.3);
        assert_eq!(g2, g);
        close("H·v", &[hv], &[-1.3 * -0.25 / (a * a.sqrt())], 1e-10);
        let grad = |p: &[f64]| vec![newton_sqrt_grad(p[0]).1];
        assert_eq!(check_hvp(grad, &[a], &[-1.3], &[hv], Tolerance::default()), Ok(()));
    }
}

#[test]
fn the_step_count_read_after_the_loop_is_the_one_that_ran() {
    for (a, max_iter) in [(2.0, 50), (2e6, 50), (2e6, 7), (9.0, 3), (9.0, 0), (1.0, 10)] {
        let want = newton_steps(a, max_iter) as f64;
        assert_eq!(newton_sqrt_steps(a, max_iter), want);
        assert_eq!(newton_sqrt_steps_grad(a, max_iter), (want, 0.0));
        assert_eq!(newton_sqrt_steps_jvp(a, max_iter, 1.0), (want, 0.0));
    }
}

#[test]
fn averaged_iterates_differentiate_the_steps_that_ran() {
    // At most 5 steps (the limit ends it) and at most 200 (the tolerance does).
    for max_iter in [5, 200] {
        for (a, b) in [(0.7, 0.3), (1.3, -0.2), (-0.4, 0.9)] {
            let (value, (ga, gb)) = averaged_iterates_grad(a, b, max_iter);
            assert_eq!(value.to_bits(), averaged_iterates(a, b, max_iter).to_bits());
            let f = |p: &[f64]| averaged_iterates(p[0], p[1], max_iter);
            assert_eq!(check_gradient(f, &[a, b], &[ga, gb], Tolerance::default()), Ok(()));
            let (_, t) = averaged_iterates_jvp(a, b, max_iter, 0.4, -0.9);
            close("jvp", &[t], &[0.4 * ga - 0.9 * gb], 1e-13);
            let (_, g, hv) = averaged_iterates_hvp(a, b, max_iter, 0.4, -0.9);
            assert_eq!(g, (ga, gb));
            let grad = |p: &[f64]| {
                let (_, (ga, gb)) = averaged_iterates_grad(p[0], p[1], max_iter);
                vec![ga, gb]
            };
            let tol = Tolerance { epsilon: 1e-5, max_relative: 1e-5 };
            assert_eq!(check_hvp(grad, &[a, b], &[0.4, -0.9], &[hv.0, hv.1], tol), Ok(()));
        }
    }
}

#[test]
fn the_mean_of_the_positive_elements_has_its_closed_form_gradient() {
    let x = [0.5, -1.0, 2.5, 0.0, 3.0, -0.25];
    let (value, g) = mean_positive_grad(x);
    assert_eq!(value, 2.0);
    assert_eq!(value.to_bits(), mean_positive(x).to_bits());
    let third = 1.0 / 3.0;
    assert_eq!(g, [third, 0.0, third, 0.0, third, 0.0]);
    let f = |p: &[f64]| mean_positive([p[0], p[1], p[2], p[3], p[4], p[5]]);
    // Away from the kink at 0.
    let y = [0.5, -1.0, 2.5, 0.1, 3.0, -0.25];
    let (_, gy) = mean_positive_grad(y);
    assert_eq!(check_gradient(f, &y, &gy, Tolerance::default()), Ok(()));
    let v = [1.0, 2.0, -1.0, 0.5, 0.25, 3.0];
    let (_, t) = mean_positive_jvp(y, v);
    close("jvp", &[t], &[gy.iter().zip(&v).map(|(g, v)| g * v).sum::<f64>()], 1e-15);
    let (_, _, hv) = mean_positive_hvp(y, v);
    assert_eq!(hv, [0.0; 6], "piecewise linear");
    // No positive element: 0, and a zero gradient.
    assert_eq!(mean_positive_grad([-1.0; 6]), (0.0, [0.0; 6]));
}

#[test]
fn squares_until_counts_the_elements_left_out() {
    let x = [1.0, -0.5, 2.0, 0.75, -3.0];
    // 1 + 0.25 + 4 passes 5 at the third element: two left out.
    let (value, (g, gl)) = squares_until_grad(x, 5.0);
    assert_eq!(value, 5.25 + 2.0 * 5.0);
    assert_eq!(value.to_bits(), squares_until(x, 5.0).to_bits());
    assert_eq!(g, [2.0, -1.0, 4.0, 0.0, 0.0]);
    assert_eq!(gl, 2.0);
    // Never passes: all used.
    let (value, (g, gl)) = squares_until_grad(x, 100.0);
    assert_eq!(value, 1.0 + 0.25 + 4.0 + 0.5625 + 9.0);
    assert_eq!(g, [2.0, -1.0, 4.0, 1.5, -6.0]);
    assert_eq!(gl, 0.0);
    let p = [1.0, -0.5, 2.0, 0.75, -3.0, 5.0];
    let f = |p: &[f64]| squares_until([p[0], p[1], p[2], p[3], p[4]], p[5]);
    let (_, (g, gl)) = squares_until_grad([p[0], p[1], p[2], p[3], p[4]], p[5]);
    let grad = [g[0], g[1], g[2], g[3], g[4], gl];
    assert_eq!(check_gradient(f, &p, &grad, Tolerance::default()), Ok(()));
    let (v, dl) = ([0.5, 1.0, -1.0, 2.0, 0.3], 0.7);
    let (_, t) = squares_until_jvp(x, 5.0, v, dl);
    let want: f64 = g.iter().zip(&v).map(|(g, v)| g * v).sum::<f64>() + gl * dl;
    close("jvp", &[t], &[want], 1e-15);
    let (_, _, (hx, hl)) = squares_until_hvp(x, 5.0, v, dl);
    assert_eq!(hx, [1.0, 2.0, -2.0, 0.0, 0.0], "2·vᵢ over the elements used");
    assert_eq!(hl, 0.0);
}

#[test]
fn a_loop_ended_by_a_bool_variable_has_the_derivatives_of_its_fixed_point() {
    for (a, b) in [(0.7, 0.3), (1.3, -0.2), (-0.4, 0.9)] {
        let (x, (ga, gb)) = fixed_point_done_grad(a, b);
        assert_eq!(x.to_bits(), fixed_point_done(a, b).to_bits());
        assert!((0.5 * (a * x).cos() + b - x).abs() < 1e-13, "a fixed point");
        // x = cos(a x) / 2 + b: (1 + a sin(a x) / 2) dx = −x sin(a x) / 2 da + db.
        let d = 1.0 + 0.5 * a * (a * x).sin();
        close("dx/da", &[ga], &[-0.5 * x * (a * x).sin() / d], 1e-11);
        close("dx/db", &[gb], &[1.0 / d], 1e-11);
        let (_, t) = fixed_point_done_jvp(a, b, 0.4, -0.9);
        close("jvp", &[t], &[0.4 * ga - 0.9 * gb], 1e-13);
        let (_, g, hv) = fixed_point_done_hvp(a, b, 0.4, -0.9);
        assert_eq!(g, (ga, gb));
        let grad = |p: &[f64]| {
            let (_, (ga, gb)) = fixed_point_done_grad(p[0], p[1]);
            vec![ga, gb]
        };
        let tol = Tolerance { epsilon: 1e-5, max_relative: 1e-5 };
        assert_eq!(check_hvp(grad, &[a, b], &[0.4, -0.9], &[hv.0, hv.1], tol), Ok(()));
    }
}

#[test]
fn a_bool_of_two_comparisons_picks_the_branch_of_each_element() {
    let x = [0.5, -0.25, 2.0, 0.75];
    let (value, g) = box_penalty_grad(x);
    assert_eq!(value, 0.25 + 2.5 + 20.0 + 0.5625);
    assert_eq!(value.to_bits(), box_penalty(x).to_bits());
    assert_eq!(g, [1.0, -10.0, 10.0, 1.5]);
    let f = |p: &[f64]| box_penalty([p[0], p[1], p[2], p[3]]);
    assert_eq!(check_gradient(f, &x, &g, Tolerance::default()), Ok(()));
    let v = [1.0, -2.0, 0.5, 3.0];
    let (_, t) = box_penalty_jvp(x, v);
    assert_eq!(t, 1.0 + 20.0 + 5.0 + 4.5);
    let (_, _, hv) = box_penalty_hvp(x, v);
    assert_eq!(hv, [2.0, 0.0, 0.0, 6.0]);
}

#[test]
fn a_bool_keeps_the_value_of_its_let() {
    // x = 2: y = 3 > 0, then y = −9: the value is −9, of derivative −3 · 2x = −12.
    assert_eq!(sign_kept_grad(2.0), (-9.0, -12.0));
    // x = 0.5: y = −0.75, then 2.25: the value is 2 · 2.25 · 0.5 = −6 (x² − 1) x.
    let (value, g) = sign_kept_grad(0.5);
    assert_eq!(value, 2.25);
    close("d/dx −6(x³ − x)", &[g], &[-6.0 * (3.0 * 0.25 - 1.0)], 1e-15);
    for x in [2.0, 0.5, -1.5, 0.1] {
        let (_, g) = sign_kept_grad(x);
        let f = |p: &[f64]| sign_kept(p[0]);
        assert_eq!(check_gradient(f, &[x], &[g], Tolerance::default()), Ok(()));
        let (_, t) = sign_kept_jvp(x, 0.3);
        close("jvp", &[t], &[0.3 * g], 1e-15);
        let (_, _, hv) = sign_kept_hvp(x, 0.3);
        let grad = |p: &[f64]| vec![sign_kept_grad(p[0]).1];
        assert_eq!(check_hvp(grad, &[x], &[0.3], &[hv], Tolerance::default()), Ok(()));
    }
}

#[test]
fn a_bool_set_in_a_branch_is_read_after_the_loop() {
    // xₖ − c = (x0 − c) 0.4ᵏ; the gradient of step k is 2 (x0 − c) 0.4ᵏ.
    let r = 0.4_f64.powi(20);
    for (x0, c) in [(1.0, 0.5), (3.0, -1.0), (1e6, 2.0)] {
        let (value, (g0, gc)) = descent_converged_grad(x0, c);
        assert_eq!(value.to_bits(), descent_converged(x0, c).to_bits());
        let x = c + (x0 - c) * r;
        // Converged when a gradient fell below 1e-3: within 20 steps unless x0 − c is huge.
        let converged = (0..20).any(|k| (2.0 * (x0 - c) * 0.4_f64.powi(k)).abs() < 1e-3);
        assert_eq!(converged, x0 != 1e6);
        let (w0, wc) = match converged {
            true => (2.0 * x * r, 2.0 * x * (1.0 - r)),
            false => (2.0 * x * r + 2.0 * (x - c) * r, 2.0 * x * (1.0 - r) - 2.0 * (x - c) * r),
        };
        close("d/dx0", &[g0], &[w0], 1e-9);
        close("d/dc", &[gc], &[wc], 1e-9);
        let f = |p: &[f64]| descent_converged(p[0], p[1]);
        let tol = Tolerance { epsilon: 1e-6, max_relative: 1e-5 };
        assert_eq!(check_gradient(f, &[x0, c], &[g0, gc], tol), Ok(()));
        let (_, t) = descent_converged_jvp(x0, c, 0.5, 2.0);
        close("jvp", &[t], &[0.5 * g0 + 2.0 * gc], 1e-12);
        let (_, _, hv) = descent_converged_hvp(x0, c, 0.5, 2.0);
        let grad = |p: &[f64]| {
            let (_, (a, b)) = descent_converged_grad(p[0], p[1]);
            vec![a, b]
        };
        assert_eq!(check_hvp(grad, &[x0, c], &[0.5, 2.0], &[hv.0, hv.1], tol), Ok(()));
    }
}

#[test]
fn newton_cube_root_with_a_flag_and_a_counter_has_the_derivatives_of_the_cube_root() {
    for a in [0.3, 2.0, 27.0, 1000.0] {
        let (x, g) = cube_root_grad(a);
        assert_eq!(x.to_bits(), cube_root(a).to_bits());
        close("∛a", &[x], &[a.cbrt()], 1e-15);
        close("d∛a/da", &[g], &[1.0 / (3.0 * x * x)], 1e-13);
        let (_, t) = cube_root_jvp(a, -0.6);
        close("jvp", &[t], &[-0.6 * g], 1e-15);
        let (_, _, hv) = cube_root_hvp(a, -0.6);
        // d²∛a/da² = −2 / (9 a ∛a²).
        close("H·v", &[hv], &[-0.6 * -2.0 / (9.0 * a * x * x)], 1e-12);
    }
}

#[test]
fn a_counter_of_the_steps_of_inner_while_loops_is_read_after_the_outer_loop() {
    let a = [2.0, 9.0, 0.5];
    let total: usize = a.iter().map(|&ai| newton_steps(ai, usize::MAX)).sum();
    let (value, g) = sqrt_per_step_grad(a);
    assert_eq!(value.to_bits(), sqrt_per_step(a).to_bits());
    close("value", &[value], &[a.iter().map(|ai| ai.sqrt()).sum::<f64>() / total as f64], 1e-14);
    let want: Vec<f64> = a.iter().map(|ai| 0.5 / ai.sqrt() / total as f64).collect();
    close("gradient", &g, &want, 1e-12);
    let v = [0.3, -0.2, 1.0];
    let (_, t) = sqrt_per_step_jvp(a, v);
    close("jvp", &[t], &[g.iter().zip(&v).map(|(g, v)| g * v).sum::<f64>()], 1e-14);
    let (_, _, hv) = sqrt_per_step_hvp(a, v);
    let want: Vec<f64> =
        a.iter().zip(&v).map(|(ai, vi)| -0.25 / (ai * ai.sqrt()) / total as f64 * vi).collect();
    close("H·v", &hv, &want, 1e-10);
}

#[test]
fn counters_declared_in_a_loop_and_captured_by_a_closure() {
    let x = [[0.5, 2.0, -1.0], [3.0, 0.25, 4.0]];
    let (t, step) = (1.0, 3);
    // Row 0: one above 1 (n = 3), sum 1.5; row 1: two (n = 6), sum 7.25.
    let (value, (g, gt)) = counted_rows_grad(x, t, step);
    assert_eq!(value, 1.5 * 3.0 + 9.0 + 7.25 * 6.0 + 36.0);
    assert_eq!(value.to_bits(), counted_rows(x, t, step).to_bits());
    assert_eq!(g, [[3.0; 3], [6.0; 3]]);
    assert_eq!(gt, 45.0);
    let f = |p: &[f64]| counted_rows([[p[0], p[1], p[2]], [p[3], p[4], p[5]]], p[6], step);
    let p = [0.5, 2.0, -1.0, 3.0, 0.25, 4.0, 1.0];
    let grad = [3.0, 3.0, 3.0, 6.0, 6.0, 6.0, 45.0];
    assert_eq!(check_gradient(f, &p, &grad, Tolerance::default()), Ok(()));
    let (v, vt) = ([[1.0, 0.0, 2.0], [0.5, -1.0, 1.0]], 0.5);
    let (_, tangent) = counted_rows_jvp(x, t, step, v, vt);
    assert_eq!(tangent, 3.0 * 3.0 + 6.0 * 0.5 + 45.0 * 0.5);
    let (_, _, (hx, ht)) = counted_rows_hvp(x, t, step, v, vt);
    assert_eq!((hx, ht), ([[0.0; 3]; 2], 0.0), "linear in x and t");
}

#[test]
fn a_counter_stepped_in_a_while_is_an_index_in_the_loop() {
    let x = [0.4, 0.3, 0.2, 0.6, 0.1, 0.05, 0.5, 0.25];
    for y in [10.0, 3.0, 0.5, 1e6] {
        // Plain Rust: the steps and the value.
        let (mut s, mut k) = (y, 0);
        while s > 1.0 && k < 8 {
            s = 0.5 * s + x[k];
            k += 1;
        }
        let (value, (g, gy)) = halvings_grad(x, y);
        assert_eq!(value.to_bits(), (s + k as f64).to_bits());
        assert_eq!(value.to_bits(), halvings(x, y).to_bits());
        // s = y / 2ᵏ + Σ_{j<k} xⱼ / 2^(k−1−j).
        let want: Vec<f64> =
            (0..8).map(|j| if j < k { 0.5_f64.powi((k - 1 - j) as i32) } else { 0.0 }).collect();
        assert_eq!(g.to_vec(), want);
        assert_eq!(gy, 0.5_f64.powi(k as i32));
        let v = [1.0, -1.0, 0.5, 2.0, 0.0, 1.0, -2.0, 0.25];
        let (_, t) = halvings_jvp(x, y, v, 0.5);
        let want_t: f64 = g.iter().zip(&v).map(|(g, v)| g * v).sum::<f64>() + gy * 0.5;
        close("jvp", &[t], &[want_t], 1e-15);
        let (_, _, (hx, hy)) = halvings_hvp(x, y, v, 0.5);
        assert_eq!((hx, hy), ([0.0; 8], 0.0), "affine in x and y");
    }
}

#[test]
fn an_index_advanced_in_a_scanning_while() {
    let data = [0.5, 1.5, 2.0, -1.0, 3.0];
    let w = 0.7;
    let (value, g) = leading_positive_grad(w, &data);
    assert_eq!(value.to_bits(), leading_positive(w, &data).to_bits());
    let s: f64 = data[..3].iter().map(|d| (w * d).sin()).sum();
    close("value", &[value], &[3.0 * s], 1e-15);
    let ds: f64 = data[..3].iter().map(|d| d * (w * d).cos()).sum();
    close("gradient", &[g], &[3.0 * ds], 1e-14);
    let (_, t) = leading_positive_jvp(w, &data, -0.4);
    close("jvp", &[t], &[-0.4 * g], 1e-15);
    let (_, _, hv) = leading_positive_hvp(w, &data, -0.4);
    let d2s: f64 = data[..3].iter().map(|d| -d * d * (w * d).sin()).sum();
    close("H·v", &[hv], &[-0.4 * 3.0 * d2s], 1e-14);
    // All positive: the scan stops at the end.
    let all = [0.5, 1.5];
    let (value, _) = leading_positive_grad(w, &all);
    close("value", &[value], &[2.0 * ((w * 0.5).sin() + (w * 1.5).sin())], 1e-15);
    assert_eq!(leading_positive_grad(w, &[]), (0.0, 0.0));
}

#[test]
fn a_counter_stepped_in_a_loop_after_its_exit_test_is_an_index_in_the_loop() {
    let x = [0.7, -1.2, 1.5, 0.4];
    let v = [0.5, 1.0, -0.25, 2.0];
    // cap 100: three terms; 0.1: stops once the sum passes it (x₀² x₁ < 0, then + x₁² x₂ > 0.1).
    for (cap, k) in [(100.0, 3), (0.1, 2), (-1.0, 0)] {
        let terms = |x: [f64; 4]| (0..k).map(|i| x[i] * x[i] * x[i + 1]).sum::<f64>();
        let (value, (g, gcap)) = cubic_terms_grad(x, cap);
        assert_eq!(value.to_bits(), cubic_terms(x, cap).to_bits());
        close("value", &[value], &[k as f64 * terms(x)], 1e-15);
        // ∂/∂xⱼ = k (2 xⱼ xⱼ₊₁ [j < k] + xⱼ₋₁² [0 < j ≤ k]).
        let want: [f64; 4] = std::array::from_fn(|j| {
            let own = if j < k { 2.0 * x[j] * x[j + 1] } else { 0.0 };
            let left = if j > 0 && j <= k { x[j - 1] * x[j - 1] } else { 0.0 };
            k as f64 * (own + left)
        });
        close("gradient", &g, &want, 1e-15);
        assert_eq!(gcap, 0.0);
        let (_, t) = cubic_terms_jvp(x, cap, v, 1.0);
        let dot: f64 = g.iter().zip(&v).map(|(g, v)| g * v).sum();
        close("jvp", &[t], &[dot], 1e-15);
        // H = k Σ_{i<k} (2 xᵢ₊₁ eᵢeᵢᵀ + 2 xᵢ (eᵢeᵢ₊₁ᵀ + eᵢ₊₁eᵢᵀ)).
        let mut hv = [0.0; 4];
        for i in 0..k {
            hv[i] += k as f64 * 2.0 * (x[i + 1] * v[i] + x[i] * v[i + 1]);
            hv[i + 1] += k as f64 * 2.0 * x[i] * v[i];
        }
        let (_, _, (h, hcap)) = cubic_terms_hvp(x, cap, v, 1.0);
        close("H·v", &h, &hv, 1e-15);
        assert_eq!(hcap, 0.0);
    }
    let x = [0.5, -1.0, 2.0, 0.25, 3.0];
    let (value, g) = neighbour_products_grad(x);
    close("value", &[value], &[-0.5 - 2.0 + 0.5 + 0.75], 1e-15);
    assert_eq!(g, [x[1], x[0] + x[2], x[1] + x[3], x[2] + x[4], x[3]]);
    let v = [1.0, 2.0, -1.0, 0.5, 0.25];
    let (_, _, hv) = neighbour_products_hvp(x, v);
    assert_eq!(hv, [v[1], v[0] + v[2], v[1] + v[3], v[2] + v[4], v[3]]);
}
