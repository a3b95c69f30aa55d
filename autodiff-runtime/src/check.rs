//! Finite-difference checkers for generated derivatives, for use in your own tests.
//!
//! Central differences with a step scaled to each coordinate (`h = ε^(1/3) · max(1, |xᵢ|)`) are
//! accurate to about eight significant digits on smooth functions, so compare with a
//! [`Tolerance`] of that order, not to the last bit.

use std::fmt;

/// How close an analytic derivative and its finite-difference estimate must be.
///
/// Two numbers `a` and `b` agree when `|a - b| <= epsilon` or when
/// `|a - b| <= max_relative * max(|a|, |b|)` (the semantics of [`approx::relative_eq!`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerance {
    /// Absolute tolerance, used near zero.
    pub epsilon: f64,
    /// Relative tolerance, used away from zero.
    pub max_relative: f64,
}

impl Default for Tolerance {
    /// `epsilon = 1e-6`, `max_relative = 1e-6`: what central differences reach on well-scaled
    /// smooth functions.
    fn default() -> Self {
        Tolerance { epsilon: 1e-6, max_relative: 1e-6 }
    }
}

impl Tolerance {
    /// Whether `a` and `b` agree within this tolerance.
    pub fn agree(&self, a: f64, b: f64) -> bool {
        approx::relative_eq!(a, b, epsilon = self.epsilon, max_relative = self.max_relative)
    }
}

/// The first component where a derivative under test and its reference (a finite-difference
/// estimate, or the expected values given to [`check_close`]) disagree.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GradientMismatch {
    /// Index of the component (the parameter, in order).
    pub index: usize,
    /// The value under test (the generated derivative).
    pub value: f64,
    /// The reference it was compared with.
    pub reference: f64,
}

impl fmt::Display for GradientMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "component {}: {} but the reference is {} (difference {:e})",
            self.index,
            self.value,
            self.reference,
            self.value - self.reference
        )
    }
}

impl std::error::Error for GradientMismatch {}

/// The step used for coordinate `xi`: `ε^(1/3) · max(1, |xi|)`, which balances truncation and
/// rounding errors of a central difference.
fn step(xi: f64) -> f64 {
    f64::EPSILON.cbrt() * xi.abs().max(1.0)
}

/// Central difference `(f(x + h eᵢ) - f(x - h eᵢ)) / 2h` of `f` along coordinate `i`.
///
/// # Panics
/// If `i >= x.len()`.
pub fn central_difference<F: Fn(&[f64]) -> f64>(f: F, x: &[f64], i: usize, h: f64) -> f64 {
    let mut probe = x.to_vec();
    probe[i] = x[i] + h;
    let plus = f(&probe);
    probe[i] = x[i] - h;
    let minus = f(&probe);
    (plus - minus) / (2.0 * h)
}

/// Finite-difference estimate of the gradient of `f` at `x`, one central difference per
/// coordinate.
pub fn numeric_gradient<F: Fn(&[f64]) -> f64>(f: F, x: &[f64]) -> Vec<f64> {
    (0..x.len()).map(|i| central_difference(&f, x, i, step(x[i]))).collect()
}

/// Finite-difference estimate of the Hessian-vector product `H(x)·v`, as the central difference
/// of the gradient `grad` along `v`: `(∇f(x + hv) - ∇f(x - hv)) / 2h`.
///
/// # Panics
/// If `x` and `v` have different lengths, or `grad` returns a vector of another length.
pub fn numeric_hvp<G: Fn(&[f64]) -> Vec<f64>>(grad: G, x: &[f64], v: &[f64]) -> Vec<f64> {
    assert_eq!(x.len(), v.len(), "point and direction must have the same length");
    let scale = x.iter().fold(1.0_f64, |m, xi| m.max(xi.abs()));
    let norm = v.iter().fold(0.0_f64, |m, vi| m.max(vi.abs())).max(f64::MIN_POSITIVE);
    let h = f64::EPSILON.cbrt() * scale / norm;
    let shifted = |sign: f64| -> Vec<f64> {
        let probe: Vec<f64> = x.iter().zip(v).map(|(xi, vi)| xi + sign * h * vi).collect();
        grad(&probe)
    };
    let (plus, minus) = (shifted(1.0), shifted(-1.0));
    assert_eq!(plus.len(), x.len(), "the gradient must have one component per coordinate");
    plus.iter().zip(&minus).map(|(p, m)| (p - m) / (2.0 * h)).collect()
}

