//! A value computed before a branch and read only on the side not taken (NaN there, or with a
//! NaN or infinite partial) leaves every derivative alone: values, gradients and second
//! derivatives against closed forms in `_grad`, `_jvp`, `_hvp` and `_hessian`, which agree.
//! (JAX's `where` gives NaN gradients here, the "double where" trap.)
#![allow(clippy::needless_range_loop)] // gradients and Hessians read best by index

use approx::assert_relative_eq;
use autodiff_suite::branch_sides::*;

/// A one-parameter corpus function with its generated derivatives.
struct Scalar {
    f: fn(f64) -> f64,
    grad: fn(f64) -> (f64, f64),
    jvp: fn(f64, f64) -> (f64, f64),
    hvp: fn(f64, f64) -> (f64, f64, f64),
    hessian: fn(f64) -> [[f64; 1]; 1],
}

/// `scalar!(f, f_grad, f_jvp, f_hvp, f_hessian)`.
macro_rules! scalar {
    ($f:ident, $grad:ident, $jvp:ident, $hvp:ident, $hessian:ident) => {
        Scalar { f: $f, grad: $grad, jvp: $jvp, hvp: $hvp, hessian: $hessian }
    };
}

/// Finite, and equal up to rounding (within 1e-13 of a zero).
fn close(what: &str, x: f64, got: f64, want: f64) {
    assert!(got.is_finite(), "{what} at {x}: {got}, not finite");
    assert_relative_eq!(got, want, epsilon = 1e-13, max_relative = 1e-12);
}

impl Scalar {
    /// Asserts value `value`, derivative `d` and second derivative `h` at `x` in every mode,
    /// the value equal to `f`'s to the bit.
    fn expect(&self, x: f64, value: f64, d: f64, h: f64) {
        let f = (self.f)(x);
        assert_eq!(f.to_bits(), value.to_bits(), "f({x}) = {f}, expected {value}");
        let (v, g) = (self.grad)(x);
        assert_eq!(v.to_bits(), f.to_bits(), "value of _grad at {x}");
        close("_grad", x, g, d);
        let (v, t) = (self.jvp)(x, 2.0);
        assert_eq!(v.to_bits(), f.to_bits(), "value of _jvp at {x}");
        close("_jvp", x, t, 2.0 * d);
        let (v, g2, hv) = (self.hvp)(x, -1.5);
        assert_eq!(v.to_bits(), f.to_bits(), "value of _hvp at {x}");
        assert_eq!(g2.to_bits(), g.to_bits(), "gradient of _hvp and _grad at {x}");
        close("_hvp", x, hv, -1.5 * h);
        close("_hessian", x, (self.hessian)(x)[0][0], h);
    }
}

#[test]
fn a_root_read_only_inside_the_unit_interval() {
    let f = scalar!(disk_root, disk_root_grad, disk_root_jvp, disk_root_hvp, disk_root_hessian);
    // √(1 − x²): derivative −x/√(1 − x²), second derivative −1/(1 − x²)^(3/2).
    f.expect(0.6, 0.8, -0.75, -1.0 / 0.512);
    f.expect(-0.6, 0.8, 0.75, -1.0 / 0.512);
    // Outside, where the root is NaN, and at ±1, where it is 0 and its partial infinite.
    for x in [2.0, -3.0, 1.0, -1.0, f64::INFINITY] {
        f.expect(x, 0.0, 0.0, 0.0);
    }
}

#[test]
fn a_root_read_only_above_five() {
    let f = scalar!(
        shifted_root,
        shifted_root_grad,
        shifted_root_jvp,
        shifted_root_hvp,
        shifted_root_hessian
    );
    // x²: 2x, 2.
    f.expect(1.0, 1.0, 2.0, 2.0);
    f.expect(-4.0, 16.0, -8.0, 2.0);
    // x √(x − 10): √(x − 10) + x / (2√(x − 10)), 1/√(x − 10) − x / (4 (x − 10)^(3/2)).
    f.expect(11.0, 11.0, 6.5, -1.75);
    f.expect(14.0, 28.0, 5.5, 0.0625);
}

