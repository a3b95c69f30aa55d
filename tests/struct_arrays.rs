//! Arrays of structs (`ps: &[Particle; 4]`, `ps: [Particle; 4]`): the gradient, a
//! `[Particle; 4]`, against the same function over separate field arrays (bit for bit) and
//! against central differences; H·v against differences of the gradient; the directional
//! derivative against gradient · direction; the Hessian against H·v.

use autodiff_runtime::{Differentiable, Tolerance, check_close, check_gradient, check_hvp};
use autodiff_suite::struct_arrays::*;

fn close(what: &str, values: &[f64], reference: &[f64], tol: f64) {
    let tol = Tolerance { epsilon: tol, max_relative: tol };
    if let Err(e) = check_close(values, reference, tol) {
        panic!("{what}: {e}");
    }
}

/// The differentiated scalars of the particles, element by element in `Differentiable`'s order
/// (x, v, w[0], w[1]).
fn scalars<const N: usize>(ps: &[Particle; N]) -> Vec<f64> {
    ps.iter().flat_map(|p| (0..Particle::LEN).map(|k| p.get(k))).collect()
}

/// `like` with its differentiated scalars replaced by `s`.
fn with_scalars<const N: usize>(like: &[Particle; N], s: &[f64]) -> [Particle; N] {
    let mut out = *like;
    for (k, v) in s.iter().enumerate() {
        out[k / Particle::LEN].set(k % Particle::LEN, *v);
    }
    out
}

fn particles() -> [Particle; 4] {
    std::array::from_fn(|i| {
        let t = i as f64;
        Particle {
            x: 0.3 * t - 0.4,
            v: 0.7 - 0.2 * t,
            w: [0.1 * t + 0.2, 0.5 - 0.15 * t],
            m: 1.0 + t,
        }
    })
}

fn direction() -> [Particle; 4] {
    std::array::from_fn(|i| {
        let t = i as f64;
        Particle { x: (t * 0.9).cos(), v: (t * 1.3).sin() + 0.2, w: [0.3 - t * 0.1, 0.4], m: 50.0 }
    })
}

#[test]
fn energy_is_its_separate_arrays_twin_to_the_bit() {
    let ps = particles();
    let (xs, vs, ms) = (ps.map(|p| p.x), ps.map(|p| p.v), ps.map(|p| p.m));
    let k = 1.7;
    let (v, (g, gk)) = energy_grad(&ps, k);
    let (vf, (gx, gv)) = energy_flat_grad(&xs, &vs, &ms, k);
    assert_eq!(v.to_bits(), vf.to_bits());
    assert_eq!(v.to_bits(), energy(&ps, k).to_bits());
    assert_eq!(g.map(|p| p.x.to_bits()), gx.map(f64::to_bits));
    assert_eq!(g.map(|p| p.v.to_bits()), gv.map(f64::to_bits));
    assert!(g.iter().all(|p| p.m == 0.0 && p.w == [0.0; 2]), "no gradient of m, w is not read");
    // ∂/∂k of Σ ½ k d²: Σ ½ d².
    let mut dk = 0.0;
    for i in 0..4 {
        for j in i + 1..4 {
            dk += 0.5 * (ps[i].x - ps[j].x) * (ps[i].x - ps[j].x);
        }
    }
    close("∂k", &[gk], &[dk], 1e-14);
    let d = direction();
    let (_, slope) = energy_jvp(&ps, k, &d, 0.0);
    let (_, slope_flat) = energy_flat_jvp(&xs, &vs, &ms, k, &d.map(|p| p.x), &d.map(|p| p.v));
    assert_eq!(slope.to_bits(), slope_flat.to_bits(), "a #[no_grad] field's direction is not read");
    let (_, _, (hv, _)) = energy_hvp(&ps, k, &d, 0.0);
    let (_, _, (hx, hvv)) = energy_flat_hvp(&xs, &vs, &ms, k, &d.map(|p| p.x), &d.map(|p| p.v));
    assert_eq!(hv.map(|p| p.x.to_bits()), hx.map(f64::to_bits));
    assert_eq!(hv.map(|p| p.v.to_bits()), hvv.map(f64::to_bits));
    assert!(hv.iter().all(|p| p.m == 0.0));
}

