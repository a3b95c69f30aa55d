//! Loops that stop when they are done (`src/whiles.rs`): step counts as they run, derivatives
//! against closed forms and finite differences, and bit for bit against twins whose length is
//! given in advance (stored, or checkpointed offline).

use autodiff_runtime::{Tolerance, central_difference, check_close, numeric_gradient, numeric_hvp};
use autodiff_suite::whiles::*;

fn close(what: &str, values: &[f64], reference: &[f64], tol: f64) {
    let tol = Tolerance { epsilon: tol, max_relative: tol };
    if let Err(e) = check_close(values, reference, tol) {
        panic!("{what}: {e}");
    }
}

#[test]
fn the_pendulum_runs_the_steps_that_float_time_takes() {
    // 2.0 / 1e-3 is 2000, but a thousand additions of 1e-3 fall short of 1.0.
    assert_eq!(pendulum_steps(1e-3, 2.0), 2001.0);
    assert_eq!(pendulum_steps_grad(1e-3, 2.0), (2001.0, (0.0, 0.0)));
}

#[test]
fn the_pendulum_gradient_matches_finite_differences_and_its_twins() {
    // Midway between two steps' times, so that the small perturbations of finite differences
    // do not change the step count (2001 here too).
    let (theta0, g, dt, t_end) = (0.7, 9.81, 1e-3, 2.0005);
    assert_eq!(pendulum_steps(dt, t_end), 2001.0);
    let (value, grad) = pendulum_grad(theta0, g, dt, t_end);
    assert_eq!(value.to_bits(), pendulum(theta0, g, dt, t_end).to_bits());
    let grad = [grad.0, grad.1, grad.2, grad.3];
    let f = |p: &[f64]| pendulum(p[0], p[1], p[2], p[3]);
    let x = [theta0, g, dt, t_end];
    let fd: Vec<f64> = (0..4).map(|i| central_difference(f, &x, i, 1e-6 * x[i])).collect();
    close("pendulum gradient", &grad, &fd, 1e-6);
    assert_eq!(grad[3], 0.0, "t_end only decides the step count");
    let stored = pendulum_stored_grad(theta0, g, dt, t_end);
    let offline = pendulum_for_grad(theta0, g, dt, t_end, 2001);
    assert_eq!(value.to_bits(), stored.0.to_bits());
    assert_eq!((grad[0], grad[1], grad[2]), (stored.1.0, stored.1.1, stored.1.2));
    assert_eq!((grad[0], grad[1], grad[2]), (offline.1.0, offline.1.1, offline.1.2));
    let v = (0.3, -0.2, 0.5, 0.1);
    let hvp = pendulum_hvp(theta0, g, dt, t_end, v.0, v.1, v.2, v.3);
    let stored = pendulum_stored_hvp(theta0, g, dt, t_end, v.0, v.1, v.2, v.3);
    let offline = pendulum_for_hvp(theta0, g, dt, t_end, 2001, v.0, v.1, v.2, v.3);
    assert_eq!(hvp.1, stored.1);
    assert_eq!(hvp.2, stored.2);
    assert_eq!(hvp.2, offline.2);
}

#[test]
fn kepler_by_newton_has_the_closed_form_derivatives() {
    for (m, e) in [(0.3, 0.1), (1.2, 0.5), (2.9, 0.9), (-1.0, 0.3)] {
        let (big_e, (de_dm, de_de)) = kepler_grad(m, e);
        assert!((big_e - e * big_e.sin() - m).abs() < 1e-14, "E solves Kepler's equation");
        let d = 1.0 - e * big_e.cos();
        close("dE/dM", &[de_dm], &[1.0 / d], 1e-13);
        close("dE/de", &[de_de], &[big_e.sin() / d], 1e-13);
        // H·v against finite differences of the gradient.
        let v = [0.4, -0.7];
        let (_, _, hv) = kepler_hvp(m, e, v[0], v[1]);
        let grad = |p: &[f64]| {
            let (_, (a, b)) = kepler_grad(p[0], p[1]);
            vec![a, b]
        };
        let fd = numeric_hvp(grad, &[m, e], &v);
        close("Kepler H·v", &[hv.0, hv.1], &fd, 1e-6);
    }
}

