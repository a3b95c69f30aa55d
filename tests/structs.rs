//! Structs: a differentiated `&Model` parameter against the same loss with the fields as
//! separate parameters (bit for bit), against finite differences in every mode, and methods of a
//! struct (`&self`, `self`) against closed forms.

use autodiff_runtime::{Differentiable, Tolerance, check_close, check_gradient, check_hvp};
use autodiff_suite::structs::*;

fn close(what: &str, values: &[f64], reference: &[f64], tol: f64) {
    let tol = Tolerance { epsilon: tol, max_relative: tol };
    if let Err(e) = check_close(values, reference, tol) {
        panic!("{what}: {e}");
    }
}

/// The differentiated scalars of `s`, in `Differentiable`'s order.
fn scalars<T: Differentiable>(s: &T) -> Vec<f64> {
    (0..T::LEN).map(|k| s.get(k)).collect()
}

/// `like` with its differentiated scalars replaced by `p`.
fn with_scalars<T: Differentiable + Clone>(like: &T, p: &[f64]) -> T {
    let mut s = like.clone();
    p.iter().enumerate().for_each(|(k, v)| s.set(k, *v));
    s
}

fn data() -> (Vec<[f64; 8]>, Vec<f64>) {
    let x: Vec<[f64; 8]> =
        (0..13).map(|k| std::array::from_fn(|j| ((k * 8 + j) as f64 * 0.37).sin() * 1.5)).collect();
    let y = (0..13).map(|k| if (k * 7) % 3 == 0 { 1.0 } else { -1.0 }).collect();
    (x, y)
}

fn model() -> Model {
    Model { w: std::array::from_fn(|j| 0.3 - 0.11 * j as f64), b: -0.2, l2: 0.01 }
}

#[test]
fn logistic_over_a_model_is_its_separate_parameter_twin_to_the_bit() {
    let (x, y) = data();
    let m = model();
    let (v, g) = logistic_grad(&m, &x, &y);
    let (vf, (gw, gb)) = logistic_flat_grad(&m.w, m.b, m.l2, &x, &y);
    assert_eq!(v.to_bits(), vf.to_bits());
    assert_eq!(v.to_bits(), logistic(&m, &x, &y).to_bits());
    assert_eq!((g.w.map(f64::to_bits), g.b.to_bits()), (gw.map(f64::to_bits), gb.to_bits()));
    assert_eq!(g.l2, 0.0, "a #[no_grad] field has no gradient");
    let d = Model { w: std::array::from_fn(|j| 0.5 - 0.2 * j as f64), b: 0.7, l2: 100.0 };
    let (_, slope) = logistic_jvp(&m, &x, &y, &d);
    let (_, slope_flat) = logistic_flat_jvp(&m.w, m.b, m.l2, &x, &y, &d.w, d.b);
    assert_eq!(slope.to_bits(), slope_flat.to_bits(), "a #[no_grad] field's direction is not read");
    let (_, g2, hv) = logistic_hvp(&m, &x, &y, &d);
    let (_, (gw2, gb2), (hw, hb)) = logistic_flat_hvp(&m.w, m.b, m.l2, &x, &y, &d.w, d.b);
    assert_eq!((g2.w, g2.b), (gw2, gb2));
    assert_eq!((hv.w.map(f64::to_bits), hv.b.to_bits()), (hw.map(f64::to_bits), hb.to_bits()));
    assert_eq!(hv.l2, 0.0);
    let h = logistic_hessian(&m, &x, &y);
    let hf = logistic_flat_hessian(&m.w, m.b, m.l2, &x, &y);
    assert_eq!(h, hf);
}