#[test]
fn energy_against_finite_differences() {
    let ps = particles();
    let k = 1.7;
    let n = 4 * Particle::LEN;
    let f = |s: &[f64]| energy(&with_scalars(&ps, &s[..n]), s[n]);
    let grad = |s: &[f64]| {
        let (_, (g, gk)) = energy_grad(&with_scalars(&ps, &s[..n]), s[n]);
        let mut out = scalars(&g);
        out.push(gk);
        out
    };
    let mut s = scalars(&ps);
    s.push(k);
    check_gradient(f, &s, &grad(&s), Tolerance::default()).expect("gradient");
    let d = direction();
    let mut dir = scalars(&d);
    dir.push(0.6);
    let (_, _, (hv, hk)) = energy_hvp(&ps, k, &d, 0.6);
    let mut hv = scalars(&hv);
    hv.push(hk);
    check_hvp(grad, &s, &dir, &hv, Tolerance::default()).expect("H·v");
    let (_, slope) = energy_jvp(&ps, k, &d, 0.6);
    let g = grad(&s);
    let dot: f64 = g.iter().zip(&dir).map(|(a, b)| a * b).sum();
    close("jvp = ∇f·v", &[slope], &[dot], 1e-13);
    let h = energy_hessian(&ps, k);
    assert_eq!(h.len(), n + 1);
    for (i, row) in h.iter().enumerate() {
        let e: Vec<f64> = (0..=n).map(|j| if j == i { 1.0 } else { 0.0 }).collect();
        let (_, _, (col, ck)) = energy_hvp(&ps, k, &with_scalars(&ps, &e[..n]), e[n]);
        let mut col = scalars(&col);
        col.push(ck);
        close("Hessian row = H·eᵢ", row, &col, 1e-14);
    }
}

#[test]
fn loops_over_the_elements_against_finite_differences() {
    let ps = particles();
    let c = [0.3, -0.2, 0.9, 0.4];
    let n = 4 * Particle::LEN;
    let f = |s: &[f64]| features(with_scalars(&ps, s), &c);
    let grad = |s: &[f64]| scalars(&features_grad(with_scalars(&ps, s), &c).1);
    let s = scalars(&ps);
    assert_eq!(s.len(), n);
    check_gradient(f, &s, &grad(&s), Tolerance::default()).expect("gradient");
    let d = direction();
    let (_, _, hv) = features_hvp(ps, &c, d);
    check_hvp(grad, &s, &scalars(&d), &scalars(&hv), Tolerance::default()).expect("H·v");
    let (v, slope) = features_jvp(ps, &c, d);
    assert_eq!(v.to_bits(), features(ps, &c).to_bits());
    let dot: f64 = grad(&s).iter().zip(scalars(&d)).map(|(a, b)| a * b).sum();
    close("jvp = ∇f·v", &[slope], &[dot], 1e-13);
    let g = features_grad(ps, &c).1;
    assert!(g.iter().all(|p| p.m == 0.0), "a #[no_grad] field has no gradient");
}

#[test]
fn element_idioms_are_their_index_twin() {
    let ps = particles();
    let xs = [0.5, -1.1, 0.8, 0.25];
    let (x, v, w) = (ps.map(|p| p.x), ps.map(|p| p.v), ps.map(|p| p.w));
    let (value, g) = idioms_grad(ps, &xs);
    let (value_flat, (gx, gv, gw)) = idioms_flat_grad(&x, &v, &w, &xs);
    assert_eq!(value.to_bits(), value_flat.to_bits());
    assert_eq!(value.to_bits(), idioms(ps, &xs).to_bits());
    assert_eq!(g.map(|p| p.x.to_bits()), gx.map(f64::to_bits));
    assert_eq!(g.map(|p| p.v.to_bits()), gv.map(f64::to_bits));
    assert_eq!(g.map(|p| p.w.map(f64::to_bits)), gw.map(|w| w.map(f64::to_bits)));
    let f = |s: &[f64]| idioms(with_scalars(&ps, s), &xs);
    let grad = |s: &[f64]| scalars(&idioms_grad(with_scalars(&ps, s), &xs).1);
    let s = scalars(&ps);
    check_gradient(f, &s, &grad(&s), Tolerance::default()).expect("gradient");
    let d = direction();
    let (_, _, hv) = idioms_hvp(ps, &xs, d);
    check_hvp(grad, &s, &scalars(&d), &scalars(&hv), Tolerance::default()).expect("H·v");
}