#[test]
fn a_for_loop_with_break_differentiates_the_terms_that_ran() {
    let x = [0.5, -1.0, 0.25, 2.0, 1.0, -0.5, 0.75, 3.0];
    // 0.25 + 1 + 0.0625 = 1.3125, then + 4 passes 3: four terms.
    let (s, (g, dl)) = sum_until_grad(x, 3.0);
    assert_eq!(s, 5.3125);
    let want: Vec<f64> = (0..8).map(|i| if i < 4 { 2.0 * x[i] } else { 0.0 }).collect();
    assert_eq!(g.to_vec(), want);
    assert_eq!(dl, 0.0);
    // No break: every term.
    let (s, (g, _)) = sum_until_grad(x, 100.0);
    assert_eq!(s, x.iter().map(|v| v * v).sum::<f64>());
    assert_eq!(g.to_vec(), x.iter().map(|v| 2.0 * v).collect::<Vec<_>>());
    let (_, _, (hv, _)) = sum_until_hvp(x, 3.0, [1.0; 8], 0.0);
    assert_eq!(hv.to_vec(), (0..8).map(|i| if i < 4 { 2.0 } else { 0.0 }).collect::<Vec<_>>());
}

#[test]
fn a_for_loop_with_continue_skips_terms() {
    let x = [0.5, -1.0, 0.25, 2.0, -1.0, -0.5, 0.75, 3.0];
    let (s, g) = sum_positive_grad(x);
    let want: f64 = x.iter().filter(|v| **v >= 0.0).map(|v| v.sin()).sum();
    close("value", &[s], &[want], 1e-15);
    let dg: Vec<f64> = x.iter().map(|v| if *v >= 0.0 { v.cos() } else { 0.0 }).collect();
    assert_eq!(g.to_vec(), dg);
}

#[test]
fn bisection_weights_the_bracket() {
    for (a, lo, hi) in [(2.0, 0.0, 2.0), (10.0, 1.0, 3.0), (0.3, 0.25, 1.5)] {
        for (name, f) in [
            ("while", bisection_grad as fn(f64, f64, f64) -> (f64, (f64, f64, f64))),
            ("for with break", bisection_for_grad),
        ] {
            let (r, (da, dlo, dhi)) = f(a, lo, hi);
            close(name, &[r], &[a.cbrt()], 1e-11);
            // The root is lo + c (hi − lo), c fixed by the comparisons.
            assert_eq!(da, 0.0, "{name}");
            let c = (r - lo) / (hi - lo);
            close(name, &[dlo, dhi], &[1.0 - c, c], 1e-10);
            assert_eq!(dlo + dhi, 1.0, "{name}: the weights sum to 1");
        }
    }
}

#[test]
fn return_from_inside_a_loop() {
    // x: 0.5 → 0.85 → 1.375: returns 2.75 after two steps.
    let (value, (dx0, dk)) = first_crossing_grad(0.5, 1.5);
    close("value", &[value], &[2.0 * (1.5 * (1.5 * 0.5 + 0.1) + 0.1)], 1e-15);
    // x₂ = k² x₀ + 0.1 k + 0.1: d(2x₂)/dx₀ = 2k², d/dk = 2 (2k x₀ + 0.1).
    close("gradient", &[dx0, dk], &[2.0 * 2.25, 2.0 * (2.0 * 1.5 * 0.5 + 0.1)], 1e-15);
    // Never crossing: 100 steps, no return.
    let f = |p: &[f64]| first_crossing(p[0], p[1]);
    let (value, (dx0, dk)) = first_crossing_grad(0.1, 0.5);
    assert_eq!(value, first_crossing(0.1, 0.5));
    close("no return", &[dx0, dk], &numeric_gradient(f, &[0.1, 0.5]), 1e-6);
}

#[test]
fn a_guard_clause_returns_early() {
    assert_eq!(guarded_sqrt_grad(-1.0), (0.0, 0.0));
    assert_eq!(guarded_sqrt_grad(4.0), (2.0, 0.25));
    assert_eq!(guarded_sqrt_hvp(4.0, 1.0), (2.0, 0.25, -1.0 / 32.0));
}

