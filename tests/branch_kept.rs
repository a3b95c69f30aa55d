//! Branches whose sides compute, with a square root or a libm call, values that their sweeps
//! read again (the forward branch carries them out, `transform/reverse/replay.rs`): values,
//! gradients, JVPs, H·v and Hessians against closed forms, the loop's against central finite
//! differences and its checkpointed twin to the bit.
#![allow(clippy::needless_range_loop)] // gradients and Hessians read best by index

use approx::assert_relative_eq;
use autodiff_suite::branch_kept::*;

fn close(what: &str, got: f64, want: f64) {
    assert!(got.is_finite(), "{what}: {got}, not finite");
    assert_relative_eq!(got, want, epsilon = 1e-12, max_relative = 1e-11);
}

/// A scalar function of two or three parameters with its generated derivatives, checked at
/// `p` against its value, gradient and Hessian `(f, g, h)`: `generated` is `_jvp`'s value,
/// `_hvp`'s gradient, `_jvp` along `v` (`g·v`), `_hvp` along `v` (`H v`) and `_hessian`.
fn expect<const N: usize>(
    name: &str,
    p: [f64; N],
    (f, g, h): (f64, [f64; N], [[f64; N]; N]),
    generated: (f64, [f64; N], f64, [f64; N], [[f64; N]; N]),
    value: f64,
    grad: [f64; N],
) {
    let (jvp_value, jvp_g, jvp_t, hv, hessian) = generated;
    let v: [f64; N] = std::array::from_fn(|i| 0.5 - 0.75 * i as f64);
    close(&format!("{name}{p:?} value"), value, f);
    assert_eq!(jvp_value.to_bits(), value.to_bits(), "{name}{p:?}: _jvp's value");
    for i in 0..N {
        close(&format!("{name}{p:?} gradient {i}"), grad[i], g[i]);
        assert_eq!(jvp_g[i].to_bits(), grad[i].to_bits(), "{name}{p:?}: _hvp's gradient {i}");
        let hv_i: f64 = (0..N).map(|j| h[i][j] * v[j]).sum();
        close(&format!("{name}{p:?} H·v {i}"), hv[i], hv_i);
        for j in 0..N {
            close(&format!("{name}{p:?} Hessian {i} {j}"), hessian[i][j], h[i][j]);
        }
    }
    let gv: f64 = (0..N).map(|i| g[i] * v[i]).sum();
    close(&format!("{name}{p:?} JVP"), jvp_t, gv);
}

#[test]
fn a_rotation_by_the_root_of_a_square_in_every_mode() {
    for (x, y, a) in [(0.7, -1.3, 0.9), (-0.4, 2.1, -2.5), (1.5, 0.25, 0.0), (0.3, -0.8, 1e-3)] {
        let (t, s) = (f64::abs(a), f64::signum(a));
        let want = if a != 0.0 {
            let (c, n) = (t.cos(), t.sin());
            let f = x * c - y * n;
            let g = [c, -n, (-x * n - y * c) * s];
            let h = [[0.0, 0.0, -n * s], [0.0, 0.0, -c * s], [-n * s, -c * s, -x * c + y * n]];
            (f, g, h)
        } else {
            (x - y * a, [1.0, -a, -y], [[0.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.0, -1.0, 0.0]])
        };
        let v = [0.5, -0.25, -1.0];
        let (value, (gx, gy, ga)) = rotated_x_grad(x, y, a);
        let (jv, jt) = rotated_x_jvp(x, y, a, v[0], v[1], v[2]);
        let (hvv, (hx, hy, ha), (hvx, hvy, hva)) = rotated_x_hvp(x, y, a, v[0], v[1], v[2]);
        assert_eq!(hvv.to_bits(), value.to_bits());
        assert_eq!([hx, hy, ha].map(f64::to_bits), [gx, gy, ga].map(f64::to_bits));
        let generated = (jv, [hx, hy, ha], jt, [hvx, hvy, hva], rotated_x_hessian(x, y, a));
        expect("rotated_x", [x, y, a], want, generated, value, [gx, gy, ga]);
    }
}

#[test]
fn a_branch_inside_a_branch_in_every_mode() {
    for (x, y) in [(0.6_f64, 2.0_f64), (1.1, -0.7), (-0.5, 1.7), (-1.2, -0.3)] {
        let want = if x > 0.0 && y > 0.0 {
            let (e, r) = (x.exp(), y.sqrt());
            let f = e * r;
            (f, [f, e / (2.0 * r)], [[f, e / (2.0 * r)], [e / (2.0 * r), -e / (4.0 * y * r)]])
        } else if x > 0.0 {
            let e = x.exp();
            (e * y, [e * y, e], [[e * y, e], [e, 0.0]])
        } else {
            (x * y, [y, x], [[0.0, 1.0], [1.0, 0.0]])
        };
        let v = [0.5, -0.25];
        let (value, (gx, gy)) = nested_roots_grad(x, y);
        let (jv, jt) = nested_roots_jvp(x, y, v[0], v[1]);
        let (hvv, (hx, hy), (hvx, hvy)) = nested_roots_hvp(x, y, v[0], v[1]);
        assert_eq!(hvv.to_bits(), value.to_bits());
        assert_eq!([hx, hy].map(f64::to_bits), [gx, gy].map(f64::to_bits));
        let generated = (jv, [hx, hy], jt, [hvx, hvy], nested_roots_hessian(x, y));
        expect("nested_roots", [x, y], want, generated, value, [gx, gy]);
    }
}