#[test]
fn logistic_over_a_model_against_finite_differences() {
    let (x, y) = data();
    let m = model();
    let f = |p: &[f64]| logistic(&with_scalars(&m, p), &x, &y);
    let grad = |p: &[f64]| scalars(&logistic_grad(&with_scalars(&m, p), &x, &y).1);
    let p = scalars(&m);
    assert_eq!(p.len(), 9);
    check_gradient(f, &p, &grad(&p), Tolerance::default()).expect("gradient");
    let v: Vec<f64> = (0..9).map(|k| (k as f64 * 0.7).cos()).collect();
    let (_, _, hv) = logistic_hvp(&m, &x, &y, &with_scalars(&m, &v));
    check_hvp(grad, &p, &v, &scalars(&hv), Tolerance::default()).expect("H·v");
    let h = logistic_hessian(&m, &x, &y);
    for (i, row) in h.iter().enumerate() {
        for (j, hij) in row.iter().enumerate() {
            close("symmetry", &[*hij], &[h[j][i]], 1e-12);
        }
        let e: Vec<f64> = (0..9).map(|k| if k == i { 1.0 } else { 0.0 }).collect();
        let (_, _, column) = logistic_hvp(&m, &x, &y, &with_scalars(&m, &e));
        close("Hessian row", row, &scalars(&column), 0.0);
    }
    let (_, slope) = logistic_jvp(&m, &x, &y, &with_scalars(&m, &v));
    let dot: f64 = grad(&p).iter().zip(&v).map(|(a, b)| a * b).sum();
    close("jvp", &[slope], &[dot], 1e-12);
}

#[test]
fn methods_on_self_by_reference_and_by_value_against_closed_forms() {
    let s = Spring { k: 3.0, rest: 1.5 };
    let x = 2.25;
    let d = x - s.rest;
    let (e, (gs, gx)) = s.energy_grad(x);
    assert_eq!(e, s.energy(x));
    close("∂/∂k, ∂/∂rest, ∂/∂x", &[gs.k, gs.rest, gx], &[d * d / 2.0, -s.k * d, s.k * d], 1e-15);
    let (_, slope) = s.energy_jvp(x, &Spring { k: 1.0, rest: 0.5 }, 2.0);
    close("jvp", &[slope], &[d * d / 2.0 - 0.5 * s.k * d + 2.0 * s.k * d], 1e-15);
    // H over (k, rest, x): [[0, -d, d], [-d, k, -k], [d, -k, k]].
    let h = s.energy_hessian(x);
    let want = [[0.0, -d, d], [-d, s.k, -s.k], [d, -s.k, s.k]];
    for (row, w) in h.iter().zip(&want) {
        close("Hessian", row, w, 1e-15);
    }
    let (_, (go, gxo), (hs, hx)) = s.energy_owned_hvp(x, &Spring { k: 0.0, rest: 1.0 }, 0.0);
    assert_eq!((go, gxo), (gs, gx));
    close("H·e_rest", &[hs.k, hs.rest, hx], &[-d, s.k, -s.k], 1e-15);
}

/// The rotation of `v` by the unit quaternion `q / |q|`, from its rotation matrix.
fn rotated(q: &Quat, v: [f64; 3]) -> [f64; 3] {
    let n = q.norm2();
    let (w, x, y, z) = (q.w, q.x, q.y, q.z);
    let r = [
        [w * w + x * x - y * y - z * z, 2.0 * (x * y - w * z), 2.0 * (x * z + w * y)],
        [2.0 * (x * y + w * z), w * w - x * x + y * y - z * z, 2.0 * (y * z - w * x)],
        [2.0 * (x * z - w * y), 2.0 * (y * z + w * x), w * w - x * x - y * y + z * z],
    ];
    std::array::from_fn(|i| (0..3).map(|j| r[i][j] * v[j]).sum::<f64>() / n)
}

/// The Jacobian of `f` at `p` by central differences.
fn numeric_jacobian(f: impl Fn(&[f64]) -> Vec<f64>, p: &[f64]) -> Vec<Vec<f64>> {
    let m = f(p).len();
    let columns: Vec<Vec<f64>> = (0..p.len())
        .map(|j| {
            let h = 1e-6 * p[j].abs().max(1.0);
            let (mut a, mut b) = (p.to_vec(), p.to_vec());
            a[j] += h;
            b[j] -= h;
            f(&a).iter().zip(f(&b)).map(|(x, y)| (x - y) / (2.0 * h)).collect()
        })
        .collect();
    (0..m).map(|i| columns.iter().map(|c| c[i]).collect()).collect()
}

