//! Calls of array-returning functions bound without their type (`src/vcalls_untyped.rs`): each
//! twin of a typed form gives the same value and derivatives to the bit in every mode (the
//! typed forms are checked against finite differences and closed forms in `tests/vcalls.rs` and
//! `tests/structs.rs`); the shapes without a twin (two dimensions, `f32`, a generic caller)
//! against central finite differences, H·v also for symmetry.

use autodiff_runtime::{Tolerance, check_close, check_hvp, numeric_gradient};
use autodiff_suite::structs::Quat;
use autodiff_suite::vcalls::*;
use autodiff_suite::vcalls_untyped::*;

fn close(what: &str, values: &[f64], reference: &[f64], tol: f64) {
    let tol = Tolerance { epsilon: tol, max_relative: tol };
    if let Err(e) = check_close(values, reference, tol) {
        panic!("{what}: {e}");
    }
}

fn point(seed: f64, n: usize) -> Vec<f64> {
    (0..n).map(|i| 0.6 * (seed + 1.3 * i as f64).sin()).collect()
}

fn m4(p: &[f64]) -> [[f64; 4]; 4] {
    std::array::from_fn(|i| std::array::from_fn(|j| p[4 * i + j]))
}

fn a4(p: &[f64]) -> [f64; 4] {
    std::array::from_fn(|i| p[i])
}

const DATA: [f64; 4] = [0.5, -1.0, 0.25, 2.0];

#[test]
fn a_perceptron_through_untyped_layers_is_the_typed_one_to_the_bit() {
    for seed in [0.3, -0.8, 2.0] {
        let (p, v) = (point(seed, 40), point(seed + 1.0, 40));
        let (w1, b1, w2, b2) = (m4(&p), a4(&p[16..]), m4(&p[20..]), a4(&p[36..]));
        let (d1, e1, d2, e2) = (m4(&v), a4(&v[16..]), m4(&v[20..]), a4(&v[36..]));
        let typed = mlp_grad(&w1, &b1, &w2, &b2, &DATA);
        assert_eq!(mlp_untyped_grad(&w1, &b1, &w2, &b2, &DATA), typed);
        assert_eq!(mlp_untyped(&w1, &b1, &w2, &b2, &DATA).to_bits(), typed.0.to_bits());
        let args = (&w1, &b1, &w2, &b2, &DATA, &d1, &e1, &d2, &e2);
        assert_eq!(
            mlp_untyped_jvp(args.0, args.1, args.2, args.3, args.4, args.5, args.6, args.7, args.8),
            mlp_jvp(args.0, args.1, args.2, args.3, args.4, args.5, args.6, args.7, args.8)
        );
        assert_eq!(
            mlp_untyped_hvp(args.0, args.1, args.2, args.3, args.4, args.5, args.6, args.7, args.8),
            mlp_hvp(args.0, args.1, args.2, args.3, args.4, args.5, args.6, args.7, args.8)
        );
    }
}

#[test]
fn runge_kutta_through_untyped_stages_is_the_typed_one_to_the_bit() {
    for (s, k, ds, dk) in
        [([1.0, 0.2], 1.5, [0.5, -1.0], 0.3), ([-0.4, 0.9], 0.7, [1.0, 2.0], -1.0)]
    {
        assert_eq!(rk4_untyped(s, k).to_bits(), rk4(s, k).to_bits());
        assert_eq!(rk4_untyped_grad(s, k), rk4_grad(s, k));
        assert_eq!(rk4_untyped_jvp(s, k, ds, dk), rk4_jvp(s, k, ds, dk));
        assert_eq!(rk4_untyped_hvp(s, k, ds, dk), rk4_hvp(s, k, ds, dk));
        assert_eq!(rk4_untyped_checkpointed_grad(s, k), rk4_checkpointed_grad(s, k));
        assert_eq!(rk4_untyped_checkpointed_hvp(s, k, ds, dk), rk4_checkpointed_hvp(s, k, ds, dk));
    }
    // And against finite differences, on its own.
    let f = |p: &[f64]| rk4_untyped([p[0], p[1]], p[2]);
    let (_, (gs, gk)) = rk4_untyped_grad([1.0, 0.2], 1.5);
    close("rk4_untyped", &[gs[0], gs[1], gk], &numeric_gradient(f, &[1.0, 0.2, 1.5]), 1e-6);
}