#[test]
fn a_root_inside_a_branch_and_again_after_it() {
    for a in [2.5_f64, 0.6, 1.0, 4.0] {
        let r = a.sqrt();
        // (√a)' = 1/(2√a), (√a)'' = −1/(4a√a).
        let (d, dd) = (1.0 / (2.0 * r), -1.0 / (4.0 * a * r));
        let (f, g, h) = match a > 1.0 {
            true => (r.sin() + r, r.cos() * d + d, -r.sin() * d * d + r.cos() * dd + dd),
            false => (a + r, 1.0 + d, dd),
        };
        let (value, grad) = root_twice_grad(a);
        let (jv, jt) = root_twice_jvp(a, -1.5);
        let (hvv, hg, hv) = root_twice_hvp(a, -1.5);
        assert_eq!(hvv.to_bits(), value.to_bits());
        assert_eq!(hg.to_bits(), grad.to_bits());
        close("root_twice value", value, f);
        assert_eq!(jv.to_bits(), value.to_bits());
        close("root_twice gradient", grad, g);
        close("root_twice JVP", jt, -1.5 * g);
        close("root_twice H·v", hv, -1.5 * h);
        close("root_twice Hessian", root_twice_hessian(a)[0][0], h);
    }
}

/// `root_polar`'s Jacobian at `(r, a)`.
fn root_polar_j(r: f64, a: f64) -> [[f64; 2]; 2] {
    if r > 0.0 {
        let (s, c, n) = (r.sqrt(), a.cos(), a.sin());
        [[c / (2.0 * s), -s * n], [n / (2.0 * s), s * c]]
    } else {
        [[1.0, 0.0], [a, r]]
    }
}

#[test]
fn a_vector_function_in_every_mode() {
    for (r, a) in [(1.7, 0.6), (0.3, -2.2), (-0.8, 1.4)] {
        let j = root_polar_j(r, a);
        let value = root_polar(r, a);
        let (b, v, bd) = ([0.4, -1.1], [0.5, 2.0], [-0.3, 0.9]);
        // VJP: Jᵀ b.
        let (vv, (rb, ab)) = root_polar_vjp(r, a, (b[0], b[1]));
        assert_eq!(vv, value);
        close("root_polar VJP r", rb, j[0][0] * b[0] + j[1][0] * b[1]);
        close("root_polar VJP a", ab, j[0][1] * b[0] + j[1][1] * b[1]);
        // JVP: J v.
        let (jv, (dx, dy)) = root_polar_jvp(r, a, v[0], v[1]);
        assert_eq!(jv, value);
        close("root_polar JVP x", dx, j[0][0] * v[0] + j[0][1] * v[1]);
        close("root_polar JVP y", dy, j[1][0] * v[0] + j[1][1] * v[1]);
        // The Jacobian in one pass.
        let (jacv, jac) = root_polar_jacobian(r, a);
        assert_eq!(jacv, value);
        for i in 0..2 {
            for k in 0..2 {
                close("root_polar Jacobian", jac[i][k], j[i][k]);
            }
        }
        // H·v of the VJP: the derivative of Jᵀ b along (v, bd), against central differences.
        let (hv, (hrb, hab), _, (hrd, had)) =
            root_polar_hvp(r, a, (b[0], b[1]), v[0], v[1], (bd[0], bd[1]));
        assert_eq!(hv, value);
        assert_eq!([hrb.to_bits(), hab.to_bits()], [rb.to_bits(), ab.to_bits()]);
        let e = 1e-6;
        let at = |t: f64| {
            let jt = root_polar_j(r + t * v[0], a + t * v[1]);
            let bt = [b[0] + t * bd[0], b[1] + t * bd[1]];
            [jt[0][0] * bt[0] + jt[1][0] * bt[1], jt[0][1] * bt[0] + jt[1][1] * bt[1]]
        };
        let (p, m) = (at(e), at(-e));
        for (k, got) in [hrd, had].into_iter().enumerate() {
            let want = (p[k] - m[k]) / (2.0 * e);
            assert_relative_eq!(got, want, epsilon = 1e-7, max_relative = 1e-7);
        }
    }
}

