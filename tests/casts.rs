//! Functions that mix `f32` and `f64` with `as` casts (`src/casts.rs`), in every mode:
//! - against closed forms where there are (to `f32` precision: a piece computed in `f32` rounds
//!   like `f32`);
//! - against their twins computed in `f64` throughout, whose own derivatives are checked here
//!   against central finite differences;
//! - the value each derivative function returns is the function's own, to the bit (literals of
//!   the `f64` piece of an `f32` function are `f64` literals, not `f32` ones);
//! - a checkpointed loop carrying `f32` values gives the values of the same loop stored.

use autodiff_runtime::{Tolerance, check_gradient, check_hvp, grad};
use autodiff_suite::casts::*;

/// `f32` precision, relative, for derivatives that pass through a few `f32` operations.
const F32: Tolerance = Tolerance { epsilon: 1e-5, max_relative: 1e-5 };
/// For 1 000 steps of `f32` arithmetic.
const STEPS: Tolerance = Tolerance { epsilon: 1e-3, max_relative: 1e-3 };
/// Central differences of `f64` functions.
const FD: Tolerance = Tolerance { epsilon: 1e-6, max_relative: 1e-6 };

fn close(got: &[f64], want: &[f64], tol: Tolerance, what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: lengths");
    for (k, (g, w)) in got.iter().zip(want).enumerate() {
        let scale = w.abs().max(g.abs());
        let ok = (g - w).abs() <= tol.epsilon.max(tol.max_relative * scale);
        assert!(ok, "{what}[{k}]: got {g}, want {w}");
    }
}

fn wide(x: &[f32]) -> Vec<f64> {
    x.iter().map(|v| f64::from(*v)).collect()
}

#[test]
fn sin_in_f64_every_mode_matches_its_closed_form() {
    let (x, y) = (0.7_f32, -1.3_f32);
    let (xd, yd) = (f64::from(x), f64::from(y));
    let (v, (gx, gy)) = sin_in_f64_grad(x, y);
    assert_eq!(v.to_bits(), sin_in_f64(x, y).to_bits());
    let g = [xd.cos() * yd, xd.sin()];
    close(&wide(&[gx, gy]), &g, F32, "grad");
    let (dx, dy) = (0.4_f32, 0.9_f32);
    let (v2, t) = sin_in_f64_jvp(x, y, dx, dy);
    assert_eq!(v2.to_bits(), v.to_bits());
    close(&wide(&[t]), &[g[0] * f64::from(dx) + g[1] * f64::from(dy)], F32, "jvp");
    let h = [[-xd.sin() * yd, xd.cos()], [xd.cos(), 0.0]];
    let (_, (hx, hy), (hvx, hvy)) = sin_in_f64_hvp(x, y, dx, dy);
    close(&wide(&[hx, hy]), &g, F32, "hvp's gradient");
    let hv = [0, 1].map(|i| h[i][0] * f64::from(dx) + h[i][1] * f64::from(dy));
    close(&wide(&[hvx, hvy]), &hv, F32, "hvp");
    let hess = sin_in_f64_hessian(x, y);
    close(&wide(&hess.concat()), &h.concat(), F32, "hessian");
}

#[test]
fn double_in_f32_every_mode_matches_its_closed_form() {
    let (x, y) = (1.1_f64, 0.3_f64);
    let (v, (gx, gy)) = double_in_f32_grad(x, y);
    assert_eq!(v.to_bits(), double_in_f32(x, y).to_bits());
    // ∂/∂y = 2x is computed in `f32`: `f32` precision.
    close(&[gx, gy], &[2.0 * y, 2.0 * x], F32, "grad");
    let (_, t) = double_in_f32_jvp(x, y, 0.5, -2.0);
    close(&[t], &[2.0 * y * 0.5 - 2.0 * x * 2.0], F32, "jvp");
    let (_, _, (hvx, hvy)) = double_in_f32_hvp(x, y, 0.5, -2.0);
    close(&[hvx, hvy], &[-4.0, 1.0], F32, "hvp");
    close(&double_in_f32_hessian(x, y).concat(), &[0.0, 2.0, 2.0, 0.0], F32, "hessian");
}