#[test]
fn an_element_of_a_call_read_where_it_is_is_the_typed_one_to_the_bit() {
    for (s, k, ds, dk) in
        [([0.8, -0.3], 2.5, [1.5, -0.5], 0.3), ([0.1, 0.4], 1.0, [0.2, 1.0], -2.0)]
    {
        assert_eq!(euler_flow_untyped(s, k).to_bits(), euler_flow(s, k).to_bits());
        assert_eq!(euler_flow_untyped_grad(s, k), euler_flow_grad(s, k));
        assert_eq!(euler_flow_untyped_jvp(s, k, ds, dk), euler_flow_jvp(s, k, ds, dk));
        assert_eq!(euler_flow_untyped_hvp(s, k, ds, dk), euler_flow_hvp(s, k, ds, dk));
    }
}

#[test]
fn a_method_returning_an_array_bound_without_its_type_is_the_typed_one_to_the_bit() {
    let q = Quat { w: 0.9, x: -0.3, y: 0.5, z: 0.2 };
    let dq = Quat { w: 0.2, x: 0.1, y: -0.4, z: 0.3 };
    let (v, dv, u) = ([1.0, -2.0, 0.5], [1.0, 0.5, -0.5], [0.3, -1.0, 0.7]);
    assert_eq!(rotate_untyped(&q, v), q.rotate_by_methods(v));
    assert_eq!(rotate_untyped_jacobian(&q, v), q.rotate_by_methods_jacobian(v));
    let (value, (gq, gv)) = rotate_untyped_vjp(&q, v, u);
    let (typed, (tq, tv)) = q.rotate_by_methods_vjp(v, u);
    assert_eq!((value, [gq.w, gq.x, gq.y, gq.z], gv), (typed, [tq.w, tq.x, tq.y, tq.z], tv));
    assert_eq!(rotate_untyped_jvp(&q, v, &dq, dv), q.rotate_by_methods_jvp(v, &dq, dv));
    let (y, (gq, gv), yd, (hq, hv)) = rotate_untyped_hvp(&q, v, u, &dq, dv, [0.5, 0.0, -1.0]);
    let (ty, (tq, tv), tyd, (thq, thv)) = q.rotate_by_methods_hvp(v, u, &dq, dv, [0.5, 0.0, -1.0]);
    let flat = |q: Quat, v: [f64; 3]| [q.w, q.x, q.y, q.z, v[0], v[1], v[2]];
    assert_eq!((y, flat(gq, gv), yd, flat(hq, hv)), (ty, flat(tq, tv), tyd, flat(thq, thv)));
}

/// `outer_energy` at `p = (a₀, a₁, b₀, b₁, b₂)`.
fn energy(p: &[f64]) -> f64 {
    outer_energy([p[0], p[1]], [p[2], p[3], p[4]])
}

fn energy_grad(p: &[f64]) -> Vec<f64> {
    let (_, (ga, gb)) = outer_energy_grad([p[0], p[1]], [p[2], p[3], p[4]]);
    vec![ga[0], ga[1], gb[0], gb[1], gb[2]]
}

