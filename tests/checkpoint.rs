//! Checkpointed sweeps: the same numbers as stored sweeps, to the bit; against finite differences
//! at a million steps and against the closed form of the undamped oscillator; in a small stack.

use autodiff_runtime::revolve::{binomial, repetitions, schedule_steps};
use autodiff_runtime::{Tolerance, check_close};
use autodiff_suite::checkpoint::*;

const POINT: (f64, f64, f64, f64) = (1.0, 0.5, 0.1, 0.01);

fn close(what: &str, values: &[f64], reference: &[f64], tol: f64) {
    let tol = Tolerance { epsilon: tol, max_relative: tol };
    if let Err(e) = check_close(values, reference, tol) {
        panic!("{what}: {e}");
    }
}

fn flat(g: (f64, f64, f64, f64)) -> [f64; 4] {
    [g.0, g.1, g.2, g.3]
}

#[test]
fn checkpointed_equals_stored_to_the_bit() {
    let (x0, v0, gamma, dt) = POINT;
    let stored = oscillator_stored_grad(x0, v0, gamma, dt);
    assert_eq!(oscillator_checkpointed_grad(x0, v0, gamma, dt), stored);
    assert_eq!(oscillator_few_snapshots_grad(x0, v0, gamma, dt), stored);
    assert_eq!(oscillator_steps_grad(x0, v0, gamma, dt, 10_000), stored);
    let v = (0.3, -1.0, 2.0, 0.5);
    let hvp = oscillator_stored_hvp(x0, v0, gamma, dt, v.0, v.1, v.2, v.3);
    assert_eq!(oscillator_checkpointed_hvp(x0, v0, gamma, dt, v.0, v.1, v.2, v.3), hvp);
    assert_eq!(oscillator_steps_hvp(x0, v0, gamma, dt, 10_000, v.0, v.1, v.2, v.3), hvp);
}

#[test]
fn a_million_steps_against_finite_differences() {
    let (x0, v0, gamma, dt) = (1.0, 0.5, 1e-5, 1e-4);
    let (value, grad) = oscillator_long_grad(x0, v0, gamma, dt);
    let f = |p: &[f64]| oscillator_long(p[0], p[1], p[2], p[3]);
    assert_eq!(value, f(&[x0, v0, gamma, dt]));
    // Five-point central differences with a step for each coordinate: dt = 1e-4 scales the
    // whole trajectory (a million steps), so the value is far from linear in it over the step of
    // 6e-6 that `numeric_gradient` takes; and the value carries the rounding of a million steps
    // (about 1e-12), so the step cannot be much below 1e-8 either.
    let p = [x0, v0, gamma, dt];
    let steps = [1e-4, 1e-4, 1e-5, 3e-8];
    let numeric: Vec<f64> = (0..4)
        .map(|k| {
            let at = |t: f64| {
                let mut q = p;
                q[k] += t * steps[k];
                f(&q)
            };
            (at(-2.0) - 8.0 * at(-1.0) + 8.0 * at(1.0) - at(2.0)) / (12.0 * steps[k])
        })
        .collect();
    close("gradient", &flat(grad), &numeric, 1e-5);
    // H·v along a direction that moves dt little, by five-point differences of the gradient.
    let dir = [0.3, -1.0, 0.2, 1e-4];
    let (_, _, hv) = oscillator_long_hvp(x0, v0, gamma, dt, dir[0], dir[1], dir[2], dir[3]);
    let g = |t: f64| {
        let q: Vec<f64> = p.iter().zip(&dir).map(|(a, d)| a + t * 1e-4 * d).collect();
        flat(oscillator_long_grad(q[0], q[1], q[2], q[3]).1)
    };
    let (m2, m1, p1, p2) = (g(-2.0), g(-1.0), g(1.0), g(2.0));
    let numeric: Vec<f64> =
        (0..4).map(|k| (m2[k] - 8.0 * m1[k] + 8.0 * p1[k] - p2[k]) / (12.0 * 1e-4)).collect();
    close("H·v", &flat(hv), &numeric, 1e-5);
}

/// `M^n` for a 2×2 matrix.
fn power(m: [[f64; 2]; 2], n: u32) -> [[f64; 2]; 2] {
    let mul = |a: [[f64; 2]; 2], b: [[f64; 2]; 2]| {
        [
            [a[0][0] * b[0][0] + a[0][1] * b[1][0], a[0][0] * b[0][1] + a[0][1] * b[1][1]],
            [a[1][0] * b[0][0] + a[1][1] * b[1][0], a[1][0] * b[0][1] + a[1][1] * b[1][1]],
        ]
    };
    let (mut result, mut base, mut n) = ([[1.0, 0.0], [0.0, 1.0]], m, n);
    while n > 0 {
        if n & 1 == 1 {
            result = mul(result, base);
        }
        base = mul(base, base);
        n >>= 1;
    }
    result
}

#[test]
fn the_undamped_oscillator_against_its_closed_form() {
    // Without damping, a velocity-Verlet step of x″ = −x is the linear map
    // (x, v) ↦ M (x, v), M = [[1 − h²/2, h], [−h (1 − h²/4), 1 − h²/2]]; after n steps the state
    // is Mⁿ s₀, and ∇ₛ₀ ½|Mⁿ s₀|² = (Mⁿ)ᵀ Mⁿ s₀.
    let (x0, v0, dt) = (1.0, 0.5, 1e-4);
    let h = dt;
    let m = [[1.0 - h * h / 2.0, h], [-h * (1.0 - h * h / 4.0), 1.0 - h * h / 2.0]];
    let p = power(m, 1_000_000);
    let s = [p[0][0] * x0 + p[0][1] * v0, p[1][0] * x0 + p[1][1] * v0];
    let grad_s0 = [p[0][0] * s[0] + p[1][0] * s[1], p[0][1] * s[0] + p[1][1] * s[1]];
    let (value, (gx, gv, _, _)) = oscillator_long_grad(x0, v0, 0.0, dt);
    close("energy", &[value], &[0.5 * (s[0] * s[0] + s[1] * s[1])], 1e-9);
    close("∂E/∂(x0, v0)", &[gx, gv], &grad_s0, 1e-9);
}

