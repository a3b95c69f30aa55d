//! Slices whose length is known only at run time, differentiated with `wrt(...)`
//! (`src/slices.rs`): gradients and H·v written into the caller's buffers, against closed forms,
//! finite differences and the array forms of the same functions (bit for bit); lengths checked
//! at entry; buffers overwritten.

use autodiff_runtime::{Tolerance, check_gradient, check_hvp};
use autodiff_suite::slices::*;

/// A point of the extended Rosenbrock function with `n` coordinates, away from its minimum.
fn point(n: usize) -> Vec<f64> {
    (0..n)
        .map(|i| if i % 2 == 0 { -1.2 + 0.001 * i as f64 } else { 1.0 - 0.002 * i as f64 })
        .collect()
}

/// The closed-form value, gradient and H·v of the extended Rosenbrock function.
fn rosenbrock_closed(x: &[f64], v: &[f64]) -> (f64, Vec<f64>, Vec<f64>) {
    let n = x.len();
    let (mut f, mut g, mut hv) = (0.0, vec![0.0; n], vec![0.0; n]);
    for i in 0..n - 1 {
        let (a, b) = (x[i + 1] - x[i] * x[i], 1.0 - x[i]);
        f += 100.0 * a * a + b * b;
        g[i] += -400.0 * x[i] * a - 2.0 * b;
        g[i + 1] += 200.0 * a;
        hv[i] += (1200.0 * x[i] * x[i] - 400.0 * x[i + 1] + 2.0) * v[i] - 400.0 * x[i] * v[i + 1];
        hv[i + 1] += 200.0 * v[i + 1] - 400.0 * x[i] * v[i];
    }
    (f, g, hv)
}

/// Whether `got` is `want` to rounding, relative to the largest entry of `want`.
fn close(got: &[f64], want: &[f64]) {
    let scale = want.iter().fold(1.0_f64, |m, w| m.max(w.abs()));
    for (i, (a, b)) in got.iter().zip(want).enumerate() {
        assert!((a - b).abs() <= 1e-13 * scale, "entry {i}: {a} but {b}");
    }
}

#[test]
fn extended_rosenbrock_against_closed_forms_at_every_size() {
    for n in [2, 3, 100, 100_000] {
        let x = point(n);
        let v: Vec<f64> = (0..n).map(|i| ((i * 7) % 5) as f64 - 2.0).collect();
        let (f, g, hv) = rosenbrock_closed(&x, &v);
        let mut grad = vec![f64::NAN; n];
        let value = ext_rosenbrock_slice_grad(&x, &mut grad);
        assert_eq!(value, ext_rosenbrock_slice(&x), "n = {n}: the value is the function's");
        assert!((value - f).abs() <= 1e-13 * f, "n = {n}: {value} but {f}");
        close(&grad, &g);
        let (mut grad2, mut hv_got) = (vec![0.0; n], vec![0.0; n]);
        let value2 = ext_rosenbrock_slice_hvp(&x, &v, &mut grad2, &mut hv_got);
        assert_eq!((value2, &grad2), (value, &grad), "n = {n}: hvp's value and gradient");
        close(&hv_got, &hv);
        let (value3, dot) = ext_rosenbrock_slice_jvp(&x, &v);
        assert_eq!(value3, value);
        let want: f64 = g.iter().zip(&v).map(|(a, b)| a * b).sum();
        let scale: f64 = g.iter().zip(&v).map(|(a, b)| (a * b).abs()).sum();
        assert!((dot - want).abs() <= 1e-13 * scale, "n = {n}: jvp {dot} but {want}");
        let mut by_hand = vec![0.0; n];
        assert_eq!(ext_rosenbrock_slice_by_hand(&x, &mut by_hand), value);
        close(&by_hand, &g);
    }
}