#[test]
fn a_two_dimensional_value_bound_without_its_type_against_finite_differences() {
    let p = [0.7, -0.4, 0.3, 1.1, -0.6];
    let v = [0.5, 1.0, -0.25, 0.75, 2.0];
    // The value against the same sum written out here.
    let (a, b): ([f64; 2], [f64; 3]) = ([p[0], p[1]], [p[2], p[3], p[4]]);
    let m = |i: usize, j: usize| -> f64 { a[i] * b[j] * a[0].sin() };
    let mut want = 0.0;
    for i in 0..2 {
        for j in 0..3 {
            want += m(i, j) * m(i, j);
        }
    }
    want += m(1, 2) * m(0, 0).exp();
    close("value", &[energy(&p)], &[want], 1e-14);
    let g = energy_grad(&p);
    close("gradient", &g, &numeric_gradient(energy, &p), 1e-7);
    let (_, slope) = outer_energy_jvp(a, b, [v[0], v[1]], [v[2], v[3], v[4]]);
    close("jvp", &[slope], &[g.iter().zip(&v).map(|(x, y)| x * y).sum()], 1e-13);
    let (_, _, (ha, hb)) = outer_energy_hvp(a, b, [v[0], v[1]], [v[2], v[3], v[4]]);
    let hv = [ha[0], ha[1], hb[0], hb[1], hb[2]];
    check_hvp(energy_grad, &p, &v, &hv, Tolerance::default()).expect("H·v");
    // The Hessian is symmetric and its columns are the H·eₖ.
    let h = outer_energy_hessian(a, b);
    let transposed: Vec<f64> = (0..25).map(|k| h[k % 5][k / 5]).collect();
    close("symmetry", h.as_flattened(), &transposed, 1e-12);
    let column: Vec<f64> = h.iter().map(|r| r.iter().zip(&v).map(|(x, y)| x * y).sum()).collect();
    close("H·v against the Hessian", &hv, &column, 1e-12);
}

#[test]
fn an_f32_value_bound_without_its_type_against_finite_differences() {
    // The same loss in f64, differenced: the f32 gradient agrees to f32's precision.
    let f = |p: &[f64]| {
        let h0 = (p[0] * p[4] + p[1] * p[5]).tanh();
        let h1 = (p[2] * p[4] + p[3] * p[5]).tanh();
        h0 * h1 + h0 + h1
    };
    let p = [0.3, -0.7, 0.9, 0.2, 1.2, -0.5];
    let c = |x: f64| x as f32;
    let (w, x) = ([[c(p[0]), c(p[1])], [c(p[2]), c(p[3])]], [c(p[4]), c(p[5])]);
    let (value, (gw, gx)) = layer32_loss_grad(w, x);
    close("value", &[f64::from(value)], &[f(&p)], 1e-6);
    let g: Vec<f64> = gw.iter().flatten().chain(&gx).map(|&v| f64::from(v)).collect();
    close("gradient", &g, &numeric_gradient(f, &p), 1e-5);
}

#[test]
fn a_generic_caller_of_an_untyped_call_against_finite_differences() {
    let p = point(0.4, 22);
    let (w, z) = (m4(&p), std::array::from_fn::<f64, 6, _>(|i| p[16 + i]));
    let b = [0.1, -0.2, 0.3, 0.05];
    let f = |p: &[f64]| weighted_layer(&m4(p), &b, std::array::from_fn::<f64, 6, _>(|i| p[16 + i]));
    let grad = |p: &[f64]| {
        let z = std::array::from_fn::<f64, 6, _>(|i| p[16 + i]);
        let (_, (gw, gz)) = weighted_layer_grad(&m4(p), &b, z);
        gw.iter().flatten().chain(&gz).copied().collect::<Vec<f64>>()
    };
    close("gradient", &grad(&p), &numeric_gradient(f, &p), 1e-7);
    let v = point(1.7, 22);
    let (_, _, (hw, hz)) =
        weighted_layer_hvp(&w, &b, z, &m4(&v), std::array::from_fn(|i| v[16 + i]));
    let hv: Vec<f64> = hw.iter().flatten().chain(&hz).copied().collect();
    check_hvp(grad, &p, &v, &hv, Tolerance::default()).expect("H·v");
}