fn jacobian_close(what: &str, j: &[Vec<f64>], numeric: &[Vec<f64>]) {
    for (row, want) in j.iter().zip(numeric) {
        close(what, row, want, 1e-7);
    }
}

#[test]
fn a_quaternion_rotation_with_struct_values_against_its_matrix_and_finite_differences() {
    let q = Quat { w: 0.9, x: -0.3, y: 0.5, z: 0.2 };
    let v = [1.0, -2.0, 0.5];
    close("rotation", &q.rotate(v), &rotated(&q, v), 1e-14);
    let (value, j) = q.rotate_jacobian(v);
    assert_eq!(value, q.rotate(v));
    assert_eq!(j.len(), 3);
    let f = |p: &[f64]| {
        let q = Quat { w: p[0], x: p[1], y: p[2], z: p[3] };
        rotated(&q, [p[4], p[5], p[6]]).to_vec()
    };
    let numeric = numeric_jacobian(f, &[q.w, q.x, q.y, q.z, v[0], v[1], v[2]]);
    let rows: Vec<Vec<f64>> = j.iter().map(|r| r.to_vec()).collect();
    jacobian_close("∂ rotate", &rows, &numeric);
    // The vjp with a unit cotangent is a row; the jvp along a unit direction a column.
    let (_, (dq, dv)) = q.rotate_vjp(v, [0.0, 1.0, 0.0]);
    close("vjp", &[dq.w, dq.x, dq.y, dq.z, dv[0], dv[1], dv[2]], &rows[1], 1e-13);
    let (_, column) = q.rotate_jvp(v, &Quat { w: 0.0, x: 1.0, y: 0.0, z: 0.0 }, [0.0; 3]);
    close("jvp", &column, &[rows[0][1], rows[1][1], rows[2][1]], 1e-13);
}

#[test]
fn functions_returning_a_struct_against_finite_differences() {
    let (q, o) =
        (Quat { w: 0.9, x: -0.3, y: 0.5, z: 0.2 }, Quat { w: -0.4, x: 1.1, y: 0.7, z: -0.6 });
    let f = |p: &[f64]| {
        let a = Quat { w: p[0], x: p[1], y: p[2], z: p[3] };
        let b = Quat { w: p[4], x: p[5], y: p[6], z: p[7] };
        scalars(&a.mul(&b))
    };
    let p = [q.w, q.x, q.y, q.z, o.w, o.x, o.y, o.z];
    let numeric = numeric_jacobian(f, &p);
    let (value, j) = q.mul_jacobian(&o);
    assert_eq!(value, q.mul(&o));
    let rows: Vec<Vec<f64>> = j.iter().map(|r| r.to_vec()).collect();
    jacobian_close("∂ mul", &rows, &numeric);
    // A struct cotangent, and a struct tangent.
    let (_, (dq, dor)) = q.mul_vjp(&o, Quat { w: 0.0, x: 0.0, y: 1.0, z: 0.0 });
    let row: Vec<f64> = scalars(&dq).into_iter().chain(scalars(&dor)).collect();
    close("vjp", &row, &rows[2], 1e-13);
    let (_, dot) = q.mul_jvp(&o, &Quat { w: 0.0, x: 0.0, y: 0.0, z: 1.0 }, &o.zero_like());
    close("jvp", &scalars(&dot), &[rows[0][3], rows[1][3], rows[2][3], rows[3][3]], 1e-13);
    let (c, jc) = q.conj_jacobian();
    assert_eq!(c, Quat { w: q.w, x: -q.x, y: -q.y, z: -q.z });
    assert_eq!(
        jc,
        [[1.0, 0.0, 0.0, 0.0], [0.0, -1.0, 0.0, 0.0], [0.0, 0.0, -1.0, 0.0], [0.0, 0.0, 0.0, -1.0]]
    );
    let (_, h) = (q.norm2(), q.norm2_hessian());
    assert_eq!(
        h,
        [[2.0, 0.0, 0.0, 0.0], [0.0, 2.0, 0.0, 0.0], [0.0, 0.0, 2.0, 0.0], [0.0, 0.0, 0.0, 2.0]]
    );
}

