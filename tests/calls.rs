//! Calls between differentiated functions: a three-level chain against its closed forms, a
//! hand-written stable `log_sum_exp` used where the naive formula overflows, calls inside loops,
//! array arguments, and calls inside an `impl` block. A callee's derivative functions have one
//! partial and one direction per `f64` or array parameter, whatever its callers pass: the
//! hierarchical model of issue 20's bug 7 calls `normal_lpdf` with values and constants in
//! different positions, and hand-written rules are called with constants, integers and arrays
//! taken by reference, inside loops, branches, checkpointed loops and vector functions.

use autodiff_runtime::{Tolerance, check_close, check_gradient, check_hvp, numeric_gradient};
use autodiff_suite::calls::*;

fn close(what: &str, values: &[f64], reference: &[f64], tol: f64) {
    let tol = Tolerance { epsilon: tol, max_relative: tol };
    if let Err(e) = check_close(values, reference, tol) {
        panic!("{what}: {e}");
    }
}

/// `h(t) = t sin t` and its first two derivatives.
fn h3(t: f64) -> (f64, f64, f64) {
    (t * t.sin(), t.sin() + t * t.cos(), 2.0 * t.cos() - t * t.sin())
}

#[test]
fn a_chain_of_three_calls_against_its_closed_forms() {
    for (x, y) in [(0.7, 1.3), (-1.1, 0.4), (2.0, -0.6)] {
        // g = h(xy) + eʸ
        let (hv, hd, hdd) = h3(x * y);
        let g = hv + y.exp();
        let (gx, gy) = (hd * y, hd * x + y.exp());
        let (gxx, gxy, gyy) = (hdd * y * y, hdd * x * y + hd, hdd * x * x + y.exp());
        // f = L(g) H(y), L = ln(1 + g²)
        let (l, l1, l2) =
            ((g * g).ln_1p(), 2.0 * g / (1.0 + g * g), 2.0 * (1.0 - g * g) / (1.0 + g * g).powi(2));
        let (hy, hy1, hy2) = h3(y);
        let (fx, fy) = (l1 * gx * hy, l1 * gy * hy + l * hy1);
        let fxx = (l2 * gx * gx + l1 * gxx) * hy;
        let fxy = (l2 * gx * gy + l1 * gxy) * hy + l1 * gx * hy1;
        let fyy = (l2 * gy * gy + l1 * gyy) * hy + 2.0 * l1 * gy * hy1 + l * hy2;
        let (value, (dx, dy)) = f_grad(x, y);
        assert_eq!(value, f(x, y));
        close("gradient", &[dx, dy], &[fx, fy], 1e-12);
        let (v1, v2) = (0.3, -1.7);
        let (_, _, (h1, h2)) = f_hvp(x, y, v1, v2);
        close("H·v", &[h1, h2], &[fxx * v1 + fxy * v2, fxy * v1 + fyy * v2], 1e-11);
        let (_, slope) = f_jvp(x, y, v1, v2);
        close("jvp", &[slope], &[fx * v1 + fy * v2], 1e-12);
        let hessian = f_hessian(x, y);
        close("Hessian", &[hessian[0][0], hessian[0][1], hessian[1][1]], &[fxx, fxy, fyy], 1e-11);
        // And the middle of the chain on its own.
        let (_, (dgx, dgy)) = g_grad(x, y);
        close("g's gradient", &[dgx, dgy], &[gx, gy], 1e-12);
    }
}