#[test]
fn literals_in_f64_are_f64_literals_on_both_sides_of_the_branch() {
    for x in [0.9_f32, 0.1, -0.6] {
        let w = f64::from(x);
        let (v, g) = literals_in_f64_grad(x);
        // The primal's value to the bit: `0.1` of the `f64` piece is the `f64` literal.
        assert_eq!(v.to_bits(), literals_in_f64(x).to_bits());
        let (want_g, want_h) = match w > 0.3 {
            true => (0.2 * w + w.exp(), 0.2 + w.exp()),
            false => (1.7, 0.0),
        };
        close(&wide(&[g]), &[want_g], F32, "grad");
        let (_, t) = literals_in_f64_jvp(x, 2.0);
        close(&wide(&[t]), &[2.0 * want_g], F32, "jvp");
        let (_, _, hv) = literals_in_f64_hvp(x, 2.0);
        close(&wide(&[hv]), &[2.0 * want_h], F32, "hvp");
        close(&wide(&[literals_in_f64_hessian(x)[0][0]]), &[want_h], F32, "hessian");
    }
}

#[test]
fn literals_in_f64_value_is_computed_in_f64() {
    let x = 0.9_f32;
    let w = f64::from(x);
    let (v, _) = literals_in_f64_grad(x);
    assert_eq!(v.to_bits(), ((w * w * 0.1 + w.exp()) as f32).to_bits());
}

#[test]
fn branch_in_f32_every_mode_matches_its_closed_form() {
    for x in [1.5_f64, 0.5] {
        let (v, g) = branch_in_f32_grad(x);
        assert_eq!(v.to_bits(), branch_in_f32(x).to_bits());
        let (want_g, want_h) = if x > 1.0 { (3.0 * x * x, 6.0 * x) } else { (1.0, 0.0) };
        close(&[g], &[want_g], F32, "grad");
        close(&[branch_in_f32_jvp(x, 0.5).1], &[0.5 * want_g], F32, "jvp");
        close(&[branch_in_f32_hvp(x, 0.5).2], &[0.5 * want_h], F32, "hvp");
        close(&[branch_in_f32_hessian(x)[0][0]], &[want_h], F32, "hessian");
    }
}

/// [`loop_in_f64`] in `f64` throughout.
#[grad(jvp, hvp, hessian)]
fn loop_twin(x: [f64; 4]) -> f64 {
    let mut s = 1.0;
    for i in 0..4 {
        s = (x[i] * s).sin() + s * x[(i + 1) % 4];
    }
    s
}

#[test]
fn loop_in_f64_stores_f64_values_and_matches_its_f64_twin() {
    let x = [0.3_f32, -0.8, 0.5, 1.2];
    let (xd, d) = (wide(&x), [0.2, -0.1, 0.7, 0.4]);
    let xa: [f64; 4] = [xd[0], xd[1], xd[2], xd[3]];
    let df = d.map(|v: f64| v as f32);
    // The twin against central differences.
    let (_, tg) = loop_twin_grad(xa);
    check_gradient(|p| loop_twin([p[0], p[1], p[2], p[3]]), &xd, &tg, FD).unwrap();
    let (_, _, thv) = loop_twin_hvp(xa, d);
    let grad_at = |p: &[f64]| loop_twin_grad([p[0], p[1], p[2], p[3]]).1.to_vec();
    check_hvp(grad_at, &xd, &d, &thv, FD).unwrap();
    // The mixed function against the twin, to `f32` precision.
    let (v, g) = loop_in_f64_grad(x);
    assert_eq!(v.to_bits(), loop_in_f64(x).to_bits());
    close(&wide(&g), &tg, F32, "grad");
    let (_, t) = loop_in_f64_jvp(x, df);
    close(&wide(&[t]), &[loop_twin_jvp(xa, d).1], F32, "jvp");
    let (_, _, hv) = loop_in_f64_hvp(x, df);
    close(&wide(&hv), &loop_twin_hvp(xa, d).2, F32, "hvp");
    let h = loop_in_f64_hessian(x);
    close(&wide(&h.concat()), &loop_twin_hessian(xa).concat(), F32, "hessian");
}

