//! `powi` with an integer constant exponent, `clamp` and `sin_cos` (`src/methods_more.rs`): in
//! every mode, the value equal to the primal's to the bit, the gradient and the Hessian equal to
//! closed forms up to rounding, `_jvp` and `_hvp` equal to them along several directions, and,
//! where the function is smooth, the gradient and H·v equal to central finite differences.

use autodiff_runtime::__private::Flat;
use autodiff_runtime::{Tolerance, check_gradient, check_hvp};
use autodiff_suite::methods_more::*;

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

/// Whether `got` equals `want` up to rounding, relative to `scale` (the size of the terms summed).
fn near(got: f64, want: f64, scale: f64) -> bool {
    (got - want).abs() <= 1e-12 * scale.max(want.abs()) + 1e-14
}

/// The five functions of a corpus function over its differentiated parameters `P` (an `f64`, a
/// tuple or an array), its constant arguments fixed; `H` is the type of its Hessian.
struct Fns<P, H> {
    f: Box<dyn Fn(P) -> f64>,
    grad: Box<dyn Fn(P) -> (f64, P)>,
    jvp: Box<dyn Fn(P, P) -> (f64, f64)>,
    hvp: Box<dyn Fn(P, P) -> (f64, P, P)>,
    hessian: Box<dyn Fn(P) -> H>,
}

/// `fns!(f, f_grad, f_jvp, f_hvp, f_hessian; x, y; n)`: the five functions of `f(x, y, n)` over
/// `(x, y)`, with the constant `n` (the constants follow the parameters).
macro_rules! fns {
    ($f:ident, $g:ident, $j:ident, $v:ident, $h:ident; x; $($c:expr),*) => {
        Fns::<f64, [[f64; 1]; 1]> {
            f: Box::new(move |x| $f(x, $($c),*)),
            grad: Box::new(move |x| $g(x, $($c),*)),
            jvp: Box::new(move |x, d| $j(x, $($c,)* d)),
            hvp: Box::new(move |x, d| $v(x, $($c,)* d)),
            hessian: Box::new(move |x| $h(x, $($c),*)),
        }
    };
    ($f:ident, $g:ident, $j:ident, $v:ident, $h:ident; x, y; $($c:expr),*) => {
        Fns::<(f64, f64), [[f64; 2]; 2]> {
            f: Box::new(move |p| $f(p.0, p.1, $($c),*)),
            grad: Box::new(move |p| $g(p.0, p.1, $($c),*)),
            jvp: Box::new(move |p, d| $j(p.0, p.1, $($c,)* d.0, d.1)),
            hvp: Box::new(move |p, d| $v(p.0, p.1, $($c,)* d.0, d.1)),
            hessian: Box::new(move |p| $h(p.0, p.1, $($c),*)),
        }
    };
    ($f:ident, $g:ident, $j:ident, $v:ident, $h:ident; x, y, z) => {
        Fns::<(f64, f64, f64), [[f64; 3]; 3]> {
            f: Box::new(|p| $f(p.0, p.1, p.2)),
            grad: Box::new(|p| $g(p.0, p.1, p.2)),
            jvp: Box::new(|p, d| $j(p.0, p.1, p.2, d.0, d.1, d.2)),
            hvp: Box::new(|p, d| $v(p.0, p.1, p.2, d.0, d.1, d.2)),
            hessian: Box::new(|p| $h(p.0, p.1, p.2)),
        }
    };
}

/// The directions tried: each unit vector and a mixed one.
fn directions(n: usize) -> Vec<Vec<f64>> {
    let mut all: Vec<Vec<f64>> =
        (0..n).map(|i| (0..n).map(|j| f64::from(i == j)).collect()).collect();
    all.push((0..n).map(|i| [0.7, -1.3, 0.4, 1.1][i % 4]).collect());
    all
}

/// How a point is checked besides the closed forms.
#[derive(Clone, Copy, PartialEq, Eq)]
enum At {
    /// A smooth point: also against central finite differences.
    Smooth,
    /// A kink (a bound of `clamp`): the closed forms are the documented convention.
    Kink,
}

