//! Structs: a model's parameters in a struct (`&Model`, differentiated, the gradient a `Model`),
//! a twin taking the same parameters as separate arguments, and methods of a struct with
//! `#[grad]` on `&self` and `self`.

use autodiff_runtime::{Differentiable, grad};

/// The number of features of the logistic regression.
pub const FEATURES: usize = 8;

/// The parameters of a logistic regression: weights and a bias.
#[derive(Clone, Copy, Debug, PartialEq, Differentiable)]
pub struct Model {
    /// The weights, one per feature.
    pub w: [f64; 8],
    /// The bias.
    pub b: f64,
    /// The L2 penalty on the weights: not differentiated.
    #[no_grad]
    pub l2: f64,
}

/// The mean logistic loss of `m` over the samples `x` with labels `y` (±1), plus an L2 penalty
/// on the weights.
#[grad(jvp, hvp, hessian)]
#[allow(clippy::needless_range_loop)] // the same loops as the twin's
pub fn logistic(m: &Model, x: &[[f64; 8]], y: &[f64]) -> f64 {
    let mut s = 0.0;
    for k in 0..y.len() {
        let mut z = m.b;
        for j in 0..8 {
            z += m.w[j] * x[k][j];
        }
        s += (1.0 + (-y[k] * z).exp()).ln();
    }
    let mut r = 0.0;
    for j in 0..8 {
        r += m.w[j] * m.w[j];
    }
    s / y.len() as f64 + m.l2 * r
}

/// [`logistic`] with the model's fields as separate parameters: the same operations in the same
/// order, so the same values to the bit.
#[grad(jvp, hvp, hessian, wrt(w, b))]
#[allow(clippy::needless_range_loop)]
pub fn logistic_flat(w: &[f64; 8], b: f64, l2: f64, x: &[[f64; 8]], y: &[f64]) -> f64 {
    let mut s = 0.0;
    for k in 0..y.len() {
        let mut z = b;
        for j in 0..8 {
            z += w[j] * x[k][j];
        }
        s += (1.0 + (-y[k] * z).exp()).ln();
    }
    let mut r = 0.0;
    for j in 0..8 {
        r += w[j] * w[j];
    }
    s / y.len() as f64 + l2 * r
}

/// A spring of stiffness `k` and rest length `rest` between two points on a line.
#[derive(Clone, Copy, Debug, PartialEq, Differentiable)]
pub struct Spring {
    /// The stiffness.
    pub k: f64,
    /// The rest length.
    pub rest: f64,
}

impl Spring {
    /// The energy stored when the points are `x` apart: `k (x - rest)² / 2`.
    #[grad(jvp, hvp, hessian)]
    pub fn energy(&self, x: f64) -> f64 {
        let d = x - self.rest;
        0.5 * self.k * d * d
    }

    /// The same energy, the spring taken by value.
    #[grad(hvp)]
    pub fn energy_owned(self, x: f64) -> f64 {
        let d = x - self.rest;
        0.5 * self.k * d * d
    }
}