/// [`loop_in_f32`] in `f64` throughout.
#[grad(jvp, hvp, hessian)]
fn loop_f32_twin(x: [f64; 3], a: f64) -> f64 {
    let mut p = a;
    for i in 0..3 {
        p *= (x[i] * x[(i + 1) % 3]).cos();
    }
    p
}

#[test]
fn loop_in_f32_matches_its_f64_twin_in_every_mode() {
    let (x, a) = ([0.4, -1.1, 0.6], 1.5);
    let (d, da) = ([0.3, 0.2, -0.5], 0.7);
    let flat = |p: &[f64]| loop_f32_twin([p[0], p[1], p[2]], p[3]);
    let at = [x[0], x[1], x[2], a];
    let (_, (tgx, tga)) = loop_f32_twin_grad(x, a);
    let tg = [tgx[0], tgx[1], tgx[2], tga];
    check_gradient(flat, &at, &tg, FD).unwrap();
    let (v, (gx, ga)) = loop_in_f32_grad(x, a);
    assert_eq!(v.to_bits(), loop_in_f32(x, a).to_bits());
    close(&[gx[0], gx[1], gx[2], ga], &tg, F32, "grad");
    close(&[loop_in_f32_jvp(x, a, d, da).1], &[loop_f32_twin_jvp(x, a, d, da).1], F32, "jvp");
    let (_, _, (hx, ha)) = loop_in_f32_hvp(x, a, d, da);
    let (_, _, (thx, tha)) = loop_f32_twin_hvp(x, a, d, da);
    let grad_at = |p: &[f64]| {
        let (_, (g, ga)) = loop_f32_twin_grad([p[0], p[1], p[2]], p[3]);
        vec![g[0], g[1], g[2], ga]
    };
    let dv = [d[0], d[1], d[2], da];
    check_hvp(grad_at, &at, &dv, &[thx[0], thx[1], thx[2], tha], FD).unwrap();
    close(&[hx[0], hx[1], hx[2], ha], &[thx[0], thx[1], thx[2], tha], F32, "hvp");
    let h = loop_in_f32_hessian(x, a);
    let th = loop_f32_twin_hessian(x, a);
    close(&h.concat(), &th.concat(), F32, "hessian");
}

/// [`oscillator_in_f32`] with its loop stored rather than checkpointed.
#[grad(hvp)]
fn oscillator_stored(x0: f64, v0: f64, c: f64) -> f64 {
    let mut x = x0 as f32;
    let mut v = v0 as f32;
    let c = c as f32;
    for _ in 0..1000 {
        let a = -x - c * v;
        v += 0.001 * a;
        x += 0.001 * v;
    }
    (x * x + v) as f64
}

/// [`oscillator_in_f32`] in `f64` throughout.
#[grad(hvp)]
fn oscillator_twin(x0: f64, v0: f64, c: f64) -> f64 {
    let mut x = x0;
    let mut v = v0;
    for _ in 0..1000 {
        let a = -x - c * v;
        v += 0.001 * a;
        x += 0.001 * v;
    }
    x * x + v
}

#[test]
fn a_checkpointed_loop_carrying_f32_gives_the_stored_loops_values_and_the_twins() {
    let p = (0.8, -0.2, 0.3);
    let dir = (0.5, 1.0, -0.4);
    let checkpointed = oscillator_in_f32_hvp(p.0, p.1, p.2, dir.0, dir.1, dir.2);
    let stored = oscillator_stored_hvp(p.0, p.1, p.2, dir.0, dir.1, dir.2);
    assert_eq!(format!("{checkpointed:?}"), format!("{stored:?}"));
    let (v, g) = oscillator_in_f32_grad(p.0, p.1, p.2);
    assert_eq!(v.to_bits(), oscillator_in_f32(p.0, p.1, p.2).to_bits());
    let (_, tg) = oscillator_twin_grad(p.0, p.1, p.2);
    let flat = |q: &[f64]| oscillator_twin(q[0], q[1], q[2]);
    check_gradient(flat, &[p.0, p.1, p.2], &[tg.0, tg.1, tg.2], FD).unwrap();
    close(&[g.0, g.1, g.2], &[tg.0, tg.1, tg.2], STEPS, "grad");
    let (_, _, hv) = checkpointed;
    let (_, _, thv) = oscillator_twin_hvp(p.0, p.1, p.2, dir.0, dir.1, dir.2);
    close(&[hv.0, hv.1, hv.2], &[thv.0, thv.1, thv.2], STEPS, "hvp");
}