#[test]
fn a_chain_of_two_statements_read_only_inside() {
    let f = scalar!(log_chain, log_chain_grad, log_chain_jvp, log_chain_hvp, log_chain_hessian);
    // a = ln(1 − x²), f = a²: f' = 2a a', f'' = 2a'² + 2a a'', a' = −2x/(1 − x²),
    // a'' = −2(1 + x²)/(1 − x²)².
    let x = 0.5_f64;
    let (a, da, dda) = (0.75_f64.ln(), -1.0 / 0.75, -2.0 * 1.25 / (0.75 * 0.75));
    f.expect(x, a * a, 2.0 * a * da, 2.0 * da * da + 2.0 * a * dda);
    // Outside, the logarithm is NaN (or −∞ at ±1, with an infinite partial).
    for x in [2.0, 1.0, -1.0, -7.0] {
        f.expect(x, x, 1.0, 0.0);
    }
}

#[test]
fn arrays_built_before_the_branch_and_read_only_inside() {
    let f = scalar!(
        built_arrays,
        built_arrays_grad,
        built_arrays_jvp,
        built_arrays_hvp,
        built_arrays_hessian
    );
    // √x ln x + (x − 1) + ln(x − 1): derivative ln x/(2√x) + 1/√x + 1 + 1/(x − 1), second
    // derivative −ln x/(4 x^(3/2)) − 1/(x − 1)².
    let x = 3.0_f64;
    let (s, l) = (x.sqrt(), x.ln());
    let d = l / (2.0 * s) + 1.0 / s + 1.0 + 1.0 / (x - 1.0);
    let h = -l / (4.0 * x * s) - 1.0 / ((x - 1.0) * (x - 1.0));
    let value = built_arrays(x);
    assert_relative_eq!(value, s * l + (x - 1.0) + (x - 1.0).ln(), max_relative = 1e-15);
    f.expect(x, value, d, h);
    // −x below 1, where the roots and logarithms are NaN (at 1, −∞ with infinite partials).
    for x in [0.5, 1.0, 0.0, -2.0] {
        f.expect(x, -x, -1.0, 0.0);
    }
}

#[test]
fn an_else_if_chain_whose_middle_arm_alone_reads_the_root() {
    let f =
        scalar!(middle_arm, middle_arm_grad, middle_arm_jvp, middle_arm_hvp, middle_arm_hessian);
    f.expect(-2.0, 2.0, -1.0, 0.0);
    f.expect(0.6, 0.8, -0.75, -1.0 / 0.512);
    f.expect(1.0, 1.0, 1.0, 0.0);
    f.expect(3.0, 3.0, 1.0, 0.0);
}

#[test]
fn an_else_if_chain_whose_first_two_arms_read_the_root() {
    let f = scalar!(two_arms, two_arms_grad, two_arms_jvp, two_arms_hvp, two_arms_hessian);
    // x²
    f.expect(1.0, 1.0, 2.0, 2.0);
    f.expect(10.0, 100.0, 20.0, 2.0);
    // √(x − 10) + 1: 1/(2√(x − 10)), −1/(4 (x − 10)^(3/2)).
    f.expect(11.0, 2.0, 0.5, -0.25);
    // x (√(x − 10) + 1): √(x − 10) + 1 + x/(2√(x − 10)), 1/√(x − 10) − x/(4 (x − 10)^(3/2)).
    f.expect(26.0, 130.0, 8.25, 0.25 - 26.0 / 256.0);
}

#[test]
fn element_loads_read_only_on_one_side() {
    // z = y₀√y₁ where y₀ > 0, y₀ elsewhere; f = z².
    let check = |y: [f64; 2], value: f64, grad: [f64; 2], hess: [[f64; 2]; 2]| {
        assert_eq!(element_root(y), value);
        let (v, g) = element_root_grad(y);
        assert_eq!((v, g), (value, grad), "_grad at {y:?}");
        let dir = [1.0, 0.5];
        let dot = grad[0] * dir[0] + grad[1] * dir[1];
        assert_eq!(element_root_jvp(y, dir), (value, dot), "_jvp at {y:?}");
        let (v, g, hv) = element_root_hvp(y, dir);
        assert_eq!((v, g), (value, grad), "_hvp at {y:?}");
        for i in 0..2 {
            close("_hvp", y[i], hv[i], hess[i][0] * dir[0] + hess[i][1] * dir[1]);
            for j in 0..2 {
                close("_hessian", y[i], element_root_hessian(y)[i][j], hess[i][j]);
            }
        }
    };
    // y₀² y₁: [2 y₀ y₁, y₀²], [[2 y₁, 2 y₀], [2 y₀, 0]].
    check([2.0, 9.0], 36.0, [36.0, 4.0], [[18.0, 4.0], [4.0, 0.0]]);
    // y₀²: [2 y₀, 0], [[2, 0], [0, 0]]; the root NaN, or 0 with an infinite partial.
    let square = [[2.0, 0.0], [0.0, 0.0]];
    check([-1.5, -4.0], 2.25, [-3.0, 0.0], square);
    check([-1.0, 0.0], 1.0, [-2.0, 0.0], square);
    check([0.0, -1.0], 0.0, [0.0, 0.0], square);
}