#[test]
fn an_untyped_value_updated_by_element_against_its_closed_form() {
    // rhs(s, k) = (s₁, −k sin s₀): d = (s₁ + 1, −k sin s₀ (s₁ + 1)), f = d₀ d₁ + s₁
    // = −k sin s₀ (s₁ + 1)² + s₁.
    let (s, k): ([f64; 2], f64) = ([0.7, -0.2], 1.3);
    let (sn, cs, u) = (s[0].sin(), s[0].cos(), s[1] + 1.0);
    let want = [-k * cs * u * u, -2.0 * k * sn * u + 1.0, -sn * u * u];
    let (value, (gs, gk)) = bumped_grad(s, k);
    close("value", &[value], &[-k * sn * u * u + s[1]], 1e-14);
    close("gradient", &[gs[0], gs[1], gk], &want, 1e-14);
    let v = [0.5, -1.0, 2.0];
    let (_, slope) = bumped_jvp(s, k, [v[0], v[1]], v[2]);
    close("jvp", &[slope], &[want.iter().zip(&v).map(|(a, b)| a * b).sum()], 1e-14);
    // H·v from the closed-form Hessian.
    let h = [
        [k * sn * u * u, -2.0 * k * cs * u, -cs * u * u],
        [-2.0 * k * cs * u, -2.0 * k * sn, -2.0 * sn * u],
        [-cs * u * u, -2.0 * sn * u, 0.0],
    ];
    let (_, _, (hs, hk)) = bumped_hvp(s, k, [v[0], v[1]], v[2]);
    let hv: Vec<f64> = h.iter().map(|r| r.iter().zip(&v).map(|(a, b)| a * b).sum()).collect();
    close("H·v", &[hs[0], hs[1], hk], &hv, 1e-13);
}

#[test]
fn a_step_assigned_to_the_loop_state_is_typed_as_the_state() {
    let (p, v) = (point(0.9, 24), point(-0.3, 24));
    let (w, b, x) = (m4(&p), a4(&p[16..]), a4(&p[20..]));
    let (dw, db) = (m4(&v), a4(&v[16..]));
    let typed = recurrent_typed_grad(&w, &b, &x);
    assert_eq!(recurrent_untyped_grad(&w, &b, &x), typed);
    assert_eq!(recurrent_untyped_checkpointed_grad(&w, &b, &x), typed);
    let hvp = recurrent_typed_hvp(&w, &b, &x, &dw, &db);
    assert_eq!(recurrent_untyped_hvp(&w, &b, &x, &dw, &db), hvp);
    assert_eq!(recurrent_untyped_checkpointed_hvp(&w, &b, &x, &dw, &db), hvp);
    // The typed form against finite differences, and H·v for its gradient's.
    let wb = &p[..20];
    let f = |q: &[f64]| recurrent_typed(&m4(q), &a4(&q[16..]), &x);
    let grad = |q: &[f64]| {
        let (_, (gw, gb)) = recurrent_typed_grad(&m4(q), &a4(&q[16..]), &x);
        gw.iter().flatten().chain(&gb).copied().collect::<Vec<f64>>()
    };
    close("gradient", &grad(wb), &numeric_gradient(f, wb), 1e-7);
    let (_, _, (hw, hb)) = hvp;
    let hv: Vec<f64> = hw.iter().flatten().chain(&hb).copied().collect();
    check_hvp(grad, wb, &v[..20], &hv, Tolerance::default()).expect("H·v");
}