#[test]
fn a_caller_of_the_vector_function_in_every_mode() {
    for (r, a) in [(1.7_f64, 0.6_f64), (0.3, -2.2), (-0.8, 1.4)] {
        let want = if r > 0.0 {
            let (s, c, n) = (r.sqrt(), a.cos(), a.sin());
            let f = r * c * n + s * c;
            let g = [c * n + c / (2.0 * s), r * (c * c - n * n) - s * n];
            let h_ra = (c * c - n * n) - n / (2.0 * s);
            let h = [[-c / (4.0 * r * s), h_ra], [h_ra, -4.0 * r * c * n - s * c]];
            (f, g, h)
        } else {
            (r * r * a + r, [2.0 * r * a + 1.0, r * r], [[2.0 * a, 2.0 * r], [2.0 * r, 0.0]])
        };
        let v = [0.5, -0.25];
        let (value, (gr, ga)) = through_root_polar_grad(r, a);
        let (jv, jt) = through_root_polar_jvp(r, a, v[0], v[1]);
        let (hvv, (hr, ha), (hvr, hva)) = through_root_polar_hvp(r, a, v[0], v[1]);
        assert_eq!(hvv.to_bits(), value.to_bits());
        assert_eq!([hr, ha].map(f64::to_bits), [gr, ga].map(f64::to_bits));
        let generated = (jv, [hr, ha], jt, [hvr, hva], through_root_polar_hessian(r, a));
        expect("through_root_polar", [r, a], want, generated, value, [gr, ga]);
    }
}

#[test]
fn a_loop_whose_branch_reads_the_carried_value_stored_and_checkpointed() {
    let w = [0.3, -1.2, 2.0, 0.7];
    for x0 in [0.8, 2.5, -0.6] {
        let (value, (g0, gw)) = root_steps_grad(x0, w);
        let (cv, (c0, cw)) = root_steps_checkpointed_grad(x0, w);
        assert_eq!(value.to_bits(), root_steps(x0, w).to_bits());
        assert_eq!(cv.to_bits(), value.to_bits());
        assert_eq!(c0.to_bits(), g0.to_bits(), "checkpointed gradient at {x0}");
        assert_eq!(cw.map(f64::to_bits), gw.map(f64::to_bits), "checkpointed gradient at {x0}");
        // The gradient against central differences.
        let e = 1e-6;
        let fd0 = (root_steps(x0 + e, w) - root_steps(x0 - e, w)) / (2.0 * e);
        assert_relative_eq!(g0, fd0, epsilon = 1e-7, max_relative = 1e-6);
        for i in 0..4 {
            let (mut p, mut m) = (w, w);
            p[i] += e;
            m[i] -= e;
            let fd = (root_steps(x0, p) - root_steps(x0, m)) / (2.0 * e);
            assert_relative_eq!(gw[i], fd, epsilon = 1e-7, max_relative = 1e-6);
        }
        // JVP: g·v; H·v against central differences of the gradient, both variants alike.
        let (v0, vw) = (0.5, [1.0, -0.5, 0.25, 2.0]);
        let gv = g0 * v0 + (0..4).map(|i| gw[i] * vw[i]).sum::<f64>();
        let (jv, jt) = root_steps_jvp(x0, w, v0, vw);
        assert_eq!(jv.to_bits(), value.to_bits());
        assert_relative_eq!(jt, gv, epsilon = 1e-12, max_relative = 1e-12);
        let (hv, (h0, hw), (hv0, hvw)) = root_steps_hvp(x0, w, v0, vw);
        let (_, (k0, kw), (kv0, kvw)) = root_steps_checkpointed_hvp(x0, w, v0, vw);
        assert_eq!(hv.to_bits(), value.to_bits());
        assert_eq!((h0.to_bits(), hw.map(f64::to_bits)), (g0.to_bits(), gw.map(f64::to_bits)));
        assert_eq!((k0.to_bits(), kw.map(f64::to_bits)), (g0.to_bits(), gw.map(f64::to_bits)));
        assert_eq!((kv0.to_bits(), kvw.map(f64::to_bits)), (hv0.to_bits(), hvw.map(f64::to_bits)));
        let grad_at = |t: f64| {
            let wt: [f64; 4] = std::array::from_fn(|i| w[i] + t * vw[i]);
            root_steps_grad(x0 + t * v0, wt).1
        };
        let (p, m) = (grad_at(e), grad_at(-e));
        assert_relative_eq!(hv0, (p.0 - m.0) / (2.0 * e), epsilon = 1e-6, max_relative = 1e-6);
        for i in 0..4 {
            let fd = (p.1[i] - m.1[i]) / (2.0 * e);
            assert_relative_eq!(hvw[i], fd, epsilon = 1e-6, max_relative = 1e-6);
        }
    }
}