#[test]
fn vector_in_f64_vjp_and_jvp_match_its_jacobian() {
    let (x, y) = (0.6_f32, -0.9_f32);
    let (xd, yd) = (f64::from(x), f64::from(y));
    let j = [[yd, xd], [xd.cos(), 2.0 * yd]];
    let (value, (xb, yb)) = vector_in_f64_vjp(x, y, [1.5, -0.5]);
    assert_eq!(format!("{value:?}"), format!("{:?}", vector_in_f64(x, y)));
    let want = [0, 1].map(|k| 1.5 * j[0][k] - 0.5 * j[1][k]);
    close(&wide(&[xb, yb]), &want, F32, "vjp");
    let (_, dot) = vector_in_f64_jvp(x, y, 0.25, 2.0);
    let want = [0, 1].map(|i| 0.25 * j[i][0] + 2.0 * j[i][1]);
    close(&wide(&dot), &want, F32, "jvp");
}

#[test]
fn a_while_loop_of_f64_values_in_an_f32_function_matches_the_closed_form() {
    for a in [2.0_f32, 0.3, 9.0] {
        let ad = f64::from(a);
        let (v, g) = sqrt_in_f64_grad(a);
        assert_eq!(v.to_bits(), sqrt_in_f64(a).to_bits());
        assert_eq!(v, ad.sqrt() as f32);
        close(&wide(&[g]), &[0.5 / ad.sqrt()], F32, "grad");
        close(&wide(&[sqrt_in_f64_jvp(a, 2.0).1]), &[1.0 / ad.sqrt()], F32, "jvp");
        let (_, _, hv) = sqrt_in_f64_hvp(a, 1.0);
        close(&wide(&[hv]), &[-0.25 * ad.powf(-1.5)], F32, "hvp");
    }
}

#[test]
fn vector_in_f64_hvp_and_jacobian_match_the_closed_forms() {
    let (x, y) = (0.6_f32, -0.9_f32);
    let (xd, yd) = (f64::from(x), f64::from(y));
    let j = [[yd, xd], [xd.cos(), 2.0 * yd]];
    let (_, jac) = vector_in_f64_jacobian(x, y);
    close(&wide(&jac.concat()), &j.concat(), F32, "jacobian");
    // d/dt of Jᵀu along (dx, dy) and u̇: [u₀ dy − u₁ sin x dx, u₀ dx + 2 u₁ dy] + Jᵀu̇.
    let (u, du) = ([1.5, -0.5], [0.25, 1.0]);
    let (dx, dy) = (0.5, -2.0);
    let (_, (xb, yb), _, (xbd, ybd)) = vector_in_f64_hvp(x, y, u, dx, dy, du);
    let (u, du) = (wide(&u), wide(&du));
    let (dx, dy) = (f64::from(dx), f64::from(dy));
    let bars = [0, 1].map(|k| u[0] * j[0][k] + u[1] * j[1][k]);
    close(&wide(&[xb, yb]), &bars, F32, "hvp's cotangents");
    let dots = [
        u[0] * dy - u[1] * xd.sin() * dx + du[0] * j[0][0] + du[1] * j[1][0],
        u[0] * dx + 2.0 * u[1] * dy + du[0] * j[0][1] + du[1] * j[1][1],
    ];
    close(&wide(&[xbd, ybd]), &dots, F32, "hvp");
}