#[test]
fn online_offline_and_stored_sweeps_agree_to_the_bit() {
    fn check<const N: usize>() {
        let (x0, p, h) = (0.4, 1.3, 0.05);
        let n = N as f64;
        let (v0, vp, vh) = (0.7, -0.2, 0.4);
        let online = drift_online_grad(x0, p, h, n);
        let offline = drift_offline_grad(x0, p, h, N);
        let stored = drift_stored_grad::<N>(x0, p, h);
        assert_eq!(online.0.to_bits(), stored.0.to_bits(), "value, {N} steps");
        let g = (online.1.0, online.1.1, online.1.2);
        assert_eq!(g, offline.1, "online against offline, {N} steps");
        assert_eq!(g, stored.1, "online against stored, {N} steps");
        assert_eq!(online.1.3, 0.0);
        let online = drift_online_hvp(x0, p, h, n, v0, vp, vh, 1.0);
        let offline = drift_offline_hvp(x0, p, h, N, v0, vp, vh);
        let stored = drift_stored_hvp::<N>(x0, p, h, v0, vp, vh);
        let hv = (online.2.0, online.2.1, online.2.2);
        assert_eq!(hv, offline.2, "H·v online against offline, {N} steps");
        assert_eq!(hv, stored.2, "H·v online against stored, {N} steps");
    }
    // One and two steps, as many as the snapshots (4), one more, and longer runs.
    check::<1>();
    check::<2>();
    check::<4>();
    check::<5>();
    check::<64>();
    check::<1000>();
    check::<5000>();
}

#[test]
fn the_sweep_recomputes_the_steps_the_formula_says() {
    use autodiff_runtime::revolve::{online_steps, schedule_steps};
    for n in [1, 2, 3, 4, 5, 10, 100, 1000, 10_000] {
        reset_ticks();
        let (value, _) = drift_counted_grad(0.4, 1.3, 0.05, n as f64);
        assert_eq!(value, drift_online(0.4, 1.3, 0.05, n as f64));
        // The loop's n steps, the sweep's recomputation, and the sweep of each step, which
        // runs its step once more.
        let recomputed = ticks() - 2 * n;
        assert_eq!(recomputed, online_steps(n, 4), "{n} steps");
        assert!(recomputed <= schedule_steps(n, 4), "{n} steps: at most revolve's");
        if n <= 4 {
            assert_eq!(recomputed, 0, "every state kept");
        }
    }
}

#[test]
fn a_const_trip_count_is_stored_when_it_fits_and_checkpointed_when_it_does_not() {
    use autodiff_runtime::revolve::schedule_steps;
    // Stored: the loop's steps, and the sweep of each step, which calls `tick_grad` again for its
    // partial; checkpointed: revolve's recomputation besides.
    let stored = |n: usize| 2 * n;
    let checkpointed = |n: usize| 2 * n + schedule_steps(n, 32);
    type Run<'a> = (&'a str, usize, &'a dyn Fn() -> (f64, (f64, f64, f64)));
    let runs: [Run; 4] = [
        ("FEW", stored(FEW), &|| drift_few_grad(0.4, 1.3, 1e-3)),
        ("MANY", checkpointed(MANY), &|| drift_many_grad(0.4, 1.3, 1e-3)),
        ("N = 100", stored(100), &|| drift_n_grad::<100>(0.4, 1.3, 1e-3)),
        ("N = 40000", checkpointed(40_000), &|| drift_n_grad::<40_000>(0.4, 1.3, 1e-3)),
    ];
    for (name, want, run) in runs {
        reset_ticks();
        run();
        assert_eq!(ticks(), want, "{name}");
    }
    // The same derivatives either way.
    let a = drift_n_grad::<100>(0.4, 1.3, 1e-3);
    let b = drift_few_grad(0.4, 1.3, 1e-3);
    assert_eq!(a, b);
    let h = drift_n_hvp::<40_000>(0.4, 1.3, 1e-3, 1.0, 0.5, -0.5);
    let g = drift_n_grad::<40_000>(0.4, 1.3, 1e-3);
    assert_eq!(h.1, g.1);
}

#[test]
fn kepler_implicitly_has_the_closed_form_derivatives() {
    for (m, e) in [(0.3, 0.1), (1.2, 0.5), (2.9, 0.9), (-1.0, 0.3)] {
        let (big_e, (de_dm, de_de)) = kepler_implicit_grad(m, e);
        assert_eq!(big_e, kepler(m, e));
        let d = 1.0 - e * big_e.cos();
        close("dE/dM", &[de_dm], &[1.0 / d], 1e-12);
        close("dE/de", &[de_de], &[big_e.sin() / d], 1e-12);
        let (_, through) = kepler_grad(m, e);
        close("through the iterations", &[de_dm, de_de], &[through.0, through.1], 1e-12);
        let v = [0.4, -0.7];
        let (_, _, hv) = kepler_implicit_hvp(m, e, v[0], v[1]);
        let grad = |p: &[f64]| {
            let (_, (a, b)) = kepler_implicit_grad(p[0], p[1]);
            vec![a, b]
        };
        close("Kepler H·v, implicitly", &[hv.0, hv.1], &numeric_hvp(grad, &[m, e], &v), 1e-6);
    }
}