impl<P: Flat + 'static, H: Flat> Fns<P, H> {
    /// Checks every generated function at `x` against the gradient `g` and the Hessian `h` (its
    /// rows in order) written by hand.
    fn check(&self, x: &[f64], g: &[f64], h: &[f64], at: At) {
        let p: P = unflat(x);
        let n = x.len();
        let value = (self.f)(p);
        let (grad_value, gradient) = (self.grad)(p);
        let gradient = flat(&gradient);
        assert_eq!(grad_value.to_bits(), value.to_bits(), "value of _grad at {x:?}");
        for i in 0..n {
            assert!(near(gradient[i], g[i], 0.0), "∂{i} at {x:?}: {gradient:?}, by hand {g:?}");
        }
        let hessian = flat(&(self.hessian)(p));
        for (k, (&got, &want)) in hessian.iter().zip(h).enumerate() {
            let (i, j) = (k / n, k % n);
            assert!(near(got, want, 0.0), "H[{i}][{j}] at {x:?}: {hessian:?}, by hand {h:?}");
            assert!(near(got, hessian[j * n + i], want.abs()), "H symmetric at {x:?}");
        }
        for v in directions(n) {
            let (jvp_value, jvp) = (self.jvp)(p, unflat(&v));
            let (gv, scale) = dot(g, &v);
            assert_eq!(jvp_value.to_bits(), value.to_bits(), "value of _jvp at {x:?}");
            assert!(near(jvp, gv, scale), "∇f·{v:?} at {x:?}: {jvp}, by hand {gv}");
            let (hvp_value, hvp_gradient, hv) = (self.hvp)(p, unflat(&v));
            assert_eq!(hvp_value.to_bits(), value.to_bits(), "value of _hvp at {x:?}");
            assert_eq!(flat(&hvp_gradient), gradient, "gradient of _hvp at {x:?}");
            let hv = flat(&hv);
            for i in 0..n {
                let (want, scale) = dot(&h[i * n..(i + 1) * n], &v);
                assert!(near(hv[i], want, scale), "(H·{v:?})[{i}] at {x:?}: {hv:?}");
            }
            if at == At::Smooth {
                let grad = |q: &[f64]| flat(&(self.grad)(unflat(q)).1);
                if let Err(e) = check_hvp(grad, x, &v, &hv, Tolerance::default()) {
                    panic!("H·{v:?} at {x:?} against differences: {e}");
                }
            }
        }
        if at == At::Smooth {
            let f = |q: &[f64]| (self.f)(unflat(q));
            if let Err(e) = check_gradient(f, x, &gradient, Tolerance::default()) {
                panic!("gradient at {x:?} against differences: {e}");
            }
        }
    }
}

/// Σⱼ aⱼ bⱼ and Σⱼ |aⱼ bⱼ|, the scale that rounding errors are relative to.
fn dot(a: &[f64], b: &[f64]) -> (f64, f64) {
    a.iter().zip(b).fold((0.0, 0.0), |(s, m), (x, y)| (s + x * y, m + (x * y).abs()))
}

/// `m xᵐ⁻¹` and `m (m − 1) xᵐ⁻²`, written so that a zero factor gives zero even at `x = 0`.
fn power_derivatives(x: f64, m: i32) -> (f64, f64) {
    let term = |c: i32, e: i32| if c == 0 { 0.0 } else { f64::from(c) * x.powi(e) };
    (term(m, m - 1), term(m * (m - 1), m - 2))
}

#[test]
fn powi_of_an_integer_parameter_from_minus_2_to_4() {
    for n in -2..=4 {
        let fns = fns!(powi_n, powi_n_grad, powi_n_jvp, powi_n_hvp, powi_n_hessian; x; n);
        for x in [-1.7, -0.3, 0.6, 2.2] {
            let (d, dd) = power_derivatives(x, n);
            fns.check(&[x], &[d], &[dd], At::Smooth);
        }
    }
}

#[test]
fn powi_of_0_1_and_2_at_zero() {
    // d/dx x⁰ = 0 and d²/dx² x¹ = 0 even where x^(n-1) or x^(n-2) is 1/0
    for (n, d, dd) in [(0, 0.0, 0.0), (1, 1.0, 0.0), (2, 0.0, 2.0), (3, 0.0, 0.0)] {
        let fns = fns!(powi_n, powi_n_grad, powi_n_jvp, powi_n_hvp, powi_n_hessian; x; n);
        fns.check(&[0.0], &[d], &[dd], At::Smooth);
        let (value, gradient, hv) = powi_n_hvp(0.0, n, 1.0);
        assert_eq!((value, gradient, hv), (0.0_f64.powi(n), d, dd), "exactly, for n = {n}");
    }
}

