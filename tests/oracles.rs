//! Checks the reference derivatives of `src/oracles.rs` before anything is measured against them:
//! every closed form against central finite differences, every hand-written kernel against the
//! closed forms (to rounding), Hessians for symmetry, and the special cases the formulas single
//! out (`N = 1` and `N = 2` of the lessons' function, the kink of the Huber loss, the force and
//! torque balance of Lennard-Jones).

use autodiff_runtime::{Tolerance, check_close, check_gradient, check_hvp, numeric_hvp};
use autodiff_suite::bench_fns::handwritten::rosenbrock_grad;
use autodiff_suite::oracles::{self, LAYER, handwritten};

/// Two programs for the same derivative differ only by rounding.
const SAME: Tolerance = Tolerance { epsilon: 1e-12, max_relative: 1e-12 };

/// What central differences reach on these functions; see `autodiff_runtime::check`.
const FD: Tolerance = Tolerance { epsilon: 1e-6, max_relative: 1e-6 };

fn assert_close(what: &str, values: &[f64], reference: &[f64], tol: Tolerance) {
    if let Err(mismatch) = check_close(values, reference, tol) {
        panic!("{what}: {mismatch}");
    }
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// A deterministic, irregular point in `[-scale, scale]ᴺ`, different for each `seed`.
fn point<const N: usize>(seed: f64, scale: f64) -> [f64; N] {
    core::array::from_fn(|i| {
        scale * (1.7 * i as f64 + seed).sin() * (0.37 * i as f64 + 2.0 * seed).cos()
    })
}

fn array<const N: usize>(x: &[f64]) -> [f64; N] {
    x.try_into().expect("a slice of the array's length")
}

/// `v · H w = w · H v` for a Hessian-vector product `hv`, at `x`, for a few direction pairs.
fn assert_hvp_symmetric<const N: usize>(what: &str, hv: impl Fn([f64; N]) -> [f64; N]) {
    for seed in [0.3, 1.1, 2.9] {
        let (v, w) = (point::<N>(seed, 1.0), point::<N>(seed + 5.0, 1.0));
        let (v_hw, w_hv) = (dot(&v, &hv(w)), dot(&w, &hv(v)));
        assert_close(&format!("{what}: v·Hw against w·Hv"), &[v_hw], &[w_hv], SAME);
    }
}

/// A dense Hessian is symmetric and its product with `v` is `hv(v)`.
fn assert_hessian_consistent<const N: usize>(
    what: &str,
    h: &[[f64; N]; N],
    hv: impl Fn([f64; N]) -> [f64; N],
) {
    for (i, row) in h.iter().enumerate() {
        let column: Vec<f64> = h.iter().map(|r| r[i]).collect();
        assert_close(&format!("{what}: row {i} against column {i}"), row, &column, SAME);
    }
    for seed in [0.4, 1.9] {
        let v = point::<N>(seed, 1.0);
        let h_v: Vec<f64> = h.iter().map(|row| dot(row, &v)).collect();
        assert_close(&format!("{what}: dense H·v against the closed-form H·v"), &h_v, &hv(v), SAME);
    }
}

// ---------------------------------------------------------------------------------------------
// The lessons' function.

/// Every check of the lessons' function at `N` coordinates, at a few points.
fn check_lessons<const N: usize>() {
    let f = |x: &[f64]| oracles::lessons(array::<N>(x));
    for seed in [0.0, 0.8, 2.3] {
        let x = point::<N>(seed, 2.0);
        let value = oracles::lessons(x);
        let naive: f64 = (0..N).map(|i| x[i].sin() * x[(i + N - 1) % N]).sum();
        assert_close("value against the indexed sum", &[value], &[naive], SAME);

        let grad = oracles::lessons_gradient(x);
        if let Err(e) = check_gradient(f, &x, &grad, FD) {
            panic!("lessons_gradient, N = {N}, at {x:?}: {e}");
        }
        let (hand_value, hand_grad) = handwritten::lessons_grad(x);
        assert_close("lessons_grad value", &[hand_value], &[value], SAME);
        assert_close("lessons_grad against the closed form", &hand_grad, &grad, SAME);

        for dir_seed in [0.5, 3.1] {
            let v = point::<N>(dir_seed, 1.0);
            let hv = oracles::lessons_hv(x, v);
            let gradient = |p: &[f64]| oracles::lessons_gradient(array::<N>(p)).to_vec();
            if let Err(e) = check_hvp(gradient, &x, &v, &hv, FD) {
                panic!("lessons_hv, N = {N}, at {x:?} along {v:?}: {e}");
            }
            let (hvp_value, hvp_grad, hand_hv) = handwritten::lessons_hvp(x, v);
            assert_close("lessons_hvp value", &[hvp_value], &[value], SAME);
            assert_close("lessons_hvp gradient", &hvp_grad, &grad, SAME);
            assert_close("lessons_hvp against the closed form", &hand_hv, &hv, SAME);
        }
        assert_hvp_symmetric("lessons_hvp", |v| handwritten::lessons_hvp(x, v).2);
    }
}

#[test]
fn lessons_derivatives_match_finite_differences_and_each_other() {
    check_lessons::<1>();
    check_lessons::<2>();
    check_lessons::<3>();
    check_lessons::<4>();
    check_lessons::<10>();
    check_lessons::<100>();
}

#[test]
fn lessons_at_a_thousand_coordinates() {
    let x = point::<1000>(0.6, 2.0);
    let f = |p: &[f64]| oracles::lessons(array::<1000>(p));
    let grad = oracles::lessons_gradient(x);
    if let Err(e) = check_gradient(f, &x, &grad, FD) {
        panic!("lessons_gradient, N = 1000: {e}");
    }
    let (value, hand_grad) = handwritten::lessons_grad(x);
    assert_close("value", &[value], &[oracles::lessons(x)], SAME);
    assert_close("lessons_grad against the closed form", &hand_grad, &grad, SAME);
    let v = point::<1000>(1.3, 1.0);
    let hv = oracles::lessons_hv(x, v);
    let gradient = |p: &[f64]| oracles::lessons_gradient(array::<1000>(p)).to_vec();
    if let Err(e) = check_hvp(gradient, &x, &v, &hv, FD) {
        panic!("lessons_hv, N = 1000: {e}");
    }
    let (_, hvp_grad, hand_hv) = handwritten::lessons_hvp(x, v);
    assert_close("lessons_hvp gradient", &hvp_grad, &grad, SAME);
    assert_close("lessons_hvp against the closed form", &hand_hv, &hv, SAME);
}

#[test]
fn lessons_with_one_and_two_coordinates_follow_their_own_formulas() {
    // N = 1: f = x sin x, f' = x cos x + sin x, f'' = 2 cos x - x sin x.
    for x in [0.0_f64, 0.7, -2.2] {
        let (value, [g]) = handwritten::lessons_grad([x]);
        assert_close("N = 1 value", &[value], &[x * x.sin()], SAME);
        assert_close("N = 1 derivative", &[g], &[x * x.cos() + x.sin()], SAME);
        let h = 2.0 * x.cos() - x * x.sin();
        assert_close("N = 1 Hessian", &oracles::lessons_hessian([x])[0], &[h], SAME);
        assert_close("N = 1 hvp", &handwritten::lessons_hvp([x], [1.5]).2, &[1.5 * h], SAME);
    }
    // N = 2: f = sin(x0) x1 + sin(x1) x0; both neighbours of a coordinate are the other one.
    let (x0, x1): (f64, f64) = (0.9, -1.4);
    let expected_grad = [x0.cos() * x1 + x1.sin(), x1.cos() * x0 + x0.sin()];
    assert_close("N = 2 gradient", &handwritten::lessons_grad([x0, x1]).1, &expected_grad, SAME);
    let off = x0.cos() + x1.cos();
    let expected = [[-x0.sin() * x1, off], [off, -x1.sin() * x0]];
    let h = oracles::lessons_hessian([x0, x1]);
    assert_close("N = 2 Hessian row 0", &h[0], &expected[0], SAME);
    assert_close("N = 2 Hessian row 1", &h[1], &expected[1], SAME);
    assert_close(
        "N = 2 hvp along e1",
        &handwritten::lessons_hvp([x0, x1], [0.0, 1.0]).2,
        &[off, expected[1][1]],
        SAME,
    );
}

#[test]
fn lessons_dense_hessians_are_symmetric_and_agree_with_the_hvp() {
    fn check<const N: usize>() {
        for seed in [0.2, 1.7] {
            let x = point::<N>(seed, 2.0);
            let h = oracles::lessons_hessian(x);
            assert_hessian_consistent("lessons", &h, |v| oracles::lessons_hv(x, v));
            // Each column is the central difference of the gradient along a unit vector.
            for j in 0..N {
                let e: [f64; N] = core::array::from_fn(|i| if i == j { 1.0 } else { 0.0 });
                let gradient = |p: &[f64]| oracles::lessons_gradient(array::<N>(p)).to_vec();
                let column: Vec<f64> = h.iter().map(|row| row[j]).collect();
                if let Err(err) = check_hvp(gradient, &x, &e, &column, FD) {
                    panic!("lessons_hessian column {j}, N = {N}: {err}");
                }
            }
        }
    }
    check::<1>();
    check::<2>();
    check::<3>();
    check::<7>();
}

// ---------------------------------------------------------------------------------------------
// The extended Rosenbrock function.

/// Finite differences on Rosenbrock's values (up to about 10⁴ at these points) carry a rounding
/// error of about `ε f / h ≈ 10⁻⁶` in absolute terms; components are up to 10³.
const FD_ROSENBROCK: Tolerance = Tolerance { epsilon: 1e-5, max_relative: 1e-6 };

fn check_extended_rosenbrock<const N: usize>() {
    let f = |x: &[f64]| oracles::extended_rosenbrock(array::<N>(x));
    for seed in [0.0, 0.8, 2.3] {
        let x = point::<N>(seed, 1.5);
        let value = oracles::extended_rosenbrock(x);
        let naive: f64 = (0..N - 1)
            .map(|i| 100.0 * (x[i + 1] - x[i].powi(2)).powi(2) + (1.0 - x[i]).powi(2))
            .sum();
        assert_close("value against the indexed sum", &[value], &[naive], SAME);
        let grad = oracles::extended_rosenbrock_gradient(x);
        if let Err(e) = check_gradient(f, &x, &grad, FD_ROSENBROCK) {
            panic!("extended_rosenbrock_gradient, N = {N}, at {x:?}: {e}");
        }
        let (hand_value, hand_grad) = handwritten::extended_rosenbrock_grad(x);
        assert_close("extended_rosenbrock_grad value", &[hand_value], &[value], SAME);
        assert_close("extended_rosenbrock_grad against the closed form", &hand_grad, &grad, SAME);
        for dir_seed in [0.5, 3.1] {
            let v = point::<N>(dir_seed, 1.0);
            let hv = oracles::extended_rosenbrock_hv(x, v);
            let gradient =
                |p: &[f64]| oracles::extended_rosenbrock_gradient(array::<N>(p)).to_vec();
            if let Err(e) = check_hvp(gradient, &x, &v, &hv, FD_ROSENBROCK) {
                panic!("extended_rosenbrock_hv, N = {N}, at {x:?}: {e}");
            }
            let (hvp_value, hvp_grad, hand_hv) = handwritten::extended_rosenbrock_hvp(x, v);
            assert_close("extended_rosenbrock_hvp value", &[hvp_value], &[value], SAME);
            assert_close("extended_rosenbrock_hvp gradient", &hvp_grad, &grad, SAME);
            assert_close("extended_rosenbrock_hvp against the closed form", &hand_hv, &hv, SAME);
        }
        assert_hvp_symmetric("extended_rosenbrock_hvp", |v| {
            handwritten::extended_rosenbrock_hvp(x, v).2
        });
        if N <= 10 {
            let h = oracles::extended_rosenbrock_hessian(x);
            assert_hessian_consistent("extended_rosenbrock", &h, |v| {
                oracles::extended_rosenbrock_hv(x, v)
            });
        }
    }
}

#[test]
fn extended_rosenbrock_derivatives_match_finite_differences_and_each_other() {
    check_extended_rosenbrock::<2>();
    check_extended_rosenbrock::<3>();
    check_extended_rosenbrock::<8>();
    check_extended_rosenbrock::<100>();
}

#[test]
fn extended_rosenbrock_at_two_coordinates_is_the_benchmark_rosenbrock() {
    for (x, y) in [(-1.2, 1.0), (0.5, -0.3), (2.0, 3.5)] {
        let (value, (gx, gy)) = rosenbrock_grad(x, y);
        let (ext_value, ext_grad) = handwritten::extended_rosenbrock_grad([x, y]);
        assert_close("value", &[ext_value], &[value], SAME);
        assert_close("gradient", &ext_grad, &[gx, gy], SAME);
    }
}

#[test]
fn extended_rosenbrock_at_its_minimum() {
    let ones = [1.0; 100];
    let (value, grad) = handwritten::extended_rosenbrock_grad(ones);
    assert_eq!(value, 0.0);
    assert_eq!(grad, [0.0; 100]);
    // H = tridiag(-400, [802, 1002, …, 1002, 200], -400).
    let h = oracles::extended_rosenbrock_hessian([1.0; 5]);
    assert_eq!(h[0], [802.0, -400.0, 0.0, 0.0, 0.0]);
    assert_eq!(h[2], [0.0, -400.0, 1002.0, -400.0, 0.0]);
    assert_eq!(h[4], [0.0, 0.0, 0.0, -400.0, 200.0]);
}

// ---------------------------------------------------------------------------------------------
// The dense tanh layer.

/// The 272 parameters of the 16 × 16 layer: the weights row by row, then the biases.
const LAYER_PARAMS: usize = LAYER * LAYER + LAYER;

type Weights = [[f64; LAYER]; LAYER];
type Biases = [f64; LAYER];

fn pack(w: &Weights, b: &Biases) -> Vec<f64> {
    w.iter().flatten().chain(b).copied().collect()
}

fn unpack(p: &[f64]) -> (Weights, Biases) {
    assert_eq!(p.len(), LAYER_PARAMS);
    let w = core::array::from_fn(|i| core::array::from_fn(|j| p[i * LAYER + j]));
    (w, core::array::from_fn(|i| p[LAYER * LAYER + i]))
}

/// Weights and biases of size about `scale`, input and target of the layer for `seed`.
fn layer_point(seed: f64, scale: f64) -> (Weights, Biases, Biases, Biases) {
    let flat = point::<LAYER_PARAMS>(seed, scale);
    let (w, b) = unpack(&flat);
    (w, b, point::<LAYER>(seed + 7.0, 1.0), point::<LAYER>(seed + 11.0, 0.9))
}

#[test]
fn layer_derivatives_match_finite_differences_and_each_other() {
    // Small weights (tanh nearly linear), moderate ones, and large ones (outputs saturated).
    for (seed, scale) in [(0.1, 0.1), (1.3, 0.4), (2.6, 1.5)] {
        let (w, b, x, y) = layer_point(seed, scale);
        let loss = |p: &[f64]| {
            let (w, b) = unpack(p);
            oracles::layer_loss(w, b, x, y)
        };
        let value = oracles::layer_loss(w, b, x, y);
        let (gw, gb) = oracles::layer_gradient(w, b, x, y);
        let grad = pack(&gw, &gb);
        if let Err(e) = check_gradient(loss, &pack(&w, &b), &grad, FD) {
            panic!("layer_gradient at seed {seed}: {e}");
        }
        let (hand_value, (hw, hb)) = handwritten::layer_grad(w, b, x, y);
        assert_close("layer_grad value", &[hand_value], &[value], SAME);
        assert_close("layer_grad against the closed form", &pack(&hw, &hb), &grad, SAME);

        let gradient = |p: &[f64]| {
            let (w, b) = unpack(p);
            let (gw, gb) = oracles::layer_gradient(w, b, x, y);
            pack(&gw, &gb)
        };
        let hv = |dir: &[f64]| {
            let (w_dir, b_dir) = unpack(dir);
            let (hw, hb) = oracles::layer_hv(w, b, x, y, w_dir, b_dir);
            pack(&hw, &hb)
        };
        let hand_hv = |dir: &[f64]| {
            let (w_dot, b_dot) = unpack(dir);
            let (v, (gw, gb), (hw, hb)) = handwritten::layer_hvp(w, b, x, y, w_dot, b_dot);
            assert_close("layer_hvp value", &[v], &[value], SAME);
            assert_close("layer_hvp gradient", &pack(&gw, &gb), &grad, SAME);
            pack(&hw, &hb)
        };
        for dir_seed in [0.5, 3.1] {
            let dir = point::<LAYER_PARAMS>(dir_seed, 1.0);
            let closed = hv(&dir);
            if let Err(e) = check_hvp(gradient, &pack(&w, &b), &dir, &closed, FD) {
                panic!("layer_hv at seed {seed}: {e}");
            }
            assert_close("layer_hvp against the closed form", &hand_hv(&dir), &closed, SAME);
        }
        // A unit direction in one weight and one in one bias.
        for k in [37, LAYER * LAYER + 5] {
            let dir: Vec<f64> = (0..LAYER_PARAMS).map(|i| if i == k { 1.0 } else { 0.0 }).collect();
            let fd = numeric_hvp(gradient, &pack(&w, &b), &dir);
            assert_close("layer_hv along a unit vector", &hv(&dir), &fd, FD);
        }
        for dir_seed in [0.3, 1.1] {
            let (v, u) =
                (point::<LAYER_PARAMS>(dir_seed, 1.0), point::<LAYER_PARAMS>(dir_seed + 5.0, 1.0));
            assert_close(
                "layer_hvp: v·Hu against u·Hv",
                &[dot(&v, &hand_hv(&u))],
                &[dot(&u, &hand_hv(&v))],
                SAME,
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Lennard-Jones.

const EPSILON: f64 = 0.8;
const SIGMA: f64 = 1.1;

/// Eight atoms near the corners of a cube of side `1.2 σ`, each displaced differently.
fn cluster(seed: f64) -> [[f64; 3]; 8] {
    let jitter = point::<24>(seed, 0.15);
    core::array::from_fn(|a| {
        core::array::from_fn(|k| {
            let corner = ((a >> k) & 1) as f64;
            1.2 * SIGMA * corner + jitter[3 * a + k]
        })
    })
}

fn flatten_atoms(p: &[[f64; 3]; 8]) -> Vec<f64> {
    p.iter().flatten().copied().collect()
}

fn atoms(p: &[f64]) -> [[f64; 3]; 8] {
    core::array::from_fn(|a| core::array::from_fn(|k| p[3 * a + k]))
}

#[test]
fn lj_forces_are_minus_the_gradient_and_balance() {
    for seed in [0.0, 0.9, 2.4] {
        let positions = cluster(seed);
        let energy = |p: &[f64]| oracles::lj_energy(atoms(p), EPSILON, SIGMA);
        let forces = oracles::lj_forces(positions, EPSILON, SIGMA);
        let minus_forces: Vec<f64> = flatten_atoms(&forces).iter().map(|f| -f).collect();
        if let Err(e) = check_gradient(energy, &flatten_atoms(&positions), &minus_forces, FD) {
            panic!("lj_forces at seed {seed}: {e}");
        }
        let scale = forces.iter().flatten().fold(0.0_f64, |m, f| m.max(f.abs()));
        let tol = Tolerance { epsilon: 1e-13 * scale, max_relative: 0.0 };
        let total: [f64; 3] = core::array::from_fn(|k| forces.iter().map(|f| f[k]).sum());
        assert_close("sum of the forces", &total, &[0.0; 3], tol);
        // Σ pᵢ × Fᵢ = 0 for central pair forces (scaled by the positions, up to 2.5).
        let torque: [f64; 3] = core::array::from_fn(|k| {
            let (k1, k2) = ((k + 1) % 3, (k + 2) % 3);
            positions.iter().zip(&forces).map(|(p, f)| p[k1] * f[k2] - p[k2] * f[k1]).sum()
        });
        let tol = Tolerance { epsilon: 1e-12 * scale, max_relative: 0.0 };
        assert_close("sum of the torques", &torque, &[0.0; 3], tol);
    }
}

#[test]
fn lj_pair_matches_the_closed_form() {
    // Two atoms at distance r along x: E = 4ε (q¹² − q⁶), q = σ/r; the force on the first is
    // −dE/dr along −x.
    for r in [0.95 * SIGMA, SIGMA, 2.0_f64.powf(1.0 / 6.0) * SIGMA, 1.7 * SIGMA] {
        let pair = [[0.3, -0.2, 0.5], [0.3 + r, -0.2, 0.5]];
        let q = SIGMA / r;
        let e = 4.0 * EPSILON * (q.powi(12) - q.powi(6));
        let de_dr = 4.0 * EPSILON * (-12.0 * q.powi(12) + 6.0 * q.powi(6)) / r;
        assert_close("pair energy", &[oracles::lj_energy(pair, EPSILON, SIGMA)], &[e], SAME);
        let forces = oracles::lj_forces(pair, EPSILON, SIGMA);
        let tol = Tolerance { epsilon: 1e-12, max_relative: 1e-12 };
        assert_close("force on atom 0", &forces[0], &[de_dr, 0.0, 0.0], tol);
        assert_close("force on atom 1", &forces[1], &[-de_dr, 0.0, 0.0], tol);
    }
    // At the minimum of the pair potential: E = −ε, no force.
    let r_min = 2.0_f64.powf(1.0 / 6.0) * SIGMA;
    let pair = [[0.0; 3], [0.0, r_min, 0.0]];
    assert_close("minimum energy", &[oracles::lj_energy(pair, EPSILON, SIGMA)], &[-EPSILON], SAME);
    assert_close(
        "no force at the minimum",
        &oracles::lj_forces(pair, EPSILON, SIGMA)[0],
        &[0.0; 3],
        SAME,
    );
}

// ---------------------------------------------------------------------------------------------
// Explicit Euler.

#[test]
fn euler_decay_matches_its_closed_form_and_finite_differences() {
    for (x0, k, dt, steps) in [
        (1.0, 0.5, 0.01, 1000),
        (2.5, -0.3, 0.1, 37),
        (-0.7, 3.0, 0.05, 10),
        (1.3, 25.0, 0.1, 7),
        (0.4, 2.0, 0.2, 1),
    ] {
        let value = oracles::euler_decay(x0, k, dt, steps);
        let closed = oracles::euler_decay_closed_form(x0, k, dt, steps);
        assert_close(
            "Euler steps against (1 − k dt)^N",
            &[value],
            &[closed],
            Tolerance { epsilon: 1e-14, max_relative: 1e-11 },
        );
        let (d_x0, d_k) = oracles::euler_decay_gradient(x0, k, dt, steps);
        let f = |p: &[f64]| oracles::euler_decay(p[0], p[1], dt, steps);
        if let Err(e) = check_gradient(f, &[x0, k], &[d_x0, d_k], FD) {
            panic!("euler_decay_gradient at x0 = {x0}, k = {k}, dt = {dt}, N = {steps}: {e}");
        }
    }
    // No step: x_N = x0, (1, 0); one step: x0 (1 − k dt), (1 − k dt, −dt x0).
    assert_eq!(oracles::euler_decay(1.5, 2.0, 0.1, 0), 1.5);
    assert_eq!(oracles::euler_decay_gradient(1.5, 2.0, 0.1, 0), (1.0, 0.0));
    let (d_x0, d_k) = oracles::euler_decay_gradient(1.5, 2.0, 0.1, 1);
    assert_close("one step", &[d_x0, d_k], &[0.8, -0.15], SAME);
}

// ---------------------------------------------------------------------------------------------
// Gaussian negative log-likelihood.

const DATA: [f64; 7] = [1.2, -0.4, 2.7, 0.9, 1.6, -1.1, 0.3];

#[test]
fn gaussian_nll_derivatives_match_finite_differences() {
    let f = |p: &[f64]| oracles::gaussian_nll(p[0], p[1], &DATA);
    let gradient = |p: &[f64]| {
        let (d_mu, d_sigma) = oracles::gaussian_nll_gradient(p[0], p[1], &DATA);
        vec![d_mu, d_sigma]
    };
    for (mu, sigma) in [(0.0, 1.0), (0.7, 0.4), (-1.5, 2.5), (2.0, 0.9)] {
        let (d_mu, d_sigma) = oracles::gaussian_nll_gradient(mu, sigma, &DATA);
        if let Err(e) = check_gradient(f, &[mu, sigma], &[d_mu, d_sigma], FD) {
            panic!("gaussian_nll_gradient at ({mu}, {sigma}): {e}");
        }
        let h = oracles::gaussian_nll_hessian(mu, sigma, &DATA);
        assert_eq!(h[0][1], h[1][0], "the Hessian is symmetric");
        for (j, e) in [[1.0, 0.0], [0.0, 1.0]].iter().enumerate() {
            let column = [h[0][j], h[1][j]];
            if let Err(err) = check_hvp(gradient, &[mu, sigma], e, &column, FD) {
                panic!("gaussian_nll_hessian column {j} at ({mu}, {sigma}): {err}");
            }
        }
    }
}

#[test]
fn gaussian_nll_is_stationary_at_the_sample_mean_and_deviation() {
    let n = DATA.len() as f64;
    let mean = DATA.iter().sum::<f64>() / n;
    let sd = (DATA.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / n).sqrt();
    let (d_mu, d_sigma) = oracles::gaussian_nll_gradient(mean, sd, &DATA);
    assert_close(
        "gradient at the maximum-likelihood estimate",
        &[d_mu, d_sigma],
        &[0.0, 0.0],
        SAME,
    );
    // There the Hessian is diag(n, 2n) / σ².
    let h = oracles::gaussian_nll_hessian(mean, sd, &DATA);
    let s2 = sd * sd;
    let expected = [n / s2, 0.0, 0.0, 2.0 * n / s2];
    assert_close("Hessian at the estimate", &[h[0][0], h[0][1], h[1][0], h[1][1]], &expected, SAME);
}

// ---------------------------------------------------------------------------------------------
// Huber loss.

#[test]
fn huber_derivatives_match_finite_differences_away_from_the_kink() {
    let delta = 1.3;
    for r in [-4.0, -1.31, -1.0, -0.2, 0.0, 0.5, 1.29, 2.2, 10.0] {
        let f = |p: &[f64]| oracles::huber(p[0], delta);
        let d = oracles::huber_derivative(r, delta);
        if let Err(e) = check_gradient(f, &[r], &[d], FD) {
            panic!("huber_derivative at {r}: {e}");
        }
        let derivative = |p: &[f64]| vec![oracles::huber_derivative(p[0], delta)];
        let dd = oracles::huber_second_derivative(r, delta);
        if let Err(e) = check_hvp(derivative, &[r], &[1.0], &[dd], FD) {
            panic!("huber_second_derivative at {r}: {e}");
        }
    }
}

#[test]
fn huber_at_the_kink_takes_the_quadratic_branch() {
    let delta = 1.3;
    for r in [delta, -delta] {
        // Value and slope are continuous there; the curvature is the quadratic branch's.
        assert_close("value", &[oracles::huber(r, delta)], &[0.5 * delta * delta], SAME);
        assert_eq!(oracles::huber_derivative(r, delta), r);
        assert_eq!(oracles::huber_second_derivative(r, delta), 1.0);
        let outside = r * (1.0 + 1e-15);
        assert_eq!(oracles::huber_second_derivative(outside, delta), 0.0);
        assert_close(
            "slope just outside",
            &[oracles::huber_derivative(outside, delta)],
            &[r],
            SAME,
        );
    }
}