#[test]
fn methods_calling_methods_by_method_syntax_against_closed_forms() {
    let s = Spring { k: 3.0, rest: 1.5 };
    let (x0, x1) = (0.5, 2.25);
    let (d0, d1) = (x0 - s.rest, x1 - s.rest);
    let (w, (gs, g0, g1)) = s.work_grad(x0, x1);
    assert_eq!(w, s.work(x0, x1));
    let want = [(d1 * d1 - d0 * d0) / 2.0, -s.k * (d1 - d0), -s.k * d0, s.k * d1];
    close("∂W", &[gs.k, gs.rest, g0, g1], &want, 1e-14);
    let (_, slope) = s.work_jvp(x0, x1, &Spring { k: 0.5, rest: -1.0 }, 1.0, 2.0);
    let v = [0.5, -1.0, 1.0, 2.0];
    let dot: f64 = want.iter().zip(&v).map(|(a, b)| a * b).sum();
    close("jvp", &[slope], &[dot], 1e-14);
    // H over (k, rest, x0, x1).
    let h = s.work_hessian(x0, x1);
    let want_h = [
        [0.0, d0 - d1, -d0, d1],
        [d0 - d1, 0.0, s.k, -s.k],
        [-d0, s.k, -s.k, 0.0],
        [d1, -s.k, 0.0, s.k],
    ];
    for (row, w) in h.iter().zip(&want_h) {
        close("Hessian", row, w, 1e-14);
    }
}

#[test]
fn methods_on_struct_parameters_and_struct_values_against_finite_differences() {
    let (q, o) =
        (Quat { w: 0.9, x: -0.3, y: 0.5, z: 0.2 }, Quat { w: -0.4, x: 1.1, y: 0.7, z: -0.6 });
    let split = |p: &[f64]| {
        (Quat { w: p[0], x: p[1], y: p[2], z: p[3] }, Quat { w: p[4], x: p[5], y: p[6], z: p[7] })
    };
    let f = |p: &[f64]| {
        let (a, b) = split(p);
        a.cos_angle(&b)
    };
    let grad = |p: &[f64]| {
        let (a, b) = split(p);
        let (_, (da, db)) = a.cos_angle_grad(&b);
        scalars(&da).into_iter().chain(scalars(&db)).collect::<Vec<f64>>()
    };
    let p: Vec<f64> = scalars(&q).into_iter().chain(scalars(&o)).collect();
    check_gradient(f, &p, &grad(&p), Tolerance::default()).expect("cos_angle gradient");
    let v = [0.3, -0.2, 0.9, 0.1, -0.5, 0.4, 0.0, 1.2];
    let (dq, dob) = split(&v);
    let (_, _, (hq, ho)) = q.cos_angle_hvp(&o, &dq, &dob);
    let hv: Vec<f64> = scalars(&hq).into_iter().chain(scalars(&ho)).collect();
    check_hvp(grad, &p, &v, &hv, Tolerance::default()).expect("cos_angle H·v");
    let (_, slope) = q.cos_angle_jvp(&o, &dq, &dob);
    let dot: f64 = grad(&p).iter().zip(&v).map(|(a, b)| a * b).sum();
    close("jvp", &[slope], &[dot], 1e-13);
    let h = q.cos_angle_hessian(&o);
    for (i, row) in h.iter().enumerate() {
        for (j, hij) in row.iter().enumerate() {
            close("symmetry", &[*hij], &[h[j][i]], 1e-12);
        }
    }
    close(
        "Hessian · v",
        &(0..8).map(|i| (0..8).map(|j| h[i][j] * v[j]).sum()).collect::<Vec<f64>>(),
        &hv,
        1e-12,
    );
    // Struct values of the body as receivers and arguments.
    let f = |p: &[f64]| twist(p[0], p[1]);
    let grad = |p: &[f64]| {
        let (_, (da, db)) = twist_grad(p[0], p[1]);
        vec![da, db]
    };
    let p = [0.7, -0.4];
    check_gradient(f, &p, &grad(&p), Tolerance::default()).expect("twist gradient");
    let (_, _, (ha, hb)) = twist_hvp(p[0], p[1], 1.0, -2.0);
    check_hvp(grad, &p, &[1.0, -2.0], &[ha, hb], Tolerance::default()).expect("twist H·v");
    let h = twist_hessian(p[0], p[1]);
    close("symmetry", &[h[0][1]], &[h[1][0]], 1e-13);
}