#[test]
fn a_contraction_implicitly_and_through_its_iterations() {
    for (a, b) in [(0.5, 0.2), (1.5, -0.3), (0.9, 1.0)] {
        let (x, (da, db)) = cosine_fixed_point_grad(a, b);
        assert_eq!(x, cosine_iterated(a, b));
        // x = cos(a x)/2 + b: dx = (−sin(a x)/2)(x da + a dx) + db.
        let s = -0.5 * (a * x).sin();
        let d = 1.0 - s * a;
        close("implicit", &[da, db], &[s * x / d, 1.0 / d], 1e-12);
        let (_, through) = cosine_iterated_grad(a, b);
        close("through the iterations", &[da, db], &[through.0, through.1], 1e-10);
        let v = [0.3, -0.8];
        let (_, _, hv) = cosine_fixed_point_hvp(a, b, v[0], v[1]);
        let grad = |p: &[f64]| {
            let (_, (a, b)) = cosine_fixed_point_grad(p[0], p[1]);
            vec![a, b]
        };
        close("H·v, implicitly", &[hv.0, hv.1], &numeric_hvp(grad, &[a, b], &v), 1e-6);
    }
}

/// Checks `drift_len` at `n` steps: `want` ticks (which variant ran), the same value,
/// gradient and H·v to the bit as the always checkpointed twin, the gradient of `known` (the
/// stored sweep of `n` steps known to rustc), and finite differences.
fn drift_len_at(n: usize, want: usize, known: (f64, (f64, f64, f64))) {
    let (x0, p, h) = (0.4, 1.3, 1e-3);
    // The direction's `h` component is of `h`'s scale, for the finite differences' sake.
    let v = (1.0, 0.5, -5e-4);
    reset_ticks();
    let (value, grad) = drift_len_grad(x0, p, h, n);
    assert_eq!(ticks(), want, "n = {n}");
    let (c_value, c_grad) = drift_len_checkpointed_grad(x0, p, h, n);
    assert_eq!(value.to_bits(), c_value.to_bits(), "n = {n}");
    assert_eq!(grad, c_grad, "n = {n}");
    assert_eq!((value, grad), known, "n = {n}");
    let hvp = drift_len_hvp(x0, p, h, n, v.0, v.1, v.2);
    let c_hvp = drift_len_checkpointed_hvp(x0, p, h, n, v.0, v.1, v.2);
    assert_eq!(hvp, c_hvp, "n = {n}");
    assert_eq!(hvp.1, grad, "n = {n}");
    let x = [x0, p, h];
    let f = |q: &[f64]| drift_len(q[0], q[1], q[2], n);
    let fd: Vec<f64> = (0..3).map(|i| central_difference(f, &x, i, 1e-6)).collect();
    close("drift_len gradient", &[grad.0, grad.1, grad.2], &fd, 1e-6);
    let g = |q: &[f64]| {
        let (_, (a, b, c)) = drift_len_grad(q[0], q[1], q[2], n);
        vec![a, b, c]
    };
    let fd_hv = numeric_hvp(g, &x, &[v.0, v.1, v.2]);
    close("drift_len H·v", &[hvp.2.0, hvp.2.1, hvp.2.2], &fd_hv, 1e-5);
}

#[test]
fn a_run_time_trip_count_is_stored_up_to_its_capacity_and_checkpointed_past_it() {
    use autodiff_runtime::revolve::schedule_steps;
    let (x0, p, h) = (0.4, 1.3, 1e-3);
    let stored = |n: usize| 2 * n;
    let checkpointed = |n: usize| 2 * n + schedule_steps(n, 32);
    // Each side of each tier's capacity: the first tier's (64 steps), then the budget's
    // (DRIFT_CAPACITY, 341), past which the loop is checkpointed.
    macro_rules! at {
        ($($n:expr => $want:expr),* $(,)?) => {
            $(drift_len_at($n, $want($n), drift_n_grad::<{ $n }>(x0, p, h));)*
        };
    }
    at!(
        1 => stored,
        63 => stored,
        64 => stored,
        65 => stored,
        DRIFT_CAPACITY - 1 => stored,
        DRIFT_CAPACITY => stored,
        DRIFT_CAPACITY + 1 => checkpointed,
        3 * DRIFT_CAPACITY => checkpointed,
    );
}

