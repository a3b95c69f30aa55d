//! ADBench's problems (`src/adbench/`): every generated derivative against the hand-written one
//! ported from ADBench's `manual` module (to about 1e-10 relative) and both against central
//! finite differences, at small sizes on pseudo-random data.

use autodiff_runtime::__private::Flat;
use autodiff_runtime::{Tolerance, check_close, numeric_gradient};
use autodiff_suite::adbench::data::{Ba, Gmm, Lstm};
use autodiff_suite::adbench::{ba, gmm, layer, lstm};

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

/// Panics unless `values` and `reference` agree to `tol`, relative to each component or, for
/// components that cancel down to little, to the largest component of the reference.
fn close(what: &str, values: &[f64], reference: &[f64], tol: f64) {
    let scale = reference.iter().fold(0.0_f64, |m, r| m.max(r.abs()));
    let tol = Tolerance { epsilon: tol * scale.max(1e-300), max_relative: tol };
    if let Err(e) = check_close(values, reference, tol) {
        panic!("{what}: {e}");
    }
}

/// Tolerance of a generated derivative against a hand-written one: both are exact up to
/// rounding.
const EXACT: f64 = 1e-10;

/// Tolerance against central differences.
const FD: f64 = 1e-6;

// ---------------------------------------------------------------------------------------------
// Gaussian mixture model.

const D: usize = 3;
const K: usize = 4;
const ICF: usize = gmm::icf_len(D);

type GmmParams = ([f64; K], [[f64; D]; K], [[f64; ICF]; K]);

fn gmm_instance() -> Box<Gmm<D, K, ICF>> {
    let mut g = Gmm::<D, K, ICF>::new(10, 7);
    // ADBench's data have m = 0; a nonzero m and gamma ≠ 1 exercise every term of the prior.
    g.gamma = 1.3;
    g.m = 2;
    g
}

#[test]
fn ln_gamma_matches_known_values() {
    let pi = std::f64::consts::PI;
    for (x, expected) in [(0.5, 0.5 * pi.ln()), (1.0, 0.0), (2.0, 0.0), (5.0, 24f64.ln())] {
        let got = gmm::ln_gamma(x);
        assert!((got - expected).abs() < 1e-13, "ln Γ({x}) = {got}, expected {expected}");
    }
    // Γ₂(a) = π^{1/2} Γ(a) Γ(a − 1/2), at a = 3: √π · 2 · (3/4)√π.
    let expected = (pi.sqrt() * 2.0 * 0.75 * pi.sqrt()).ln();
    assert!((gmm::log_gamma_distrib(3.0, 2) - expected).abs() < 1e-13);
}

#[test]
fn ltri_walks_the_columns_as_adbench_does() {
    let mut idx = 5;
    for col in 0..5 {
        for row in col + 1..5 {
            assert_eq!(gmm::ltri(5, row, col), idx);
            idx += 1;
        }
    }
    assert_eq!(idx, gmm::icf_len(5));
}

#[test]
fn gmm_gradient_matches_adbench_manual_and_finite_differences() {
    let g = gmm_instance();
    let (value, grad) = gmm::objective_grad(&g.alphas, &g.means, &g.icf, &g.x, g.gamma, g.m);
    let (m_value, m_grad) =
        gmm::manual::objective_grad(&g.alphas, &g.means, &g.icf, &g.x, g.gamma, g.m);
    let primal = gmm::objective(&g.alphas, &g.means, &g.icf, &g.x, g.gamma, g.m);
    close("gmm value", &[value, m_value], &[primal, primal], EXACT);
    close("gmm gradient, generated against manual", &flat(&grad), &flat(&m_grad), EXACT);
    let f = |p: &[f64]| {
        let (a, mu, q): GmmParams = unflat(p);
        gmm::objective(&a, &mu, &q, &g.x, g.gamma, g.m)
    };
    let params: GmmParams = (g.alphas, g.means, g.icf);
    let fd = numeric_gradient(f, &flat(&params));
    close("gmm gradient, generated against differences", &flat(&grad), &fd, FD);
    close("gmm gradient, manual against differences", &flat(&m_grad), &fd, FD);
}