#[test]
fn the_slice_form_is_the_array_form_to_the_bit() {
    let x: [f64; 6] = [-1.2, 1.0, 0.3, -0.4, 2.0, 1.5];
    let v = [1.0, -0.5, 0.25, 2.0, 0.0, 1.0];
    let (value, grad) = autodiff_suite::loops::ext_rosenbrock_grad(x);
    let mut g = [0.0; 6];
    assert_eq!(ext_rosenbrock_slice_grad(&x, &mut g), value);
    assert_eq!(g, grad);
    let (_, _, hv) = autodiff_suite::loops::ext_rosenbrock_hvp(x, v);
    let mut h = [0.0; 6];
    ext_rosenbrock_slice_hvp(&x, &v, &mut g, &mut h);
    assert_eq!(h, hv);
    let mut w = [0.0; 6];
    let mut wh = [0.0; 6];
    assert_eq!(ext_rosenbrock_windows_hvp(&x, &v, &mut w, &mut wh), value);
    assert_eq!((w, wh), (grad, hv), "windows(2) over a slice");
    let (lv, lg) = autodiff_suite::loops::lessons_grad(x);
    assert_eq!(lessons_slice_grad(&x, &mut g), lv);
    assert_eq!(g, lg, "a ring of run-time length");
    let (_, _, lh) = autodiff_suite::loops::lessons_hvp(x, v);
    lessons_slice_hvp(&x, &v, &mut g, &mut h);
    assert_eq!(h, lh);
    let (rv, (rg, ry)) = recurrence_array_grad(x, 0.7);
    // The slice form's loop is checkpointed, the array form's stored: the same numbers.
    assert_eq!(recurrence_grad(&x, 0.7, &mut g), (rv, ry));
    assert_eq!(g, rg);
    let (_, _, (rh, ryh)) = recurrence_array_hvp(x, 0.7, v, 1.0);
    let (_, _, ydot) = recurrence_hvp(&x, 0.7, &v, 1.0, &mut g, &mut h);
    assert_eq!((h, ydot), (rh, ryh));
}

#[test]
fn generic_and_f32_slices() {
    let x = point(50);
    let v: Vec<f64> = (0..50).map(|i| (i % 3) as f64 - 1.0).collect();
    let (mut g, mut h, mut g2, mut h2) =
        (vec![0.0; 50], vec![0.0; 50], vec![0.0; 50], vec![0.0; 50]);
    let value = ext_rosenbrock_slice_hvp(&x, &v, &mut g, &mut h);
    assert_eq!(ext_rosenbrock_gen_hvp(&x, &v, &mut g2, &mut h2), value);
    assert_eq!((g2, h2), (g.clone(), h.clone()), "generic at f64, to the bit");
    let x32: Vec<f32> = x.iter().map(|t| *t as f32).collect();
    let v32: Vec<f32> = v.iter().map(|t| *t as f32).collect();
    let (mut g32, mut h32) = (vec![0.0_f32; 50], vec![0.0_f32; 50]);
    let v32_value = ext_rosenbrock_f32_hvp(&x32, &v32, &mut g32, &mut h32);
    let x_exact: Vec<f64> = x32.iter().map(|t| f64::from(*t)).collect();
    let (f, g_want, h_want) = rosenbrock_closed(&x_exact, &v);
    assert!((f64::from(v32_value) - f).abs() <= 1e-5 * f);
    for (got, want) in g32.iter().zip(&g_want).chain(h32.iter().zip(&h_want)) {
        assert!((f64::from(*got) - want).abs() <= 1e-4 * want.abs().max(100.0), "{got} but {want}");
    }
    let (mut gg, mut hh) = (vec![0.0_f32; 50], vec![0.0_f32; 50]);
    assert_eq!(ext_rosenbrock_gen_hvp(&x32, &v32, &mut gg, &mut hh), v32_value);
    assert_eq!((gg, hh), (g32, h32), "generic at f32, to the bit");
}

#[test]
fn buffers_are_overwritten() {
    let x = point(9);
    let mut clean = vec![0.0; 9];
    let mut dirty = vec![7.5; 9];
    ext_rosenbrock_slice_grad(&x, &mut clean);
    ext_rosenbrock_slice_grad(&x, &mut dirty);
    assert_eq!(clean, dirty);
    let (mut a, mut b) = (vec![f64::NAN; 9], vec![-1.0; 9]);
    let value = recurrence_hvp(&x, 0.3, &[1.0; 9], 0.0, &mut a, &mut b);
    let (mut c, mut d) = (vec![0.0; 9], vec![0.0; 9]);
    assert_eq!(recurrence_hvp(&x, 0.3, &[1.0; 9], 0.0, &mut c, &mut d), value);
    assert_eq!((a, b), (c, d), "checkpointed sweep");
}

/// A function writing a gradient and H·v into the buffers it is given.
type IntoBuffers<'a> = &'a dyn Fn(&mut [f64], &mut [f64]);

