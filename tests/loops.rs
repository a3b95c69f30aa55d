//! Loops, branches and arrays: every function of `src/loops.rs` against closed forms and
//! hand-written derivatives (`src/oracles.rs`) and against finite differences, in every mode.

use autodiff_runtime::__private::Flat;
use autodiff_runtime::{Tolerance, check_close, numeric_gradient, numeric_hvp};
use autodiff_suite::loops::*;
use autodiff_suite::oracles;

/// Every `f64` of `x`, in order.
fn flat<T: Flat>(x: &T) -> Vec<f64> {
    (0..T::LEN).map(|k| x.get(k)).collect()
}

/// The value of type `T` holding `xs`.
fn unflat<T: Flat>(xs: &[f64]) -> T {
    let mut t = T::zero();
    for (k, x) in xs.iter().enumerate() {
        t.set(k, *x);
    }
    t
}

/// Central differences of `f` at `x`, through the flattened coordinates.
fn fd<T: Flat>(f: impl Fn(T) -> f64, x: T) -> Vec<f64> {
    numeric_gradient(|xs: &[f64]| f(unflat(xs)), &flat(&x))
}

/// Central differences of the gradient `g` along `v` at `x`.
fn fd_hvp<T: Flat, G: Flat>(g: impl Fn(T) -> G, x: T, v: T) -> Vec<f64> {
    numeric_hvp(|xs: &[f64]| flat(&g(unflat(xs))), &flat(&x), &flat(&v))
}

fn close(what: &str, values: &[f64], reference: &[f64], tol: f64) {
    let tol = Tolerance { epsilon: tol, max_relative: tol };
    if let Err(e) = check_close(values, reference, tol) {
        panic!("{what}: {e}");
    }
}

/// A point with distinct, moderate coordinates.
fn point<const M: usize>(seed: f64) -> [f64; M] {
    std::array::from_fn(|i| (seed + 0.73 * i as f64).sin() * 1.3 + 0.1)
}

/// What an `_hvp` of one `[f64; M]` returns: value, gradient, H·v.
type Hvp<const M: usize> = (f64, [f64; M], [f64; M]);

/// A ring f(x) = Σᵢ sin(xᵢ)·x_{i−k} (cyclic) under `#[grad(jvp, hvp)]`.
struct Ring<const M: usize> {
    k: usize,
    f: fn([f64; M]) -> f64,
    grad: fn([f64; M]) -> (f64, [f64; M]),
    hvp: fn([f64; M], [f64; M]) -> Hvp<M>,
    jvp: fn([f64; M], [f64; M]) -> (f64, f64),
}

/// The ring's value (bit for bit), gradient and H·v against the closed forms of `oracles`, the
/// gradient against finite differences, the JVP against the gradient, at the points of `seeds`.
fn check_ring<const M: usize>(r: Ring<M>, seeds: (f64, f64)) {
    let (x, v) = (point::<M>(seeds.0), point::<M>(seeds.1));
    let (value, grad) = (r.grad)(x);
    assert_eq!(value.to_bits(), (r.f)(x).to_bits(), "value, N = {M}");
    close("closed-form gradient", &grad, &oracles::ring_gradient(x, r.k), 1e-12);
    close("finite differences", &grad, &fd(r.f, x), 1e-6);
    let (_, g, hv) = (r.hvp)(x, v);
    assert_eq!(g, grad);
    close("closed-form H·v", &hv, &oracles::ring_hv(x, v, r.k), 1e-12);
    let (_, slope) = (r.jvp)(x, v);
    let dot: f64 = grad.iter().zip(&v).map(|(a, b)| a * b).sum();
    close("jvp = grad·v", &[slope], &[dot], 1e-12);
}

fn check_lessons<const M: usize>() {
    let r = Ring { k: 1, f: lessons, grad: lessons_grad, hvp: lessons_hvp, jvp: lessons_jvp };
    check_ring::<M>(r, (0.4, 2.1));
}

#[test]
fn the_lessons_function_for_several_sizes() {
    check_lessons::<1>();
    check_lessons::<2>();
    check_lessons::<3>();
    check_lessons::<10>();
    check_lessons::<1000>();
    // An empty ring: the split-off wrap-around loop and the rest both run no iteration.
    assert_eq!(lessons_grad::<0>([]), (0.0, []));
    assert_eq!(lessons_hvp::<0>([], []), (0.0, [], []));
}

fn check_second_neighbours<const M: usize>() {
    let r = Ring {
        k: 2,
        f: second_neighbours,
        grad: second_neighbours_grad,
        hvp: second_neighbours_hvp,
        jvp: second_neighbours_jvp,
    };
    check_ring::<M>(r, (0.8, -1.7));
}

