//! ADBench's Gaussian mixture model: the negative log-likelihood's opposite, the log-likelihood
//! of `n` points under `K` Gaussians in `D` dimensions plus a Wishart prior on the inverse
//! covariances (ADBench's `gmm_objective` of `src/cpp/shared/gmm.h`), and its gradient by hand
//! ([`manual`], ADBench's `gmm_objective_d` of `src/cpp/modules/manual/gmm_d.cpp`).
//!
//! The parameters, as in ADBench: `alphas`, the `K` unnormalised log mixture weights; `means`,
//! `K` means of `D` coordinates; `icf`, per component the lower-triangular factor `Q` of the
//! inverse covariance (`Σ⁻¹ = QᵀQ`), stored as the `D` logarithms of its diagonal followed by
//! its strictly lower part column by column, `ICF = D (D + 1) / 2` numbers. The Wishart prior has the parameters `gamma`
//! and `m`.
//!
//! Differences from ADBench's C++, all forced by the macro's subset or by Rust:
//! - `icf`'s length `ICF` is a const generic of its own (stable Rust cannot write
//!   `D * (D + 1) / 2` in a type); the caller must pass `ICF = D (D + 1) / 2`
//!   ([`icf_len`]); the points are a slice, so `n` is known at run time.
//! - ADBench walks the strictly lower part with a counter (`Lparamsidx++`); written when the
//!   macro refused integer counters, the index here is computed, [`ltri`]'s formula written out
//!   (`src/counters.rs` has the counter form of this objective, checked against a twin that
//!   computes the index).
//! - `π` is `std::f64::consts::PI` (ADBench's `PI` is `3.14159265359`), which moves the constant
//!   term by about 10⁻¹² relative; the gradient does not depend on it.
//! - ADBench's `log_gamma_distrib` calls C's `lgamma`, which Rust's stable `std` does not have:
//!   [`ln_gamma`] is a Lanczos approximation (the term is a constant of the objective).
// Index loops are the macro's subset, and ADBench's C++ loops ported as written.
#![allow(clippy::needless_range_loop)]

use autodiff_runtime::grad;

/// `D (D + 1) / 2`, the length of one component's `icf`.
pub const fn icf_len(d: usize) -> usize {
    d * (d + 1) / 2
}

/// Where the strictly lower entry `(row, col)` (`row > col`) of a component's factor is in its
/// `icf`: after the `d` logarithms of the diagonal, column after column (column `c` has
/// `d - c - 1` entries).
pub const fn ltri(d: usize, row: usize, col: usize) -> usize {
    d + col * (2 * d - col - 1) / 2 + row - col - 1
}