#[test]
fn polynomial_in_a_power_parameter() {
    // y xⁿ + x^(n+2)/2 − yⁿ
    for n in -2..=4 {
        let fns = fns!(poly_n, poly_n_grad, poly_n_jvp, poly_n_hvp, poly_n_hessian; x, y; n);
        for (x, y) in [(1.3, -0.7), (0.6, 1.8), (-1.1, 0.9)] {
            let (dx_n, dxx_n) = power_derivatives(x, n);
            let (dx_n2, dxx_n2) = power_derivatives(x, n + 2);
            let (dy_n, dyy_n) = power_derivatives(y, n);
            let g = [y * dx_n + 0.5 * dx_n2, x.powi(n) - dy_n];
            let h = [y * dxx_n + 0.5 * dxx_n2, dx_n, dx_n, -dyy_n];
            fns.check(&[x, y], &g, &h, At::Smooth);
        }
    }
}

#[test]
fn powi_of_a_const_item_and_of_a_usize_parameter() {
    let fns =
        fns!(powi_const, powi_const_grad, powi_const_jvp, powi_const_hvp, powi_const_hessian; x;);
    for x in [-1.4, 0.0, 0.8, 1.9] {
        // x^K · x^(K−1) = x⁵
        fns.check(&[x], &[5.0 * x.powi(4)], &[20.0 * x.powi(3)], At::Smooth);
    }
    for m in 0..=4 {
        let fns = fns!(powi_usize, powi_usize_grad, powi_usize_jvp, powi_usize_hvp, powi_usize_hessian; x; m);
        for x in [-1.4, 0.0, 0.8, 1.9] {
            let (d, dd) = power_derivatives(x, m as i32);
            fns.check(&[x], &[d], &[dd], At::Smooth);
        }
    }
}

#[test]
fn geometric_series_of_the_loop_variable_including_zero() {
    let fns = fns!(geometric, geometric_grad, geometric_jvp, geometric_hvp, geometric_hessian; x;);
    for x in [-1.2, -0.5, 0.0, 0.5, 2.0] {
        // Σᵢ xⁱ, Σᵢ i xⁱ⁻¹, Σᵢ i (i − 1) xⁱ⁻²; at 0: 1, 1, 2
        let (mut d, mut dd) = (0.0, 0.0);
        for i in 0..TERMS as i32 {
            let (a, b) = power_derivatives(x, i);
            d += a;
            dd += b;
        }
        fns.check(&[x], &[d], &[dd], At::Smooth);
    }
    assert_eq!(geometric_hvp(0.0, 1.0), (1.0, 1.0, 2.0));
}

#[test]
fn laurent_series_with_negated_and_shifted_exponents() {
    let fns = fns!(laurent, laurent_grad, laurent_jvp, laurent_hvp, laurent_hessian; x, y;);
    for (x, y) in [(0.7_f64, 1.3_f64), (-1.2, 0.8), (1.5, -2.0)] {
        // Σᵢ x^(i+1) y^(−i) / (i + 1)
        let (mut g, mut h) = ([0.0; 2], [0.0; 4]);
        for i in 0..TERMS as i32 {
            let c = f64::from(i);
            g[0] += x.powi(i) * y.powi(-i);
            g[1] += -c / (c + 1.0) * x.powi(i + 1) * y.powi(-i - 1);
            h[0] += c * x.powi(i - 1) * y.powi(-i);
            h[1] += -c * x.powi(i) * y.powi(-i - 1);
            h[3] += c * x.powi(i + 1) * y.powi(-i - 2);
        }
        h[2] = h[1];
        fns.check(&[x, y], &g, &h, At::Smooth);
    }
}

#[test]
fn powi_in_both_arms_of_a_branch() {
    for n in -2..=3 {
        let fns = fns!(powi_branch, powi_branch_grad, powi_branch_jvp, powi_branch_hvp, powi_branch_hessian; x; n);
        for x in [0.4, 1.7] {
            let (d, dd) = power_derivatives(x, n);
            fns.check(&[x], &[d], &[dd], At::Smooth);
        }
        for x in [-0.4, -1.7] {
            // −(−x)^(n+1): d = (n + 1)(−x)ⁿ, d² = −(n + 1) n (−x)^(n−1)
            let (d, dd) = power_derivatives(-x, n + 1);
            fns.check(&[x], &[d], &[-dd], At::Smooth);
        }
    }
}

