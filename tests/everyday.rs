//! Everyday numeric code written as a Rust user writes it (iterator chains, closures, `match`,
//! early exits, structs with methods, `f32`, generic floats, slices), each function's gradient
//! checked against central differences or a closed form, its H·v against differences of the
//! gradient and its JVP against the gradient's dot product. Found by probing: bugs 62, 64, 65
//! and 66 (`tests/regressions.rs`).
#![deny(warnings, clippy::all)]
// The functions index arrays in loops as numeric code does, return in tail position, bind a
// value to return it and chain `max` and `min`, as user code does: what is under test is the
// generated code, which these lints do not reach.
#![allow(
    clippy::needless_range_loop,
    clippy::needless_return,
    clippy::let_and_return,
    clippy::manual_clamp
)]

use autodiff_runtime::{Differentiable, Float, Tolerance, check_close, grad, numeric_gradient};

fn close(what: &str, values: &[f64], reference: &[f64], tol: f64) {
    let tol = Tolerance { epsilon: tol, max_relative: tol };
    if let Err(e) = check_close(values, reference, tol) {
        panic!("{what}: {e}");
    }
}

// ---- 1. softmax cross-entropy with iterators
#[grad(jvp, hvp)]
fn softmax_xent(z: [f64; 4], label: usize) -> f64 {
    let m = z.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let lse = z.iter().map(|&v| (v - m).exp()).sum::<f64>().ln() + m;
    lse - z[label]
}

#[test]
fn checks_softmax_xent() {
    let z = [0.3, -1.2, 2.0, 0.7];
    let (v, g) = softmax_xent_grad(z, 2);
    assert_eq!(v, softmax_xent(z, 2));
    let n = numeric_gradient(|x: &[f64]| softmax_xent(x.try_into().unwrap(), 2), &z);
    close("softmax", &g, &n, 1e-6);
    let dir = [1.0, 0.5, -0.3, 0.2];
    let (_, s) = softmax_xent_jvp(z, 2, dir);
    let dot: f64 = g.iter().zip(&dir).map(|(a, b)| a * b).sum();
    close("softmax jvp", &[s], &[dot], 1e-12);
    let (_, _, hv) = softmax_xent_hvp(z, 2, dir);
    let nh = autodiff_runtime::numeric_hvp(
        |x: &[f64]| softmax_xent_grad(x.try_into().unwrap(), 2).1.to_vec(),
        &z,
        &dir,
    );
    close("softmax hvp", &hv, &nh, 1e-5);
}

// ---- 2. Gaussian log-likelihood over a slice with zip
#[grad(jvp, hvp)]
fn gauss_ll(mu: f64, log_sigma: f64, xs: &[f64], ws: &[f64]) -> f64 {
    let sigma = log_sigma.exp();
    let mut ll = 0.0;
    for (x, w) in xs.iter().zip(ws) {
        let z = (x - mu) / sigma;
        ll += w * (-0.5 * z * z - log_sigma);
    }
    ll
}

#[test]
fn checks_gauss_ll() {
    let xs = [0.1, 0.5, -0.4, 1.3];
    let ws = [1.0, 0.5, 2.0, 1.5];
    let p = [0.2, -0.3];
    let (v, (gm, gs)) = gauss_ll_grad(p[0], p[1], &xs, &ws);
    assert_eq!(v, gauss_ll(p[0], p[1], &xs, &ws));
    let n = numeric_gradient(|q: &[f64]| gauss_ll(q[0], q[1], &xs, &ws), &p);
    close("gauss", &[gm, gs], &n, 1e-6);
    let (_, s) = gauss_ll_jvp(p[0], p[1], &xs, &ws, 1.0, 2.0);
    close("gauss jvp", &[s], &[gm + 2.0 * gs], 1e-12);
    let (_, _, (hm, hs)) = gauss_ll_hvp(p[0], p[1], &xs, &ws, 1.0, 2.0);
    let nh = autodiff_runtime::numeric_hvp(
        |q: &[f64]| {
            let (_, (a, b)) = gauss_ll_grad(q[0], q[1], &xs, &ws);
            vec![a, b]
        },
        &p,
        &[1.0, 2.0],
    );
    close("gauss hvp", &[hm, hs], &nh, 1e-5);
}

// ---- 3. Horner polynomial via fold over rev
#[grad(jvp, hvp)]
fn horner(c: [f64; 5], x: f64) -> f64 {
    c.iter().rev().fold(0.0, |acc, &ci| acc * x + ci)
}

#[test]
fn checks_horner() {
    let c = [1.0, -2.0, 0.5, 3.0, -0.25];
    let x = 0.7;
    let (v, (gc, gx)) = horner_grad(c, x);
    assert_eq!(v, horner(c, x));
    for k in 0..5 {
        close("horner c", &[gc[k]], &[x.powi(k as i32)], 1e-14);
    }
    let d: f64 = (1..5).map(|k| k as f64 * c[k] * x.powi(k as i32 - 1)).sum();
    close("horner x", &[gx], &[d], 1e-13);
    let d2: f64 = (2..5).map(|k| (k * (k - 1)) as f64 * c[k] * x.powi(k as i32 - 2)).sum();
    let (_, _, (_, hx)) = horner_hvp(c, x, [0.0; 5], 1.0);
    close("horner hxx", &[hx], &[d2], 1e-12);
}