#[test]
fn a_ring_over_the_second_neighbour_for_several_sizes() {
    // Two wrap-around iterations: at N = 2 they are the whole loop.
    check_second_neighbours::<2>();
    check_second_neighbours::<3>();
    check_second_neighbours::<5>();
    check_second_neighbours::<8>();
    check_second_neighbours::<100>();
}

#[test]
fn a_ring_with_a_branch_and_an_index_weight() {
    fn check<const M: usize>() {
        let x = point::<M>(0.3).map(|e| 0.7 * e);
        let v = point::<M>(2.6);
        check_fd("weighted ring", weighted_ring, weighted_ring_grad, weighted_ring_hvp, x, v);
    }
    check::<1>();
    check::<2>();
    check::<7>();
    check::<40>();
}

#[test]
fn the_lessons_function_with_a_const_size_matches_the_generic_one() {
    let (x, v) = (point::<N>(0.9), point::<N>(-0.3));
    assert_eq!(lessons_1000_grad(x), lessons_grad(x));
    assert_eq!(lessons_1000_hvp(x, v), lessons_hvp(x, v));
}

#[test]
fn extended_rosenbrock_at_100() {
    let (x, v) = (point::<100>(0.2), point::<100>(1.7));
    let (value, grad) = ext_rosenbrock_grad(x);
    close("value", &[value], &[oracles::extended_rosenbrock(x)], 1e-14);
    close("gradient", &grad, &oracles::extended_rosenbrock_gradient(x), 1e-12);
    let (_, _, hv) = ext_rosenbrock_hvp(x, v);
    close("H·v", &hv, &oracles::extended_rosenbrock_hv(x, v), 1e-12);
    let small = point::<6>(0.8);
    let h: [[f64; 6]; 6] = ext_rosenbrock_hessian(small);
    close("Hessian", &flat(&h), &flat(&oracles::extended_rosenbrock_hessian(small)), 1e-12);
}

#[test]
fn the_dense_layer_against_backpropagation() {
    let w: [[f64; 16]; 16] = std::array::from_fn(|i| point::<16>(0.1 * i as f64));
    let w = w.map(|row| row.map(|e| 0.3 * e));
    let (b, x, y) = (point::<16>(3.0), point::<16>(5.0), point::<16>(7.0).map(|e| 0.5 * e));
    let (value, (wb, bb)) = layer_grad(w, b, &x, &y);
    let (loss, (hw, hb)) = oracles::handwritten::layer_grad(w, b, x, y);
    close("loss", &[value], &[loss], 1e-13);
    close("w gradient", &flat(&wb), &flat(&hw), 1e-12);
    close("b gradient", &bb, &hb, 1e-12);
    let numeric = fd(|(w, b): ([[f64; 16]; 16], [f64; 16])| layer(w, b, &x, &y), (w, b));
    close("finite differences", &flat(&(wb, bb)), &numeric, 1e-6);
    let (wv, bv) = (w.map(|r| r.map(|e| e.cos())), b.map(|e| e.sin()));
    let (_, _, (hvw, hvb)) = layer_hvp(w, b, &x, &y, wv, bv);
    let (_, _, (rw, rb)) = oracles::handwritten::layer_hvp(w, b, x, y, wv, bv);
    close("H·v", &flat(&(hvw, hvb)), &flat(&(rw, rb)), 1e-11);
}

#[test]
fn lennard_jones_forces_sum_to_zero_and_match() {
    let p: [[f64; 3]; 8] = std::array::from_fn(|i| {
        let i = i as f64;
        [1.3 * (i % 2.0) + 0.05 * i, 1.2 * ((i / 2.0).floor() % 2.0), 1.25 * (i / 4.0).floor()]
    });
    let (eps, sigma) = (1.0, 1.0);
    let (e, grad) = lennard_jones_grad(p, eps, sigma);
    close("energy", &[e], &[oracles::lj_energy(p, eps, sigma)], 1e-12);
    let forces = oracles::lj_forces(p, eps, sigma);
    close("forces", &flat(&grad.map(|r| r.map(|g| -g))), &flat(&forces), 1e-10);
    for axis in 0..3 {
        let total: f64 = grad.iter().map(|r| r[axis]).sum();
        assert!(total.abs() < 1e-9, "net force on axis {axis}: {total}");
    }
    close("finite differences", &flat(&grad), &fd(|p| lennard_jones(p, eps, sigma), p), 1e-6);
    let v: [[f64; 3]; 8] = std::array::from_fn(|i| point::<3>(i as f64));
    let (_, _, hv) = lennard_jones_hvp(p, eps, sigma, v);
    let numeric = fd_hvp(|p| lennard_jones_grad(p, eps, sigma).1, p, v);
    close("H·v", &flat(&hv), &numeric, 1e-5);
}