#[test]
fn gmm_gradient_with_long_triangular_rows_matches_manual_and_finite_differences() {
    // D = 20: the sweep's rows of the factor have up to 19 elements, and those of 16 or more
    // run as two loops (`transform/fission.rs`), the shorter ones as one.
    const D2: usize = 20;
    const K2: usize = 3;
    const ICF2: usize = gmm::icf_len(D2);
    let mut g = Gmm::<D2, K2, ICF2>::new(6, 11);
    g.gamma = 1.3;
    g.m = 2;
    let (value, grad) = gmm::objective_grad(&g.alphas, &g.means, &g.icf, &g.x, g.gamma, g.m);
    let (m_value, m_grad) =
        gmm::manual::objective_grad(&g.alphas, &g.means, &g.icf, &g.x, g.gamma, g.m);
    let primal = gmm::objective(&g.alphas, &g.means, &g.icf, &g.x, g.gamma, g.m);
    close("gmm value", &[value, m_value], &[primal, primal], EXACT);
    close("gmm gradient, generated against manual", &flat(&grad), &flat(&m_grad), EXACT);
    type Params = ([f64; K2], [[f64; D2]; K2], [[f64; ICF2]; K2]);
    let f = |p: &[f64]| {
        let (a, mu, q): Params = unflat(p);
        gmm::objective(&a, &mu, &q, &g.x, g.gamma, g.m)
    };
    let params: Params = (g.alphas, g.means, g.icf);
    let fd = numeric_gradient(f, &flat(&params));
    close("gmm gradient, generated against differences", &flat(&grad), &fd, FD);
}

#[test]
fn gmm_of_one_gaussian_in_one_dimension_has_its_closed_form() {
    // K = 1, D = 1: Σᵢ ln N(xᵢ; μ, e^{−2q}) + prior, with the prior
    // ½γ²e^{2q} − m q − C, C = n_w (ln γ − ½ ln 2) − ln Γ(n_w / 2), n_w = m + 2.
    let (alpha, mu, q, gamma, m) = (0.3, 0.7, -0.4_f64, 1.3_f64, 2usize);
    let x = [[0.1], [1.5], [-0.8]];
    let s = q.exp();
    let log_lik: f64 = x
        .iter()
        .map(|[xi]| -0.5 * (2.0 * std::f64::consts::PI).ln() + q - 0.5 * (s * (xi - mu)).powi(2))
        .sum();
    let n_w = (m + 2) as f64;
    let c = n_w * (gamma.ln() - 0.5 * 2f64.ln()) - gmm::ln_gamma(0.5 * n_w);
    let prior = 0.5 * gamma * gamma * s * s - m as f64 * q - c;
    let got = gmm::objective(&[alpha], &[[mu]], &[[q]], &x, gamma, m);
    assert!((got - (log_lik + prior)).abs() < 1e-12, "{got} against {}", log_lik + prior);
}

// ---------------------------------------------------------------------------------------------
// Bundle adjustment.

/// The generated 2 × 15 block, row-major, against ADBench's, column-major.
fn column_major(j: &[[f64; 15]; 2]) -> Vec<f64> {
    (0..30).map(|k| j[k % 2][k / 2]).collect()
}

fn check_ba_block(cam: &[f64; 11], x: &[f64; 3], w: f64, feat: [f64; 2]) {
    let (err, jac) = ba::reproj_error_jacobian(cam, x, w, feat[0], feat[1]);
    let (m_err, m_jac) = ba::manual::reproj_error_d(cam, x, w, feat[0], feat[1]);
    let primal = ba::reproj_error(cam, x, w, feat[0], feat[1]);
    close("ba residual", &err, &primal, EXACT);
    close("ba residual, manual", &m_err, &primal, EXACT);
    close("ba block, generated against manual", &column_major(&jac), &m_jac, EXACT);
    let params: ([f64; 11], [f64; 3], f64) = (*cam, *x, w);
    for (row, grad) in jac.iter().enumerate() {
        let f = |p: &[f64]| {
            let (c, y, w): ([f64; 11], [f64; 3], f64) = unflat(p);
            ba::reproj_error(&c, &y, w, feat[0], feat[1])[row]
        };
        let fd = numeric_gradient(f, &flat(&params));
        close("ba block, generated against differences", grad, &fd, FD);
    }
}

#[test]
fn ba_block_matches_adbench_manual_and_finite_differences() {
    let ba = Ba::new(3, 5, 6, 11);
    for (i, (c, p)) in ba.obs.iter().enumerate() {
        check_ba_block(&ba.cams[*c], &ba.points[*p], ba.w[i], ba.feats[i]);
    }
}