// ---- 4. Bisection solve with loop/break value
#[grad]
#[allow(unused_assignments)]
fn cube_root_by_bisection(a: f64) -> f64 {
    let mut lo = 0.0;
    let mut hi = a.max(1.0);
    let mut r = 0.0;
    loop {
        let mid = 0.5 * (lo + hi);
        if hi - lo < 1e-12 {
            r = mid;
            break;
        }
        if mid * mid * mid > a {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    r * r
}

#[test]
fn checks_bisection() {
    let (v, g) = cube_root_by_bisection_grad(2.0);
    assert_eq!(v, cube_root_by_bisection(2.0));
    // the comparisons fixed, r = c * hi = c * a: d(r^2)/da = 2 r^2 / a
    close("bisection", &[g], &[2.0 * v / 2.0], 1e-12);
}

// ---- 5. Newton inner solve with while
#[grad(jvp, hvp)]
fn newton_sqrt(a: f64) -> f64 {
    let mut x = a.max(1.0);
    for _ in 0..50 {
        let nx = 0.5 * (x + a / x);
        if (nx - x).abs() < 1e-15 {
            x = nx;
            break;
        }
        x = nx;
    }
    x
}

#[test]
fn checks_newton_sqrt() {
    for a in [0.3, 2.0, 9.0] {
        let (v, g) = newton_sqrt_grad(a);
        close("newton v", &[v], &[a.sqrt()], 1e-14);
        close("newton g", &[g], &[0.5 / a.sqrt()], 1e-10);
        let (_, _, h) = newton_sqrt_hvp(a, 1.0);
        close("newton h", &[h], &[-0.25 * a.powf(-1.5)], 1e-8);
    }
}

// ---- 6. generic T: Float distance
#[grad(jvp, hvp)]
fn dist<T: Float>(a: [T; 3], b: [T; 3]) -> T {
    a.iter().zip(b.iter()).map(|(&p, &q)| (p - q) * (p - q)).fold(T::zero(), |s, t| s + t).sqrt()
}

#[test]
fn checks_dist() {
    let a = [1.0, 2.0, 3.0];
    let b = [0.5, -1.0, 2.0];
    let (v, (ga, gb)) = dist_grad(a, b);
    let d = ((0.5f64).powi(2) + 9.0 + 1.0).sqrt();
    close("dist", &[v], &[d], 1e-14);
    for i in 0..3 {
        close("dist ga", &[ga[i]], &[(a[i] - b[i]) / d], 1e-14);
        close("dist gb", &[gb[i]], &[-(a[i] - b[i]) / d], 1e-14);
    }
    let (v32, _) = dist_grad([1.0f32, 2.0, 3.0], [0.5f32, -1.0, 2.0]);
    assert!((v32 as f64 - d).abs() < 1e-5);
}

// ---- 7. f32 Huber loss
#[grad(jvp, hvp)]
fn huber(pred: [f32; 3], target: [f32; 3], delta: f32) -> f32 {
    let mut s = 0.0;
    for i in 0..3 {
        let r = (pred[i] - target[i]).abs();
        s += if r <= delta { 0.5 * r * r } else { delta * (r - 0.5 * delta) };
    }
    s / 3.0
}

#[test]
fn checks_huber() {
    let p = [0.5f32, 2.0, -1.0];
    let t = [0.0f32, 0.0, 0.0];
    let (v, (gp, _gt, gd)) = huber_grad(p, t, 1.0);
    assert_eq!(v, huber(p, t, 1.0));
    let want = [0.5 / 3.0, 1.0 / 3.0, -1.0 / 3.0];
    for i in 0..3 {
        assert!((gp[i] - want[i]).abs() < 1e-6, "{gp:?}");
    }
    // d/d delta: for r>delta: r - delta -> (2-1) + (1-1)=...; r=1 at boundary uses first branch
    assert!((gd - (1.0 / 3.0)).abs() < 1e-6, "{gd}");
}

// ---- 8. match for a piecewise spline with early return
#[grad(jvp, hvp)]
fn spline(x: f64, knots: [f64; 4], seg: usize) -> f64 {
    let t = x - seg as f64;
    match seg {
        0 => return knots[0] * (1.0 - t) + knots[1] * t,
        1 => knots[1] * (1.0 - t) + knots[2] * t * t,
        _ => knots[2] + (knots[3] - knots[2]) * t.powi(3),
    }
}

#[test]
fn checks_spline() {
    let k = [1.0, 2.0, -1.0, 0.5];
    for x in [0.3, 1.4, 2.6] {
        let seg = x as usize;
        let (v, (gx, gk)) = spline_grad(x, k, seg);
        assert_eq!(v, spline(x, k, seg));
        let mut p = vec![x];
        p.extend_from_slice(&k);
        let n = numeric_gradient(|q: &[f64]| spline(q[0], [q[1], q[2], q[3], q[4]], seg), &p);
        let mut a = vec![gx];
        a.extend_from_slice(&gk);
        close("spline", &a, &n, 1e-6);
    }
}

// ---- 9. Verlet step with a struct state and methods
#[derive(Clone, Copy, Debug, PartialEq, Differentiable)]
pub struct Particle {
    pub x: f64,
    pub v: f64,
}

impl Particle {
    #[grad(jvp, hvp)]
    pub fn force(&self, k: f64) -> f64 {
        -k * self.x - 0.1 * self.x * self.x * self.x
    }

    #[grad(jvp, hvp)]
    pub fn energy(&self, k: f64) -> f64 {
        0.5 * self.v * self.v + 0.5 * k * self.x * self.x + 0.025 * self.x.powi(4)
    }

    #[grad(jvp, hvp)]
    pub fn step(self, k: f64, dt: f64) -> Self {
        let a = self.force(k);
        let v_half = self.v + 0.5 * dt * a;
        let x = self.x + dt * v_half;
        let moved = Particle { x, v: v_half };
        let a2 = moved.force(k);
        Particle { x, v: v_half + 0.5 * dt * a2 }
    }
}

#[grad(hvp)]
fn verlet_energy(p: Particle, k: f64) -> f64 {
    let mut s = Particle { x: p.x, v: p.v };
    for _ in 0..20 {
        s = s.step(k, 0.05);
    }
    s.energy(k)
}

/// A function of a particle and `k`, its `_grad` and its `_hvp`, for [`check_particle_fn`].
type ParticleFns = (
    fn(Particle, f64) -> f64,
    fn(Particle, f64) -> (f64, (Particle, f64)),
    fn(Particle, f64, Particle, f64) -> (f64, (Particle, f64), (Particle, f64)),
);

/// Checks `(f, f_grad, f_hvp)` at `p = (1, −0.3)`, `k = 0.8`: the value, the gradient against
/// central differences (within `tol.0`), H·v along `(0.5, 1, 0.3)` against differences of the
/// gradient (within `tol.1`).
fn check_particle_fn(name: &str, (f, grad, hvp): ParticleFns, tol: (f64, f64)) {
    let at = |q: &[f64]| (Particle { x: q[0], v: q[1] }, q[2]);
    let (q, d) = ([1.0, -0.3, 0.8], [0.5, 1.0, 0.3]);
    let (p, k) = at(&q);
    let (v, (gp, gk)) = grad(p, k);
    assert_eq!(v, f(p, k), "{name}");
    let n = numeric_gradient(|q: &[f64]| f(at(q).0, at(q).1), &q);
    close(name, &[gp.x, gp.v, gk], &n, tol.0);
    let (dp, dk) = at(&d);
    let (_, _, (hp, hk)) = hvp(p, k, dp, dk);
    let g = |q: &[f64]| {
        let (_, (g, k)) = grad(at(q).0, at(q).1);
        vec![g.x, g.v, k]
    };
    let nh = autodiff_runtime::numeric_hvp(g, &q, &d);
    close(&format!("{name} hvp"), &[hp.x, hp.v, hk], &nh, tol.1);
}

#[test]
fn checks_verlet() {
    let fns: ParticleFns = (verlet_energy, verlet_energy_grad, verlet_energy_hvp);
    check_particle_fn("verlet", fns, (1e-6, 1e-5));
}

// ---- 10. RK4 with array state and a closure for the rhs
#[grad(jvp, hvp)]
fn rk4_decay(y0: [f64; 2], k: f64) -> f64 {
    let rhs = |y: [f64; 2]| [y[1], -k * y[0] - 0.2 * y[1]];
    let h = 0.1;
    let mut y = y0;
    for _ in 0..10 {
        let k1 = rhs(y);
        let k2 = rhs([y[0] + 0.5 * h * k1[0], y[1] + 0.5 * h * k1[1]]);
        let k3 = rhs([y[0] + 0.5 * h * k2[0], y[1] + 0.5 * h * k2[1]]);
        let k4 = rhs([y[0] + h * k3[0], y[1] + h * k3[1]]);
        for i in 0..2 {
            y[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
        }
    }
    y[0] * y[0] + y[1]
}

#[test]
fn checks_rk4() {
    let p = [1.0, 0.5, 2.0];
    let (v, (gy, gk)) = rk4_decay_grad([p[0], p[1]], p[2]);
    assert_eq!(v, rk4_decay([p[0], p[1]], p[2]));
    let n = numeric_gradient(|q: &[f64]| rk4_decay([q[0], q[1]], q[2]), &p);
    close("rk4", &[gy[0], gy[1], gk], &n, 1e-6);
    let (_, s) = rk4_decay_jvp([p[0], p[1]], p[2], [1.0, -1.0], 0.5);
    close("rk4 jvp", &[s], &[gy[0] - gy[1] + 0.5 * gk], 1e-12);
    let (_, _, (hy, hk)) = rk4_decay_hvp([p[0], p[1]], p[2], [1.0, -1.0], 0.5);
    let nh = autodiff_runtime::numeric_hvp(
        |q: &[f64]| {
            let (_, (g, k)) = rk4_decay_grad([q[0], q[1]], q[2]);
            vec![g[0], g[1], k]
        },
        &p,
        &[1.0, -1.0, 0.5],
    );
    close("rk4 hvp", &[hy[0], hy[1], hk], &nh, 1e-5);
}

// ---- 11. scalar Kalman filter over observations with a struct state
#[derive(Clone, Copy, Debug, PartialEq, Differentiable)]
pub struct Belief {
    pub mean: f64,
    pub var: f64,
}

impl Belief {
    #[grad(jvp, hvp)]
    pub fn predict(&self, q: f64) -> Belief {
        Belief { mean: self.mean, var: self.var + q }
    }

    #[grad(jvp, hvp)]
    pub fn update(&self, z: f64, r: f64) -> Belief {
        let gain = self.var / (self.var + r);
        Belief { mean: self.mean + gain * (z - self.mean), var: (1.0 - gain) * self.var }
    }
}

#[grad(hvp)]
fn kalman_nll(b0: Belief, q: f64, r: f64, zs: &[f64]) -> f64 {
    let mut b = Belief { mean: b0.mean, var: b0.var };
    let mut nll = 0.0;
    for &z in zs {
        let pred = b.predict(q);
        let s = pred.var + r;
        let innov = z - pred.mean;
        nll += 0.5 * (s.ln() + innov * innov / s);
        b = pred.update(z, r);
    }
    nll
}

#[test]
fn checks_kalman() {
    let zs = [0.3, 0.1, -0.2, 0.5, 0.4];
    let b0 = Belief { mean: 0.0, var: 1.0 };
    let (v, (gb, gq, gr)) = kalman_nll_grad(b0, 0.1, 0.2, &zs);
    assert_eq!(v, kalman_nll(b0, 0.1, 0.2, &zs));
    let f = |p: &[f64]| kalman_nll(Belief { mean: p[0], var: p[1] }, p[2], p[3], &zs);
    let p = [0.0, 1.0, 0.1, 0.2];
    let n = numeric_gradient(f, &p);
    close("kalman", &[gb.mean, gb.var, gq, gr], &n, 1e-6);
    let dir = Belief { mean: 1.0, var: 0.5 };
    let (_, _, (hb, hq, hr)) = kalman_nll_hvp(b0, 0.1, 0.2, &zs, dir, 0.2, -0.1);
    let nh = autodiff_runtime::numeric_hvp(
        |p: &[f64]| {
            let (_, (g, a, b)) = kalman_nll_grad(Belief { mean: p[0], var: p[1] }, p[2], p[3], &zs);
            vec![g.mean, g.var, a, b]
        },
        &p,
        &[1.0, 0.5, 0.2, -0.1],
    );
    close("kalman hvp", &[hb.mean, hb.var, hq, hr], &nh, 1e-5);
}

// ---- 12. logistic regression NLL with enumerate, tuple pattern, slices in wrt
#[grad(wrt(w), jvp, hvp)]
fn logreg(w: &[f64], xs: &[[f64; 3]], ys: &[f64]) -> f64 {
    let mut nll = 0.0;
    for (k, &y) in ys.iter().enumerate() {
        let z: f64 = xs[k].iter().zip(w.iter()).map(|(a, b)| a * b).sum();
        let p = 1.0 / (1.0 + (-z).exp());
        nll -= y * p.ln() + (1.0 - y) * (1.0 - p).ln();
    }
    nll + 0.01 * w.iter().map(|v| v * v).sum::<f64>()
}

#[test]
fn checks_logreg() {
    let xs = [[1.0, 0.5, -0.3], [0.2, -1.0, 0.7], [-0.5, 0.3, 1.2], [0.9, 0.1, 0.1]];
    let ys = [1.0, 0.0, 1.0, 0.0];
    let w = [0.3, -0.2, 0.5];
    let mut g = [0.0; 3];
    let v = logreg_grad(&w, &xs, &ys, &mut g);
    assert_eq!(v, logreg(&w, &xs, &ys));
    let n = numeric_gradient(|q: &[f64]| logreg(q, &xs, &ys), &w);
    close("logreg", &g, &n, 1e-6);
    let dir = [1.0, 0.5, -0.5];
    let s = logreg_jvp(&w, &xs, &ys, &dir);
    let dot: f64 = g.iter().zip(&dir).map(|(a, b)| a * b).sum();
    close("logreg jvp", &[s.1], &[dot], 1e-12);
    let (mut g2, mut hv) = ([0.0; 3], [0.0; 3]);
    logreg_hvp(&w, &xs, &ys, &dir, &mut g2, &mut hv);
    let nh = autodiff_runtime::numeric_hvp(
        |q: &[f64]| {
            let mut g = vec![0.0; 3];
            logreg_grad(q, &xs, &ys, &mut g);
            g
        },
        &w,
        &dir,
    );
    close("logreg hvp", &hv, &nh, 1e-5);
}

/// gradient g(p) against central differences of f at p.
fn fd(name: &str, f: impl Fn(&[f64]) -> f64, g: &[f64], p: &[f64]) {
    let n = numeric_gradient(f, p);
    close(name, g, &n, 1e-6);
}

/// H·v against differences of the gradient.
fn fdh(name: &str, g: impl Fn(&[f64]) -> Vec<f64>, hv: &[f64], p: &[f64], v: &[f64]) {
    let n = autodiff_runtime::numeric_hvp(g, p, v);
    close(name, hv, &n, 1e-5);
}

/// A function of an array and a scalar, its `_grad` and its `_hvp`, for [`check_array_scalar`].
type ArrayScalarFns<const N: usize> = (
    fn([f64; N], f64) -> f64,
    fn([f64; N], f64) -> (f64, ([f64; N], f64)),
    fn([f64; N], f64, [f64; N], f64) -> (f64, ([f64; N], f64), ([f64; N], f64)),
);

/// `(x, s)` from `q = [x…, s]`.
fn split<const N: usize>(q: &[f64]) -> ([f64; N], f64) {
    (q[..N].try_into().unwrap(), q[N])
}

/// Checks `(f, f_grad, f_hvp)` at `p = [x…, s]`: the value, the gradient against central
/// differences and H·d against differences of the gradient, each laid flat as `p` is.
fn check_array_scalar<const N: usize>(name: &str, fns: ArrayScalarFns<N>, p: &[f64], d: &[f64]) {
    let (f, grad, hvp) = fns;
    let flat = |(a, b): ([f64; N], f64)| a.iter().copied().chain([b]).collect::<Vec<f64>>();
    let at = |q: &[f64]| split::<N>(q);
    let g = |q: &[f64]| flat(grad(at(q).0, at(q).1).1);
    let ((x, s), (dx, ds)) = (split::<N>(p), split::<N>(d));
    assert_eq!(grad(x, s).0, f(x, s), "{name}");
    fd(name, |q: &[f64]| f(at(q).0, at(q).1), &g(p), p);
    fdh(&format!("{name} hvp"), g, &flat(hvp(x, s, dx, ds).2), p, d);
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

// ---- 13. shadowing within loops
#[grad(jvp, hvp)]
fn shadowed(x: f64, w: [f64; 4]) -> f64 {
    let mut acc = 0.0;
    for i in 0..4 {
        let x = x * w[i];
        let x = x.sin() + 0.5 * x;
        acc += x * x;
    }
    let acc = acc.sqrt();
    acc
}

#[test]
fn checks_shadowed() {
    let p = [0.7, 0.3, -1.0, 2.0, 0.5];
    let f = |q: &[f64]| shadowed(q[0], [q[1], q[2], q[3], q[4]]);
    let g = |q: &[f64]| {
        let (_, (a, b)) = shadowed_grad(q[0], [q[1], q[2], q[3], q[4]]);
        vec![a, b[0], b[1], b[2], b[3]]
    };
    fd("shadowed", f, &g(&p), &p);
    let v = [1.0, 0.5, -0.5, 0.2, 0.1];
    let (_, s) = shadowed_jvp(p[0], [p[1], p[2], p[3], p[4]], v[0], [v[1], v[2], v[3], v[4]]);
    close("shadowed jvp", &[s], &[dot(&g(&p), &v)], 1e-12);
    let (_, _, (h0, h1)) =
        shadowed_hvp(p[0], [p[1], p[2], p[3], p[4]], v[0], [v[1], v[2], v[3], v[4]]);
    fdh("shadowed hvp", g, &[h0, h1[0], h1[1], h1[2], h1[3]], &p, &v);
}

// ---- 14. continue on a condition over a slice, early exit
#[grad(jvp, hvp)]
fn positive_log_sum(x: f64, data: &[f64]) -> f64 {
    let mut s = 0.0;
    for &d in data {
        if d <= 0.0 {
            continue;
        }
        s += (d * x).ln();
        if s > 10.0 {
            break;
        }
    }
    s
}

#[test]
fn checks_continue() {
    let data = [1.0, -2.0, 3.0, 0.0, 0.5];
    let x = 1.5;
    let (v, g) = positive_log_sum_grad(x, &data);
    assert_eq!(v, positive_log_sum(x, &data));
    close("continue", &[g], &[3.0 / x], 1e-14);
    let (_, _, h) = positive_log_sum_hvp(x, &data, 1.0);
    close("continue h", &[h], &[-3.0 / (x * x)], 1e-13);
    let (_, s) = positive_log_sum_jvp(x, &data, 2.0);
    close("continue jvp", &[s], &[6.0 / x], 1e-14);
}

// ---- 15. total variation via windows
#[grad(jvp, hvp)]
fn smooth_tv(x: [f64; 6], eps: f64) -> f64 {
    x.windows(2).map(|w| ((w[1] - w[0]).powi(2) + eps * eps).sqrt()).sum::<f64>()
}

#[test]
fn checks_windows() {
    let p = [0.1, 0.5, 0.3, -0.2, 0.8, 0.9, 0.1];
    let fns: ArrayScalarFns<6> = (smooth_tv, smooth_tv_grad, smooth_tv_hvp);
    check_array_scalar("tv", fns, &p, &[1.0, -1.0, 0.5, 0.2, -0.3, 0.1, 0.4]);
}

// ---- 16. logsumexp with a fold closure for the max
#[grad(jvp, hvp)]
fn lse_closure(x: [f64; 5], t: f64) -> f64 {
    let m = x.iter().fold(f64::NEG_INFINITY, |a, &b| a.max(b / t));
    let s: f64 = x.iter().map(|&v| (v / t - m).exp()).sum();
    t * (m + s.ln())
}

#[test]
fn checks_lse() {
    let p = [0.3, -1.2, 2.0, 0.7, 1.9, 0.8];
    let fns: ArrayScalarFns<5> = (lse_closure, lse_closure_grad, lse_closure_hvp);
    check_array_scalar("lse", fns, &p, &[1.0, -1.0, 0.5, 0.2, -0.3, 0.1]);
}

// ---- 17. nested closures
#[grad(jvp, hvp)]
fn nested_closures(a: f64, b: f64, c: f64) -> f64 {
    let sq = |t: f64| t * t;
    let norm = |u: f64, v: f64| (sq(u) + sq(v)).sqrt();
    let scaled = |s: f64| norm(a * s, b / s) + c * s;
    scaled(1.0) + scaled(2.0) * sq(c)
}

#[test]
fn checks_nested_closures() {
    let p = [0.7, -1.3, 0.4];
    let f = |q: &[f64]| nested_closures(q[0], q[1], q[2]);
    let g = |q: &[f64]| {
        let (_, (a, b, c)) = nested_closures_grad(q[0], q[1], q[2]);
        vec![a, b, c]
    };
    fd("nested", f, &g(&p), &p);
    let v = [0.3, 1.0, -0.5];
    let (_, _, (a, b, c)) = nested_closures_hvp(p[0], p[1], p[2], v[0], v[1], v[2]);
    fdh("nested hvp", g, &[a, b, c], &p, &v);
    let (_, s) = nested_closures_jvp(p[0], p[1], p[2], v[0], v[1], v[2]);
    close("nested jvp", &[s], &[dot(&g(&p), &v)], 1e-12);
}

// ---- 18. chains of abs/max/min/clamp/hypot/atan2/powf/powi
#[grad(jvp, hvp)]
fn math_chain(x: f64, y: f64) -> f64 {
    let r = x.hypot(y);
    let th = y.atan2(x);
    let a = (r.powf(1.5) - th.abs()).max(0.1).min(5.0);
    let b = (x * y).clamp(-0.5, 0.5);
    a * b.powi(3) + r.powf(y) + x.abs().sqrt()
}

#[test]
fn checks_math_chain() {
    for p in [[0.7, 0.4], [-1.2, 0.3], [0.9, -0.8]] {
        let f = |q: &[f64]| math_chain(q[0], q[1]);
        let g = |q: &[f64]| {
            let (_, (a, b)) = math_chain_grad(q[0], q[1]);
            vec![a, b]
        };
        fd("chain", f, &g(&p), &p);
        let v = [0.3, 1.0];
        let (_, _, (a, b)) = math_chain_hvp(p[0], p[1], v[0], v[1]);
        fdh("chain hvp", g, &[a, b], &p, &v);
    }
}

// ---- 19. three-way zip with tuple patterns, enumerate weights
#[grad(jvp, hvp)]
fn weighted_sq(pred: [f64; 4], target: [f64; 4], w: [f64; 4]) -> f64 {
    let mut s = 0.0;
    for (i, ((p, t), wi)) in pred.iter().zip(target.iter()).zip(w.iter()).enumerate() {
        let r = p - t;
        s += wi * r * r * (i as f64 + 1.0);
    }
    s + pred.iter().enumerate().map(|(i, &v)| v * i as f64).sum::<f64>()
}

#[test]
fn checks_zip3() {
    let p = [0.1, 0.5, -0.3, 1.2, 0.0, 1.0, 0.0, 1.0, 1.0, 2.0, 0.5, 0.3];
    let split = |q: &[f64]| -> ([f64; 4], [f64; 4], [f64; 4]) {
        (q[0..4].try_into().unwrap(), q[4..8].try_into().unwrap(), q[8..12].try_into().unwrap())
    };
    let f = |q: &[f64]| {
        let (a, b, c) = split(q);
        weighted_sq(a, b, c)
    };
    let g = |q: &[f64]| {
        let (a, b, c) = split(q);
        let (_, (x, y, z)) = weighted_sq_grad(a, b, c);
        [x, y, z].concat()
    };
    fd("zip3", f, &g(&p), &p);
    let v: Vec<f64> = (0..12).map(|i| (i as f64 * 0.7).sin()).collect();
    let (a, b, c) = split(&p);
    let (da, db, dc) = split(&v);
    let (_, _, (x, y, z)) = weighted_sq_hvp(a, b, c, da, db, dc);
    fdh("zip3 hvp", g, &[x, y, z].concat(), &p, &v);
}

// ---- 20. min tracking over a slice, stable sigmoid, ln_1p/exp_m1
#[grad(jvp, hvp)]
fn soft_margin(w: [f64; 2], xs: &[[f64; 2]], ys: &[f64]) -> f64 {
    let mut worst = f64::INFINITY;
    let mut loss = 0.0;
    for k in 0..ys.len() {
        let z = ys[k] * (w[0] * xs[k][0] + w[1] * xs[k][1]);
        worst = worst.min(z);
        let sig = if z >= 0.0 {
            1.0 / (1.0 + (-z).exp())
        } else {
            let e = z.exp();
            e / (1.0 + e)
        };
        loss += -sig.ln() + 0.01 * z.exp_m1().abs().ln_1p();
    }
    loss + worst.abs()
}

#[test]
fn checks_soft_margin() {
    let xs = [[1.0, 0.5], [-0.2, 1.0], [0.7, -0.7], [-1.0, -0.3]];
    let ys = [1.0, -1.0, 1.0, -1.0];
    let p = [0.4, -0.9];
    let f = |q: &[f64]| soft_margin([q[0], q[1]], &xs, &ys);
    let g = |q: &[f64]| soft_margin_grad([q[0], q[1]], &xs, &ys).1.to_vec();
    fd("margin", f, &g(&p), &p);
    let v = [1.0, 0.3];
    let (_, _, hv) = soft_margin_hvp(p, &xs, &ys, v);
    fdh("margin hvp", g, &hv, &p, &v);
}

// ---- 21. f32 iterator sum and product
#[grad(jvp, hvp)]
fn f32_norms(x: [f32; 3]) -> f32 {
    let l2 = x.iter().map(|v| v * v).sum::<f32>();
    let p: f32 = x.iter().map(|v| 1.0 + v * v).product();
    l2.sqrt() + p.ln()
}

#[test]
fn checks_f32() {
    let x = [0.5f32, -1.0, 2.0];
    let (v, g) = f32_norms_grad(x);
    assert_eq!(v, f32_norms(x));
    let l2 = (0.25f64 + 1.0 + 4.0).sqrt();
    for i in 0..3 {
        let xi = x[i] as f64;
        let want = xi / l2 + 2.0 * xi / (1.0 + xi * xi);
        assert!((g[i] as f64 - want).abs() < 1e-5, "{g:?}");
    }
}

// ---- 22. generic T: Float with loop, constants via T::from
#[grad(jvp, hvp)]
fn gen_poly<T: Float>(c: [T; 4], x: T) -> T {
    let mut acc = T::zero();
    let mut xp = T::one();
    for i in 0..4 {
        acc = acc + c[i] * xp * T::from(i + 1).unwrap();
        xp = xp * x;
    }
    acc / T::from(2.5).unwrap()
}

#[test]
fn checks_generic_poly() {
    let c = [1.0, -2.0, 0.5, 3.0];
    let x = 0.7;
    let (v, (gc, gx)) = gen_poly_grad(c, x);
    assert_eq!(v, gen_poly(c, x));
    for i in 0..4 {
        close("gen c", &[gc[i]], &[(i + 1) as f64 * x.powi(i as i32) / 2.5], 1e-14);
    }
    let d: f64 =
        (1..4).map(|i| c[i] * (i + 1) as f64 * i as f64 * x.powi(i as i32 - 1)).sum::<f64>() / 2.5;
    close("gen x", &[gx], &[d], 1e-13);
    let (v32, _) = gen_poly_grad([1.0f32, -2.0, 0.5, 3.0], 0.7f32);
    assert!((v32 as f64 - v).abs() < 1e-5);
}

// ---- 23. mean/variance with a tuple fold, len as f64
#[grad(jvp, hvp)]
fn zscore_loss(x: [f64; 5]) -> f64 {
    let n = x.len() as f64;
    let (s, s2) = x.iter().fold((0.0, 0.0), |(a, b), &v| (a + v, b + v * v));
    let mean = s / n;
    let var = s2 / n - mean * mean;
    x.iter().map(|&v| ((v - mean) / var.sqrt()).powi(4)).sum::<f64>() / n
}

#[test]
fn checks_tuple_fold() {
    let p = [0.3, -1.2, 2.0, 0.7, 1.1];
    let f = |q: &[f64]| zscore_loss(q.try_into().unwrap());
    let g = |q: &[f64]| zscore_loss_grad(q.try_into().unwrap()).1.to_vec();
    fd("zscore", f, &g(&p), &p);
    let v = [1.0, -1.0, 0.5, 0.2, -0.3];
    let (_, _, hv) = zscore_loss_hvp(p, v);
    fdh("zscore hvp", g, &hv, &p, &v);
}

// ---- 24. matrix-vector over rows with nested zip
#[grad(jvp, hvp)]
fn quad_form(m: [[f64; 3]; 3], v: [f64; 3]) -> f64 {
    let mut s = 0.0;
    for (row, &vi) in m.iter().zip(v.iter()) {
        let r: f64 = row.iter().zip(v.iter()).map(|(a, b)| a * b).sum();
        s += vi * r;
    }
    s
}

#[test]
fn checks_quad_form() {
    let m = [[2.0, 0.5, 0.1], [0.3, 1.0, -0.4], [0.0, 0.2, 3.0]];
    let v = [0.5, -1.0, 2.0];
    let (_, (gm, gv)) = quad_form_grad(m, v);
    for i in 0..3 {
        let want: f64 = (0..3).map(|j| (m[i][j] + m[j][i]) * v[j]).sum();
        close("quad v", &[gv[i]], &[want], 1e-14);
        for j in 0..3 {
            close("quad m", &[gm[i][j]], &[v[i] * v[j]], 1e-14);
        }
    }
    let (_, _, (_, hv)) = quad_form_hvp(m, v, [[0.0; 3]; 3], [1.0, 0.0, 0.0]);
    for i in 0..3 {
        close("quad hv", &[hv[i]], &[m[i][0] + m[0][i]], 1e-14);
    }
}

// ---- 25. match with guards on f64 and a binding
#[grad(jvp, hvp)]
fn regime(x: f64, k: u32) -> f64 {
    let base = match k {
        0 => x,
        n @ 1..=3 if x > 0.0 => x.powi(n as i32 + 1),
        n @ 1..=3 => -x * n as f64,
        _ => x.exp(),
    };
    base * 2.0
}

#[test]
fn checks_match_guards() {
    for (x, k, want, want2) in [
        (0.5f64, 0u32, 2.0, 0.0),
        (0.5, 2, 2.0 * 3.0 * 0.25, 2.0 * 6.0 * 0.5),
        (-0.5, 2, -4.0, 0.0),
        (0.5, 7, 2.0 * 0.5f64.exp(), 2.0 * 0.5f64.exp()),
    ] {
        let (v, g) = regime_grad(x, k);
        assert_eq!(v, regime(x, k));
        close("regime", &[g], &[want], 1e-14);
        let (_, _, h) = regime_hvp(x, k, 1.0);
        close("regime h", &[h], &[want2], 1e-14);
    }
}

// ---- 26. gradient descent inner solve: loop with f64 break condition, carried array
#[grad(jvp, hvp)]
fn inner_solve(a: f64, b: f64) -> f64 {
    // minimise (u0 - a)^2 + (u1 - b)^2 + u0 u1 by gradient steps
    let mut u = [0.0, 0.0];
    let mut steps = 0.0;
    loop {
        let g = [2.0 * (u[0] - a) + u[1], 2.0 * (u[1] - b) + u[0]];
        u[0] -= 0.2 * g[0];
        u[1] -= 0.2 * g[1];
        steps += 1.0;
        if g[0].hypot(g[1]) < 1e-10 || steps > 500.0 {
            break;
        }
    }
    u[0] * u[0] + u[1]
}

#[test]
fn checks_inner_solve() {
    // fixed point: [2 1; 1 2] u = [2a; 2b]  -> u0 = (4a - 2b)/3, u1 = (4b - 2a)/3
    let (a, b) = (0.7, -0.4);
    let u0 = (4.0 * a - 2.0 * b) / 3.0;
    let (v, (ga, gb)) = inner_solve_grad(a, b);
    close("solve v", &[v], &[u0 * u0 + (4.0 * b - 2.0 * a) / 3.0], 1e-9);
    close("solve ga", &[ga], &[2.0 * u0 * 4.0 / 3.0 - 2.0 / 3.0], 1e-8);
    close("solve gb", &[gb], &[2.0 * u0 * -2.0 / 3.0 + 4.0 / 3.0], 1e-8);
    let (_, _, (ha, hb)) = inner_solve_hvp(a, b, 1.0, 0.0);
    close("solve h", &[ha, hb], &[32.0 / 9.0, -16.0 / 9.0], 1e-7);
    let (_, s) = inner_solve_jvp(a, b, 1.0, 2.0);
    close("solve jvp", &[s], &[ga + 2.0 * gb], 1e-12);
}

// ---- 27. struct with array field, method iterating its field, method calling method
#[derive(Clone, Copy, Debug, PartialEq, Differentiable)]
pub struct Linear {
    pub w: [f64; 3],
    pub b: f64,
}

impl Linear {
    #[grad(jvp, hvp)]
    pub fn predict(&self, x: [f64; 3]) -> f64 {
        self.w.iter().zip(x.iter()).map(|(w, xi)| w * xi).sum::<f64>() + self.b
    }

    #[grad(jvp, hvp)]
    pub fn loss(&self, x: [f64; 3], y: f64) -> f64 {
        let r = self.predict(x) - y;
        0.5 * r * r + 0.1 * self.w.iter().map(|w| w * w).sum::<f64>()
    }
}

#[grad(hvp)]
fn batch_loss(m: &Linear, xs: &[[f64; 3]], ys: &[f64]) -> f64 {
    let mut total = 0.0;
    for (x, &y) in xs.iter().zip(ys) {
        total += m.loss(*x, y);
    }
    total / ys.len() as f64
}

#[test]
fn checks_linear() {
    let xs = [[1.0, 0.5, -0.3], [0.2, -1.0, 0.7], [-0.5, 0.3, 1.2]];
    let ys = [1.0, 0.0, -1.0];
    let m = Linear { w: [0.3, -0.2, 0.5], b: 0.1 };
    let pack = |q: &[f64]| Linear { w: [q[0], q[1], q[2]], b: q[3] };
    let p = [0.3, -0.2, 0.5, 0.1];
    let (v, g) = batch_loss_grad(&m, &xs, &ys);
    assert_eq!(v, batch_loss(&m, &xs, &ys));
    fd("linear", |q: &[f64]| batch_loss(&pack(q), &xs, &ys), &[g.w[0], g.w[1], g.w[2], g.b], &p);
    let dir = Linear { w: [1.0, 0.0, -1.0], b: 0.5 };
    let (_, _, h) = batch_loss_hvp(&m, &xs, &ys, &dir);
    let gg = |q: &[f64]| {
        let g = batch_loss_grad(&pack(q), &xs, &ys).1;
        vec![g.w[0], g.w[1], g.w[2], g.b]
    };
    fdh("linear hvp", gg, &[h.w[0], h.w[1], h.w[2], h.b], &p, &[1.0, 0.0, -1.0, 0.5]);
}

// ---- 28. shoelace area over chunks_exact pairs, rev().enumerate(), skip/step_by/take
#[grad(jvp, hvp)]
fn polygon(xy: [f64; 8], k: usize) -> f64 {
    let n = xy.len() / 2;
    let mut area = 0.0;
    for i in 0..n {
        let j = (i + 1) % n;
        area += xy[2 * i] * xy[2 * j + 1] - xy[2 * j] * xy[2 * i + 1];
    }
    let perim: f64 = xy.chunks_exact(2).map(|c| c[0].hypot(c[1])).sum();
    let tail: f64 = xy.iter().rev().enumerate().map(|(i, &v)| v * i as f64).sum();
    let odd: f64 = xy.iter().skip(1).step_by(2).take(k).map(|v| v.sin()).sum();
    0.5 * area.abs() + perim + 0.1 * tail + odd
}

#[test]
fn checks_polygon() {
    let p = [0.0, 0.0, 1.0, 0.1, 1.2, 1.0, -0.1, 0.9];
    let f = |q: &[f64]| polygon(q.try_into().unwrap(), 3);
    let g = |q: &[f64]| polygon_grad(q.try_into().unwrap(), 3).1.to_vec();
    let mut q = p;
    q[0] = 0.05; // away from hypot's kink at the origin
    fd("polygon", f, &g(&q), &q);
    let v = [1.0, -1.0, 0.5, 0.2, -0.3, 0.1, 0.7, 0.2];
    let (_, _, hv) = polygon_hvp(q, 3, v);
    fdh("polygon hvp", g, &hv, &q, &v);
}

// ---- 29. map with a function path, for_each accumulating, array map, from_fn
#[grad(jvp, hvp)]
fn paths_and_maps(x: [f64; 3]) -> f64 {
    let e: f64 = x.iter().copied().map(f64::exp).sum();
    let mut s = 0.0;
    x.iter().for_each(|v| s += v * v);
    let sq = x.map(|v| v * v + 1.0);
    let ramp: [f64; 3] = std::array::from_fn(|i| x[i] * (i as f64 + 1.0));
    e + s + sq.iter().map(|v| v.ln()).sum::<f64>() + ramp[2] * ramp[1]
}

#[test]
fn checks_paths_and_maps() {
    let p = [0.3, -0.7, 0.5];
    let f = |q: &[f64]| paths_and_maps(q.try_into().unwrap());
    let g = |q: &[f64]| paths_and_maps_grad(q.try_into().unwrap()).1.to_vec();
    fd("maps", f, &g(&p), &p);
    let v = [1.0, -1.0, 0.5];
    let (_, _, hv) = paths_and_maps_hvp(p, v);
    fdh("maps hvp", g, &hv, &p, &v);
}

// ---- 30. early return from a nested loop, guard clause, UFCS, mul_add, powi with param
#[grad(jvp, hvp)]
fn first_crossing(x: [f64; 4], level: f64, n: i32) -> f64 {
    if level < 0.0 {
        return f64::max(x[0], 0.0);
    }
    let mut acc = 0.0;
    for i in 0..4 {
        for j in 0..4 {
            acc = f64::mul_add(x[i], x[j], acc);
            if acc > level {
                return acc.powi(n) + level;
            }
        }
    }
    acc.powi(-2)
}

#[test]
fn checks_first_crossing() {
    let fns: ArrayScalarFns<4> = (
        |x, level| first_crossing(x, level, 3),
        |x, level| first_crossing_grad(x, level, 3),
        |x, level, dx, dl| first_crossing_hvp(x, level, 3, dx, dl),
    );
    for level in [0.2, 0.5, 100.0] {
        let p = [0.3, 0.5, -0.2, 0.9, level];
        check_array_scalar("crossing", fns, &p, &[1.0, -1.0, 0.5, 0.2, 0.3]);
    }
}

// ---- 31. a float method on a consumer's value; match arm returning in tail position
#[grad(jvp, hvp)]
fn norm_then_log(x: [f64; 3], k: u32) -> f64 {
    let n = x.iter().map(|v| v * v).sum::<f64>().sqrt();
    let m = x.iter().map(|v| v.abs()).fold(0.0, f64::max).ln();
    match k {
        0 => return n + m,
        1 => {
            let t = n * m;
            return t.sin();
        }
        _ => x.iter().product::<f64>().powi(2) + n,
    }
}

#[test]
fn checks_consumer_method_and_tail_return() {
    let p = [0.5, -1.2, 0.8];
    for k in 0..3 {
        let f = |q: &[f64]| norm_then_log(q.try_into().unwrap(), k);
        let g = |q: &[f64]| norm_then_log_grad(q.try_into().unwrap(), k).1.to_vec();
        let (v, _) = norm_then_log_grad(p, k);
        assert_eq!(v, norm_then_log(p, k));
        fd("norm_then_log", f, &g(&p), &p);
        let d = [1.0, 0.5, -0.5];
        let (_, _, hv) = norm_then_log_hvp(p, k, d);
        fdh("norm_then_log hvp", g, &hv, &p, &d);
        let (_, s) = norm_then_log_jvp(p, k, d);
        close("norm_then_log jvp", &[s], &[dot(&g(&p), &d)], 1e-12);
    }
}

// ---- 32. while loop with a tail if-return, closures capturing a shadowed name
#[grad(jvp, hvp)]
fn damped(x0: f64, c: f64) -> f64 {
    let c = c * 0.5;
    let decay = |v: f64| v * (1.0 - c);
    let c = 100.0; // shadowed after the closure: the closure keeps the old c
    let mut x = x0;
    let mut t = 0.0;
    while x.abs() > 0.1 && t < c {
        x = decay(x);
        t += 1.0;
    }
    if t > 50.0 { return x * t } else { x + t }
}

#[test]
fn checks_damped() {
    for p in [[3.0, 0.4], [0.05, 0.4], [2.0, 0.02]] {
        let f = |q: &[f64]| damped(q[0], q[1]);
        let g = |q: &[f64]| {
            let (_, (a, b)) = damped_grad(q[0], q[1]);
            vec![a, b]
        };
        fd("damped", f, &g(&p), &p);
        let (_, _, (a, b)) = damped_hvp(p[0], p[1], 1.0, 0.5);
        fdh("damped hvp", g, &[a, b], &p, &[1.0, 0.5]);
    }
}

// ---- 33. f64 function computing a piece in f32, slice of pairs, chunks
#[grad(wrt(w), jvp, hvp)]
fn mixed_precision(w: &[f64], pts: &[f64]) -> f64 {
    let mut s = 0.0_f64;
    for (k, c) in pts.chunks(2).enumerate() {
        let z = (w[k % w.len()] as f32) * (c[0] as f32) + 0.5_f32;
        s += z.tanh() as f64 * c[1] + w[k % w.len()].powi(2);
    }
    s
}

#[test]
fn checks_mixed_precision() {
    let w = [0.3, -0.7];
    let pts = [1.0, 0.5, -0.4, 1.5, 0.2, -1.0];
    let mut g = [0.0; 2];
    let v = mixed_precision_grad(&w, &pts, &mut g);
    assert_eq!(v, mixed_precision(&w, &pts));
    // by hand: d/dw_j = sum over chunks k with k % 2 == j of (1 - tanh^2 z) c0 c1 + 2 w_j
    let mut want = [0.0; 2];
    for (k, c) in pts.chunks(2).enumerate() {
        let z = (w[k % 2] * c[0] + 0.5).tanh();
        want[k % 2] += (1.0 - z * z) * c[0] * c[1] + 2.0 * w[k % 2];
    }
    close("mixed", &g, &want, 1e-6);
}

// ---- 34. move closure with the captured variable reassigned after it
#[grad(jvp, hvp)]
fn move_capture(x: f64, y: f64) -> f64 {
    let mut a = x * y;
    let f = move |t: f64| t * a + a.sin();
    a = a * a + 1.0;
    f(y) + a
}

#[test]
fn checks_move_capture() {
    let p = [0.7, -0.4];
    let f = |q: &[f64]| move_capture(q[0], q[1]);
    let g = |q: &[f64]| {
        let (_, (a, b)) = move_capture_grad(q[0], q[1]);
        vec![a, b]
    };
    fd("move", f, &g(&p), &p);
    let (_, _, (a, b)) = move_capture_hvp(p[0], p[1], 1.0, 0.5);
    fdh("move hvp", g, &[a, b], &p, &[1.0, 0.5]);
}

// ---- 35. while with continue, reverse range with break, step_by range, adjacent pairs
#[grad(jvp, hvp)]
fn loops_mix(x: [f64; 6], s0: f64) -> f64 {
    let mut s = s0;
    let mut i = 0.0;
    while i < 6.0 {
        i += 1.0;
        if s > 3.0 {
            s *= 0.5;
            continue;
        }
        s += x[0] * i;
    }
    let mut back = 0.0;
    for k in (0..6).rev() {
        back = back * 0.9 + x[k];
        if back > 2.0 {
            break;
        }
    }
    let stepped: f64 = (0..6).step_by(2).map(|k| x[k] * x[k + 1]).sum();
    let adj: f64 = x.iter().zip(x.iter().skip(1)).map(|(a, b)| (b - a).powi(2)).sum();
    let tail: f64 = x.iter().rev().skip(1).map(|v| v.sin()).sum();
    s + back + stepped + adj + tail
}

#[test]
fn checks_loops_mix() {
    let fns: ArrayScalarFns<6> = (loops_mix, loops_mix_grad, loops_mix_hvp);
    for p in [[0.3, 0.5, -0.2, 0.9, 1.1, 0.4, 0.2], [0.9, 0.5, 0.8, 0.9, 1.1, 0.4, 2.5]] {
        check_array_scalar("loops_mix", fns, &p, &[1.0, -1.0, 0.5, 0.2, -0.3, 0.1, 0.4]);
    }
}

// ---- 36. calls returning arrays and tuples destructured, method returning a tuple
#[grad(jvp, hvp)]
fn to_polar(x: f64, y: f64) -> (f64, f64) {
    (x.hypot(y), y.atan2(x))
}

#[grad(jvp, hvp)]
fn rotate2(v: [f64; 2], a: f64) -> [f64; 2] {
    let (s, c) = a.sin_cos();
    [c * v[0] - s * v[1], s * v[0] + c * v[1]]
}

#[grad(jvp, hvp)]
fn polar_roundtrip(x: f64, y: f64, a: f64) -> f64 {
    let [u, w] = rotate2([x, y], a);
    let (r, th) = to_polar(u, w);
    let h = rotate2([r, th], -a);
    r * th + h[0] * h[1]
}

#[test]
fn checks_calls() {
    let p = [0.7, -0.4, 0.3];
    let f = |q: &[f64]| polar_roundtrip(q[0], q[1], q[2]);
    let g = |q: &[f64]| {
        let (_, (a, b, c)) = polar_roundtrip_grad(q[0], q[1], q[2]);
        vec![a, b, c]
    };
    fd("polar", f, &g(&p), &p);
    let (_, _, (a, b, c)) = polar_roundtrip_hvp(p[0], p[1], p[2], 1.0, 0.5, -0.5);
    fdh("polar hvp", g, &[a, b, c], &p, &[1.0, 0.5, -0.5]);
    let (_, s) = polar_roundtrip_jvp(p[0], p[1], p[2], 1.0, 0.5, -0.5);
    close("polar jvp", &[s], &[dot(&g(&p), &[1.0, 0.5, -0.5])], 1e-12);
}

// ---- 37. a branch assigning in one side only, inside a loop, with a ring update
#[grad(jvp, hvp)]
fn ring_relax(x: [f64; 5], k: f64) -> f64 {
    let mut y = x;
    for _ in 0..3 {
        for i in 0..5 {
            let mut d = y[(i + 1) % 5] - y[i];
            if d.abs() > 0.5 {
                d = 0.5 * d.signum() + 0.1 * d;
            }
            y[(i + 1) % 5] -= k * d;
        }
    }
    y.iter().map(|v| v * v).sum::<f64>()
}

#[test]
fn checks_ring_relax() {
    let p = [0.3, -0.5, 1.2, 0.7, 0.1, 0.2];
    let fns: ArrayScalarFns<5> = (ring_relax, ring_relax_grad, ring_relax_hvp);
    check_array_scalar("ring", fns, &p, &[1.0, -1.0, 0.5, 0.2, -0.3, 0.1]);
}

// ---- 38. long loop (checkpointed) with a struct state by method calls
#[grad(hvp)]
fn long_orbit(p: Particle, k: f64) -> f64 {
    let mut s = p.step(k, 0.01);
    for _ in 0..20_000 {
        s = s.step(k, 0.01);
    }
    s.energy(k)
}

#[test]
fn checks_long_orbit() {
    let fns: ParticleFns = (long_orbit, long_orbit_grad, long_orbit_hvp);
    check_particle_fn("orbit", fns, (1e-5, 1e-4));
}

// ---- 39. a vector function by iterators: its Jacobian by rows and by columns, its VJP
#[grad(jvp, hvp, jacobian)]
fn softmax3(z: [f64; 3]) -> [f64; 3] {
    let m = z.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let total: f64 = z.iter().map(|v| (v - m).exp()).sum();
    z.map(|v| (v - m).exp() / total)
}

#[test]
fn checks_softmax_jacobian() {
    let z = [0.3, -1.2, 2.0];
    let (p, j) = softmax3_jacobian(z);
    for i in 0..3 {
        for k in 0..3 {
            let want = p[i] * (if i == k { 1.0 } else { 0.0 } - p[k]);
            close("softmax J", &[j[i][k]], &[want], 1e-14);
        }
    }
    let w = [1.0, -2.0, 0.5];
    let (_, vjp) = softmax3_vjp(z, w);
    for k in 0..3 {
        let want: f64 = (0..3).map(|i| w[i] * j[i][k]).sum();
        close("softmax vjp", &[vjp[k]], &[want], 1e-14);
    }
    let (_, t) = softmax3_jvp(z, w);
    for i in 0..3 {
        let want: f64 = (0..3).map(|k| j[i][k] * w[k]).sum();
        close("softmax jvp", &[t[i]], &[want], 1e-14);
    }
}

// ---- 40. generic T: Float with a while loop and early return (Newton for x·eˣ = a)
#[grad(jvp, hvp)]
fn lambert<T: Float>(a: T) -> T {
    let mut w = T::zero();
    let mut n = T::zero();
    while n < T::from(60.0).unwrap() {
        let e = w.exp();
        let f = w * e - a;
        if f.abs() < T::epsilon() {
            return w;
        }
        w = w - f / (e * (w + T::one()));
        n = n + T::one();
    }
    w
}

#[test]
fn checks_lambert() {
    for a in [0.5_f64, 2.0, 5.0] {
        let (w, g) = lambert_grad(a);
        close("lambert", &[w * w.exp()], &[a], 1e-12);
        // W'(a) = W / (a (1 + W)), W''(a) = -W² (W + 2) / (a² (1 + W)³)
        close("lambert g", &[g], &[w / (a * (1.0 + w))], 1e-9);
        let (_, _, h) = lambert_hvp(a, 1.0);
        close("lambert h", &[h], &[-w * w * (w + 2.0) / (a * a * (1.0 + w).powi(3))], 1e-7);
        let (w32, g32) = lambert_grad(a as f32);
        assert!((w32 as f64 - w).abs() < 1e-5 && (g32 as f64 - g).abs() < 1e-4);
    }
}

// ---- 41. a method returning a struct by an iterator over its array field; its VJP
#[derive(Clone, Copy, Debug, PartialEq, Differentiable)]
pub struct Poly3 {
    pub c: [f64; 3],
}

impl Poly3 {
    #[grad(jvp, hvp)]
    pub fn derivative(&self) -> Poly3 {
        Poly3 { c: [self.c[1], 2.0 * self.c[2], 0.0] }
    }

    #[grad(jvp, hvp)]
    pub fn at(&self, x: f64) -> f64 {
        self.c.iter().rev().fold(0.0, |acc, &ci| acc * x + ci)
    }
}

#[grad(hvp)]
fn slope_energy(p: &Poly3, xs: &[f64]) -> f64 {
    let d = p.derivative();
    xs.iter().map(|&x| d.at(x).powi(2)).sum::<f64>() + p.at(1.0)
}

#[test]
fn checks_slope_energy() {
    let xs = [0.0, 0.5, 1.0];
    let p = Poly3 { c: [0.3, -1.0, 2.0] };
    let (v, g) = slope_energy_grad(&p, &xs);
    assert_eq!(v, slope_energy(&p, &xs));
    // d(x) = c1 + 2 c2 x; E = Σ d(x)² + c0 + c1 + c2
    let d = |x: f64| p.c[1] + 2.0 * p.c[2] * x;
    let want = [
        1.0,
        xs.iter().map(|&x| 2.0 * d(x)).sum::<f64>() + 1.0,
        xs.iter().map(|&x| 4.0 * x * d(x)).sum::<f64>() + 1.0,
    ];
    close("slope energy", &g.c, &want, 1e-14);
    let (_, _, h) = slope_energy_hvp(&p, &xs, &Poly3 { c: [0.0, 1.0, 0.0] });
    close("slope energy H", &h.c, &[0.0, 6.0, 4.0 * 1.5], 1e-14);
}

// ---- 42. match inside a loop with continue and break in arms, a filter then fold
#[grad(jvp, hvp)]
fn piecewise_sum(x: [f64; 6], cut: f64) -> f64 {
    let mut s = 0.0;
    for (i, &v) in x.iter().enumerate() {
        match i % 3 {
            0 => continue,
            1 if v > cut => break,
            1 => s += v * v,
            _ => s += (v * cut).sin(),
        }
    }
    let big = x.iter().filter(|&&v| v > cut).fold(1.0, |acc, &v| acc * (1.0 + v));
    s + big.ln()
}

#[test]
fn checks_piecewise_sum() {
    for cut in [0.2, 0.8] {
        let p = [0.3, 0.5, -0.2, 0.9, 1.1, 0.4];
        let f = |q: &[f64]| piecewise_sum(q.try_into().unwrap(), cut);
        let g = |q: &[f64]| piecewise_sum_grad(q.try_into().unwrap(), cut).1.0.to_vec();
        fd("piecewise", f, &g(&p), &p);
        let d = [1.0, -1.0, 0.5, 0.2, -0.3, 0.1];
        let (_, _, (hv, _)) = piecewise_sum_hvp(p, cut, d, 0.0);
        fdh("piecewise hvp", g, &hv, &p, &d);
    }
}

// ---- 43. slices in wrt with accumulate, zip and rev
#[grad(wrt(a, b), accumulate, jvp, hvp)]
fn reversed_dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b.iter().rev()).map(|(x, y)| (x * y).tanh()).sum::<f64>()
}

#[test]
fn checks_reversed_dot() {
    let a = [0.3, -0.5, 0.8];
    let b = [1.0, 0.2, -0.7];
    let (mut ga, mut gb) = ([1.0; 3], [0.0; 3]); // ga accumulates onto ones
    let v = reversed_dot_grad(&a, &b, &mut ga, &mut gb);
    assert_eq!(v, reversed_dot(&a, &b));
    for i in 0..3 {
        let y = b[2 - i];
        let s = 1.0 - (a[i] * y).tanh().powi(2);
        close("rev a", &[ga[i]], &[1.0 + s * y], 1e-14);
        close("rev b", &[gb[2 - i]], &[s * a[i]], 1e-14);
    }
}

// ---- 44. a nested struct literal assigned a method's value in a while loop
#[derive(Clone, Copy, Debug, PartialEq, Differentiable)]
pub struct Inner {
    pub c: f64,
    pub d: [f64; 2],
}

#[derive(Clone, Copy, Debug, PartialEq, Differentiable)]
pub struct Outer {
    pub a: f64,
    pub inner: Inner,
}

impl Outer {
    #[grad(jvp, hvp)]
    pub fn relax(&self, k: f64) -> Outer {
        Outer {
            a: self.a * (1.0 - k) + k * self.inner.c,
            inner: Inner {
                c: self.inner.c + k * self.inner.d[0],
                d: [self.inner.d[1] * k, (self.a).sin()],
            },
        }
    }
}

#[grad(jvp, hvp)]
fn settle(o: Outer, k: f64) -> f64 {
    let mut s = Outer { a: o.a, inner: Inner { c: o.inner.c, d: [o.inner.d[0], o.inner.d[1]] } };
    let mut t = 0.0;
    while t < 7.0 {
        s = s.relax(k);
        t += 1.0;
    }
    s.a * s.inner.d[1] + s.inner.c
}

fn pack(q: &[f64]) -> (Outer, f64) {
    (Outer { a: q[0], inner: Inner { c: q[1], d: [q[2], q[3]] } }, q[4])
}

#[test]
fn checks_settle() {
    let q = [0.4, -0.3, 0.8, 0.2, 0.3];
    let grad = |q: &[f64]| {
        let (o, k) = pack(q);
        let (_, (g, gk)) = settle_grad(o, k);
        vec![g.a, g.inner.c, g.inner.d[0], g.inner.d[1], gk]
    };
    let f = |q: &[f64]| {
        let (o, k) = pack(q);
        settle(o, k)
    };
    autodiff_runtime::check_gradient(f, &q, &grad(&q), Tolerance::default()).unwrap();
    let d = [1.0, 0.5, -0.5, 0.2, 0.1];
    let (o, k) = pack(&q);
    let (od, kd) = pack(&d);
    let (_, _, (h, hk)) = settle_hvp(o, k, od, kd);
    autodiff_runtime::check_hvp(
        grad,
        &q,
        &d,
        &[h.a, h.inner.c, h.inner.d[0], h.inner.d[1], hk],
        Tolerance::default(),
    )
    .unwrap();
}