/// The gradients and H·v that `f` writes into buffers filled with `fill` first.
fn written_over(fill: f64, n: usize, f: IntoBuffers) -> (Vec<u64>, Vec<u64>) {
    let (mut g, mut h) = (vec![fill; n], vec![fill; n]);
    f(&mut g, &mut h);
    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect();
    (bits(&g), bits(&h))
}

/// A regression test of the first-write zeroing: the buffer's elements that the first loop of the
/// sweep writes before reading are left unzeroed (`zero_outside`), so a stale buffer (NaN, or
/// the previous call's gradient) must give the zeroed buffer's numbers to the bit, at every
/// length, the loop that runs no iteration (n = 1) included.
#[test]
fn stale_buffers_give_the_numbers_of_zeroed_ones() {
    for n in [1, 2, 3, 7, 64] {
        let x = point(n);
        let v: Vec<f64> = (0..n).map(|i| 0.5 - i as f64 * 0.25).collect();
        let runs: [IntoBuffers; 6] = [
            &|g, h| {
                ext_rosenbrock_slice_hvp(&x, &v, &mut *g, &mut *h);
            },
            // The gradients alone: their sweeps carry the next element and load the first
            // before the loop (`transform/carry.rs`), which only the zeroing may give it.
            &|g, h| {
                ext_rosenbrock_slice_grad(&x, &mut *g);
                h.fill(1.0);
            },
            &|g, h| {
                ext_rosenbrock_windows_grad(&x, &mut *g);
                h.fill(1.0);
            },
            &|g, h| {
                ext_rosenbrock_windows_hvp(&x, &v, &mut *g, &mut *h);
            },
            &|g, h| {
                lessons_slice_hvp(&x, &v, &mut *g, &mut *h);
            },
            &|g, h| {
                huber_sum_hvp(&x, &v, 0.3, &v, &mut *g, &mut *h);
            },
        ];
        for (k, run) in runs.iter().enumerate() {
            let zeroed = written_over(0.0, n, run);
            assert_eq!(written_over(f64::NAN, n, run), zeroed, "function {k}, n = {n}");
            assert_eq!(written_over(-3.5, n, run), zeroed, "function {k}, n = {n}");
        }
    }
}

#[test]
#[should_panic(
    expected = "`ext_rosenbrock_slice_grad`: the buffer `x_bar` must have the length of `x`, which is 4, not 3"
)]
fn a_short_gradient_buffer_panics() {
    ext_rosenbrock_slice_grad(&[1.0, 2.0, 3.0, 4.0], &mut [0.0; 3]);
}

#[test]
#[should_panic(expected = "the buffer `x_bar` must have the length of `x`, which is 2, not 3")]
fn a_long_gradient_buffer_panics() {
    ext_rosenbrock_slice_grad(&[1.0, 2.0], &mut [0.0; 3]);
}

#[test]
#[should_panic(
    expected = "`ext_rosenbrock_slice_hvp`: the direction `x_dot` must have the length of `x`, which is 3, not 2"
)]
fn a_short_direction_panics() {
    ext_rosenbrock_slice_hvp(&[1.0, 2.0, 3.0], &[1.0, 0.0], &mut [0.0; 3], &mut [0.0; 3]);
}

#[test]
#[should_panic(expected = "the buffer `x_bar_dot` must have the length of `x`, which is 3, not 4")]
fn a_long_hvp_buffer_panics() {
    ext_rosenbrock_slice_hvp(&[1.0, 2.0, 3.0], &[1.0; 3], &mut [0.0; 3], &mut [0.0; 4]);
}

#[test]
#[should_panic(
    expected = "`ext_rosenbrock_slice_jvp`: the direction `x_dot` must have the length of `x`, which is 2, not 1"
)]
fn a_short_jvp_direction_panics() {
    ext_rosenbrock_slice_jvp(&[1.0, 2.0], &[1.0]);
}

#[test]
#[should_panic(expected = "the buffer `x_bar` must have the length of `x`, which is 5, not 4")]
fn a_checkpointed_sweep_checks_too() {
    recurrence_grad(&[1.0; 5], 0.5, &mut [0.0; 4]);
}