#[test]
fn a_step_stored_for_the_sweep_with_its_lengths_from_the_callee() {
    let (p, v) = (point(0.2, 24), point(1.4, 24));
    let (w, b, x) = (m4(&p), a4(&p[16..]), a4(&p[20..]));
    let (dw, db) = (m4(&v), a4(&v[16..]));
    let typed = stored_steps_typed_grad(&w, &b, &x);
    assert_eq!(stored_steps_untyped_grad(&w, &b, &x), typed);
    assert_eq!(stored_steps_checkpointed_grad(&w, &b, &x), typed);
    let hvp = stored_steps_typed_hvp(&w, &b, &x, &dw, &db);
    assert_eq!(stored_steps_untyped_hvp(&w, &b, &x, &dw, &db), hvp);
    assert_eq!(stored_steps_checkpointed_hvp(&w, &b, &x, &dw, &db), hvp);
    let f = |q: &[f64]| stored_steps_untyped(&m4(q), &a4(&q[16..]), &x);
    let grad = |q: &[f64]| {
        let (_, (gw, gb)) = stored_steps_untyped_grad(&m4(q), &a4(&q[16..]), &x);
        gw.iter().flatten().chain(&gb).copied().collect::<Vec<f64>>()
    };
    close("gradient", &grad(&p[..20]), &numeric_gradient(f, &p[..20]), 1e-7);
    let (_, _, (hw, hb)) = hvp;
    let hv: Vec<f64> = hw.iter().flatten().chain(&hb).copied().collect();
    check_hvp(grad, &p[..20], &v[..20], &hv, Tolerance::default()).expect("H·v");
}

#[test]
fn a_state_assigned_an_array_literal_is_typed_as_the_literal() {
    for (s, k, ds, dk) in
        [([0.8, -0.3], 2.5, [1.5, -0.5], 0.3), ([0.1, 0.4], 1.0, [0.2, 1.0], -2.0)]
    {
        assert_eq!(euler_steps_untyped_grad(s, k), euler_steps_typed_grad(s, k));
        assert_eq!(euler_steps_untyped_jvp(s, k, ds, dk), euler_steps_typed_jvp(s, k, ds, dk));
        assert_eq!(euler_steps_untyped_hvp(s, k, ds, dk), euler_steps_typed_hvp(s, k, ds, dk));
    }
    let f = |p: &[f64]| euler_steps_untyped([p[0], p[1]], p[2]);
    let (_, (gs, gk)) = euler_steps_untyped_grad([0.8, -0.3], 2.5);
    close("gradient", &[gs[0], gs[1], gk], &numeric_gradient(f, &[0.8, -0.3, 2.5]), 1e-7);
}

#[test]
fn iterators_over_an_untyped_value_are_the_typed_ones_to_the_bit() {
    for seed in [0.3, 1.9] {
        let (p, v) = (point(seed, 24), point(seed - 1.0, 24));
        let (w, b, x) = (m4(&p), a4(&p[16..]), a4(&p[20..]));
        let (dw, db) = (m4(&v), a4(&v[16..]));
        assert_eq!(layer_idioms_untyped_grad(&w, &b, &x), layer_idioms_typed_grad(&w, &b, &x));
        assert_eq!(
            layer_idioms_untyped_hvp(&w, &b, &x, &dw, &db),
            layer_idioms_typed_hvp(&w, &b, &x, &dw, &db)
        );
        let f = |q: &[f64]| layer_idioms_untyped(&m4(q), &a4(&q[16..]), &x);
        let (_, (gw, gb)) = layer_idioms_untyped_grad(&w, &b, &x);
        let g: Vec<f64> = gw.iter().flatten().chain(&gb).copied().collect();
        close("gradient", &g, &numeric_gradient(f, &p[..20]), 1e-7);
    }
}

#[test]
fn a_scalar_value_lent_to_a_closure_stays_a_scalar() {
    let x: f64 = 0.7;
    let (value, g) = lent_to_a_closure_grad(x);
    close("value", &[value], &[4.0 * x.powi(3)], 1e-14);
    close("gradient", &[g], &[12.0 * x * x], 1e-14);
    let (_, _, h) = lent_to_a_closure_hvp(x, 2.0);
    close("H·v", &[h], &[24.0 * x * 2.0], 1e-13);
}
