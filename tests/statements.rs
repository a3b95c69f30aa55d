//! Statement forms beyond `let x = e;`, checked against closed forms.

use autodiff_suite::programs::{deferred, deferred_grad, deferred_hvp, deferred_jvp};

#[test]
fn deferred_initialisation_differentiates_like_a_let() {
    for x in [-2.0_f64, -0.3, 0.0, 0.7, 3.0] {
        let first = 2.0 * x * x.sin() + x * x * x.cos() + 1.0;
        let second = 2.0 * x.sin() + 4.0 * x * x.cos() - x * x * x.sin();
        let (value, slope) = deferred_grad(x);
        assert_eq!(value, deferred(x));
        approx::assert_relative_eq!(slope, first, max_relative = 1e-14, epsilon = 1e-14);
        let (_, tangent) = deferred_jvp(x, 0.5);
        approx::assert_relative_eq!(tangent, 0.5 * first, max_relative = 1e-14, epsilon = 1e-14);
        let (_, _, hv) = deferred_hvp(x, 2.0);
        approx::assert_relative_eq!(hv, 2.0 * second, max_relative = 1e-13, epsilon = 1e-13);
    }
}