#[test]
fn a_copy_updated_by_a_store_read_only_on_one_side() {
    let check = |x: [f64; 2], value: f64, grad: [f64; 2], hess: [[f64; 2]; 2]| {
        assert_eq!(updated_copy(x), value);
        let (v, g) = updated_copy_grad(x);
        assert_eq!(v, value);
        let dir = [1.0, 0.5];
        let (vj, t) = updated_copy_jvp(x, dir);
        assert_eq!(vj, value);
        close("_jvp", x[0], t, grad[0] * dir[0] + grad[1] * dir[1]);
        let (vh, gh, hv) = updated_copy_hvp(x, dir);
        assert_eq!((vh, gh), (value, g));
        for i in 0..2 {
            close("_grad", x[i], g[i], grad[i]);
            close("_hvp", x[i], hv[i], hess[i][0] * dir[0] + hess[i][1] * dir[1]);
            for j in 0..2 {
                close("_hessian", x[i], updated_copy_hessian(x)[i][j], hess[i][j]);
            }
        }
    };
    // √x₀ x₁ + x₀ + x₁: [x₁/(2√x₀) + 1, √x₀ + 1], [[−x₁/(4 x₀^(3/2)), 1/(2√x₀)], [1/(2√x₀), 0]].
    check([4.0, 3.0], 13.0, [1.75, 3.0], [[-3.0 / 32.0, 0.25], [0.25, 0.0]]);
    // 2x₀ + x₁, where the root is NaN, or 0 with an infinite partial.
    let zero = [[0.0; 2]; 2];
    check([-1.0, -2.0], -4.0, [2.0, 1.0], zero);
    check([0.0, -1.0], -1.0, [2.0, 1.0], zero);
}

#[test]
fn inside_a_loop_body() {
    // Σ √(1 − xᵢ²) over |xᵢ| < 1: −xᵢ/√(1 − xᵢ²), a diagonal Hessian −1/(1 − xᵢ²)^(3/2).
    let check = |x: [f64; 3], value: f64, grad: [f64; 3], diag: [f64; 3]| {
        let (v, g) = roots_inside_grad(x);
        assert_relative_eq!(v, value, max_relative = 1e-15);
        assert_eq!(v, roots_inside(x));
        for i in 0..3 {
            let mut e = [0.0; 3];
            e[i] = 1.0;
            close("_grad", x[i], g[i], grad[i]);
            close("_jvp", x[i], roots_inside_jvp(x, e).1, grad[i]);
            let (_, g2, hv) = roots_inside_hvp(x, e);
            assert_eq!(g2, g);
            for j in 0..3 {
                let want = if i == j { diag[i] } else { 0.0 };
                close("_hvp", x[j], hv[j], want);
                close("_hessian", x[j], roots_inside_hessian(x)[i][j], want);
            }
        }
    };
    check([0.6, 2.0, -0.8], 1.4, [-0.75, 0.0, 0.8 / 0.6], [-1.0 / 0.512, 0.0, -1.0 / 0.216]);
    check([1.0, -1.0, 0.0], 1.0, [0.0, 0.0, 0.0], [0.0, 0.0, -1.0]);
}

/// `guarded_steps` in its stored and checkpointed versions, which must agree to the bit.
type Guarded = (
    fn([f64; 4]) -> (f64, [f64; 4]),
    fn([f64; 4], [f64; 4]) -> (f64, f64),
    fn([f64; 4], [f64; 4]) -> (f64, [f64; 4], [f64; 4]),
);