#[test]
fn least_squares_against_its_closed_form() {
    let (w, b) = ([0.5, -1.0, 2.0], 0.25);
    let xs = [1.0, 2.0, 3.0, -1.0, 0.5, 0.0, 2.0, 2.0, -2.0, 0.1, 0.2, 0.3];
    let ys = [1.0, -2.0, 0.5, 0.0];
    let mut gw = [0.0; 3];
    let (loss, gb) = least_squares_grad(&w, b, &xs, &ys, &mut gw);
    let (mut want_w, mut want_b, mut want_loss) = ([0.0; 3], 0.0, 0.0);
    for k in 0..4 {
        let r = b + (0..3).map(|j| w[j] * xs[3 * k + j]).sum::<f64>() - ys[k];
        want_loss += 0.5 * r * r;
        want_b += r;
        for j in 0..3 {
            want_w[j] += r * xs[3 * k + j];
        }
    }
    assert!((loss - want_loss).abs() < 1e-13 && (gb - want_b).abs() < 1e-13);
    close(&gw, &want_w);
    // H·v of a squared loss is Xᵀ X v, with the bias as a column of ones.
    let (vw, vb) = ([1.0, 0.0, -1.0], 0.5);
    let mut hw = [0.0; 3];
    let (_, _, hb) = least_squares_hvp(&w, b, &xs, &ys, &vw, vb, &mut gw, &mut hw);
    let (mut want_hw, mut want_hb) = ([0.0; 3], 0.0);
    for k in 0..4 {
        let xv = vb + (0..3).map(|j| vw[j] * xs[3 * k + j]).sum::<f64>();
        want_hb += xv;
        for j in 0..3 {
            want_hw[j] += xv * xs[3 * k + j];
        }
    }
    close(&hw, &want_hw);
    assert!((hb - want_hb).abs() < 1e-13, "{hb} but {want_hb}");
}

#[test]
fn branches_vectors_and_nested_slices_against_finite_differences() {
    let x = [0.3, -2.0, 1.1, 0.05, 4.0];
    let d = [0.0, 0.5, 1.0, 0.0, 1.0];
    let mut g = [0.0; 5];
    huber_sum_grad(&x, &d, 1.0, &mut g);
    let want: Vec<f64> = x.iter().zip(&d).map(|(a, b)| (a - b).clamp(-1.0, 1.0)).collect();
    close(&g, &want);
    let xv = vec![0.5, -1.5, 2.0];
    let (mut gq, mut hq) = (vec![0.0; 3], vec![0.0; 3]);
    vec_quartic_hvp(&xv, &[1.0, 0.0, 0.0], &mut gq, &mut hq);
    let s: f64 = xv.iter().sum();
    close(&gq, &xv.iter().map(|t| t * t * t + 2.0 * s).collect::<Vec<_>>());
    close(&hq, &[3.0 * 0.25 + 2.0, 2.0, 2.0]);
    let p = [[0.0, 1.0], [2.0, -1.0], [3.0, 0.5]];
    let mut gp = [[0.0; 2]; 3];
    let value = polyline_grad(&p, &mut gp);
    assert_eq!(value, 4.0 + 4.0 + 1.0 + 2.25);
    assert_eq!(gp, [[-4.0, 4.0], [2.0, -7.0], [2.0, 3.0]]);
    let flat = |q: &[f64]| polyline(&[[q[0], q[1]], [q[2], q[3]], [q[4], q[5]]]);
    let grads = |q: &[f64]| {
        let mut g = [[0.0; 2]; 3];
        polyline_grad(&[[q[0], q[1]], [q[2], q[3]], [q[4], q[5]]], &mut g);
        g.as_flattened().to_vec()
    };
    let q = p.as_flattened();
    check_gradient(flat, q, gp.as_flattened(), Tolerance::default()).unwrap();
    let v = [[1.0, 0.0], [0.0, -1.0], [0.5, 0.5]];
    let (mut g2, mut hp) = ([[0.0; 2]; 3], [[0.0; 2]; 3]);
    polyline_hvp(&p, &v, &mut g2, &mut hp);
    check_hvp(grads, q, v.as_flattened(), hp.as_flattened(), Tolerance::default()).unwrap();
    let mut gm = [0.0; 5];
    let (s, q2) = moments_vjp(&x, (1.0, 0.5), &mut gm);
    assert_eq!((s, q2), moments(&x));
    close(&gm, &x.map(|t| 1.0 + t));
    assert_eq!(moments_jvp(&x, &[1.0; 5]).1, (5.0, 2.0 * x.iter().sum::<f64>()));
}