#[test]
fn a_million_step_sweep_runs_in_a_small_stack() {
    // Storing x, v and a for every step would take 24 MB; the sweep keeps 32 snapshots of the
    // state. 256 KiB of stack is enough for the whole gradient (a debug build, too).
    let handle = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(|| oscillator_long_grad(1.0, 0.5, 1e-5, 1e-4))
        .expect("a thread starts");
    let (value, _) = handle.join().expect("the sweep fits 256 KiB of stack");
    assert!(value.is_finite());
}

#[test]
fn the_recomputation_is_what_the_binomial_formula_says() {
    // `revolve` makes schedule_steps(n, s) steps (counted call by call in the runtime's tests);
    // it is Griewank's optimum r n − C(s + r, r − 1), r the least with C(s + r, s) ≥ n.
    for (n, s) in [(10_000, 16), (10_000, 4), (1_000_000, 32), (1_000_000, 4)] {
        let r = repetitions(n, s - 1);
        assert!(binomial(s + r, s) >= n && binomial(s + r - 1, s) < n);
        assert_eq!(schedule_steps(n, s), r * n - binomial(s + r, r - 1), "n = {n}, s = {s}");
    }
}

/// The chain's point: a bump in the middle, diffusion 0.5, step 0.01 (stable: κ dt = 0.005).
const U0: [f64; 8] = [0.0, 0.2, 0.6, 1.0, 0.9, 0.5, 0.1, 0.0];
const KAPPA: f64 = 0.5;
const DT: f64 = 0.01;

/// `(u0, kappa, dt)` as one slice of 10, and back.
fn chain_point(p: &[f64]) -> ([f64; 8], f64, f64) {
    (std::array::from_fn(|i| p[i]), p[8], p[9])
}

fn chain_flat(g: ([f64; 8], f64, f64)) -> Vec<f64> {
    g.0.iter().copied().chain([g.1, g.2]).collect()
}

#[test]
fn a_checkpointed_outer_loop_over_inner_loops_equals_the_stored_sweep() {
    let stored = chain_stored_grad(U0, KAPPA, DT);
    assert_eq!(chain_checkpointed_grad(U0, KAPPA, DT), stored);
    let v = ([0.3, -1.0, 0.5, 0.2, -0.1, 0.7, 0.4, -0.6], 0.2, 0.01);
    assert_eq!(
        chain_checkpointed_hvp(U0, KAPPA, DT, v.0, v.1, v.2),
        chain_stored_hvp(U0, KAPPA, DT, v.0, v.1, v.2)
    );
}

#[test]
fn a_checkpointed_outer_loop_against_finite_differences() {
    let p: Vec<f64> = chain_flat((U0, KAPPA, DT));
    let f = |p: &[f64]| {
        let (u, k, d) = chain_point(p);
        chain_checkpointed(u, k, d)
    };
    let grad = |p: &[f64]| {
        let (u, k, d) = chain_point(p);
        chain_flat(chain_checkpointed_grad(u, k, d).1)
    };
    let tol = Tolerance { epsilon: 1e-6, max_relative: 1e-6 };
    if let Err(e) = autodiff_runtime::check_gradient(f, &p, &grad(&p), tol) {
        panic!("gradient: {e}");
    }
    let v = [0.3, -1.0, 0.5, 0.2, -0.1, 0.7, 0.4, -0.6, 0.2, 0.01];
    let (u, k, d) = chain_point(&p);
    let (vu, vk, vd) = chain_point(&v);
    let hv = chain_flat(chain_checkpointed_hvp(u, k, d, vu, vk, vd).2);
    if let Err(e) = autodiff_runtime::check_hvp(grad, &p, &v, &hv, tol) {
        panic!("H·v: {e}");
    }
}

#[test]
fn a_running_cost_left_out_of_the_snapshots_changes_no_bit() {
    let (x0, k) = (1.2, 0.7);
    assert_eq!(control_checkpointed_grad(x0, k), control_stored_grad(x0, k));
    assert_eq!(control_checkpointed_hvp(x0, k, 0.5, -2.0), control_stored_hvp(x0, k, 0.5, -2.0));
    let f = |p: &[f64]| control_checkpointed(p[0], p[1]);
    let grad = |p: &[f64]| {
        let (_, (a, b)) = control_checkpointed_grad(p[0], p[1]);
        vec![a, b]
    };
    let tol = Tolerance { epsilon: 1e-7, max_relative: 1e-7 };
    if let Err(e) = autodiff_runtime::check_gradient(f, &[x0, k], &grad(&[x0, k]), tol) {
        panic!("gradient: {e}");
    }
    let (_, _, hv) = control_checkpointed_hvp(x0, k, 0.5, -2.0);
    if let Err(e) = autodiff_runtime::check_hvp(grad, &[x0, k], &[0.5, -2.0], &[hv.0, hv.1], tol) {
        panic!("H·v: {e}");
    }
}