const GUARDED: [Guarded; 2] = [
    (guarded_steps_grad, guarded_steps_jvp, guarded_steps_hvp),
    (
        guarded_steps_checkpointed_grad,
        guarded_steps_checkpointed_jvp,
        guarded_steps_checkpointed_hvp,
    ),
];

/// Checks value, gradient and H·v of `guarded_steps` at `x`, along each unit direction and
/// `v`, against `value`, `grad` and the Hessian `hess`.
fn check_guarded(x: [f64; 4], value: f64, grad: [f64; 4], hess: impl Fn(usize, usize) -> f64) {
    let v = [0.5, -1.0, 2.0, 0.25];
    let hv: [f64; 4] = std::array::from_fn(|i| (0..4).map(|j| hess(i, j) * v[j]).sum());
    let reference = (guarded_steps_grad(x), guarded_steps_hvp(x, v));
    for (grad_fn, jvp_fn, hvp_fn) in GUARDED {
        let (f, g) = grad_fn(x);
        assert_eq!(f, guarded_steps(x));
        assert_relative_eq!(f, value, max_relative = 1e-12);
        for i in 0..4 {
            close("_grad", x[i], g[i], grad[i]);
        }
        let dot: f64 = (0..4).map(|i| g[i] * v[i]).sum();
        let (fj, t) = jvp_fn(x, v);
        assert_eq!(fj, f);
        close("_jvp", x[0], t, dot);
        let (fh, gh, h) = hvp_fn(x, v);
        assert_eq!((fh, gh), (f, g));
        for i in 0..4 {
            close("_hvp", x[i], h[i], hv[i]);
        }
        assert_eq!((grad_fn(x), hvp_fn(x, v)), reference, "stored and checkpointed at {x:?}");
    }
    let hessian = guarded_steps_hessian(x);
    assert_eq!(hessian, guarded_steps_checkpointed_hessian(x));
    for (i, row) in hessian.iter().enumerate() {
        for (j, h) in row.iter().enumerate() {
            close("_hessian", x[i], *h, hess(i, j));
        }
    }
}

#[test]
fn a_root_of_the_carried_value_read_only_on_one_side_in_a_loop() {
    // The product stays at most 4: p = Π xᵢ, ∂p/∂xᵢ = p/xᵢ, ∂²p/∂xᵢ∂xⱼ = p/(xᵢxⱼ) off the
    // diagonal; the root, NaN in every iteration, is never read.
    let x = [2.0, 1.5, 1.25, 0.5];
    let p: f64 = x.iter().product();
    let grad = x.map(|xi| p / xi);
    check_guarded(x, p, grad, |i, j| if i == j { 0.0 } else { p / (x[i] * x[j]) });
    // Above 4 from the second step, with x₂ = x₃ = 0 (then the last two steps add nothing):
    // p₁ = x₀, q = p₂ = S(x₀) x₁ + x₀ with S(t) = √(t − 4), p₃ = S(q) x₂ + q, f = S(p₃) x₃ + p₃.
    // ∇f = (S'(x₀) x₁ + 1, S(x₀), S(q), S(p₃)) = (2, 1, √3, √3) at x = (5, 2, 0, 0). The Hessian:
    // ∂²q/∂x₀² = S''(x₀) x₁ = −1/2, ∂²q/∂x₀∂x₁ = S'(x₀) = 1/2; ∂²f/∂x₂∂xₖ = S'(q) ∂q/∂xₖ
    // (∂q/∂x = (2, 1)), ∂²f/∂x₃∂xₖ = S'(p₃) ∂p₃/∂xₖ (∂p₃/∂x = (2, 1, √3)), S'(7) = 1/(2√3).
    let x = [5.0, 2.0, 0.0, 0.0];
    let r3 = 3.0_f64.sqrt();
    let grad = [2.0, 1.0, r3, r3];
    let hess = |i: usize, j: usize| -> f64 {
        let h = [
            [-0.5, 0.5, 1.0 / r3, 1.0 / r3],
            [0.5, 0.0, 0.5 / r3, 0.5 / r3],
            [1.0 / r3, 0.5 / r3, 0.0, 0.5],
            [1.0 / r3, 0.5 / r3, 0.5, 0.0],
        ];
        h[i][j]
    };
    check_guarded(x, 7.0, grad, hess);
}