#[test]
fn a_hand_written_stable_log_sum_exp_where_the_naive_formula_overflows() {
    // exp(1000) overflows, so the naive ln Σ exp(xᵢ) would be +inf.
    let x: [f64; 4] = [1000.0, 999.0, 998.0, 0.0];
    assert!(x.iter().map(|e| e.exp()).sum::<f64>().is_infinite());
    let t = 0.5;
    let (value, (gx, gt)) = tempered_grad(x, t);
    let lse = 1000.0 + (1.0 + (-1.0_f64).exp() + (-2.0_f64).exp() + (-1000.0_f64).exp()).ln();
    close("value", &[value], &[t * lse + t * t], 1e-14);
    let z = 1.0 + (-1.0_f64).exp() + (-2.0_f64).exp();
    let p = [1.0 / z, (-1.0_f64).exp() / z, (-2.0_f64).exp() / z, 0.0];
    close("∂/∂x", &gx, &p.map(|e| t * e), 1e-14);
    close("∂/∂t", &[gt], &[lse + 2.0 * t], 1e-14);
    // H·v along (v, 0): t (p ⊙ v − p (p·v)); along t: the softmax.
    let v = [1.0, -1.0, 0.5, 2.0];
    let pv: f64 = p.iter().zip(&v).map(|(a, b)| a * b).sum();
    let (_, _, (hx, ht)) = tempered_hvp(x, t, v, 0.0);
    close("H·v in x", &hx, &std::array::from_fn::<f64, 4, _>(|i| t * p[i] * (v[i] - pv)), 1e-14);
    close("H·v in t", &[ht], &[pv], 1e-14);
    let (_, _, (hx, ht)) = tempered_hvp(x, t, [0.0; 4], 1.0);
    close("H·e_t in x", &hx, &p, 1e-14);
    close("H·e_t in t", &[ht], &[2.0], 1e-14);
    let (_, slope) = tempered_jvp(x, t, v, 1.0);
    close("jvp", &[slope], &[t * pv + lse + 2.0 * t], 1e-12);
}

#[test]
fn the_hand_written_derivatives_pass_the_runtime_checks() {
    // How a user checks a hand-written `g_grad` and `g_hvp` in a test.
    let x = [0.3, -1.2, 2.0, 0.7];
    let f = |p: &[f64]| log_sum_exp([p[0], p[1], p[2], p[3]]);
    let grad = |p: &[f64]| log_sum_exp_grad([p[0], p[1], p[2], p[3]]).1.to_vec();
    check_gradient(f, &x, &grad(&x), Tolerance::default()).expect("log_sum_exp_grad");
    let v = [1.0, 0.5, -0.5, 2.0];
    let (_, _, hv) = log_sum_exp_hvp(x, v);
    check_hvp(grad, &x, &v, &hv, Tolerance::default()).expect("log_sum_exp_hvp");
}

