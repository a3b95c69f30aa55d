//! Array fields of a struct parameter read whole (issue 15: `g(s.c)`, `let y = s.m;`, a row
//! `s.m[0]` used as an array), and fields passed whole to calls that the body never indexes (a
//! nested struct `g(&m.inner)`, `m.inner.norm()`, a matrix `g(&m.w)`), in every mode, against
//! central finite differences of the functions themselves, H·v against finite differences of
//! the gradient, and `w·Hv = v·Hw`.

use autodiff_runtime::{Differentiable, Tolerance, check_close, numeric_gradient};
use autodiff_suite::struct_fields::*;

fn close(what: &str, values: &[f64], reference: &[f64], tol: f64) {
    let tol = Tolerance { epsilon: tol, max_relative: tol };
    if let Err(e) = check_close(values, reference, tol) {
        panic!("{what}: {e}");
    }
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// The struct whose differentiated scalars are `p`.
fn fields(p: &[f64]) -> Fields {
    let mut s = Fields { c: [0.0; 3], m: [[0.0; 2]; 2], b: 0.0 };
    p.iter().enumerate().for_each(|(k, v)| s.set(k, *v));
    s
}

/// The differentiated scalars of `s`.
fn scalars(s: &Fields) -> Vec<f64> {
    (0..Fields::LEN).map(|k| s.get(k)).collect()
}

/// The derivative of `g` at `x` along `v`, by central differences.
fn along(g: &dyn Fn(&[f64]) -> Vec<f64>, x: &[f64], v: &[f64]) -> Vec<f64> {
    let h = 1e-6;
    let at = |t: f64| g(&x.iter().zip(v).map(|(a, b)| a + t * b).collect::<Vec<f64>>());
    at(h).iter().zip(at(-h)).map(|(p, m)| (p - m) / (2.0 * h)).collect()
}

const X: [f64; 8] = [0.7, -0.4, 1.1, 0.3, -0.8, 0.5, 0.9, -1.3];
const V: [f64; 8] = [0.2, 0.5, -0.3, 1.0, 0.4, -0.6, 0.1, 0.8];
const W: [f64; 8] = [-0.5, 0.3, 0.8, -0.2, 0.6, 0.4, -0.9, 0.1];

type Grad = fn(&Fields) -> (f64, Fields);
type Jvp = fn(&Fields, &Fields) -> (f64, f64);
type Hvp = fn(&Fields, &Fields) -> (f64, Fields, Fields);

/// `_grad` against finite differences of `f`, `_jvp` against the gradient, `_hvp` against
/// finite differences of the gradient and for symmetry.
fn check(what: &str, f: fn(&Fields) -> f64, grad: Grad, jvp: Jvp, hvp: Hvp) {
    let (s, v, w) = (fields(&X), fields(&V), fields(&W));
    let value = f(&s);
    let (y, g) = grad(&s);
    assert_eq!(y.to_bits(), value.to_bits(), "{what}: value of `_grad`");
    let g = scalars(&g);
    let numeric = numeric_gradient(|p: &[f64]| f(&fields(p)), &X);
    close(&format!("{what}: gradient"), &g, &numeric, 1e-7);
    let (y, d) = jvp(&s, &v);
    close(&format!("{what}: `_jvp`"), &[y, d], &[value, dot(&g, &V)], 1e-12);
    let (y, g2, hv) = hvp(&s, &v);
    close(&format!("{what}: value and gradient of `_hvp`"), &scalars(&g2), &g, 1e-12);
    close(&format!("{what}: value of `_hvp`"), &[y], &[value], 1e-14);
    let gradient = |p: &[f64]| scalars(&grad(&fields(p)).1);
    close(&format!("{what}: H·v"), &scalars(&hv), &along(&gradient, &X, &V), 1e-6);
    let (_, _, hw) = hvp(&s, &w);
    close(
        &format!("{what}: w·Hv = v·Hw"),
        &[dot(&W, &scalars(&hv))],
        &[dot(&V, &scalars(&hw))],
        1e-10,
    );
}

#[test]
fn an_array_field_passed_to_calls_by_value_and_by_reference() {
    check("call_field", call_field, call_field_grad, call_field_jvp, call_field_hvp);
}

#[test]
fn fields_bound_with_their_types_then_passed_to_calls() {
    check("call_typed", call_typed, call_typed_grad, call_typed_jvp, call_typed_hvp);
}

#[test]
fn array_fields_bound_whole_to_locals() {
    check("bound_whole", bound_whole, bound_whole_grad, bound_whole_jvp, bound_whole_hvp);
    // Closed form: ∂/∂m₀₁ = m₁₀, ∂/∂c₀ = c₂ b, ∂/∂b = c₀c₂.
    let (_, g) = bound_whole_grad(&fields(&X));
    assert_eq!(g.m, [[0.0, X[5]], [X[4], 0.0]]);
    assert_eq!((g.c, g.b), ([X[2] * X[7], 0.0, X[0] * X[7]], X[0] * X[2]));
}

#[test]
fn rows_of_a_matrix_field_used_as_arrays() {
    check("rows", rows, rows_grad, rows_jvp, rows_hvp);
}

#[test]
fn a_function_returning_an_array_of_rows_and_fields_passed_to_calls() {
    let (s, v) = (fields(&X), fields(&V));
    let out = |p: &[f64]| rows_out(&fields(p)).to_vec();
    let y_bar = [0.6, -1.2];
    let (y, c) = rows_out_vjp(&s, y_bar);
    assert_eq!(y, rows_out(&s));
    let weighted = |p: &[f64]| dot(&y_bar, &out(p));
    close("rows_out: `_vjp`", &scalars(&c), &numeric_gradient(weighted, &X), 1e-7);
    let (y, d) = rows_out_jvp(&s, &v);
    assert_eq!(y, rows_out(&s));
    close("rows_out: `_jvp`", &d, &along(&out, &X, &V), 1e-7);
    let y_bar_dot = [0.3, 0.7];
    let (y, c2, d2, c_dot) = rows_out_hvp(&s, y_bar, &v, y_bar_dot);
    assert_eq!(y, rows_out(&s));
    close("rows_out: cotangents of `_hvp`", &scalars(&c2), &scalars(&c), 1e-14);
    close("rows_out: value_dot of `_hvp`", &d2, &d, 1e-14);
    let both = |p: &[f64]| scalars(&rows_out_vjp(&fields(&p[..8]), [p[8], p[9]]).1);
    let point: Vec<f64> = X.iter().chain(&y_bar).copied().collect();
    let dir: Vec<f64> = V.iter().chain(&y_bar_dot).copied().collect();
    close(
        "rows_out: cotangents_dot of `_hvp`",
        &scalars(&c_dot),
        &along(&both, &point, &dir),
        1e-6,
    );
}

/// The [`Nested`] whose differentiated scalars are `p`.
fn nested(p: &[f64]) -> Nested {
    let inner = Inner { c: 0.0, d: [0.0; 2] };
    let mut m = Nested { b: 0.0, inner, w: [[0.0; 3]; 2] };
    p.iter().enumerate().for_each(|(k, v)| m.set(k, *v));
    m
}

/// The differentiated scalars of `m`.
fn nested_scalars(m: &Nested) -> Vec<f64> {
    (0..Nested::LEN).map(|k| m.get(k)).collect()
}

/// A point and two directions for [`Nested`]'s ten scalars.
fn nested_points() -> [Vec<f64>; 3] {
    let at = |a: f64, b: f64| (0..Nested::LEN).map(|k| (a * k as f64 + b).sin()).collect();
    [at(1.3, 0.4), at(0.7, -1.1), at(2.1, 0.9)]
}

type NGrad = fn(&Nested) -> (f64, Nested);
type NJvp = fn(&Nested, &Nested) -> (f64, f64);
type NHvp = fn(&Nested, &Nested) -> (f64, Nested, Nested);

/// As [`check`], for functions of a [`Nested`].
fn check_nested(what: &str, f: fn(&Nested) -> f64, grad: NGrad, jvp: NJvp, hvp: NHvp) {
    let [x, v, w] = nested_points();
    let (s, sv, sw) = (nested(&x), nested(&v), nested(&w));
    let value = f(&s);
    let (y, g) = grad(&s);
    assert_eq!(y.to_bits(), value.to_bits(), "{what}: value of `_grad`");
    let g = nested_scalars(&g);
    let numeric = numeric_gradient(|p: &[f64]| f(&nested(p)), &x);
    close(&format!("{what}: gradient"), &g, &numeric, 1e-7);
    let (y, d) = jvp(&s, &sv);
    close(&format!("{what}: `_jvp`"), &[y, d], &[value, dot(&g, &v)], 1e-12);
    let (y, g2, hv) = hvp(&s, &sv);
    close(&format!("{what}: gradient of `_hvp`"), &nested_scalars(&g2), &g, 1e-12);
    close(&format!("{what}: value of `_hvp`"), &[y], &[value], 1e-14);
    let gradient = |p: &[f64]| nested_scalars(&grad(&nested(p)).1);
    close(&format!("{what}: H·v"), &nested_scalars(&hv), &along(&gradient, &x, &v), 1e-6);
    let (_, _, hw) = hvp(&s, &sw);
    close(
        &format!("{what}: w·Hv = v·Hw"),
        &[dot(&w, &nested_scalars(&hv))],
        &[dot(&v, &nested_scalars(&hw))],
        1e-10,
    );
}

#[test]
fn a_nested_struct_field_passed_whole_by_reference_and_by_value() {
    check_nested(
        "nested_calls",
        nested_calls,
        nested_calls_grad,
        nested_calls_jvp,
        nested_calls_hvp,
    );
    // Closed form at a point: the gradient's `inner` is the callees' gradients, scaled and
    // summed, plus that of `c d₁`.
    let m = nested(&nested_points()[0]);
    let (_, g) = nested_calls_grad(&m);
    let (_, r) = inner_ref_grad(&m.inner);
    let (_, v) = inner_val_grad(m.inner);
    let want_c = r.c * m.b + v.c + m.inner.d[1];
    let want_d1 = r.d[1] * m.b + v.d[1] + m.inner.c;
    assert!((g.inner.c - want_c).abs() < 1e-14 && (g.inner.d[1] - want_d1).abs() < 1e-14);
    assert_eq!((g.b, g.w), (inner_ref(&m.inner), [[0.0; 3]; 2]));
}

#[test]
fn a_nested_struct_field_as_the_receiver_of_methods() {
    check_nested(
        "nested_methods",
        nested_methods,
        nested_methods_grad,
        nested_methods_jvp,
        nested_methods_hvp,
    );
}

#[test]
fn a_matrix_field_passed_whole_and_never_indexed() {
    check_nested(
        "matrix_calls",
        matrix_calls,
        matrix_calls_grad,
        matrix_calls_jvp,
        matrix_calls_hvp,
    );
    // Closed form: ∂/∂w is b ∂mat_ref/∂w + ∂mat_val/∂w.
    let m = nested(&nested_points()[1]);
    let (_, g) = matrix_calls_grad(&m);
    let (_, r) = mat_ref_grad(&m.w);
    let (_, v) = mat_val_grad(m.w);
    for i in 0..2 {
        for j in 0..3 {
            assert!((g.w[i][j] - (m.b * r[i][j] + v[i][j])).abs() < 1e-14);
        }
    }
}

#[test]
fn a_vector_field_passed_whole_by_value_and_never_indexed() {
    check(
        "vector_by_value",
        vector_by_value,
        vector_by_value_grad,
        vector_by_value_jvp,
        vector_by_value_hvp,
    );
}

#[test]
fn fields_passed_whole_in_a_function_returning_an_array() {
    let [x, v, _] = nested_points();
    let (s, sv) = (nested(&x), nested(&v));
    let out = |p: &[f64]| whole_out(&nested(p)).to_vec();
    let y_bar = [0.6, -1.2];
    let (y, c) = whole_out_vjp(&s, y_bar);
    assert_eq!(y, whole_out(&s));
    let weighted = |p: &[f64]| dot(&y_bar, &out(p));
    close("whole_out: `_vjp`", &nested_scalars(&c), &numeric_gradient(weighted, &x), 1e-7);
    let (y, d) = whole_out_jvp(&s, &sv);
    assert_eq!(y, whole_out(&s));
    close("whole_out: `_jvp`", &d, &along(&out, &x, &v), 1e-7);
    let y_bar_dot = [0.3, 0.7];
    let (_, c2, d2, c_dot) = whole_out_hvp(&s, y_bar, &sv, y_bar_dot);
    close("whole_out: cotangents of `_hvp`", &nested_scalars(&c2), &nested_scalars(&c), 1e-14);
    close("whole_out: value_dot of `_hvp`", &d2, &d, 1e-14);
    let n = Nested::LEN;
    let both = |p: &[f64]| nested_scalars(&whole_out_vjp(&nested(&p[..n]), [p[n], p[n + 1]]).1);
    let point: Vec<f64> = x.iter().chain(&y_bar).copied().collect();
    let dir: Vec<f64> = v.iter().chain(&y_bar_dot).copied().collect();
    close(
        "whole_out: cotangents_dot of `_hvp`",
        &nested_scalars(&c_dot),
        &along(&both, &point, &dir),
        1e-6,
    );
    let (y, jac) = whole_out_jacobian(&s);
    assert_eq!(y, whole_out(&s));
    for (k, row) in jac.iter().enumerate() {
        let pick = |p: &[f64]| out(p)[k];
        close(
            &format!("whole_out: row {k} of the Jacobian"),
            row,
            &numeric_gradient(pick, &x),
            1e-7,
        );
    }
}

#[test]
fn fields_passed_whole_and_left_out_of_wrt() {
    let [x, v, _] = nested_points();
    let (s, sv) = (nested(&x), nested(&v));
    // ∂/∂b = 2 b mat_ref(w) + d₁, ∂²/∂b² = 2 mat_ref(w); every other component zero.
    let (y, g) = selected_grad(&s);
    assert_eq!(y, selected(&s));
    let want = 2.0 * s.b * mat_ref(&s.w) + s.inner.d[1];
    assert!((g.b - want).abs() < 1e-14, "{} against {want}", g.b);
    assert_eq!(nested_scalars(&g)[1..], [0.0; 9]);
    let (_, d) = selected_jvp(&s, &sv);
    assert!((d - want * sv.b).abs() < 1e-14);
    let (_, g2, hv) = selected_hvp(&s, &sv);
    assert_eq!(g2, g);
    assert!((hv.b - 2.0 * mat_ref(&s.w) * sv.b).abs() < 1e-13);
    assert_eq!(nested_scalars(&hv)[1..], [0.0; 9]);
}

#[test]
fn the_value_of_a_call_read_by_the_fields_of_its_nested_struct() {
    check_nested("nested_read", nested_read, nested_read_grad, nested_read_jvp, nested_read_hvp);
    // The value against the struct the call returns.
    let m = nested(&nested_points()[2]);
    let r = scaled_nested(&m, m.b);
    let want = r.inner.c * r.inner.d[1] + r.b * r.inner.d[0] + r.inner.c.sin();
    assert_eq!(nested_read(&m).to_bits(), want.to_bits());
}

#[test]
fn fields_of_self_passed_whole_in_a_method() {
    check_nested(
        "through_self",
        Nested::through_self,
        Nested::through_self_grad,
        Nested::through_self_jvp,
        Nested::through_self_hvp,
    );
}

#[test]
fn fields_bound_to_untyped_locals_then_passed_whole() {
    check_nested(
        "bound_then_passed",
        bound_then_passed,
        bound_then_passed_grad,
        bound_then_passed_jvp,
        bound_then_passed_hvp,
    );
    // Bit for bit against the same function with the fields passed themselves.
    let [x, v, _] = nested_points();
    let (s, sv) = (nested(&x), nested(&v));
    let bits = |g: &Nested| nested_scalars(g).iter().map(|e| e.to_bits()).collect::<Vec<_>>();
    let ((y, g), (y2, g2)) = (bound_then_passed_grad(&s), passed_directly_grad(&s));
    assert_eq!((y.to_bits(), bits(&g)), (y2.to_bits(), bits(&g2)));
    let ((_, d), (_, d2)) = (bound_then_passed_jvp(&s, &sv), passed_directly_jvp(&s, &sv));
    assert_eq!(d.to_bits(), d2.to_bits());
    let ((_, g, hv), (_, g2, hv2)) = (bound_then_passed_hvp(&s, &sv), passed_directly_hvp(&s, &sv));
    assert_eq!((bits(&g), bits(&hv)), (bits(&g2), bits(&hv2)));
}

#[test]
fn an_array_field_bound_to_an_untyped_local_in_a_function_returning_an_array() {
    let (s, v) = (fields(&X), fields(&V));
    let out = |p: &[f64]| bound_out(&fields(p)).to_vec();
    // Closed form: [dot3(c) b, dot3(c) + m₀₁].
    let dot3 = |c: [f64; 3]| c[0] * c[1] + c[2].sin();
    assert_eq!(bound_out(&s), [dot3(s.c) * s.b, dot3(s.c) + s.m[0][1]]);
    let y_bar = [0.6, -1.2];
    let (y, c) = bound_out_vjp(&s, y_bar);
    assert_eq!(y, bound_out(&s));
    let weighted = |p: &[f64]| dot(&y_bar, &out(p));
    close("bound_out: `_vjp`", &scalars(&c), &numeric_gradient(weighted, &X), 1e-7);
    let (y, d) = bound_out_jvp(&s, &v);
    assert_eq!(y, bound_out(&s));
    close("bound_out: `_jvp`", &d, &along(&out, &X, &V), 1e-7);
    let y_bar_dot = [0.3, 0.7];
    let (_, c2, d2, c_dot) = bound_out_hvp(&s, y_bar, &v, y_bar_dot);
    close("bound_out: cotangents of `_hvp`", &scalars(&c2), &scalars(&c), 1e-14);
    close("bound_out: value_dot of `_hvp`", &d2, &d, 1e-14);
    let both = |p: &[f64]| scalars(&bound_out_vjp(&fields(&p[..8]), [p[8], p[9]]).1);
    let point: Vec<f64> = X.iter().chain(&y_bar).copied().collect();
    let dir: Vec<f64> = V.iter().chain(&y_bar_dot).copied().collect();
    close(
        "bound_out: cotangents_dot of `_hvp`",
        &scalars(&c_dot),
        &along(&both, &point, &dir),
        1e-6,
    );
    let (_, jac) = bound_out_jacobian(&s);
    for (k, row) in jac.iter().enumerate() {
        let pick = |p: &[f64]| out(p)[k];
        close(&format!("bound_out: row {k}"), row, &numeric_gradient(pick, &X), 1e-7);
    }
}

/// The [`Deep`] whose differentiated scalars are `p`.
fn deep(p: &[f64]) -> Deep {
    let mut m = Deep { k: 0.0, a: nested(&[0.0; 10]) };
    p.iter().enumerate().for_each(|(k, v)| m.set(k, *v));
    m
}

/// The differentiated scalars of `m`.
fn deep_scalars(m: &Deep) -> Vec<f64> {
    (0..Deep::LEN).map(|k| m.get(k)).collect()
}

/// A point and two directions for [`Deep`]'s eleven scalars.
fn deep_points() -> [Vec<f64>; 3] {
    let at = |a: f64, b: f64| (0..Deep::LEN).map(|k| (a * k as f64 + b).sin()).collect();
    [at(1.1, 0.3), at(0.6, -0.9), at(1.9, 0.7)]
}

type DGrad = fn(&Deep) -> (f64, Deep);
type DJvp = fn(&Deep, &Deep) -> (f64, f64);
type DHvp = fn(&Deep, &Deep) -> (f64, Deep, Deep);

/// As [`check`], for functions of a [`Deep`].
fn check_deep(what: &str, f: fn(&Deep) -> f64, grad: DGrad, jvp: DJvp, hvp: DHvp) {
    let [x, v, w] = deep_points();
    let (s, sv, sw) = (deep(&x), deep(&v), deep(&w));
    let value = f(&s);
    let (y, g) = grad(&s);
    assert_eq!(y.to_bits(), value.to_bits(), "{what}: value of `_grad`");
    let g = deep_scalars(&g);
    let numeric = numeric_gradient(|p: &[f64]| f(&deep(p)), &x);
    close(&format!("{what}: gradient"), &g, &numeric, 1e-7);
    let (y, d) = jvp(&s, &sv);
    close(&format!("{what}: `_jvp`"), &[y, d], &[value, dot(&g, &v)], 1e-12);
    let (y, g2, hv) = hvp(&s, &sv);
    close(&format!("{what}: gradient of `_hvp`"), &deep_scalars(&g2), &g, 1e-12);
    close(&format!("{what}: value of `_hvp`"), &[y], &[value], 1e-14);
    let gradient = |p: &[f64]| deep_scalars(&grad(&deep(p)).1);
    close(&format!("{what}: H·v"), &deep_scalars(&hv), &along(&gradient, &x, &v), 1e-6);
    let (_, _, hw) = hvp(&s, &sw);
    close(
        &format!("{what}: w·Hv = v·Hw"),
        &[dot(&w, &deep_scalars(&hv))],
        &[dot(&v, &deep_scalars(&hw))],
        1e-10,
    );
}

#[test]
fn fields_of_a_nested_struct_passed_whole() {
    check_deep("deep_calls", deep_calls, deep_calls_grad, deep_calls_jvp, deep_calls_hvp);
    check_deep("deep_typed", deep_typed, deep_typed_grad, deep_typed_jvp, deep_typed_hvp);
    // Against the form with typed `let`s and a struct value, in every mode.
    let [x, v, _] = deep_points();
    let (s, sv) = (deep(&x), deep(&v));
    assert_eq!(deep_calls(&s).to_bits(), deep_typed(&s).to_bits());
    let ((_, g), (_, g2)) = (deep_calls_grad(&s), deep_typed_grad(&s));
    close("deep_calls: gradient", &deep_scalars(&g), &deep_scalars(&g2), 1e-14);
    let ((_, d), (_, d2)) = (deep_calls_jvp(&s, &sv), deep_typed_jvp(&s, &sv));
    close("deep_calls: `_jvp`", &[d], &[d2], 1e-14);
    let ((_, _, hv), (_, _, hv2)) = (deep_calls_hvp(&s, &sv), deep_typed_hvp(&s, &sv));
    close("deep_calls: H·v", &deep_scalars(&hv), &deep_scalars(&hv2), 1e-13);
}

#[test]
fn fields_of_a_nested_struct_of_self_passed_whole_and_a_copy_of_one() {
    check_deep(
        "deep_self",
        Deep::deep_self,
        Deep::deep_self_grad,
        Deep::deep_self_jvp,
        Deep::deep_self_hvp,
    );
}

#[test]
fn fields_of_a_nested_struct_passed_whole_and_left_out_of_wrt() {
    let [x, v, _] = deep_points();
    let (s, sv) = (deep(&x), deep(&v));
    // ∂/∂k = 2 k mat_ref(a.w) + a.inner.d₁ (scaled's t d₁), ∂²/∂k² = 2 mat_ref(a.w).
    let (y, g) = deep_selected_grad(&s);
    assert_eq!(y, deep_selected(&s));
    let want = 2.0 * s.k * mat_ref(&s.a.w) + s.a.inner.d[1];
    assert!((g.k - want).abs() < 1e-14, "{} against {want}", g.k);
    assert_eq!(deep_scalars(&g)[1..], [0.0; 10]);
    let (_, d) = deep_selected_jvp(&s, &sv);
    assert!((d - want * sv.k).abs() < 1e-14);
    let (_, g2, hv) = deep_selected_hvp(&s, &sv);
    assert_eq!(g2, g);
    assert!((hv.k - 2.0 * mat_ref(&s.a.w) * sv.k).abs() < 1e-13);
    assert_eq!(deep_scalars(&hv)[1..], [0.0; 10]);
}

#[test]
fn hessians_of_fields_passed_whole_two_levels_down_and_through_copies() {
    // Each row against central differences of the gradient along that scalar.
    let x = deep_points()[0].clone();
    let h = deep_calls_hessian(&deep(&x));
    let gradient = |p: &[f64]| deep_scalars(&deep_calls_grad(&deep(p)).1);
    for (k, row) in h.iter().enumerate() {
        let e: Vec<f64> = (0..Deep::LEN).map(|j| if j == k { 1.0 } else { 0.0 }).collect();
        close(&format!("deep_calls: row {k} of the Hessian"), row, &along(&gradient, &x, &e), 1e-6);
    }
    let x = nested_points()[1].clone();
    let h = bound_then_passed_hessian(&nested(&x));
    let gradient = |p: &[f64]| nested_scalars(&bound_then_passed_grad(&nested(p)).1);
    for (k, row) in h.iter().enumerate() {
        let e: Vec<f64> = (0..Nested::LEN).map(|j| if j == k { 1.0 } else { 0.0 }).collect();
        let what = format!("bound_then_passed: row {k} of the Hessian");
        close(&what, row, &along(&gradient, &x, &e), 1e-6);
    }
}

type SGrad = fn(&Fields, Fields) -> (Fields, Fields);

/// A function of `Fields` returning `Fields`: `_vjp` against finite differences of the weighted
/// output, `_jvp` against finite differences of the output.
fn check_struct_out(
    what: &str,
    f: fn(&Fields) -> Fields,
    vjp: SGrad,
    jvp: fn(&Fields, &Fields) -> (Fields, Fields),
) {
    let (s, v) = (fields(&X), fields(&V));
    let y_bar = fields(&W);
    let (y, g) = vjp(&s, y_bar);
    assert_eq!(y, f(&s), "{what}: value of `_vjp`");
    let weighted = |p: &[f64]| dot(&W, &scalars(&f(&fields(p))));
    close(&format!("{what}: `_vjp`"), &scalars(&g), &numeric_gradient(weighted, &X), 1e-7);
    let (y, d) = jvp(&s, &v);
    assert_eq!(y, f(&s), "{what}: value of `_jvp`");
    let out = |p: &[f64]| scalars(&f(&fields(p)));
    close(&format!("{what}: `_jvp`"), &scalars(&d), &along(&out, &X, &V), 1e-7);
}

#[test]
fn array_fields_copied_whole_into_the_returned_struct() {
    check_struct_out("copied_whole", copied_whole, copied_whole_vjp, copied_whole_jvp);
    check_struct_out("recopied", recopied, recopied_vjp, recopied_jvp);
    let (s, v, w) = (fields(&X), fields(&V), fields(&W));
    // To the bit, in every mode, as the forms with the fields' elements written out.
    type Hvp = fn(&Fields, Fields, &Fields, Fields) -> (Fields, Fields, Fields, Fields);
    let forms: [(&str, SGrad, Hvp, SGrad, Hvp); 3] = [
        (
            "copied_whole",
            copied_whole_vjp,
            copied_whole_hvp,
            copied_elements_vjp,
            copied_elements_hvp,
        ),
        (
            "copied_through_locals",
            copied_through_locals_vjp,
            copied_through_locals_hvp,
            copied_elements_vjp,
            copied_elements_hvp,
        ),
        ("recopied", recopied_vjp, recopied_hvp, recopied_elements_vjp, recopied_elements_hvp),
    ];
    for (what, vjp, hvp, vjp_el, hvp_el) in forms {
        assert_eq!(vjp(&s, w), vjp_el(&s, w), "{what}: `_vjp`");
        assert_eq!(hvp(&s, w, &v, s), hvp_el(&s, w, &v, s), "{what}: `_hvp`");
    }
    assert_eq!(copied_whole_jvp(&s, &v), copied_elements_jvp(&s, &v));
    assert_eq!(copied_through_locals_jvp(&s, &v), copied_elements_jvp(&s, &v));
    assert_eq!(recopied_jvp(&s, &v), recopied_elements_jvp(&s, &v));
    // The identity, the `f64` field copied whole too: every mode returns its input.
    assert_eq!(copied_all_vjp(&s, w), (s, w));
    assert_eq!(copied_all_jvp(&s, &v), (s, v));
    // `_hvp`: the cotangents' tangent is the output cotangent's direction (here `s`).
    assert_eq!(copied_all_hvp(&s, w, &v, s), (s, w, v, s));
    // Closed form: the copies' cotangents are the output's, `b ↦ b sin b` has `sin b + b cos b`.
    let (_, g) = copied_whole_vjp(&s, w);
    assert_eq!((g.c, g.m), (w.c, w.m));
    close("copied_whole: ∂b", &[g.b], &[w.b * (X[7].sin() + X[7] * X[7].cos())], 1e-15);
    // Scalar functions of them, through calls and a struct value of the body.
    check(
        "copied_then_read",
        copied_then_read,
        copied_then_read_grad,
        copied_then_read_jvp,
        copied_then_read_hvp,
    );
    check(
        "loss_of_recopied",
        loss_of_recopied,
        loss_of_recopied_grad,
        loss_of_recopied_jvp,
        loss_of_recopied_hvp,
    );
}

#[test]
fn fields_of_a_call_bound_to_untyped_locals_and_passed_whole() {
    check(
        "passed_untyped",
        passed_untyped,
        passed_untyped_grad,
        passed_untyped_jvp,
        passed_untyped_hvp,
    );
    let (s, v) = (fields(&X), fields(&V));
    assert_eq!(passed_untyped_grad(&s), passed_typed_grad(&s));
    assert_eq!(passed_untyped_jvp(&s, &v), passed_typed_jvp(&s, &v));
    assert_eq!(passed_untyped_hvp(&s, &v), passed_typed_hvp(&s, &v));
}