fn mixture() -> [Gaussian; 3] {
    [
        Gaussian { mu: -1.0, log_sigma: -0.2, log_w: 0.1 },
        Gaussian { mu: 0.4, log_sigma: 0.3, log_w: -0.4 },
        Gaussian { mu: 1.5, log_sigma: -0.5, log_w: 0.2 },
    ]
}

fn mixture_scalars(g: &[Gaussian; 3]) -> Vec<f64> {
    g.iter().flat_map(|c| [c.mu, c.log_sigma, c.log_w]).collect()
}

fn mixture_of(s: &[f64]) -> [Gaussian; 3] {
    std::array::from_fn(|k| Gaussian { mu: s[3 * k], log_sigma: s[3 * k + 1], log_w: s[3 * k + 2] })
}

#[test]
fn a_gaussian_mixture_over_a_const_generic_array() {
    let data: Vec<f64> = (0..17).map(|k| (k as f64 * 0.77).sin() * 2.0).collect();
    let g = mixture();
    // The value against the mixture's density written out.
    let mut reference = 0.0;
    let z: f64 = g.iter().map(|c| c.log_w.exp()).sum();
    for x in &data {
        let p: f64 = g
            .iter()
            .map(|c| {
                let s = c.log_sigma.exp();
                c.log_w.exp() / z * (-0.5 * ((x - c.mu) / s).powi(2)).exp() / s
            })
            .sum();
        reference -= p.ln();
    }
    close("value", &[mixture_nll(&g, &data)], &[reference], 1e-12);
    let f = |s: &[f64]| mixture_nll(&mixture_of(s), &data);
    let grad = |s: &[f64]| mixture_scalars(&mixture_nll_grad(&mixture_of(s), &data).1);
    let s = mixture_scalars(&g);
    check_gradient(f, &s, &grad(&s), Tolerance::default()).expect("gradient");
    let v: Vec<f64> = (0..9).map(|k| (k as f64 * 0.4).cos()).collect();
    let (_, _, hv) = mixture_nll_hvp(&g, &data, &mixture_of(&v));
    check_hvp(grad, &s, &v, &mixture_scalars(&hv), Tolerance::default()).expect("H·v");
}

fn bodies() -> [Body; 3] {
    [
        Body { at: Point { x: 0.0, y: 0.1 }, q: 1.0 },
        Body { at: Point { x: 0.8, y: -0.3 }, q: -0.5 },
        Body { at: Point { x: -0.4, y: 0.6 }, q: 0.7 },
    ]
}

fn body_scalars(bs: &[Body; 3]) -> Vec<f64> {
    bs.iter().flat_map(|b| [b.at.x, b.at.y, b.q]).collect()
}

fn bodies_of(s: &[f64]) -> [Body; 3] {
    std::array::from_fn(|k| Body { at: Point { x: s[3 * k], y: s[3 * k + 1] }, q: s[3 * k + 2] })
}