#[test]
fn calls_inside_loops_and_with_array_arguments() {
    let x = [0.3, -1.2, 2.0, 0.7, -0.4];
    let sp = |z: f64| (1.0 + z.exp()).ln();
    let sig = |z: f64| 1.0 / (1.0 + (-z).exp());
    let (value, grad) = softplus_ring_grad(x);
    assert_eq!(value, softplus_ring(x));
    let expected: [f64; 5] =
        std::array::from_fn(|j| sig(x[j]) * x[(j + 1) % 5] + sp(x[(j + 4) % 5]));
    close("ring gradient", &grad, &expected, 1e-12);
    let v = [1.0, 0.0, -1.0, 0.5, 2.0];
    let (_, _, hv) = softplus_ring_hvp(x, v);
    // H[j][j] = σ'(xⱼ) xⱼ₊₁, H[j][j+1] = σ(xⱼ), H[j][j-1] = σ(xⱼ₋₁).
    let dsig = |z: f64| sig(z) * (1.0 - sig(z));
    let expected: [f64; 5] = std::array::from_fn(|j| {
        let (next, prev) = ((j + 1) % 5, (j + 4) % 5);
        dsig(x[j]) * x[next] * v[j] + sig(x[j]) * v[next] + sig(x[prev]) * v[prev]
    });
    close("ring H·v", &hv, &expected, 1e-12);
    // The same ring backwards, weighted: its derivatives split off the wrap-around iteration.
    fn weighted<const M: usize>(seed: f64) {
        let x: [f64; M] = std::array::from_fn(|j| (seed + 0.9 * j as f64).sin());
        let w: [f64; M] = std::array::from_fn(|j| 0.5 + 0.25 * j as f64);
        let v: [f64; M] = std::array::from_fn(|j| (2.0 * seed + j as f64).cos());
        let sp = |z: f64| (1.0 + z.exp()).ln();
        let sig = |z: f64| 1.0 / (1.0 + (-z).exp());
        let dsig = |z: f64| sig(z) * (1.0 - sig(z));
        let (value, grad) = weighted_softplus_ring_grad(x, &w);
        assert_eq!(value.to_bits(), weighted_softplus_ring(x, &w).to_bits());
        // ∂/∂xⱼ = wⱼ σ(xⱼ) xⱼ₋₁ + wⱼ₊₁ sp(xⱼ₊₁).
        let expected: [f64; M] = std::array::from_fn(|j| {
            let (prev, next) = ((j + M - 1) % M, (j + 1) % M);
            w[j] * sig(x[j]) * x[prev] + w[next] * sp(x[next])
        });
        close("weighted ring gradient", &grad, &expected, 1e-12);
        let (_, g, hv) = weighted_softplus_ring_hvp(x, &w, v);
        assert_eq!(g, grad);
        let expected: [f64; M] = std::array::from_fn(|j| {
            let (prev, next) = ((j + M - 1) % M, (j + 1) % M);
            w[j] * (dsig(x[j]) * x[prev] * v[j] + sig(x[j]) * v[prev])
                + w[next] * sig(x[next]) * v[next]
        });
        close("weighted ring H·v", &hv, &expected, 1e-12);
    }
    weighted::<1>(0.3);
    weighted::<2>(0.3);
    weighted::<9>(-0.2);
    let (a, s, offset) = ([0.5, -1.0, 2.0], 0.7, [1.0, 2.0, 3.0]);
    let (value, (ga, gs)) = scaled_norm_grad(a, s, &offset);
    assert_eq!(value, scaled_norm(a, s, &offset));
    close("array argument", &ga, &a.map(|e| 2.0 * e * s), 1e-14);
    close("scalar", &[gs], &[5.25 + s.cos()], 1e-14);
    let (_, _, (ha, hs)) = scaled_norm_hvp(a, s, &offset, [1.0, 0.0, 0.0], 1.0);
    close("H·v, a", &ha, &[2.0 * s + 2.0 * a[0], 2.0 * a[1], 2.0 * a[2]], 1e-14);
    close("H·v, s", &[hs], &[2.0 * a[0] - s.sin()], 1e-14);
}

#[test]
fn calls_inside_an_impl_block() {
    let (x, y) = (1.5, -0.5);
    let (value, (gx, gy)) = Model::loss_grad(x, y);
    assert_eq!(value, Model::loss(x, y));
    close("gradient", &[gx, gy], &[2.0 * (x - y), -2.0 * (x - y) + 2.0 * y], 1e-15);
    let (_, _, (hx, hy)) = Model::loss_hvp(x, y, 1.0, 0.0);
    close("H·e_x", &[hx, hy], &[2.0, -2.0], 1e-15);
}

#[test]
fn callers_agree_with_their_callees_written_out() {
    // The benchmark's pairs compute the same function: the same derivatives, to rounding.
    let (x, y, vx, vy) = (0.7, 1.3, 0.6, -1.1);
    let (a, b) = (f_hvp(x, y, vx, vy), f_inlined_hvp(x, y, vx, vy));
    close("f", &[a.0, a.1.0, a.1.1, a.2.0, a.2.1], &[b.0, b.1.0, b.1.1, b.2.0, b.2.1], 1e-13);
    let p = [0.3, -1.0, 0.5, 2.0, -0.2];
    let v = [1.0, 0.5, -0.5, 0.25, 2.0];
    let (a, b) = (softplus_ring_hvp(p, v), softplus_ring_inlined_hvp(p, v));
    close("softplus_ring value", &[a.0], &[b.0], 1e-14);
    close("softplus_ring gradient", &a.1, &b.1, 1e-13);
    close("softplus_ring H·v", &a.2, &b.2, 1e-13);
}

