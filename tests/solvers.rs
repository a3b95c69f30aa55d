//! Iterative solvers with iteration counters and counts kept in branches (`src/solvers.rs`):
//! values against the plain functions, gradients against closed forms and central differences,
//! JVPs against the gradient along the direction, H·v against differences of the gradient.

use autodiff_runtime::{Tolerance, check_close, check_gradient, check_hvp};
use autodiff_suite::solvers::*;

fn close(what: &str, values: &[f64], reference: &[f64], tol: f64) {
    let tol = Tolerance { epsilon: tol, max_relative: tol };
    if let Err(e) = check_close(values, reference, tol) {
        panic!("{what}: {e}");
    }
}

/// The steps of Newton's method for √a from `a`, counted here in plain Rust.
fn newton_steps(a: f64, max_iter: usize) -> usize {
    let (mut x, mut it) = (a, 0);
    while (x * x - a).abs() > 1e-12 && it < max_iter {
        x = 0.5 * (x + a / x);
        it += 1;
    }
    it
}

#[test]
fn newton_sqrt_with_a_step_limit_has_the_derivatives_of_the_square_root() {
    // 2e6: x² never comes within 1e-12 of a (the spacing of `f64`s there is 2.3e-10), so the
    // limit of 50 steps ends the loop.
    assert_eq!(newton_steps(2e6, 50), 50);
    for a in [0.5, 2.0, 9.0, 123.4, 2e6] {
        let (x, g) = newton_sqrt_grad(a);
        assert_eq!(x.to_bits(), newton_sqrt(a).to_bits());
        close("√a", &[x], &[a.sqrt()], 1e-14);
        close("d√a/da", &[g], &[0.5 / a.sqrt()], 1e-12);
        let f = |p: &[f64]| newton_sqrt(p[0]);
        assert_eq!(check_gradient(f, &[a], &[g], Tolerance::default()), Ok(()));
        let (_, t) = newton_sqrt_jvp(a, 0.7);
        close("jvp", &[t], &[0.7 * g], 1e-14);
        let (_, g2, hv) = newton_sqrt_hvp(a, -1.3);
        assert_eq!(g2, g);
        close("H·v", &[hv], &[-1.3 * -0.25 / (a * a.sqrt())], 1e-10);
        let grad = |p: &[f64]| vec![newton_sqrt_grad(p[0]).1];
        assert_eq!(check_hvp(grad, &[a], &[-1.3], &[hv], Tolerance::default()), Ok(()));
    }
}

#[test]
fn the_step_count_read_after_the_loop_is_the_one_that_ran() {
    for (a, max_iter) in [(2.0, 50), (2e6, 50), (2e6, 7), (9.0, 3), (9.0, 0), (1.0, 10)] {
        let want = newton_steps(a, max_iter) as f64;
        assert_eq!(newton_sqrt_steps(a, max_iter), want);
        assert_eq!(newton_sqrt_steps_grad(a, max_iter), (want, 0.0));
        assert_eq!(newton_sqrt_steps_jvp(a, max_iter, 1.0), (want, 0.0));
    }
}

#[test]
fn averaged_iterates_differentiate_the_steps_that_ran() {
    // At most 5 steps (the limit ends it) and at most 200 (the tolerance does).
    for max_iter in [5, 200] {
        for (a, b) in [(0.7, 0.3), (1.3, -0.2), (-0.4, 0.9)] {
            let (value, (ga, gb)) = averaged_iterates_grad(a, b, max_iter);
            assert_eq!(value.to_bits(), averaged_iterates(a, b, max_iter).to_bits());
            let f = |p: &[f64]| averaged_iterates(p[0], p[1], max_iter);
            assert_eq!(check_gradient(f, &[a, b], &[ga, gb], Tolerance::default()), Ok(()));
            let (_, t) = averaged_iterates_jvp(a, b, max_iter, 0.4, -0.9);
            close("jvp", &[t], &[0.4 * ga - 0.9 * gb], 1e-13);
            let (_, g, hv) = averaged_iterates_hvp(a, b, max_iter, 0.4, -0.9);
            assert_eq!(g, (ga, gb));
            let grad = |p: &[f64]| {
                let (_, (ga, gb)) = averaged_iterates_grad(p[0], p[1], max_iter);
                vec![ga, gb]
            };
            let tol = Tolerance { epsilon: 1e-5, max_relative: 1e-5 };
            assert_eq!(check_hvp(grad, &[a, b], &[0.4, -0.9], &[hv.0, hv.1], tol), Ok(()));
        }
    }
}