#[test]
fn a_run_time_trip_count_over_a_step_only_rustc_sizes_is_stored_in_the_tiers_that_fit() {
    use autodiff_runtime::revolve::schedule_steps;
    const K: usize = 8;
    let x0 = [0.4, -0.7, 0.1, 0.9, -0.3, 0.5, 0.2, -0.8];
    let (p, h) = (1.3, 1e-3);
    let v = ([1.0, 0.3, -0.2, 0.1, 0.4, -0.5, 0.6, 0.2], 0.5, -5e-4);
    // Each lane of a step is ticked in the forward pass, and twice in the sweep: the inner loop
    // runs again there (as in the sweep of a length known to rustc, `drift_lanes_n`).
    let stored = |n: usize| 3 * K * n;
    let checkpointed = |n: usize| 3 * K * n + K * schedule_steps(n, 32);
    let check = |n: usize, want: usize, known: (f64, ([f64; K], f64, f64))| {
        reset_ticks();
        let (value, grad) = drift_lanes_grad(x0, p, h, n);
        assert_eq!(ticks(), want, "n = {n}");
        let (c_value, c_grad) = drift_lanes_checkpointed_grad(x0, p, h, n);
        assert_eq!(value.to_bits(), c_value.to_bits(), "n = {n}");
        assert_eq!(grad, c_grad, "n = {n}");
        assert_eq!((value, grad), known, "n = {n}");
        let hvp = drift_lanes_hvp(x0, p, h, n, v.0, v.1, v.2);
        assert_eq!(hvp, drift_lanes_checkpointed_hvp(x0, p, h, n, v.0, v.1, v.2), "n = {n}");
        assert_eq!(hvp.1, grad, "n = {n}");
        let x: Vec<f64> = x0.iter().copied().chain([p, h]).collect();
        let f = |q: &[f64]| drift_lanes::<K>(q[..K].try_into().unwrap(), q[K], q[K + 1], n);
        let fd: Vec<f64> = (0..K + 2).map(|i| central_difference(f, &x, i, 1e-6)).collect();
        let got: Vec<f64> = grad.0.iter().copied().chain([grad.1, grad.2]).collect();
        close("drift_lanes gradient", &got, &fd, 1e-5);
    };
    // A step is 64 bytes (the 8 lanes' states): the tiers of 64 and 1024 steps fit the budget,
    // 16384 (1 MiB) do not, which rustc decides, from `K`.
    macro_rules! at {
        ($($n:expr => $want:expr),* $(,)?) => {
            $(check($n, $want($n), drift_lanes_n_grad::<K, { $n }>(x0, p, h));)*
        };
    }
    at!(
        2 => stored,
        64 => stored,
        65 => stored,
        1024 => stored,
        1025 => checkpointed,
        3000 => checkpointed,
    );
}

#[test]
fn a_reduction_then_a_while_loop_over_the_same_array() {
    // t = a·c^k with c = 1.5 + x₁ and k the steps that ran: d/dx₀ = 1, d/dx₁ = 1 + a·k·c^(k−1),
    // d/da = c^k; the Hessian's only terms are ∂²/∂x₁² = a·k·(k−1)·c^(k−2) and ∂²/∂x₁∂a = k·c^(k−1).
    let (x, a) = ([0.3, 0.2], 1.1);
    let c: f64 = 1.5 + x[1];
    let k = (0..).find(|&k| a * c.powi(k) >= 10.0).unwrap();
    let kf = f64::from(k);
    let (value, (gx, ga)) = sum_then_grow_grad(x, a);
    close("value", &[value], &[x[0] + x[1] + a * c.powi(k)], 1e-14);
    let expected = [1.0, 1.0 + a * kf * c.powi(k - 1), c.powi(k)];
    close("gradient", &[gx[0], gx[1], ga], &expected, 1e-13);
    let (v, w) = ([0.4, -0.3], 0.7);
    let (_, _, (hx, ha)) = sum_then_grow_hvp(x, a, v, w);
    let h11 = a * kf * (kf - 1.0) * c.powi(k - 2);
    let h1a = kf * c.powi(k - 1);
    close("H·v", &[hx[0], hx[1], ha], &[0.0, h11 * v[1] + h1a * w, h1a * v[1]], 1e-12);
}