/// `(θ, μ, τ)` flattened, the order of `schools`'s gradient and Hessian.
fn schools_point(p: &[f64]) -> ([f64; 4], f64, f64) {
    ([p[0], p[1], p[2], p[3]], p[4], p[5])
}

#[test]
fn a_hierarchical_model_calls_one_helper_with_constants_in_different_positions() {
    let y = [2.8, 0.8, -0.3, 0.7];
    let sigma = 1.5;
    let point = [1.2, -0.4, 0.3, 2.0, 0.6, 1.7];
    let (theta, mu, tau) = schools_point(&point);
    // Closed forms: lp = −μ²/50 − ln 5 + Σⱼ [−½((θⱼ − μ)/τ)² − ln τ − ½((yⱼ − θⱼ)/σ)² − ln σ].
    let (t2, s2) = (tau * tau, sigma * sigma);
    let e: [f64; 4] = std::array::from_fn(|j| theta[j] - mu);
    let value = -mu * mu / 50.0
        - 5.0_f64.ln()
        - (0..4)
            .map(|j| 0.5 * e[j] * e[j] / t2 + tau.ln() + 0.5 * (y[j] - theta[j]).powi(2) / s2)
            .sum::<f64>()
        - 4.0 * sigma.ln();
    let mut grad = [0.0; 6];
    let mut hess = [[0.0; 6]; 6];
    for j in 0..4 {
        grad[j] = -e[j] / t2 + (y[j] - theta[j]) / s2;
        grad[4] += e[j] / t2;
        grad[5] += e[j] * e[j] / (t2 * tau) - 1.0 / tau;
        hess[j][j] = -1.0 / t2 - 1.0 / s2;
        hess[j][4] = 1.0 / t2;
        hess[j][5] = 2.0 * e[j] / (t2 * tau);
        hess[4][5] -= 2.0 * e[j] / (t2 * tau);
        hess[5][5] += -3.0 * e[j] * e[j] / (t2 * t2) + 1.0 / t2;
        (hess[4][j], hess[5][j]) = (hess[j][4], hess[j][5]);
    }
    grad[4] -= mu / 25.0;
    hess[4][4] = -1.0 / 25.0 - 4.0 / t2;
    hess[5][4] = hess[4][5];
    let (lp, (g_theta, g_mu, g_tau)) = schools_grad(theta, mu, tau, &y, sigma);
    close("value", &[lp, schools(theta, mu, tau, &y, sigma)], &[value, value], 1e-13);
    let g = [g_theta[0], g_theta[1], g_theta[2], g_theta[3], g_mu, g_tau];
    close("gradient", &g, &grad, 1e-13);
    let f = |p: &[f64]| {
        let (theta, mu, tau) = schools_point(p);
        schools(theta, mu, tau, &y, sigma)
    };
    check_gradient(f, &point, &g, Tolerance::default()).expect("gradient against differences");
    let grad_at = |p: &[f64]| {
        let (theta, mu, tau) = schools_point(p);
        let (_, (gt, gm, gs)) = schools_grad(theta, mu, tau, &y, sigma);
        vec![gt[0], gt[1], gt[2], gt[3], gm, gs]
    };
    let v = [0.5, -1.0, 0.25, 2.0, -0.75, 0.3];
    let (vt, vm, vs) = schools_point(&v);
    let (_, slope) = schools_jvp(theta, mu, tau, &y, sigma, vt, vm, vs);
    let expected: f64 = grad.iter().zip(&v).map(|(a, b)| a * b).sum();
    close("jvp", &[slope], &[expected], 1e-13);
    let (_, (gt2, gm2, gs2), (ht, hm, hs)) = schools_hvp(theta, mu, tau, &y, sigma, vt, vm, vs);
    assert_eq!((gt2, gm2, gs2), (g_theta, g_mu, g_tau));
    let hv = [ht[0], ht[1], ht[2], ht[3], hm, hs];
    let expected: [f64; 6] = std::array::from_fn(|i| (0..6).map(|k| hess[i][k] * v[k]).sum());
    close("H·v", &hv, &expected, 1e-13);
    check_hvp(grad_at, &point, &v, &hv, Tolerance::default()).expect("H·v against differences");
    let h = schools_hessian(theta, mu, tau, &y, sigma);
    for (i, (row, expected)) in h.iter().zip(&hess).enumerate() {
        close("Hessian row", row, expected, 1e-13);
        for (k, entry) in row.iter().enumerate() {
            assert_eq!(*entry, h[k][i], "the Hessian is symmetric at ({i}, {k})");
        }
    }
}