#[test]
fn the_mean_of_the_positive_elements_has_its_closed_form_gradient() {
    let x = [0.5, -1.0, 2.5, 0.0, 3.0, -0.25];
    let (value, g) = mean_positive_grad(x);
    assert_eq!(value, 2.0);
    assert_eq!(value.to_bits(), mean_positive(x).to_bits());
    let third = 1.0 / 3.0;
    assert_eq!(g, [third, 0.0, third, 0.0, third, 0.0]);
    let f = |p: &[f64]| mean_positive([p[0], p[1], p[2], p[3], p[4], p[5]]);
    // Away from the kink at 0.
    let y = [0.5, -1.0, 2.5, 0.1, 3.0, -0.25];
    let (_, gy) = mean_positive_grad(y);
    assert_eq!(check_gradient(f, &y, &gy, Tolerance::default()), Ok(()));
    let v = [1.0, 2.0, -1.0, 0.5, 0.25, 3.0];
    let (_, t) = mean_positive_jvp(y, v);
    close("jvp", &[t], &[gy.iter().zip(&v).map(|(g, v)| g * v).sum::<f64>()], 1e-15);
    let (_, _, hv) = mean_positive_hvp(y, v);
    assert_eq!(hv, [0.0; 6], "piecewise linear");
    // No positive element: 0, and a zero gradient.
    assert_eq!(mean_positive_grad([-1.0; 6]), (0.0, [0.0; 6]));
}

#[test]
fn squares_until_counts_the_elements_left_out() {
    let x = [1.0, -0.5, 2.0, 0.75, -3.0];
    // 1 + 0.25 + 4 passes 5 at the third element: two left out.
    let (value, (g, gl)) = squares_until_grad(x, 5.0);
    assert_eq!(value, 5.25 + 2.0 * 5.0);
    assert_eq!(value.to_bits(), squares_until(x, 5.0).to_bits());
    assert_eq!(g, [2.0, -1.0, 4.0, 0.0, 0.0]);
    assert_eq!(gl, 2.0);
    // Never passes: all used.
    let (value, (g, gl)) = squares_until_grad(x, 100.0);
    assert_eq!(value, 1.0 + 0.25 + 4.0 + 0.5625 + 9.0);
    assert_eq!(g, [2.0, -1.0, 4.0, 1.5, -6.0]);
    assert_eq!(gl, 0.0);
    let p = [1.0, -0.5, 2.0, 0.75, -3.0, 5.0];
    let f = |p: &[f64]| squares_until([p[0], p[1], p[2], p[3], p[4]], p[5]);
    let (_, (g, gl)) = squares_until_grad([p[0], p[1], p[2], p[3], p[4]], p[5]);
    let grad = [g[0], g[1], g[2], g[3], g[4], gl];
    assert_eq!(check_gradient(f, &p, &grad, Tolerance::default()), Ok(()));
    let (v, dl) = ([0.5, 1.0, -1.0, 2.0, 0.3], 0.7);
    let (_, t) = squares_until_jvp(x, 5.0, v, dl);
    let want: f64 = g.iter().zip(&v).map(|(g, v)| g * v).sum::<f64>() + gl * dl;
    close("jvp", &[t], &[want], 1e-15);
    let (_, _, (hx, hl)) = squares_until_hvp(x, 5.0, v, dl);
    assert_eq!(hx, [1.0, 2.0, -2.0, 0.0, 0.0], "2·vᵢ over the elements used");
    assert_eq!(hl, 0.0);
}