#[test]
fn forces_jacobian_and_vjp_against_differences() {
    let bs = bodies();
    let s = body_scalars(&bs);
    let (value, j) = forces_jacobian(&bs);
    assert_eq!(value, forces(&bs));
    let h = 1e-6;
    for col in 0..9 {
        let (mut up, mut down) = (s.clone(), s.clone());
        up[col] += h;
        down[col] -= h;
        let (fu, fd) = (forces(&bodies_of(&up)), forces(&bodies_of(&down)));
        for row in 0..3 {
            close("∂fᵢ/∂sⱼ", &[j[row][col]], &[(fu[row] - fd[row]) / (2.0 * h)], 1e-7);
        }
    }
    let cot = [0.3, -1.2, 0.7];
    let (value, g) = forces_vjp(&bs, cot);
    assert_eq!(value, forces(&bs));
    let vjp: Vec<f64> = (0..9).map(|c| (0..3).map(|r| cot[r] * j[r][c]).sum()).collect();
    close("vjp = cᵀJ", &body_scalars(&g), &vjp, 1e-13);
}

#[test]
fn fields_selected_next_to_a_struct_with_names_the_generated_code_could_take() {
    let ps = particles();
    let c = Point { x: 0.7, y: -0.3 };
    let (value, (g, gc)) = mixed_grad(&ps, &c);
    assert_eq!(value.to_bits(), mixed(&ps, &c).to_bits());
    assert!(g.iter().all(|p| p.x == 0.0 && p.w == [0.0; 2] && p.m == 0.0), "only v is selected");
    // ∂/∂vᵢ: 2 xᵢ cx + 2 vᵢ (i + cy); ∂/∂cx: Σ 2 xᵢ vᵢ; ∂/∂cy: 1 + Σ vᵢ².
    for (i, p) in ps.iter().enumerate() {
        close("∂v", &[g[i].v], &[2.0 * p.x * c.x + 2.0 * p.v * (i as f64 + c.y)], 1e-14);
    }
    let gx: f64 = ps.iter().map(|p| 2.0 * p.x * p.v).sum();
    let gy: f64 = 1.0 + ps.iter().map(|p| p.v * p.v).sum::<f64>();
    close("∂c", &[gc.x, gc.y], &[gx, gy], 1e-14);
    let d = direction();
    let dc = Point { x: 0.2, y: 0.9 };
    let (_, _, (hv, hc)) = mixed_hvp(&ps, &c, &d, &dc);
    // H·v of v: 2 xᵢ dcx + 2 dvᵢ (i + cy) + 2 vᵢ dcy.
    for (i, p) in ps.iter().enumerate() {
        let want = 2.0 * p.x * dc.x + 2.0 * d[i].v * (i as f64 + c.y) + 2.0 * p.v * dc.y;
        close("H·v (v)", &[hv[i].v], &[want], 1e-14);
    }
    let hx: f64 = ps.iter().zip(&d).map(|(p, q)| 2.0 * p.x * q.v).sum();
    let hy: f64 = ps.iter().zip(&d).map(|(p, q)| 2.0 * p.v * q.v).sum();
    close("H·v (c)", &[hc.x, hc.y], &[hx, hy], 1e-14);
}

#[test]
fn rows_of_an_array_field_against_closed_forms() {
    let ps = particles();
    let (value, g) = rows_grad(&ps);
    let mut want = 0.0;
    for p in &ps[..3] {
        want += (p.w[0] + p.w[1]) * p.x + (p.w[0] * p.w[0] + p.w[1] * p.w[1]) * p.v;
    }
    close("value", &[value], &[want], 1e-14);
    for (i, p) in ps.iter().enumerate() {
        let on = if i < 3 { 1.0 } else { 0.0 };
        close("∂x", &[g[i].x], &[on * (p.w[0] + p.w[1])], 1e-14);
        close("∂v", &[g[i].v], &[on * (p.w[0] * p.w[0] + p.w[1] * p.w[1])], 1e-14);
        let dw = p.w.map(|w| on * (p.x + 2.0 * w * p.v));
        close("∂w", &g[i].w, &dw, 1e-14);
    }
    let d = direction();
    let (_, slope) = rows_jvp(&ps, &d);
    let dot: f64 = scalars(&g).iter().zip(scalars(&d)).map(|(a, b)| a * b).sum();
    close("jvp = ∇f·v", &[slope], &[dot], 1e-13);
}