#[test]
fn a_method_of_a_constant_struct_is_a_constant() {
    let m = model();
    let x = 1.5;
    let (v, g) = scaled_by_model_grad(x, &m);
    assert_eq!(v, x * x * 2.0 * m.l2);
    assert_eq!(g, 2.0 * x * 2.0 * m.l2);
    let (_, _, hv) = scaled_by_model_hvp(x, &m, 1.0);
    assert_eq!(hv, 2.0 * 2.0 * m.l2);
}

#[test]
fn wrt_a_field_differentiates_that_field_only() {
    let m = model();
    let x: [f64; 8] = std::array::from_fn(|j| 0.2 * j as f64 - 0.5);
    let z = m.b + (0..8).map(|j| m.w[j] * x[j]).sum::<f64>();
    let (v, g) = margin_in_weights_grad(&m, &x);
    close("value", &[v], &[z * z + m.l2 * m.b], 1e-14);
    close("∂/∂w", &g.w, &x.map(|xj| 2.0 * z * xj), 1e-14);
    assert_eq!((g.b, g.l2), (0.0, 0.0), "fields left out of wrt have no gradient");
    // A direction's bias is not read: H·v is 2 x (x·v_w).
    let d = Model { w: [1.0; 8], b: 100.0, l2: 0.0 };
    let (_, _, hv) = margin_in_weights_hvp(&m, &x, &d);
    let xv: f64 = x.iter().sum();
    close("H·v", &hv.w, &x.map(|xj| 2.0 * xj * xv), 1e-13);
    assert_eq!(hv.b, 0.0);
    let (_, slope) = margin_in_weights_jvp(&m, &x, &d);
    close("jvp", &[slope], &[2.0 * z * xv], 1e-13);
    // The Hessian numbers every differentiated scalar of the struct: the bias's row is zero.
    let h = margin_in_weights_hessian(&m, &x);
    assert_eq!(h.len(), 9);
    close("H[0][1]", &[h[0][1]], &[2.0 * x[0] * x[1]], 1e-14);
    assert_eq!(h[8], [0.0; 9]);
}

#[test]
fn calls_of_a_method_taking_self_by_value_against_closed_forms() {
    let s = Spring { k: 3.0, rest: 1.5 };
    let x = 0.75;
    let (d1, d2) = (x - s.rest, 2.0 * x - s.rest);
    let (e, (gs, gx)) = s.energy_owned_twice_grad(x);
    assert_eq!(e, s.energy_owned_twice(x));
    let want = [(d1 * d1 + d2 * d2) / 2.0, -s.k * (d1 + d2), s.k * (d1 + 2.0 * d2)];
    close("∂", &[gs.k, gs.rest, gx], &want, 1e-14);
    let v = Spring { k: 0.5, rest: -1.0 };
    let (_, slope) = s.energy_owned_twice_jvp(x, &v, 2.0);
    close("jvp", &[slope], &[0.5 * want[0] - want[1] + 2.0 * want[2]], 1e-14);
    // H·(0, 0, 1): ∂²/∂x∂(k, rest, x) = (d1 + 2 d2, -3k, 5k).
    let (_, _, (hs, hx)) = s.energy_owned_twice_hvp(x, &s.zero_like(), 1.0);
    close("H·e_x", &[hs.k, hs.rest, hx], &[d1 + 2.0 * d2, -3.0 * s.k, 5.0 * s.k], 1e-14);
}