#[test]
fn ba_block_without_rotation_takes_the_small_angle_branch() {
    let ba = Ba::new(1, 1, 1, 3);
    let mut cam = ba.cams[0];
    cam[..3].fill(0.0);
    check_ba_block(&cam, &ba.points[0], ba.w[0], ba.feats[0]);
}

#[test]
fn ba_weight_residual_matches_adbench_manual() {
    for w in [0.417, -1.3, 0.0] {
        let (value, grad) = ba::weight_error_grad(w);
        assert_eq!((value, grad), ba::manual::weight_error_d(w));
    }
}

// ---------------------------------------------------------------------------------------------
// LSTM.

const L: usize = 2;
const B: usize = 3;
const C: usize = 6;

type LstmParams = ([[[f64; B]; 8]; L], [[f64; B]; 3]);

#[test]
fn lstm_gradients_match_adbench_manual_the_adjoint_and_finite_differences() {
    let s = Lstm::<L, B>::new(C, 5);
    let seq: [[f64; B]; C] = s.sequence.clone().try_into().expect("C characters");
    let (main, extra, state) = (&s.main_params, &s.extra_params, &s.state);
    let primal = lstm::objective(main, extra, state, &seq);
    let (value, grad) = lstm::objective_grad(main, extra, state, &seq);
    let (d_value, d_grad) = lstm::objective_dyn_grad(main, extra, state, &s.sequence);
    let (m_value, m_grad) = lstm::manual::objective_grad(main, extra, state, &s.sequence);
    let (a_value, a_grad) = lstm::adjoint::objective_grad(main, extra, state, &s.sequence);
    let values =
        [value, d_value, m_value, a_value, lstm::objective_dyn(main, extra, state, &s.sequence)];
    close("lstm values", &values, &[primal; 5], EXACT);
    // The checkpointed sweep replays the stored one's operations: the same gradient to the bit.
    assert_eq!(flat(&grad), flat(&d_grad), "stored and checkpointed sweeps");
    close("lstm, generated against manual", &flat(&grad), &flat(&m_grad), EXACT);
    close("lstm, generated against the adjoint", &flat(&grad), &flat(&a_grad), EXACT);
    let f = |p: &[f64]| {
        let (main, extra): LstmParams = unflat(p);
        lstm::objective(&main, &extra, state, &seq)
    };
    let fd = numeric_gradient(f, &flat(&(*main, *extra)));
    close("lstm, generated against differences", &flat(&grad), &fd, FD);
    close("lstm, manual against differences", &flat(&m_grad), &fd, FD);
}

#[test]
fn lstm_over_two_characters_is_one_prediction() {
    // The shortest sequence the objective takes; ADBench's manual needs three characters.
    let s = Lstm::<1, 2>::new(2, 9);
    let seq: [[f64; 2]; 2] = s.sequence.clone().try_into().expect("2 characters");
    let (main, extra, state) = (&s.main_params, &s.extra_params, &s.state);
    let (_, grad) = lstm::objective_grad(main, extra, state, &seq);
    let (_, a_grad) = lstm::adjoint::objective_grad(main, extra, state, &s.sequence);
    close("lstm of 2 characters", &flat(&grad), &flat(&a_grad), EXACT);
}

// ---------------------------------------------------------------------------------------------
// Dense layer.

#[test]
fn dense_layer_matches_the_hand_written_gradient_and_finite_differences() {
    const N: usize = 4;
    const M: usize = 3;
    const P: usize = N * M + N;
    let mut r = autodiff_suite::adbench::data::Lcg::new(4);
    let p: [f64; P] = r.array(|r| r.uniform() - 0.5);
    let x: [f64; M] = r.array(|r| 2.0 * r.uniform() - 1.0);
    let y: [f64; N] = r.array(|r| r.uniform() - 0.5);
    let (value, grad) = layer::dense_grad(&p, &x, &y);
    let (h_value, h_grad) = layer::manual::dense_grad(&p, &x, &y);
    close("dense value", &[value, h_value], &[layer::dense(&p, &x, &y); 2], EXACT);
    close("dense, generated against hand-written", &grad, &h_grad, EXACT);
    let fd = numeric_gradient(|q: &[f64]| layer::dense(&unflat::<[f64; P]>(q), &x, &y), &p);
    close("dense, generated against differences", &grad, &fd, FD);
}