#[test]
fn a_copy_of_a_constant_parameter_passed_to_a_call() {
    let (x, c) = (0.4, -0.9);
    let (value, d) = copied_constant_grad(x, c);
    assert_eq!(value, copied_constant(x, c));
    close("gradient", &[d], &[-(x - c) / 2.25], 1e-15);
    let (_, g, h) = copied_constant_hvp(x, c, 2.0);
    close("H·v", &[g, h], &[d, -2.0 / 2.25], 1e-15);
}

#[test]
fn hand_written_rules_take_zero_directions_for_constants_and_nothing_for_integers() {
    let w = [0.7, -1.3, 0.4];
    for (x, y) in [(0.8, -0.6), (-1.4, 2.1)] {
        // f = 2.5x³ + yx² + w·(x, y, xy) + x² + y² + x²y²
        let fx = 7.5 * x * x + 2.0 * x * y + w[0] + w[2] * y + 2.0 * x + 2.0 * x * y * y;
        let fy = x * x + w[1] + w[2] * x + 2.0 * y + 2.0 * x * x * y;
        let fxx = 15.0 * x + 2.0 * y + 2.0 + 2.0 * y * y;
        let fxy = 2.0 * x + w[2] + 4.0 * x * y;
        let fyy = 2.0 + 2.0 * x * x;
        let (value, (gx, gy)) = hand_written_callers_grad(x, y, &w);
        assert_eq!(value, hand_written_callers(x, y, &w));
        close("gradient", &[gx, gy], &[fx, fy], 1e-13);
        let (vx, vy) = (0.3, -1.1);
        let (_, slope) = hand_written_callers_jvp(x, y, &w, vx, vy);
        close("jvp", &[slope], &[fx * vx + fy * vy], 1e-13);
        let (_, _, (hx, hy)) = hand_written_callers_hvp(x, y, &w, vx, vy);
        close("H·v", &[hx, hy], &[fxx * vx + fxy * vy, fxy * vx + fyy * vy], 1e-13);
        let h = hand_written_callers_hessian(x, y, &w);
        close("Hessian", &[h[0][0], h[0][1], h[1][0], h[1][1]], &[fxx, fxy, fxy, fyy], 1e-13);
    }
    // The rules themselves, against finite differences.
    let (x, c, n) = (1.3, -0.7, 4);
    let (_, (gx, gc)) = scaled_powi_grad(x, c, n);
    let f = |p: &[f64]| scaled_powi(p[0], p[1], n);
    check_gradient(f, &[x, c], &[gx, gc], Tolerance::default()).expect("scaled_powi_grad");
    let grad = |p: &[f64]| {
        let (_, (a, b)) = scaled_powi_grad(p[0], p[1], n);
        vec![a, b]
    };
    let (_, _, (hx, hc)) = scaled_powi_hvp(x, c, n, 0.4, 1.0);
    check_hvp(grad, &[x, c], &[0.4, 1.0], &[hx, hc], Tolerance::default())
        .expect("scaled_powi_hvp");
}

