//! The lessons' worked examples `f` and `g`, checked against their closed forms by hand.

use approx::assert_ulps_eq;
use autodiff_runtime::{Tolerance, check_gradient, check_hvp};
use autodiff_suite::worked::{
    f, f_grad, f_hessian, f_hvp, f_jvp, g, g_grad, g_hessian, g_hvp, g_jvp,
};

/// `g`'s gradient by hand: `(x2 + 1/x1, x1 − cos x2)`.
fn g_gradient(x1: f64, x2: f64) -> (f64, f64) {
    (x2 + 1.0 / x1, x1 - x2.cos())
}

/// `g`'s Hessian by hand: `[[−1/x1², 1], [1, sin x2]]`.
fn g_hessian_by_hand(x1: f64, x2: f64) -> [[f64; 2]; 2] {
    [[-1.0 / (x1 * x1), 1.0], [1.0, x2.sin()]]
}

/// Asserts two pairs agree to a few ulps, component by component.
fn assert_pair(got: (f64, f64), want: (f64, f64)) {
    assert_ulps_eq!(got.0, want.0, max_ulps = 4);
    assert_ulps_eq!(got.1, want.1, max_ulps = 4);
}

#[test]
fn f_at_2_5_is_12_with_gradient_6_2() {
    assert_eq!(f_grad(2.0, 5.0), (12.0, (6.0, 2.0)));
}

#[test]
fn f_at_3_4_is_15_with_gradient_5_3() {
    // value t1·t2 + t1 = 12 + 3; gradient (t2 + 1, t1)
    assert_eq!(f_grad(3.0, 4.0), (15.0, (5.0, 3.0)));
}

#[test]
fn f_gradient_is_t2_plus_1_and_t1_everywhere() {
    for (t1, t2) in [(-1.5, 0.25), (0.0, 0.0), (7.0, -3.0), (1e-3, 1e3)] {
        let (value, gradient) = f_grad(t1, t2);
        assert_eq!(value, f(t1, t2));
        assert_eq!(gradient, (t2 + 1.0, t1));
    }
}

#[test]
fn f_second_order_is_the_constant_hessian_0_1_1_0() {
    assert_eq!(f_hessian(2.0, 5.0), [[0.0, 1.0], [1.0, 0.0]]);
    assert_eq!(f_hessian(-3.0, 0.5), [[0.0, 1.0], [1.0, 0.0]]);
    // H·v = (v2, v1)
    assert_eq!(f_hvp(2.0, 5.0, 1.0, 0.0), (12.0, (6.0, 2.0), (0.0, 1.0)));
    assert_eq!(f_hvp(2.0, 5.0, 0.5, -2.0), (12.0, (6.0, 2.0), (-2.0, 0.5)));
    // ∇f·v = 6·1 + 2·1
    assert_eq!(f_jvp(2.0, 5.0, 1.0, 1.0), (12.0, 8.0));
    assert_eq!(f_jvp(2.0, 5.0, -0.5, 3.0), (12.0, 3.0));
}

#[test]
fn g_at_2_5_has_gradient_5_5_and_2_minus_cos_5() {
    let (value, gradient) = g_grad(2.0, 5.0);
    assert_eq!(value, 2.0_f64.ln() + 10.0 - 5.0_f64.sin());
    assert_eq!(gradient.0, 5.5);
    assert_pair(gradient, (5.5, 2.0 - 5.0_f64.cos()));
    assert_ulps_eq!(gradient.1, 1.716_337_814_536_773_8, max_ulps = 4);
}

#[test]
fn g_hvp_at_2_5_gives_the_hessian_columns() {
    let (value, gradient, hv) = g_hvp(2.0, 5.0, 1.0, 0.0);
    assert_eq!((value, gradient), g_grad(2.0, 5.0));
    assert_pair(hv, (-0.25, 1.0));
    let (_, _, hv) = g_hvp(2.0, 5.0, 0.0, 1.0);
    assert_pair(hv, (1.0, 5.0_f64.sin()));
}

#[test]
fn g_hessian_is_minus_inverse_square_1_1_sin() {
    for (x1, x2) in [(2.0, 5.0), (0.5, -1.3), (3.7, 0.2)] {
        let got = g_hessian(x1, x2);
        let want = g_hessian_by_hand(x1, x2);
        for (got_row, want_row) in got.iter().zip(&want) {
            for (got, want) in got_row.iter().zip(want_row) {
                assert_ulps_eq!(got, want, max_ulps = 4);
            }
        }
    }
}

#[test]
fn g_matches_its_closed_forms_and_finite_differences_elsewhere() {
    for (x1, x2) in [(0.5, -1.3), (3.7, 0.2), (1.0, 0.0)] {
        let (value, gradient) = g_grad(x1, x2);
        assert_eq!(value, g(x1, x2));
        assert_pair(gradient, g_gradient(x1, x2));
        let primal = |p: &[f64]| g(p[0], p[1]);
        let as_vec = [gradient.0, gradient.1];
        check_gradient(primal, &[x1, x2], &as_vec, Tolerance::default()).unwrap();
        for (v1, v2) in [(1.0, 0.0), (0.0, 1.0), (0.6, -1.4)] {
            let (_, _, hv) = g_hvp(x1, x2, v1, v2);
            let grad = |p: &[f64]| {
                let (_, (d1, d2)) = g_grad(p[0], p[1]);
                vec![d1, d2]
            };
            check_hvp(grad, &[x1, x2], &[v1, v2], &[hv.0, hv.1], Tolerance::default()).unwrap();
            let (jvp_value, jvp) = g_jvp(x1, x2, v1, v2);
            assert_eq!(jvp_value, value);
            let (a, b) = (gradient.0 * v1, gradient.1 * v2);
            assert!((jvp - (a + b)).abs() <= 1e-12 * (a.abs() + b.abs()), "jvp {jvp}");
        }
    }
}