#[test]
fn a_quaternion_rotation_through_methods_against_its_matrix_and_finite_differences() {
    let q = Quat { w: 0.9, x: -0.3, y: 0.5, z: 0.2 };
    let v = [1.0, -2.0, 0.5];
    close("rotation", &q.rotate_by_methods(v), &rotated(&q, v), 1e-14);
    let (value, j) = q.rotate_by_methods_jacobian(v);
    assert_eq!(value, q.rotate_by_methods(v));
    let f = |p: &[f64]| {
        let q = Quat { w: p[0], x: p[1], y: p[2], z: p[3] };
        rotated(&q, [p[4], p[5], p[6]]).to_vec()
    };
    let p = [q.w, q.x, q.y, q.z, v[0], v[1], v[2]];
    let numeric = numeric_jacobian(f, &p);
    let rows: Vec<Vec<f64>> = j.iter().map(|r| r.to_vec()).collect();
    jacobian_close("∂ rotate_by_methods", &rows, &numeric);
    // The vjp with a cotangent u is the gradient of u·R(q, v); its H·w against finite differences
    // of that gradient, through the forward mode of the calls' vjps.
    let u = [0.3, -1.0, 0.7];
    let grad = |p: &[f64]| {
        let q = Quat { w: p[0], x: p[1], y: p[2], z: p[3] };
        let (_, (dq, dv)) = q.rotate_by_methods_vjp([p[4], p[5], p[6]], u);
        scalars(&dq).into_iter().chain(dv).collect::<Vec<f64>>()
    };
    let row: Vec<f64> = (0..7).map(|c| (0..3).map(|r| u[r] * rows[r][c]).sum()).collect();
    close("vjp", &grad(&p), &row, 1e-13);
    let w = [0.2, 0.1, -0.4, 0.3, 1.0, 0.5, -0.5];
    let dq = Quat { w: w[0], x: w[1], y: w[2], z: w[3] };
    let (_, (gq, gv), _, (hq, hv)) =
        q.rotate_by_methods_hvp(v, u, &dq, [w[4], w[5], w[6]], [0.0; 3]);
    let g: Vec<f64> = scalars(&gq).into_iter().chain(gv).collect();
    close("hvp's gradient", &g, &row, 1e-13);
    let hw: Vec<f64> = scalars(&hq).into_iter().chain(hv).collect();
    check_hvp(grad, &p, &w, &hw, Tolerance::default()).expect("H·w of u·R");
    let (_, dot) = q.rotate_by_methods_jvp(v, &dq, [w[4], w[5], w[6]]);
    let column: Vec<f64> = (0..3).map(|r| (0..7).map(|c| rows[r][c] * w[c]).sum()).collect();
    close("jvp", &dot, &column, 1e-13);
}

/// `hv` against central differences of `grad` at `p` along `v`.
fn hvp_close(what: &str, grad: impl Fn(&[f64]) -> Vec<f64>, p: &[f64], v: &[f64], hv: &[f64]) {
    let tol = Tolerance { epsilon: 1e-6, max_relative: 1e-6 };
    check_hvp(grad, p, v, hv, tol)
        .unwrap_or_else(|e| panic!("{what}: H·v against differences: {e}"));
}