/// Compares a derivative under test with reference values (say, a hand-written gradient),
/// component by component.
///
/// ```
/// use autodiff_runtime::{check_close, Tolerance};
///
/// assert!(check_close(&[1.0, 2.0], &[1.0, 2.0 + 1e-12], Tolerance::default()).is_ok());
/// assert_eq!(check_close(&[1.0, 2.0], &[1.0, 2.5], Tolerance::default()).unwrap_err().index, 1);
/// ```
///
/// # Errors
/// The first component that disagrees beyond `tol`.
///
/// # Panics
/// If `values` and `reference` have different lengths.
pub fn check_close(
    values: &[f64],
    reference: &[f64],
    tol: Tolerance,
) -> Result<(), GradientMismatch> {
    assert_eq!(values.len(), reference.len(), "one value per reference component is expected");
    match values.iter().zip(reference).position(|(a, r)| !tol.agree(*a, *r)) {
        None => Ok(()),
        Some(index) => {
            Err(GradientMismatch { index, value: values[index], reference: reference[index] })
        }
    }
}

/// Checks a gradient `grad` of `f` at `x` against central finite differences.
///
/// ```
/// use autodiff_runtime::{check_gradient, Tolerance};
///
/// let f = |x: &[f64]| x[0] * x[1].sin();
/// let (x0, x1) = (2.0_f64, 0.5_f64);
/// let grad = [x1.sin(), x0 * x1.cos()];
/// assert!(check_gradient(f, &[x0, x1], &grad, Tolerance::default()).is_ok());
/// ```
///
/// # Errors
/// The first component that disagrees beyond `tol`.
///
/// # Panics
/// If `grad` and `x` have different lengths.
pub fn check_gradient<F: Fn(&[f64]) -> f64>(
    f: F,
    x: &[f64],
    grad: &[f64],
    tol: Tolerance,
) -> Result<(), GradientMismatch> {
    check_close(grad, &numeric_gradient(f, x), tol)
}

/// Checks a Hessian-vector product `hv = H(x)·v` against central differences of the gradient
/// function `grad` along `v`.
///
/// # Errors
/// The first component that disagrees beyond `tol`.
///
/// # Panics
/// If the lengths of `x`, `v`, `hv` and the gradient differ.
pub fn check_hvp<G: Fn(&[f64]) -> Vec<f64>>(
    grad: G,
    x: &[f64],
    v: &[f64],
    hv: &[f64],
    tol: Tolerance,
) -> Result<(), GradientMismatch> {
    check_close(hv, &numeric_hvp(grad, x, v), tol)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gradient_of_a_closed_form_is_accepted_and_a_wrong_one_rejected() {
        let f = |x: &[f64]| x[0].exp() * x[1] * x[1];
        let x: [f64; 2] = [0.3, -1.2];
        let right = [x[0].exp() * x[1] * x[1], 2.0 * x[0].exp() * x[1]];
        assert_eq!(check_gradient(f, &x, &right, Tolerance::default()), Ok(()));
        let wrong = [right[0], right[1] * 1.001];
        let err = check_gradient(f, &x, &wrong, Tolerance::default()).unwrap_err();
        assert_eq!(err.index, 1);
    }

    #[test]
    fn hvp_of_a_closed_form_is_accepted() {
        // f = x0^2 x1 + x1^3: H = [[2 x1, 2 x0], [2 x0, 6 x1]]
        let grad = |x: &[f64]| vec![2.0 * x[0] * x[1], x[0] * x[0] + 3.0 * x[1] * x[1]];
        let (x, v) = ([1.5, -0.5], [0.25, 2.0]);
        let hv = [2.0 * x[1] * v[0] + 2.0 * x[0] * v[1], 2.0 * x[0] * v[0] + 6.0 * x[1] * v[1]];
        assert_eq!(check_hvp(grad, &x, &v, &hv, Tolerance::default()), Ok(()));
        assert!(check_hvp(grad, &x, &v, &[hv[0], hv[1] + 1e-3], Tolerance::default()).is_err());
    }
}