#[test]
fn euler_against_the_closed_form() {
    let (x0, k, dt) = (1.5, 0.8, 0.001);
    let (x, (dx0, dk, ddt)) = euler_grad(x0, k, dt);
    close("value", &[x], &[oracles::euler_decay_closed_form(x0, k, dt, 1000)], 1e-12);
    let (cx0, ck) = oracles::euler_decay_gradient(x0, k, dt, 1000);
    close("∂/∂x0, ∂/∂k", &[dx0, dk], &[cx0, ck], 1e-12);
    // x_N = x0 (1 - k dt)^N: ∂/∂dt = -N k x0 (1 - k dt)^(N-1)
    let closed_dt = -1000.0 * k * x0 * (1.0 - k * dt).powi(999);
    close("∂/∂dt", &[ddt], &[closed_dt], 1e-12);
    let (_, _, hv) = euler_hvp(x0, k, dt, 0.3, -1.0, 0.0);
    let g = |p: (f64, f64, f64)| euler_grad(p.0, p.1, p.2).1;
    close("H·v", &flat(&hv), &fd_hvp(g, (x0, k, dt), (0.3, -1.0, 0.0)), 1e-6);
}

#[test]
fn gaussian_nll_over_data_of_runtime_length() {
    let data: Vec<f64> = (0..37).map(|i| (i as f64 * 0.37).sin() * 2.0 + 1.0).collect();
    let (mu, sigma) = (0.4, 1.3);
    let (value, grad) = gaussian_nll_grad(mu, sigma, &data);
    close("value", &[value], &[oracles::gaussian_nll(mu, sigma, &data)], 1e-13);
    let (gm, gs) = oracles::gaussian_nll_gradient(mu, sigma, &data);
    close("gradient", &flat(&grad), &[gm, gs], 1e-12);
    let hessian = oracles::gaussian_nll_hessian(mu, sigma, &data);
    for (k, row) in hessian.iter().enumerate() {
        let v = <(f64, f64)>::unit(k);
        let (_, _, hv) = gaussian_nll_hvp(mu, sigma, &data, v.0, v.1);
        close("Hessian column", &flat(&hv), row, 1e-12);
    }
    let (empty, grad) = gaussian_nll_grad(mu, sigma, &[]);
    assert_eq!((empty, grad), (0.0, (0.0, 0.0)));
}

#[test]
fn huber_across_the_kink() {
    let delta = 1.0;
    for r in [-2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0] {
        let (_, (dr, _)) = huber_grad(r, delta);
        assert_eq!(dr, oracles::huber_derivative(r, delta), "∂/∂r at {r}");
        let h = huber_hessian(r, delta);
        assert_eq!(h[0][0], oracles::huber_second_derivative(r, delta), "∂²/∂r² at {r}");
        let (_, slope) = huber_jvp(r, delta, 1.0, 0.0);
        assert_eq!(slope, dr);
    }
    assert_eq!(huber_hessian(0.0, delta)[0][0], 1.0);
}

#[test]
fn a_nan_branch_that_is_not_taken_is_never_evaluated() {
    assert_eq!(sqrt_or_zero_grad(-1.0), (0.0, 0.0));
    assert_eq!(sqrt_or_zero_hvp(-1.0, 1.0), (0.0, 0.0, 0.0));
    assert_eq!(sqrt_or_zero_jvp(-1.0, 1.0), (0.0, 0.0));
    assert_eq!(sqrt_or_zero_grad(4.0), (2.0, 0.25));
    assert_eq!(sqrt_or_zero_hvp(4.0, 1.0).2, -1.0 / 32.0);
}

#[test]
fn jacobians_of_vector_functions() {
    let (r, t) = (2.0, 0.5);
    let (value, j) = polar_jacobian(r, t);
    assert_eq!(value, polar(r, t));
    let expected = [[t.cos(), -r * t.sin()], [t.sin(), r * t.cos()]];
    close("polar Jacobian", &flat(&j), &flat(&expected), 1e-15);
    let (tvalue, tj) = polar_tuple_jacobian(r, t);
    assert_eq!((tvalue, tj), ((value[0], value[1]), j));
    let (_, (dr, dt)) = polar_vjp(r, t, [1.0, 2.0]);
    close("vjp", &[dr, dt], &[j[0][0] + 2.0 * j[1][0], j[0][1] + 2.0 * j[1][1]], 1e-15);
    let (_, jv) = polar_jvp(r, t, 1.0, -1.0);
    close("jvp", &jv, &[j[0][0] - j[0][1], j[1][0] - j[1][1]], 1e-15);
}