#[test]
fn clamp_follows_the_operand_it_returns() {
    let fns = fns!(clamp3, clamp3_grad, clamp3_jvp, clamp3_hvp, clamp3_hessian; x, y, z);
    let zero = [0.0; 9];
    // inside: all to x; below: all to lo; above: all to hi
    fns.check(&[0.3, -1.0, 2.0], &[1.0, 0.0, 0.0], &zero, At::Smooth);
    fns.check(&[-1.5, -1.0, 2.0], &[0.0, 1.0, 0.0], &zero, At::Smooth);
    fns.check(&[2.5, -1.0, 2.0], &[0.0, 0.0, 1.0], &zero, At::Smooth);
    // at either bound (bounds included), and when the bounds are equal: all to x
    fns.check(&[-1.0, -1.0, 2.0], &[1.0, 0.0, 0.0], &zero, At::Kink);
    fns.check(&[2.0, -1.0, 2.0], &[1.0, 0.0, 0.0], &zero, At::Kink);
    fns.check(&[0.5, 0.5, 0.5], &[1.0, 0.0, 0.0], &zero, At::Kink);
    fns.check(&[0.0, -0.0, 1.0], &[1.0, 0.0, 0.0], &zero, At::Kink);
    fns.check(&[-0.0, 0.0, 1.0], &[1.0, 0.0, 0.0], &zero, At::Kink);
}

#[test]
fn clamp_has_the_value_of_f64_clamp() {
    let cases = [(0.3, -1.0, 2.0), (-3.0, -1.0, 2.0), (9.0, -1.0, 2.0), (-0.0, 0.0, 1.0)];
    for (x, lo, hi) in cases.into_iter().chain([(f64::NAN, 0.0, 1.0), (0.0, -0.0, 0.0)]) {
        let want = x.clamp(lo, hi);
        assert_eq!(clamp3(x, lo, hi).to_bits(), want.to_bits());
        assert_eq!(clamp3_grad(x, lo, hi).0.to_bits(), want.to_bits());
        assert_eq!(clamp3_hvp(x, lo, hi, 1.0, 1.0, 1.0).0.to_bits(), want.to_bits());
    }
}

#[test]
#[should_panic(expected = "min > max")]
fn clamp_panics_as_f64_clamp_does_when_the_bounds_are_reversed() {
    let _ = clamp3_grad(0.5, 1.0, 0.0);
}

#[test]
fn clamp_with_literal_bounds_times_a_smooth_factor() {
    let fns = fns!(clamp_square, clamp_square_grad, clamp_square_jvp, clamp_square_hvp, clamp_square_hessian; x;);
    // x² inside [−1, 4]: x³; above: 4x
    for x in [-1.5, 0.0, 0.5, 1.9] {
        fns.check(&[x], &[3.0 * x * x], &[6.0 * x], At::Smooth);
    }
    for x in [-3.0, 2.5] {
        fns.check(&[x], &[4.0], &[0.0], At::Smooth);
    }
    // x² = 4 at the upper bound: x² is returned, so x³'s derivatives
    fns.check(&[2.0], &[12.0], &[12.0], At::Kink);
    fns.check(&[-2.0], &[12.0], &[-12.0], At::Kink);
}

#[test]
fn clamp_in_a_loop_with_a_differentiated_bound() {
    let fns = Fns::<[f64; 4], [[f64; 4]; 4]> {
        f: Box::new(clamp_chain),
        grad: Box::new(clamp_chain_grad),
        jvp: Box::new(clamp_chain_jvp),
        hvp: Box::new(clamp_chain_hvp),
        hessian: Box::new(clamp_chain_hessian),
    };
    // Σᵢ clamp(xᵢ, −1, xᵢ₊₁)² (every xᵢ₊₁ ≥ −1): 2c to whichever of xᵢ, xᵢ₊₁ is returned
    let by_hand = |x: &[f64]| {
        let (mut g, mut h) = (vec![0.0; 4], vec![0.0; 16]);
        for i in 0..3 {
            let k = if x[i] < -1.0 {
                continue;
            } else if x[i] > x[i + 1] {
                i + 1
            } else {
                i
            };
            g[k] += 2.0 * x[k];
            h[5 * k] += 2.0;
        }
        (g, h)
    };
    let points: [[f64; 4]; 4] = [
        [0.1, 0.5, 0.9, 1.4],
        [-1.6, 0.3, -0.2, 0.7],
        [0.8, 0.2, -0.7, 2.0],
        [1.5, -0.5, 0.4, -0.9],
    ];
    for x in points {
        let (g, h) = by_hand(&x);
        fns.check(&x, &g, &h, At::Smooth);
    }
    // xᵢ = xᵢ₊₁ and xᵢ = −1: the bounds included
    for x in [[0.5, 0.5, 0.5, 0.5], [-1.0, -1.0, 0.3, 0.3]] {
        let (g, h) = by_hand(&x);
        fns.check(&x, &g, &h, At::Kink);
    }
}