#[test]
fn forces_jvp_is_the_jacobian_times_the_direction() {
    let bs = bodies();
    let (_, j) = forces_jacobian(&bs);
    let d = bodies_of(&[0.3, -0.1, 0.5, 0.2, 0.9, -0.4, 0.6, 0.1, -0.7]);
    let (value, dot) = forces_jvp(&bs, &d);
    assert_eq!(value, forces(&bs));
    let ds = body_scalars(&d);
    let want: Vec<f64> =
        j.iter().map(|row| row.iter().zip(&ds).map(|(a, b)| a * b).sum()).collect();
    close("jvp = J·d", &dot, &want, 1e-13);
}

#[test]
fn filter_over_the_elements_against_closed_forms() {
    let ps = particles();
    let (value, g) = filtered_grad(&ps);
    let fast: f64 = ps.iter().filter(|p| p.v > 0.4).map(|p| p.v * p.x).sum();
    let even: f64 = ps.iter().step_by(2).map(|p| p.w[0] * p.x).sum();
    close("value", &[value], &[fast + even], 1e-14);
    for (i, p) in ps.iter().enumerate() {
        let (on, ev) = (if p.v > 0.4 { 1.0 } else { 0.0 }, if i % 2 == 0 { 1.0 } else { 0.0 });
        close("∂x", &[g[i].x], &[on * p.v + ev * p.w[0]], 1e-14);
        close("∂v", &[g[i].v], &[on * p.x], 1e-14);
        close("∂w", &g[i].w, &[ev * p.x, 0.0], 1e-14);
    }
    assert!(ps.iter().any(|p| p.v > 0.4) && ps.iter().any(|p| p.v <= 0.4), "both sides");
    let d = direction();
    let (_, _, hv) = filtered_hvp(&ps, &d);
    for (i, p) in ps.iter().enumerate() {
        let (on, ev) = (if p.v > 0.4 { 1.0 } else { 0.0 }, if i % 2 == 0 { 1.0 } else { 0.0 });
        close("H·v (x)", &[hv[i].x], &[on * d[i].v + ev * d[i].w[0]], 1e-14);
        close("H·v (v)", &[hv[i].v], &[on * d[i].x], 1e-14);
        close("H·v (w)", &hv[i].w, &[ev * d[i].x, 0.0], 1e-14);
    }
    let (_, slope) = filtered_jvp(&ps, &d);
    let dot: f64 = scalars(&g).iter().zip(scalars(&d)).map(|(a, b)| a * b).sum();
    close("jvp = ∇f·v", &[slope], &[dot], 1e-13);
}

#[test]
fn destructured_elements_against_closed_forms() {
    let ps = particles();
    let (value, g) = destructured_grad(&ps);
    let want: f64 = 2.0 * ps.iter().map(|p| p.x * p.v).sum::<f64>()
        + ps.iter().map(|p| p.x * p.w[0]).sum::<f64>();
    close("value", &[value], &[want], 1e-14);
    assert_eq!(value.to_bits(), destructured(&ps).to_bits());
    for (i, p) in ps.iter().enumerate() {
        close("∂x", &[g[i].x], &[2.0 * p.v + p.w[0]], 1e-14);
        close("∂v", &[g[i].v], &[2.0 * p.x], 1e-14);
        close("∂w", &g[i].w, &[p.x, 0.0], 1e-14);
    }
    let d = direction();
    let (_, slope) = destructured_jvp(&ps, &d);
    let dot: f64 = scalars(&g).iter().zip(scalars(&d)).map(|(a, b)| a * b).sum();
    close("jvp = ∇f·v", &[slope], &[dot], 1e-13);
    // f is bilinear: H·d in closed form.
    let (_, _, hv) = destructured_hvp(&ps, &d);
    for (i, di) in d.iter().enumerate() {
        close("H·v (x)", &[hv[i].x], &[2.0 * di.v + di.w[0]], 1e-14);
        close("H·v (v)", &[hv[i].v], &[2.0 * di.x], 1e-14);
        close("H·v (w)", &hv[i].w, &[di.x, 0.0], 1e-14);
    }
}