/// A vector function's `_hvp` with a slice and a scalar differentiated: the buffers of the slice
/// belong to it (not to the scalar, which a three-part value shifted onto before), against the
/// closed forms of the cotangent and of its tangent.
#[test]
fn a_vector_function_of_a_slice_and_a_scalar() {
    let (x, y, x_dot, y_dot) = ([1.0, 2.0], 3.0, [0.1, 0.2], 0.7);
    let (w, w_dot) = ((1.0, 0.5, 2.0), (0.3, -1.0, 0.5));
    let (mut x_bar, mut x_bar_dot) = (vec![f64::NAN; 2], vec![f64::NAN; 2]);
    let (value, y_bar, value_dot, y_bar_dot) =
        vector_of_slice_hvp(&x, y, w, &x_dot, y_dot, w_dot, &mut x_bar, &mut x_bar_dot);
    let (s, c) = x[0].sin_cos();
    assert_eq!(value, (y * x[0] * x[1], s, y * y));
    let want_x_bar = [w.0 * y * x[1] + w.1 * c, w.0 * y * x[0]];
    let want_y_bar = w.0 * x[0] * x[1] + w.2 * 2.0 * y;
    let dot = |k: usize, j: usize| {
        w_dot.0 * y * x[j]
            + w.0 * y_dot * x[j]
            + w.0 * y * x_dot[j]
            + [w_dot.1 * c - w.1 * s * x_dot[0], 0.0][k]
    };
    let want_x_bar_dot = [dot(0, 1), dot(1, 0)];
    let want_y_bar_dot = w_dot.0 * x[0] * x[1]
        + w.0 * (x_dot[0] * x[1] + x[0] * x_dot[1])
        + w_dot.2 * 2.0 * y
        + w.2 * 2.0 * y_dot;
    let near = |a: f64, b: f64| (a - b).abs() <= 1e-14 * b.abs().max(1.0);
    for k in 0..2 {
        assert!(near(x_bar[k], want_x_bar[k]), "{x_bar:?} but {want_x_bar:?}");
        assert!(near(x_bar_dot[k], want_x_bar_dot[k]), "{x_bar_dot:?} but {want_x_bar_dot:?}");
    }
    assert!(near(y_bar, want_y_bar) && near(y_bar_dot, want_y_bar_dot), "{y_bar} {y_bar_dot}");
    let want_value_dot = (
        y_dot * x[0] * x[1] + y * (x_dot[0] * x[1] + x[0] * x_dot[1]),
        c * x_dot[0],
        2.0 * y * y_dot,
    );
    assert!(near(value_dot.0, want_value_dot.0) && near(value_dot.1, want_value_dot.1));
    assert!(near(value_dot.2, want_value_dot.2));
    let mut g = vec![0.0; 2];
    let (_, y_bar2) = vector_of_slice_vjp(&x, y, w, &mut g);
    assert_eq!((g, y_bar2), (x_bar, y_bar), "the vjp's cotangent is the hvp's");
}

/// `before` plus `delta`, element by element.
fn plus(before: &[f64], delta: &[f64]) -> Vec<f64> {
    before.iter().zip(delta).map(|(a, b)| a + b).collect()
}

#[test]
fn accumulate_adds_the_gradient_and_hv_into_the_buffers() {
    for n in [2, 3, 100] {
        let x = point(n);
        let v: Vec<f64> = (0..n).map(|i| ((i * 7) % 5) as f64 - 2.0).collect();
        let (f, g, hv) = rosenbrock_closed(&x, &v);
        let before: Vec<f64> = (0..n).map(|i| 0.25 * i as f64 - 3.0).collect();
        let before_h: Vec<f64> = (0..n).map(|i| 1.5 - 0.5 * i as f64).collect();
        let mut grad = before.clone();
        let value = ext_rosenbrock_acc_grad(&x, &mut grad);
        assert_eq!(value, ext_rosenbrock_slice(&x), "n = {n}");
        assert!((value - f).abs() <= 1e-13 * f);
        close(&grad, &plus(&before, &g));
        let (mut grad2, mut h) = (before.clone(), before_h.clone());
        assert_eq!(ext_rosenbrock_acc_hvp(&x, &v, &mut grad2, &mut h), value);
        assert_eq!(grad2, grad, "n = {n}: hvp's gradient is grad's");
        close(&h, &plus(&before_h, &hv));
        // From zeroed buffers, the overwriting functions' numbers to the bit.
        let (mut z, mut zh, mut o, mut oh) =
            (vec![0.0; n], vec![0.0; n], vec![0.0; n], vec![0.0; n]);
        ext_rosenbrock_acc_hvp(&x, &v, &mut z, &mut zh);
        ext_rosenbrock_slice_hvp(&x, &v, &mut o, &mut oh);
        assert_eq!((z, zh), (o, oh), "n = {n}: from zero");
    }
}