#[test]
fn a_struct_generic_over_its_length_against_closed_forms_and_finite_differences() {
    let m = Weights { w: [0.7, -0.4, 1.1], b: 0.3 };
    let x = [0.5, 1.5, -0.2];
    let v = Weights { w: [0.2, 0.5, -0.3], b: 1.0 };
    let u = Weights { w: [-0.5, 0.3, 0.8], b: -0.2 };
    let s = m.b + (0..3).map(|i| m.w[i] * x[i]).sum::<f64>();
    // ∇ = 2s (x, 1); H = 2 (x, 1)(x, 1)ᵀ.
    let (y, (g, x_bar)) = sized_loss_grad(&m, &x);
    assert_eq!(y, sized_loss(&m, &x));
    close("sized_loss: ∂w", &g.w, &x.map(|xi| 2.0 * s * xi), 1e-14);
    close("sized_loss: ∂b", &[g.b], &[2.0 * s], 1e-14);
    close("sized_loss: ∂x", &x_bar, &m.w.map(|wi| 2.0 * s * wi), 1e-14);
    let p = scalars(&m);
    let f = |p: &[f64]| sized_loss(&with_scalars(&m, p), &x);
    let grad = |p: &[f64]| scalars(&sized_loss_grad(&with_scalars(&m, p), &x).1.0);
    check_gradient(f, &p, &scalars(&g), Tolerance { epsilon: 1e-7, max_relative: 1e-7 })
        .unwrap_or_else(|e| panic!("sized_loss: gradient: {e}"));
    let (_, d) = sized_loss_jvp(&m, &x, &v, &[0.0; 3]);
    let along = (0..3).map(|i| v.w[i] * x[i]).sum::<f64>() + v.b;
    close("sized_loss: `_jvp`", &[d], &[2.0 * s * along], 1e-14);
    let (_, _, (hv, _)) = sized_loss_hvp(&m, &x, &v, &[0.0; 3]);
    let mut want = x.map(|xi| 2.0 * along * xi).to_vec();
    want.push(2.0 * along);
    close("sized_loss: H·v", &scalars(&hv), &want, 1e-14);
    hvp_close("sized_loss", grad, &p, &scalars(&v), &scalars(&hv));
    let (_, _, (hu, _)) = sized_loss_hvp(&m, &x, &u, &[0.0; 3]);
    let dot = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(p, q)| p * q).sum::<f64>();
    close(
        "sized_loss: u·Hv = v·Hu",
        &[dot(&scalars(&u), &scalars(&hv))],
        &[dot(&scalars(&v), &scalars(&hu))],
        1e-13,
    );
    // A generic function returning the generic struct, and copying its field through a typed `let`.
    let (y, m_bar) = sized_scaled_vjp(&m, u);
    assert_eq!(y, sized_scaled(&m));
    let want_w: Vec<f64> = (0..3).map(|i| u.w[i] * m.b).collect();
    let want_b = (0..3).map(|i| u.w[i] * m.w[i]).sum::<f64>() + 2.0 * u.b;
    close("sized_scaled: `_vjp`", &scalars(&m_bar), &[want_w, vec![want_b]].concat(), 1e-14);
    let (_, dot_out) = sized_scaled_jvp(&m, &v);
    let want: Vec<f64> = (0..3).map(|i| v.w[i] * m.b + m.w[i] * v.b).chain([2.0 * v.b]).collect();
    close("sized_scaled: `_jvp`", &scalars(&dot_out), &want, 1e-14);
    let (y, m_bar) = sized_copied_vjp(&m, u);
    assert_eq!(
        (y, scalars(&m_bar)),
        (Weights { w: m.w, b: 2.0 * m.b }, vec![u.w[0], u.w[1], u.w[2], 2.0 * u.b])
    );
    let (_, dot_out) = sized_copied_jvp(&m, &v);
    assert_eq!(dot_out, Weights { w: v.w, b: 2.0 * v.b });
    // A field bound with its type and passed whole: ∂w = 2b w, ∂b = Σ wᵢ².
    let (_, g) = sized_passed_grad(&m);
    close("sized_passed: ∂w", &g.w, &m.w.map(|wi| 2.0 * m.b * wi), 1e-14);
    close("sized_passed: ∂b", &[g.b], &[squares(&m.w)], 1e-14);
    let (_, _, hv) = sized_passed_hvp(&m, &v);
    let grad = |p: &[f64]| scalars(&sized_passed_grad(&with_scalars(&m, p)).1);
    hvp_close("sized_passed", grad, &p, &scalars(&v), &scalars(&hv));
}