/// `ln Γ(x)` for `x ≥ 1/2`, by Lanczos' approximation (`g = 7`, nine terms), accurate to about
/// 10⁻¹⁵ relative: in place of C's `lgamma`, which Rust's stable `std` lacks.
pub fn ln_gamma(x: f64) -> f64 {
    const G: f64 = 7.0;
    const P: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    let x = x - 1.0;
    let mut a = P[0];
    for (i, p) in P.iter().enumerate().skip(1) {
        a += p / (x + i as f64);
    }
    let t = x + G + 0.5;
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

/// ADBench's `log_gamma_distrib(a, p)`: the logarithm of the multivariate gamma function
/// `Γ_p(a) = π^{p(p−1)/4} Πⱼ Γ(a + (1 − j)/2)`.
pub fn log_gamma_distrib(a: f64, p: usize) -> f64 {
    let mut out = 0.25 * (p * (p - 1)) as f64 * std::f64::consts::PI.ln();
    for j in 1..=p {
        out += ln_gamma(a + 0.5 * (1.0 - j as f64));
    }
    out
}

/// ADBench's `logsumexp` (`gmm.h`): `ln Σᵢ exp(xᵢ − max x) + max x`, the maximum by `max` as
/// ADBench's `arr_max` takes it by `fmax`.
#[grad]
pub fn logsumexp<const K: usize>(x: &[f64; K]) -> f64 {
    let mut mx = x[0];
    for i in 1..K {
        mx = mx.max(x[i]);
    }
    let mut semx = 0.0;
    for i in 0..K {
        semx += (x[i] - mx).exp();
    }
    semx.ln() + mx
}

/// ADBench's `gmm_objective`: the log-likelihood of the points `x` (each `D` coordinates) under
/// the mixture, plus the log Wishart prior `log_wishart_prior` with parameters `gamma` and `m`
/// (ADBench's `Wishart { gamma, m }`).
///
/// `ICF` must be `D (D + 1) / 2` ([`icf_len`]).
#[grad(wrt(alphas, means, icf))]
pub fn objective<const D: usize, const K: usize, const ICF: usize>(
    alphas: &[f64; K],
    means: &[[f64; D]; K],
    icf: &[[f64; ICF]; K],
    x: &[[f64; D]],
    gamma: f64,
    m: usize,
) -> f64 {
    let n = x.len();
    // preprocess_qs: the sums of the log-diagonals and the diagonals.
    let mut sum_qs = [0.0; K];
    let mut qdiags = [[0.0; D]; K];
    for k in 0..K {
        for j in 0..D {
            sum_qs[k] += icf[k][j];
            qdiags[k][j] = icf[k][j].exp();
        }
    }
    let mut slse = 0.0;
    for i in 0..n {
        let mut main_term = [0.0; K];
        for k in 0..K {
            // xcentered = x - mean; Qxcentered = Q · xcentered (Qtimesx).
            let mut xcentered = [0.0; D];
            let mut qxcentered = [0.0; D];
            for j in 0..D {
                xcentered[j] = x[i][j] - means[k][j];
                qxcentered[j] = qdiags[k][j] * xcentered[j];
            }
            for c in 0..D {
                for r in c + 1..D {
                    qxcentered[r] += icf[k][D + c * (2 * D - c - 1) / 2 + r - c - 1] * xcentered[c];
                }
            }
            let mut sqnorm = 0.0;
            for j in 0..D {
                sqnorm += qxcentered[j] * qxcentered[j];
            }
            main_term[k] = alphas[k] + sum_qs[k] - 0.5 * sqnorm;
        }
        slse += logsumexp(&main_term);
    }
    let lse_alphas = logsumexp(alphas);
    // log_wishart_prior.
    let n_w = D + m + 1;
    let c = (n_w * D) as f64 * (gamma.ln() - 0.5 * std::f64::consts::LN_2)
        - log_gamma_distrib(0.5 * n_w as f64, D);
    let mut prior = 0.0;
    for k in 0..K {
        let mut frobenius = 0.0;
        for j in 0..D {
            frobenius += qdiags[k][j] * qdiags[k][j];
        }
        for j in D..ICF {
            frobenius += icf[k][j] * icf[k][j];
        }
        prior += 0.5 * gamma * gamma * frobenius - m as f64 * sum_qs[k];
    }
    let constant = -((n * D) as f64) * 0.5 * (2.0 * std::f64::consts::PI).ln();
    constant + slse - n as f64 * lse_alphas + prior - K as f64 * c
}

/// ADBench's hand-written gradient (`src/cpp/modules/manual/gmm_d.cpp`), ported to Rust with
/// the buffers on the stack.
pub mod manual {
    use super::log_gamma_distrib;

    /// The gradient's shape: `(alphas, means, icf)`.
    pub type Gradient<const D: usize, const K: usize, const ICF: usize> =
        ([f64; K], [[f64; D]; K], [[f64; ICF]; K]);

    /// ADBench's `logsumexp_d`: the value of `logsumexp(x)`, and `x` overwritten by its
    /// gradient (the softmax), computed with the maximum's index as ADBench does.
    fn logsumexp_d<const K: usize>(x: &mut [f64; K]) -> f64 {
        let mut max_elem = 0;
        for i in 1..K {
            if x[max_elem] < x[i] {
                max_elem = i;
            }
        }
        let mx = x[max_elem];
        let mut semx = 0.0;
        for e in x.iter_mut() {
            *e = (*e - mx).exp();
            semx += *e;
        }
        if semx == 0.0 {
            x.fill(0.0);
        } else {
            x[max_elem] -= semx;
            for e in x.iter_mut() {
                *e /= semx;
            }
        }
        x[max_elem] += 1.0;
        semx.ln() + mx
    }

    /// ADBench's `Qtimesx`: `Q · x` for the factor whose diagonal is `qdiag` and whose strictly
    /// lower part is `icf[D..]`.
    fn q_times_x<const D: usize, const ICF: usize>(
        qdiag: &[f64; D],
        icf: &[f64; ICF],
        x: &[f64; D],
    ) -> [f64; D] {
        let mut out: [f64; D] = core::array::from_fn(|j| qdiag[j] * x[j]);
        let mut idx = D;
        for i in 0..D {
            for j in i + 1..D {
                out[j] += icf[idx] * x[i];
                idx += 1;
            }
        }
        out
    }

    /// ADBench's `Qtransposetimesx`: `Qᵀ · x`, into `out`.
    fn q_transpose_times_x<const D: usize, const ICF: usize>(
        qdiag: &[f64; D],
        icf: &[f64; ICF],
        x: &[f64; D],
        out: &mut [f64; D],
    ) {
        for i in 0..D {
            out[i] = qdiag[i] * x[i];
        }
        let mut idx = D;
        for i in 0..D {
            for j in i + 1..D {
                out[i] += icf[idx] * x[j];
                idx += 1;
            }
        }
    }

    /// ADBench's `gmm_objective_d`: the objective of [`super::objective`] and its gradient in
    /// `(alphas, means, icf)`. Per point and component it computes the partials of the
    /// component's term (`compute_q_inner_term`, `compute_L_inner_term`, `Qᵀ Q (x − μ)`), then
    /// weights them by the softmax of the terms (`logsumexp_d`).
    pub fn objective_grad<const D: usize, const K: usize, const ICF: usize>(
        alphas: &[f64; K],
        means: &[[f64; D]; K],
        icf: &[[f64; ICF]; K],
        x: &[[f64; D]],
        gamma: f64,
        m: usize,
    ) -> (f64, Gradient<D, K, ICF>) {
        let n = x.len();
        // preprocess_qs.
        let mut sum_qs = [0.0; K];
        let mut qdiags = [[0.0; D]; K];
        for k in 0..K {
            for j in 0..D {
                sum_qs[k] += icf[k][j];
                qdiags[k][j] = icf[k][j].exp();
            }
        }
        let mut alphas_d = [0.0; K];
        let mut means_d = [[0.0; D]; K];
        let mut icf_d = [[0.0; ICF]; K];
        // The partials of each component's term for the current point: `curr_means_d`, and
        // `curr_q_d` then `curr_L_d` side by side in `curr_icf_d`.
        let mut curr_means_d = [[0.0; D]; K];
        let mut curr_icf_d = [[0.0; ICF]; K];
        let mut main_term = [0.0; K];
        let mut slse = 0.0;
        for xi in x {
            for k in 0..K {
                let xcentered: [f64; D] = core::array::from_fn(|j| xi[j] - means[k][j]);
                let qx = q_times_x(&qdiags[k], &icf[k], &xcentered);
                q_transpose_times_x(&qdiags[k], &icf[k], &qx, &mut curr_means_d[k]);
                for j in 0..D {
                    curr_icf_d[k][j] = 1.0 - qdiags[k][j] * xcentered[j] * qx[j];
                }
                let mut idx = D;
                for i in 0..D {
                    for j in i + 1..D {
                        curr_icf_d[k][idx] = -xcentered[i] * qx[j];
                        idx += 1;
                    }
                }
                let sqnorm: f64 = qx.iter().map(|e| e * e).sum();
                main_term[k] = alphas[k] + sum_qs[k] - 0.5 * sqnorm;
            }
            slse += logsumexp_d(&mut main_term);
            for k in 0..K {
                let weight = main_term[k];
                alphas_d[k] += weight;
                for j in 0..D {
                    means_d[k][j] += curr_means_d[k][j] * weight;
                }
                for j in 0..ICF {
                    icf_d[k][j] += curr_icf_d[k][j] * weight;
                }
            }
        }
        let mut lse_alphas_d = *alphas;
        let lse_alphas = logsumexp_d(&mut lse_alphas_d);
        for k in 0..K {
            alphas_d[k] -= n as f64 * lse_alphas_d[k];
            for j in 0..D {
                icf_d[k][j] += gamma * gamma * qdiags[k][j] * qdiags[k][j] - m as f64;
            }
            for j in D..ICF {
                icf_d[k][j] += gamma * gamma * icf[k][j];
            }
        }
        let constant = -((n * D) as f64) * 0.5 * (2.0 * std::f64::consts::PI).ln();
        let err = constant + slse - n as f64 * lse_alphas;
        let prior = log_wishart_prior::<D, K, ICF>(gamma, m, &sum_qs, &qdiags, icf);
        (err + prior, (alphas_d, means_d, icf_d))
    }

    /// ADBench's `log_wishart_prior`.
    fn log_wishart_prior<const D: usize, const K: usize, const ICF: usize>(
        gamma: f64,
        m: usize,
        sum_qs: &[f64; K],
        qdiags: &[[f64; D]; K],
        icf: &[[f64; ICF]; K],
    ) -> f64 {
        let n = D + m + 1;
        let c = (n * D) as f64 * (gamma.ln() - 0.5 * std::f64::consts::LN_2)
            - log_gamma_distrib(0.5 * n as f64, D);
        let mut out = 0.0;
        for k in 0..K {
            let frobenius: f64 = qdiags[k].iter().map(|q| q * q).sum::<f64>()
                + icf[k][D..].iter().map(|l| l * l).sum::<f64>();
            out += 0.5 * gamma * gamma * frobenius - m as f64 * sum_qs[k];
        }
        out - K as f64 * c
    }
}