#[test]
fn calls_in_both_sides_of_a_branch_with_a_constant_in_different_positions() {
    let c = 0.4;
    let x = [0.9, -0.5, 1.7];
    // x > 0: −½((x − c)/1.5)² − ln 1.5; otherwise −½((0.5 − x)/(c + 1))² − ln(c + 1).
    let d = |x: f64| if x > 0.0 { -(x - c) / 2.25 } else { (0.5 - x) / ((c + 1.0) * (c + 1.0)) };
    let dd = |x: f64| if x > 0.0 { -1.0 / 2.25 } else { -1.0 / ((c + 1.0) * (c + 1.0)) };
    let (value, grad) = branchy_calls_grad(x, c);
    assert_eq!(value, branchy_calls(x, c));
    close("gradient", &grad, &x.map(d), 1e-14);
    let v = [1.0, -2.0, 0.5];
    let (_, slope) = branchy_calls_jvp(x, c, v);
    close("jvp", &[slope], &[(0..3).map(|i| d(x[i]) * v[i]).sum()], 1e-14);
    let (_, _, hv) = branchy_calls_hvp(x, c, v);
    close("H·v", &hv, &std::array::from_fn::<f64, 3, _>(|i| dd(x[i]) * v[i]), 1e-14);
    let h = branchy_calls_hessian(x, c);
    for (i, row) in h.iter().enumerate() {
        let expected: [f64; 3] = std::array::from_fn(|k| if i == k { dd(x[i]) } else { 0.0 });
        close("Hessian row", row, &expected, 1e-14);
    }
}

#[test]
fn calls_in_a_checkpointed_loop_agree_with_the_stored_loop_and_differences() {
    let (x0, k, target) = (0.3, 0.9, 1.1);
    let stored = relax_stored_grad(x0, k, target);
    let checkpointed = relax_checkpointed_grad(x0, k, target);
    assert_eq!(stored.0.to_bits(), checkpointed.0.to_bits());
    assert_eq!(stored.1.0.to_bits(), checkpointed.1.0.to_bits());
    assert_eq!(stored.1.1.to_bits(), checkpointed.1.1.to_bits());
    let f = |p: &[f64]| relax_stored(p[0], p[1], target);
    let g = [stored.1.0, stored.1.1];
    check_gradient(f, &[x0, k], &g, Tolerance::default()).expect("gradient");
    let (v0, vk) = (0.7, -0.4);
    let a = relax_stored_hvp(x0, k, target, v0, vk);
    let b = relax_checkpointed_hvp(x0, k, target, v0, vk);
    assert_eq!(a, b, "the checkpointed H·v is the stored one");
    let grad = |p: &[f64]| {
        let (_, (gx, gk)) = relax_checkpointed_grad(p[0], p[1], target);
        vec![gx, gk]
    };
    check_hvp(grad, &[x0, k], &[v0, vk], &[b.2.0, b.2.1], Tolerance::default()).expect("H·v");
    let (_, slope) = relax_checkpointed_jvp(x0, k, target, v0, vk);
    close("jvp", &[slope], &[g[0] * v0 + g[1] * vk], 1e-13);
}

#[test]
fn a_vector_function_calls_a_scalar_helper_with_mixed_constness() {
    let (x, c) = ([0.8, -0.3], 1.4);
    let z = (1.0 - x[1]) / x[0];
    let jacobian = [
        [-(x[0] - c), 0.0],
        [z * z / x[0] - 1.0 / x[0], (1.0 - x[1]) / (x[0] * x[0])],
        [-x[0] * x[1] * x[1] / (c * c), -x[0] * x[0] * x[1] / (c * c)],
    ];
    let (value, j) = lpdf_vector_jacobian(x, c);
    assert_eq!(value, lpdf_vector(x, c));
    for (row, expected) in j.iter().zip(&jacobian) {
        close("Jacobian row", row, expected, 1e-14);
    }
    for (r, expected) in jacobian.iter().enumerate() {
        let f = |p: &[f64]| lpdf_vector([p[0], p[1]], c)[r];
        close("row against differences", expected, &numeric_gradient(f, &x), 1e-7);
    }
    let cot = [0.5, -1.0, 2.0];
    let (_, back) = lpdf_vector_vjp(x, c, cot);
    let expected: [f64; 2] = std::array::from_fn(|k| (0..3).map(|r| cot[r] * jacobian[r][k]).sum());
    close("vjp", &back, &expected, 1e-14);
}
