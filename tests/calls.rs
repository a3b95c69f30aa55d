//! Calls between differentiated functions: a three-level chain against its closed forms, a
//! hand-written stable `log_sum_exp` used where the naive formula overflows, calls inside loops,
//! array arguments, and calls inside an `impl` block.

use autodiff_runtime::{Tolerance, check_close, check_gradient, check_hvp};
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