#[test]
fn a_wide_jacobian_by_forward_mode_and_a_tall_one_by_reverse_mode() {
    assert_eq!(wave_jacobian_mode(), "forward");
    assert_eq!(moments_jacobian_mode(), "reverse");
    let (a, b, c) = (1.3, 0.7, -0.2);
    let (_, j) = wave_jacobian(a, b, c);
    #[allow(clippy::needless_range_loop)]
    for col in 0..3 {
        let numeric: Vec<f64> = (0..1000)
            .map(|row| fd(|p: (f64, f64, f64)| wave(p.0, p.1, p.2)[row], (a, b, c))[col])
            .step_by(97)
            .collect();
        let analytic: Vec<f64> = (0..1000).map(|row| j[row][col]).step_by(97).collect();
        close("wave column", &analytic, &numeric, 1e-6);
    }
    let x = point::<1000>(0.3);
    let (m, j) = moments_jacobian(x);
    assert_eq!(m, moments(x));
    for i in [0, 1, 499, 999] {
        close("moments row 0", &[j[0][i]], &[1.0], 0.0);
        close("moments row 1", &[j[1][i]], &[2.0 * x[i]], 1e-15);
        close("moments row 2", &[j[2][i]], &[i as f64], 0.0);
    }
}

/// Gradient and H·v of `f` against finite differences, through the flattened coordinates.
fn check_fd<T: Flat, G: Flat>(
    what: &str,
    f: impl Fn(T) -> f64,
    grad: impl Fn(T) -> (f64, G),
    hvp: impl Fn(T, T) -> (f64, G, G),
    x: T,
    v: T,
) {
    let (value, g) = grad(x);
    assert_eq!(value.to_bits(), f(x).to_bits(), "{what}: value");
    close(what, &flat(&g), &fd(&f, x), 1e-6);
    let (_, g2, hv) = hvp(x, v);
    assert_eq!(flat(&g2), flat(&g), "{what}: the gradient of _hvp");
    close(what, &flat(&hv), &fd_hvp(|x| grad(x).1, x, v), 1e-5);
}

#[test]
fn carried_state_stored_branches_and_element_updates() {
    let x6 = point::<6>(0.5).map(|e| 0.5 * e);
    let v6 = point::<6>(1.5);
    check_fd("running product", running_product, running_product_grad, running_product_hvp, x6, v6);
    let x5 = point::<5>(0.2);
    check_fd("prefix sums", prefix_sums, prefix_sums_grad, prefix_sums_hvp, x5, point::<5>(3.0));
    let clip = |p: ([f64; 6], f64)| clipped_squares(p.0, p.1);
    let clip_grad = |p: ([f64; 6], f64)| clipped_squares_grad(p.0, p.1);
    let clip_hvp = |p: ([f64; 6], f64), d: ([f64; 6], f64)| clipped_squares_hvp(p.0, p.1, d.0, d.1);
    check_fd("clipped squares", clip, clip_grad, clip_hvp, (x6, 0.8), (v6, 0.3));
    let sw = |p: (f64, f64)| switching(p.0, p.1);
    let sw_grad = |p: (f64, f64)| switching_grad(p.0, p.1);
    let sw_hvp = |p: (f64, f64), d: (f64, f64)| switching_hvp(p.0, p.1, d.0, d.1);
    check_fd("switching", sw, sw_grad, sw_hvp, (0.3, 0.4), (1.0, -0.5));
    // The matrix is taken by reference and differentiated too: its direction is a reference.
    type Mv = ([[f64; 3]; 2], [f64; 3]);
    let m = [[0.3, -1.2, 0.8], [1.1, 0.4, -0.6]];
    let bl = |p: Mv| bilinear(&p.0, p.1);
    let bl_grad = |p: Mv| bilinear_grad(&p.0, p.1);
    let bl_hvp = |p: Mv, d: Mv| bilinear_hvp(&p.0, p.1, &d.0, d.1);
    let dm = [[1.0, 0.5, -0.5], [0.2, -1.0, 0.3]];
    check_fd("bilinear", bl, bl_grad, bl_hvp, (m, [0.7, -0.3, 1.9]), (dm, [1.0, 2.0, -1.0]));
}

#[test]
fn flat_indices_in_several_loop_variables() {
    // `p[i * N + j + 1]` and `p[i * N + j]` in a 4 × 4 grid stored flat.
    let (x, v) = (point::<16>(0.4), point::<16>(2.1));
    check_fd(
        "flat grid",
        flat_grid::<4, 16>,
        flat_grid_grad::<4, 16>,
        flat_grid_hvp::<4, 16>,
        x,
        v,
    );
}