#[test]
fn accumulate_is_overwrite_then_add_where_each_component_is_one_term() {
    let n = 40;
    let x = point(n);
    let d: Vec<f64> = (0..n).map(|i| 0.1 * i as f64 - 1.0).collect();
    let v: Vec<f64> = (0..n).map(|i| (i % 4) as f64 - 1.5).collect();
    let before: Vec<f64> = (0..n).map(|i| (i as f64 * 0.37).sin()).collect();
    let (mut g, mut h, mut o, mut oh) =
        (before.clone(), before.clone(), vec![0.0; n], vec![0.0; n]);
    let value = huber_sum_acc_hvp(&x, &d, 0.3, &v, &mut g, &mut h);
    assert_eq!(huber_sum_hvp(&x, &d, 0.3, &v, &mut o, &mut oh), value);
    assert_eq!((g, h), (plus(&before, &o), plus(&before, &oh)), "to the bit");
}

#[test]
fn accumulate_sums_two_losses_over_one_buffer() {
    // ∇(rosenbrock + huber) in one buffer, no temporary.
    let n = 30;
    let x = point(n);
    let d = vec![0.5; n];
    let mut grad = vec![0.0; n];
    ext_rosenbrock_acc_grad(&x, &mut grad);
    huber_sum_acc_grad(&x, &d, 1.0, &mut grad);
    let (mut a, mut b) = (vec![0.0; n], vec![0.0; n]);
    ext_rosenbrock_slice_grad(&x, &mut a);
    huber_sum_grad(&x, &d, 1.0, &mut b);
    assert_eq!(grad, plus(&a, &b), "each component: (0 + ∂rosenbrock) + ∂huber");
}

#[test]
fn accumulate_through_a_checkpointed_sweep_and_a_vector_function() {
    let x = point(9);
    let v = [1.0; 9];
    let before = vec![2.0; 9];
    let (mut g, mut h) = (before.clone(), before.clone());
    let got = recurrence_acc_hvp(&x, 0.3, &v, 0.0, &mut g, &mut h);
    let (mut o, mut oh) = (vec![0.0; 9], vec![0.0; 9]);
    assert_eq!(got, recurrence_hvp(&x, 0.3, &v, 0.0, &mut o, &mut oh), "value, y's derivatives");
    let near = |a: &[f64], b: &[f64]| {
        a.iter().zip(b).all(|(p, q)| (p - q).abs() <= 1e-14 * q.abs().max(1.0))
    };
    assert!(near(&g, &plus(&before, &o)), "{g:?}");
    assert!(near(&h, &plus(&before, &oh)), "{h:?}");
    // A vector function with no loop: its `_vjp` and `_hvp` add into the buffers.
    let (x, w) = ([1.0, 2.0], (1.0, 0.5, 2.0));
    let (mut g, mut o) = (vec![10.0, -10.0], vec![0.0; 2]);
    let (_, y_bar) = vector_of_slice_acc_vjp(&x, 3.0, w, &mut g);
    assert_eq!(vector_of_slice_vjp(&x, 3.0, w, &mut o).1, y_bar);
    assert_eq!(g, plus(&[10.0, -10.0], &o), "one term each, to the bit");
    let (mut g, mut h, mut o, mut oh) = (vec![1.0; 2], vec![-1.0; 2], vec![0.0; 2], vec![0.0; 2]);
    let dirs = ([0.1, 0.2], 0.7, (0.3, -1.0, 0.5));
    vector_of_slice_acc_hvp(&x, 3.0, w, &dirs.0, dirs.1, dirs.2, &mut g, &mut h);
    vector_of_slice_hvp(&x, 3.0, w, &dirs.0, dirs.1, dirs.2, &mut o, &mut oh);
    assert!(near(&g, &plus(&[1.0; 2], &o)) && near(&h, &plus(&[-1.0; 2], &oh)), "{g:?} {h:?}");
}
