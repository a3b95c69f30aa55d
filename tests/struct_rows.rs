//! Rows of array fields passed whole to calls (`g(s.m[0])`, `g(&s.m[i])`, of `self`, of a
//! struct returned by a call), in every mode: bit for bit against the twins that bind the rows
//! with their types, against central finite differences, the closed form, H·v against finite
//! differences of the gradient, `w·Hv = v·Hw`, and the Hessian's symmetry.

use autodiff_runtime::{Differentiable, Tolerance, check_close, numeric_gradient};
use autodiff_suite::struct_rows::*;

fn close(what: &str, values: &[f64], reference: &[f64], tol: f64) {
    let tol = Tolerance { epsilon: tol, max_relative: tol };
    if let Err(e) = check_close(values, reference, tol) {
        panic!("{what}: {e}");
    }
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// The constant matrix of every point (a direction's is NaN: it must not be read).
const K: [[f64; 2]; 2] = [[0.3, -1.2], [0.8, 0.45]];

/// The struct whose differentiated scalars are `p`, its constant field `k`.
fn rows_at(p: &[f64], k: [[f64; 2]; 2]) -> Rows {
    let mut s = Rows { m: [[0.0; 2]; 2], b: 0.0, k };
    p.iter().enumerate().for_each(|(j, v)| s.set(j, *v));
    s
}

fn point(p: &[f64]) -> Rows {
    rows_at(p, K)
}

fn direction(p: &[f64]) -> Rows {
    rows_at(p, [[f64::NAN; 2]; 2])
}

fn scalars(s: &Rows) -> Vec<f64> {
    (0..Rows::LEN).map(|k| s.get(k)).collect()
}

/// The derivative of `g` at `x` along `v`, by central differences.
fn along(g: &dyn Fn(&[f64]) -> Vec<f64>, x: &[f64], v: &[f64]) -> Vec<f64> {
    let h = 1e-6;
    let at = |t: f64| g(&x.iter().zip(v).map(|(a, b)| a + t * b).collect::<Vec<f64>>());
    at(h).iter().zip(at(-h)).map(|(p, m)| (p - m) / (2.0 * h)).collect()
}

const X: [f64; 5] = [0.7, -0.4, 1.1, 0.3, -0.8];
const V: [f64; 5] = [0.2, 0.5, -0.3, 1.0, 0.4];
const W: [f64; 5] = [-0.5, 0.3, 0.8, -0.2, 0.6];

/// The functions of one form (`_grad`, `_jvp`, `_hvp`), over `&Rows`.
struct Form {
    f: fn(&Rows) -> f64,
    grad: fn(&Rows) -> (f64, Rows),
    jvp: fn(&Rows, &Rows) -> (f64, f64),
    hvp: fn(&Rows, &Rows) -> (f64, Rows, Rows),
}

/// Every function of `rows` bit for bit against `typed`'s, and `rows` against finite
/// differences and for symmetry.
fn check(what: &str, rows: Form, typed: Form) {
    let (s, v, w) = (point(&X), direction(&V), direction(&W));
    let value = (rows.f)(&s);
    assert_eq!(value.to_bits(), (typed.f)(&s).to_bits(), "{what}: value");
    let (y, g) = (rows.grad)(&s);
    assert_eq!((y, g), (typed.grad)(&s), "{what}: `_grad` against the typed twin");
    assert_eq!(y.to_bits(), value.to_bits(), "{what}: value of `_grad`");
    assert_eq!(g.k, [[0.0; 2]; 2], "{what}: gradient of the constant field");
    let g = scalars(&g);
    let numeric = numeric_gradient(|p: &[f64]| (rows.f)(&point(p)), &X);
    close(&format!("{what}: gradient"), &g, &numeric, 1e-7);
    let d = (rows.jvp)(&s, &v);
    assert_eq!(d, (typed.jvp)(&s, &v), "{what}: `_jvp` against the typed twin");
    close(&format!("{what}: `_jvp`"), &[d.0, d.1], &[value, dot(&g, &V)], 1e-12);
    let (y, g2, hv) = (rows.hvp)(&s, &v);
    let (yt, g2t, hvt) = (typed.hvp)(&s, &v);
    assert_eq!((y, g2.m, g2.b, hv.m, hv.b), (yt, g2t.m, g2t.b, hvt.m, hvt.b), "{what}: `_hvp`");
    close(&format!("{what}: gradient of `_hvp`"), &scalars(&g2), &g, 1e-12);
    let gradient = |p: &[f64]| scalars(&(rows.grad)(&point(p)).1);
    close(&format!("{what}: H·v"), &scalars(&hv), &along(&gradient, &X, &V), 1e-6);
    let (_, _, hw) = (rows.hvp)(&s, &w);
    let (vhw, whv) = (dot(&V, &scalars(&hw)), dot(&W, &scalars(&hv)));
    close(&format!("{what}: w·Hv = v·Hw"), &[whv], &[vhw], 1e-10);
}

/// The [`Form`] of a function and its derivatives.
macro_rules! form {
    ($f:ident, $grad:ident, $jvp:ident, $hvp:ident) => {
        Form { f: $f, grad: $grad, jvp: $jvp, hvp: $hvp }
    };
}

#[test]
fn rows_of_a_field_passed_by_value() {
    let rows = form!(by_value, by_value_grad, by_value_jvp, by_value_hvp);
    let typed = form!(by_value_typed, by_value_typed_grad, by_value_typed_jvp, by_value_typed_hvp);
    check("by_value", rows, typed);
    // Closed form: ∂/∂m₀₀ = b sin m₀₁, ∂/∂b = m₀₀ sin m₀₁, ∂/∂m₁₁ = m₁₀ cos m₁₁.
    let (_, g) = by_value_grad(&point(&X));
    assert_eq!(g.m[0][0], X[4] * X[1].sin());
    assert_eq!(g.b, X[0] * X[1].sin());
    assert!((g.m[1][1] - X[2] * X[3].cos()).abs() < 1e-15);
}

#[test]
fn rows_of_a_field_passed_by_reference() {
    let rows = form!(by_ref, by_ref_grad, by_ref_jvp, by_ref_hvp);
    let typed = form!(by_ref_typed, by_ref_typed_grad, by_ref_typed_jvp, by_ref_typed_hvp);
    check("by_ref", rows, typed);
}

fn in_loop_r(s: &Rows) -> f64 {
    in_loop(*s)
}
fn in_loop_r_grad(s: &Rows) -> (f64, Rows) {
    in_loop_grad(*s)
}
fn in_loop_r_jvp(s: &Rows, v: &Rows) -> (f64, f64) {
    in_loop_jvp(*s, *v)
}
fn in_loop_r_hvp(s: &Rows, v: &Rows) -> (f64, Rows, Rows) {
    in_loop_hvp(*s, *v)
}
fn in_loop_typed_r(s: &Rows) -> f64 {
    in_loop_typed(*s)
}
fn in_loop_typed_r_grad(s: &Rows) -> (f64, Rows) {
    in_loop_typed_grad(*s)
}
fn in_loop_typed_r_jvp(s: &Rows, v: &Rows) -> (f64, f64) {
    in_loop_typed_jvp(*s, *v)
}
fn in_loop_typed_r_hvp(s: &Rows, v: &Rows) -> (f64, Rows, Rows) {
    in_loop_typed_hvp(*s, *v)
}

#[test]
fn rows_of_a_field_passed_with_a_loop_index() {
    let rows = form!(in_loop_r, in_loop_r_grad, in_loop_r_jvp, in_loop_r_hvp);
    let typed =
        form!(in_loop_typed_r, in_loop_typed_r_grad, in_loop_typed_r_jvp, in_loop_typed_r_hvp);
    check("in_loop", rows, typed);
}

#[test]
fn rows_beside_elements_and_rows_of_a_constant_field() {
    let rows = form!(mixed, mixed_grad, mixed_jvp, mixed_hvp);
    let typed = form!(mixed_typed, mixed_typed_grad, mixed_typed_jvp, mixed_typed_hvp);
    check("mixed", rows, typed);
    // The constant field's rows are its values.
    let s = point(&X);
    let m = s.m;
    let want = pair(m[0]) * m[1][0] + m[1][1] * m[1][1] + pair(K[1]) * s.b + K[0][1] * K[0][1];
    assert_eq!(mixed(&s).to_bits(), want.to_bits());
}

#[test]
fn a_row_passed_to_a_call_and_elements_to_a_closure() {
    let rows = form!(with_closure, with_closure_grad, with_closure_jvp, with_closure_hvp);
    let typed = form!(
        with_closure_typed,
        with_closure_typed_grad,
        with_closure_typed_jvp,
        with_closure_typed_hvp
    );
    check("with_closure", rows, typed);
}

#[test]
fn a_field_passed_whole_and_by_rows() {
    let rows = form!(whole_and_rows, whole_and_rows_grad, whole_and_rows_jvp, whole_and_rows_hvp);
    let typed = form!(
        whole_and_rows_typed,
        whole_and_rows_typed_grad,
        whole_and_rows_typed_jvp,
        whole_and_rows_typed_hvp
    );
    check("whole_and_rows", rows, typed);
}

#[test]
fn the_hessian_of_rows_passed_to_calls() {
    let s = point(&X);
    let h = by_value_hessian(&s);
    assert_eq!(h, by_value_typed_hessian(&s));
    let gradient = |p: &[f64]| scalars(&by_value_grad(&point(p)).1);
    for (k, row) in h.iter().enumerate() {
        let e: Vec<f64> = (0..Rows::LEN).map(|j| if j == k { 1.0 } else { 0.0 }).collect();
        close(&format!("row {k} of the Hessian"), row, &along(&gradient, &X, &e), 1e-6);
        for (j, x) in row.iter().enumerate() {
            assert!((x - h[j][k]).abs() < 1e-12, "the Hessian is symmetric at ({k}, {j})");
        }
    }
}

const T: f64 = 0.35;

#[test]
fn rows_of_a_field_of_self_in_a_method() {
    let (s, v) = (point(&X), direction(&V));
    let value = s.energy(T);
    assert_eq!(value.to_bits(), s.energy_typed(T).to_bits());
    let (y, (g, gt)) = s.energy_grad(T);
    assert_eq!((y, (g, gt)), s.energy_typed_grad(T));
    let numeric = numeric_gradient(|p: &[f64]| point(p).energy(T), &X);
    close("energy: gradient", &scalars(&g), &numeric, 1e-7);
    let dt = (s.energy(T + 1e-6) - s.energy(T - 1e-6)) / 2e-6;
    close("energy: ∂/∂t", &[gt], &[dt], 1e-7);
    assert_eq!(s.energy_jvp(T, &v, 0.4), s.energy_typed_jvp(T, &v, 0.4));
    let (_, d) = s.energy_jvp(T, &v, 0.4);
    close("energy: `_jvp`", &[d], &[dot(&scalars(&g), &V) + 0.4 * gt], 1e-12);
    let hv = s.energy_hvp(T, &v, 0.4);
    let ht = s.energy_typed_hvp(T, &v, 0.4);
    assert_eq!(format!("{hv:?}"), format!("{ht:?}"), "energy: `_hvp`");
}

#[test]
fn rows_of_a_field_of_a_struct_returned_by_a_call() {
    let (s, v) = (point(&X), direction(&V));
    let value = via_call(&s, T);
    assert_eq!(value.to_bits(), via_call_typed(&s, T).to_bits());
    let (y, (g, gt)) = via_call_grad(&s, T);
    assert_eq!((y, (g, gt)), via_call_typed_grad(&s, T));
    let at = [X[0], X[1], X[2], X[3], X[4], T];
    let numeric = numeric_gradient(|p: &[f64]| via_call(&point(&p[..5]), p[5]), &at);
    let mut grad = scalars(&g);
    grad.push(gt);
    close("via_call: gradient", &grad, &numeric, 1e-7);
    assert_eq!(via_call_jvp(&s, T, &v, 0.4), via_call_typed_jvp(&s, T, &v, 0.4));
    let (_, d) = via_call_jvp(&s, T, &v, 0.4);
    close("via_call: `_jvp`", &[d], &[dot(&scalars(&g), &V) + 0.4 * gt], 1e-12);
    let hv = via_call_hvp(&s, T, &v, 0.4);
    let ht = via_call_typed_hvp(&s, T, &v, 0.4);
    assert_eq!(format!("{hv:?}"), format!("{ht:?}"), "via_call: `_hvp`");
}

/// The quaternions and `t` whose scalars are `p`.
fn quats(p: &[f64]) -> (Quat, Quat, f64) {
    let q = Quat { v: [p[0], p[1], p[2], p[3]] };
    (q, Quat { v: [p[4], p[5], p[6], p[7]] }, p[8])
}

const QX: [f64; 9] = [0.9, -0.3, 0.4, 0.2, 0.1, 0.8, -0.5, 0.6, 0.35];
const QV: [f64; 9] = [0.2, 0.5, -0.3, 1.0, 0.4, -0.6, 0.1, 0.8, -0.7];
const QW: [f64; 9] = [-0.5, 0.3, 0.8, -0.2, 0.6, 0.4, -0.9, 0.1, 0.25];

fn quat_scalars((q, p, t): &(Quat, Quat, f64)) -> Vec<f64> {
    q.v.iter().chain(&p.v).copied().chain([*t]).collect()
}

#[test]
fn an_array_field_of_a_calls_value_indexed_without_a_binding() {
    let (q, p, t) = quats(&QX);
    let (qv, pv, tv) = quats(&QV);
    let value = unbound(&q, &p, t);
    assert_eq!(value.to_bits(), unbound_bound(&q, &p, t).to_bits());
    let (y, g) = unbound_grad(&q, &p, t);
    assert_eq!((y, g), unbound_bound_grad(&q, &p, t), "`_grad` against the bound form");
    let g = quat_scalars(&g);
    let numeric = numeric_gradient(
        |x: &[f64]| {
            let (q, p, t) = quats(x);
            unbound(&q, &p, t)
        },
        &QX,
    );
    close("unbound: gradient", &g, &numeric, 1e-7);
    let d = unbound_jvp(&q, &p, t, &qv, &pv, tv);
    assert_eq!(d, unbound_bound_jvp(&q, &p, t, &qv, &pv, tv), "`_jvp` against the bound form");
    close("unbound: `_jvp`", &[d.0, d.1], &[value, dot(&g, &QV)], 1e-12);
    let hv = unbound_hvp(&q, &p, t, &qv, &pv, tv);
    assert_eq!(hv, unbound_bound_hvp(&q, &p, t, &qv, &pv, tv), "`_hvp` against the bound form");
    let gradient = |x: &[f64]| {
        let (q, p, t) = quats(x);
        quat_scalars(&unbound_grad(&q, &p, t).1)
    };
    let hv_s = quat_scalars(&hv.2);
    close("unbound: H·v", &hv_s, &along(&gradient, &QX, &QV), 1e-6);
    let (qw, pw, tw) = quats(&QW);
    let hw = quat_scalars(&unbound_hvp(&q, &p, t, &qw, &pw, tw).2);
    close("unbound: w·Hv = v·Hw", &[dot(&QW, &hv_s)], &[dot(&QV, &hw)], 1e-10);
}

#[test]
fn rows_passed_to_calls_in_a_function_returning_an_array() {
    let (s, v) = (point(&X), direction(&V));
    let y_bar = [0.6, -1.2];
    let y = rows_out(&s, T);
    assert_eq!(y, rows_out_typed(&s, T));
    let vjp = rows_out_vjp(&s, T, y_bar);
    assert_eq!(vjp, rows_out_typed_vjp(&s, T, y_bar), "`_vjp` against the typed twin");
    let at = [X[0], X[1], X[2], X[3], X[4], T];
    let out = |p: &[f64]| rows_out(&point(&p[..5]), p[5]).to_vec();
    let weighted = |p: &[f64]| dot(&y_bar, &out(p));
    let (_, (c, ct)) = vjp;
    let mut c = scalars(&c);
    c.push(ct);
    close("rows_out: `_vjp`", &c, &numeric_gradient(weighted, &at), 1e-7);
    let jvp = rows_out_jvp(&s, T, &v, 0.4);
    assert_eq!(jvp, rows_out_typed_jvp(&s, T, &v, 0.4), "`_jvp` against the typed twin");
    let dir = [V[0], V[1], V[2], V[3], V[4], 0.4];
    close("rows_out: `_jvp`", &jvp.1, &along(&out, &at, &dir), 1e-7);
    let jac = rows_out_jacobian(&s, T);
    assert_eq!(jac, rows_out_typed_jacobian(&s, T), "`_jacobian` against the typed twin");
    assert_eq!(jac.0, y);
    for k in 0..6 {
        let e: Vec<f64> = (0..6).map(|j| if j == k { 1.0 } else { 0.0 }).collect();
        let column = [jac.1[0][k], jac.1[1][k]];
        close(
            &format!("rows_out: column {k} of the Jacobian"),
            &column,
            &along(&out, &at, &e),
            1e-7,
        );
    }
    let hvp = rows_out_hvp(&s, T, y_bar, &v, 0.4, [0.3, 0.7]);
    let typed = rows_out_typed_hvp(&s, T, y_bar, &v, 0.4, [0.3, 0.7]);
    assert_eq!(format!("{hvp:?}"), format!("{typed:?}"), "`_hvp` against the typed twin");
    let (_, _, _, (c_dot, ct_dot)) = hvp;
    let both = |p: &[f64]| {
        let (_, (c, ct)) = rows_out_vjp(&point(&p[..5]), p[5], [p[6], p[7]]);
        let mut c = scalars(&c);
        c.push(ct);
        c
    };
    let (point8, dir8) = ([&at[..], &y_bar].concat(), [&dir[..], &[0.3, 0.7]].concat());
    let mut c_dot = scalars(&c_dot);
    c_dot.push(ct_dot);
    close("rows_out: cotangents_dot of `_hvp`", &c_dot, &along(&both, &point8, &dir8), 1e-6);
}

#[test]
fn rows_of_unbound_calls_values_and_of_a_local_copy_of_a_field() {
    let (s, v) = (point(&X), direction(&V));
    let value = unbound_rows(&s, T);
    assert_eq!(value.to_bits(), unbound_rows_bound(&s, T).to_bits());
    let (y, (g, gt)) = unbound_rows_grad(&s, T);
    assert_eq!((y, (g, gt)), unbound_rows_bound_grad(&s, T));
    let at = [X[0], X[1], X[2], X[3], X[4], T];
    let numeric = numeric_gradient(|p: &[f64]| unbound_rows(&point(&p[..5]), p[5]), &at);
    let mut grad = scalars(&g);
    grad.push(gt);
    close("unbound_rows: gradient", &grad, &numeric, 1e-7);
    let d = unbound_rows_jvp(&s, T, &v, 0.4);
    assert_eq!(d, unbound_rows_bound_jvp(&s, T, &v, 0.4));
    let dir = [V[0], V[1], V[2], V[3], V[4], 0.4];
    close("unbound_rows: `_jvp`", &[d.1], &[dot(&grad, &dir)], 1e-12);
    let hv = unbound_rows_hvp(&s, T, &v, 0.4);
    let ht = unbound_rows_bound_hvp(&s, T, &v, 0.4);
    assert_eq!(format!("{hv:?}"), format!("{ht:?}"), "unbound_rows: `_hvp`");
    let gradient = |p: &[f64]| {
        let (_, (g, gt)) = unbound_rows_grad(&point(&p[..5]), p[5]);
        let mut g = scalars(&g);
        g.push(gt);
        g
    };
    let (_, _, (hv_s, hv_t)) = hv;
    let mut hv_s = scalars(&hv_s);
    hv_s.push(hv_t);
    close("unbound_rows: H·v", &hv_s, &along(&gradient, &at, &dir), 1e-6);
}

#[test]
fn rows_of_a_field_left_out_of_wrt() {
    let (s, v) = (point(&X), direction(&V));
    let (y, g) = by_value_b_grad(&s);
    assert_eq!((y, g), by_value_typed_b_grad(&s));
    assert_eq!(scalars(&g), [0.0, 0.0, 0.0, 0.0, X[0] * X[1].sin()]);
    assert_eq!(by_value_b_jvp(&s, &v), by_value_typed_b_jvp(&s, &v));
    let (_, _, hv) = by_value_b_hvp(&s, &v);
    let (_, _, ht) = by_value_typed_b_hvp(&s, &v);
    assert_eq!((hv.m, hv.b), (ht.m, ht.b));
    assert_eq!(scalars(&hv), [0.0; 5]);
}