#[test]
fn sin_cos_in_a_rotation() {
    let fns = fns!(rotated_square, rotated_square_grad, rotated_square_jvp, rotated_square_hvp, rotated_square_hessian; x, y, z);
    for (x, y, t) in [(1.2, -0.4, 0.7_f64), (-0.3, 2.1, -2.5), (0.9, 0.9, 3.0)] {
        // u = x cos t − y sin t: ∇(u²) = 2u∇u, ∇²(u²) = 2(∇u∇uᵀ + u∇²u)
        let (s, c) = (t.sin(), t.cos());
        let u = x * c - y * s;
        let du = [c, -s, -x * s - y * c];
        let ddu = [0.0, 0.0, -s, 0.0, 0.0, -c, -s, -c, -u];
        let g: Vec<f64> = du.iter().map(|d| 2.0 * u * d).collect();
        let h: Vec<f64> = (0..9).map(|k| 2.0 * (du[k / 3] * du[k % 3] + u * ddu[k])).collect();
        fns.check(&[x, y, t], &g, &h, At::Smooth);
    }
}

#[test]
fn sin_cos_through_the_ufcs_spelling() {
    let fns = fns!(sin_cos_product, sin_cos_product_grad, sin_cos_product_jvp, sin_cos_product_hvp, sin_cos_product_hessian; x;);
    for t in [-2.0, -0.3, 0.0, 0.9, 2.6] {
        // sin t cos t = sin(2t)/2
        fns.check(&[t], &[(2.0 * t).cos()], &[-2.0 * (2.0 * t).sin()], At::Smooth);
        let (s, c) = t.sin_cos();
        assert_eq!(sin_cos_product_grad(t).0.to_bits(), (s * c).to_bits(), "at {t}");
    }
}

#[test]
fn sin_cos_in_a_loop_with_one_value_unused() {
    let fns = fns!(cosine_series, cosine_series_grad, cosine_series_jvp, cosine_series_hvp, cosine_series_hessian; x, y;);
    for (t, x) in [(0.4, 0.9), (-1.3, 1.2), (2.2, -0.6), (0.7, 0.0)] {
        // Σₖ cos(k t) xᵏ
        let (mut g, mut h) = ([0.0; 2], [0.0; 4]);
        for k in 1..=TERMS as i32 {
            let (kf, (s, c)) = (f64::from(k), (f64::from(k) * t).sin_cos());
            let (d, dd) = power_derivatives(x, k);
            g[0] += -kf * s * x.powi(k);
            g[1] += c * d;
            h[0] += -kf * kf * c * x.powi(k);
            h[1] += -kf * s * d;
            h[3] += c * dd;
        }
        h[2] = h[1];
        fns.check(&[t, x], &g, &h, At::Smooth);
    }
}

#[test]
fn powi_of_the_loop_variable_in_a_checkpointed_sweep() {
    for x in [-0.8_f64, 0.0, 0.6, 1.3] {
        // p = Πᵢ (1 + x^(i+1)/(i+1)): p′ = p Σᵢ xⁱ / (1 + x^(i+1)/(i+1))
        let factors: Vec<(f64, f64)> = (0..TERMS as i32)
            .map(|i| (1.0 + x.powi(i + 1) / f64::from(i + 1), x.powi(i)))
            .collect();
        let p: f64 = factors.iter().map(|(a, _)| a).product();
        let d: f64 = p * factors.iter().map(|(a, b)| b / a).sum::<f64>();
        let (value, gradient) = power_product_grad(x);
        assert_eq!(value.to_bits(), power_product(x).to_bits());
        assert!(near(gradient, d, p.abs()), "at {x}: {gradient}, by hand {d}");
        for v in [1.0, -0.5] {
            let stored = power_product_hvp(x, v);
            assert_eq!(power_product_checkpointed_hvp(x, v), stored, "checkpointed at {x}");
            assert_eq!((stored.0, stored.1), (value, gradient));
            let grad = |q: &[f64]| vec![power_product_grad(q[0]).1];
            if let Err(e) = check_hvp(grad, &[x], &[v], &[stored.2], Tolerance::default()) {
                panic!("H·{v} at {x} against differences: {e}");
            }
        }
        assert_eq!(power_product_checkpointed_grad(x), (value, gradient));
    }
}
