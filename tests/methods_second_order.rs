//! Every supported `f64` method's second-order derivatives: `_hvp` and `_hessian` against the
//! hand-written Hessian and finite differences of `_grad`, `_jvp` against finite differences and
//! `_grad`·v.

use autodiff_runtime::{Tolerance, check_hvp, numeric_gradient};
use autodiff_suite::methods::*;
use std::f64::consts::{LN_2, LN_10};

/// A corpus function and its generated siblings, called with slices; `A` tells arities apart.
trait Generated<A> {
    /// The primal at `p`, or the generated function's result flattened.
    type Out;
    fn at(&self, p: &[f64], v: &[f64]) -> Self::Out;
}

/// Marks the primal, `_grad`, `_jvp`, `_hvp` and `_hessian` of arity `N` apart.
struct Primal<const N: usize>;
struct Grad<const N: usize>;
struct Jvp<const N: usize>;
struct Hvp<const N: usize>;
struct Hessian<const N: usize>;

/// `f64`, once per token: spells an arity's parameter list.
macro_rules! f64_for {
    ($i:tt) => {
        f64
    };
}

/// Implements [`Generated`] for the five functions of one arity (`v` is ignored but by `_jvp`
/// and `_hvp`), whose gradient type `$g` the closure `$flat` turns into a vector.
macro_rules! arity {
    ($n:literal, $g:ty, $flat:expr; $($i:tt),+) => {
        impl<F: Fn($(f64_for!($i)),+) -> f64> Generated<Primal<$n>> for F {
            type Out = f64;
            fn at(&self, p: &[f64], _: &[f64]) -> f64 {
                self($(p[$i]),+)
            }
        }

        impl<F: Fn($(f64_for!($i)),+) -> (f64, $g)> Generated<Grad<$n>> for F {
            type Out = (f64, Vec<f64>);
            fn at(&self, p: &[f64], _: &[f64]) -> Self::Out {
                let (value, gradient): (f64, $g) = self($(p[$i]),+);
                (value, $flat(gradient))
            }
        }

        impl<F: Fn($(f64_for!($i),)+ $(f64_for!($i)),+) -> (f64, f64)> Generated<Jvp<$n>> for F {
            type Out = (f64, f64);
            fn at(&self, p: &[f64], v: &[f64]) -> Self::Out {
                self($(p[$i],)+ $(v[$i]),+)
            }
        }

        impl<F: Fn($(f64_for!($i),)+ $(f64_for!($i)),+) -> (f64, $g, $g)> Generated<Hvp<$n>>
            for F
        {
            type Out = (f64, Vec<f64>, Vec<f64>);
            fn at(&self, p: &[f64], v: &[f64]) -> Self::Out {
                let (value, gradient, hv): (f64, $g, $g) = self($(p[$i],)+ $(v[$i]),+);
                (value, $flat(gradient), $flat(hv))
            }
        }

        impl<F: Fn($(f64_for!($i)),+) -> [[f64; $n]; $n]> Generated<Hessian<$n>> for F {
            type Out = Vec<Vec<f64>>;
            fn at(&self, p: &[f64], _: &[f64]) -> Self::Out {
                self($(p[$i]),+).iter().map(|row| row.to_vec()).collect()
            }
        }
    };
}

arity!(1, f64, |g| vec![g]; 0);
arity!(2, (f64, f64), |g: (f64, f64)| vec![g.0, g.1]; 0, 1);
arity!(3, (f64, f64, f64), |g: (f64, f64, f64)| vec![g.0, g.1, g.2]; 0, 1, 2);

/// Whether `got` equals `want` up to rounding, relative to `scale` (the size of the terms summed).
fn near(got: f64, want: f64, scale: f64) -> bool {
    (got - want).abs() <= 1e-12 * scale.max(want.abs()) + 1e-14
}

/// The directions tried at every point: each unit vector and two mixed ones.
fn directions(n: usize) -> Vec<Vec<f64>> {
    let mut all: Vec<Vec<f64>> =
        (0..n).map(|i| (0..n).map(|j| f64::from(i == j)).collect()).collect();
    all.push([0.7, -1.3, 0.4][..n].to_vec());
    all.push([-2.0, 0.5, 1.1][..n].to_vec());
    all
}

/// Σⱼ aⱼ bⱼ and Σⱼ |aⱼ bⱼ|, the scale that rounding errors are relative to.
fn dot(a: &[f64], b: &[f64]) -> (f64, f64) {
    a.iter().zip(b).fold((0.0, 0.0), |(s, m), (x, y)| (s + x * y, m + (x * y).abs()))
}

/// The generated functions of one method, all of arity `N`.
struct Method<F, G, J, V, H> {
    f: F,
    grad: G,
    jvp: J,
    hvp: V,
    hessian: H,
}

impl<F, G, J, V, H> Method<F, G, J, V, H> {
    /// Checks everything at `x`, where `want` is the Hessian written by hand.
    fn check<const N: usize>(&self, x: &[f64], want: &[Vec<f64>])
    where
        F: Generated<Primal<N>, Out = f64>,
        G: Generated<Grad<N>, Out = (f64, Vec<f64>)>,
        J: Generated<Jvp<N>, Out = (f64, f64)>,
        V: Generated<Hvp<N>, Out = (f64, Vec<f64>, Vec<f64>)>,
        H: Generated<Hessian<N>, Out = Vec<Vec<f64>>>,
    {
        let hessian = self.hessian.at(x, &[]);
        for (i, row) in hessian.iter().enumerate() {
            for (j, &h) in row.iter().enumerate() {
                assert!(near(h, hessian[j][i], 0.0), "not symmetric at {x:?}: {hessian:?}");
                assert!(near(h, want[i][j], 0.0), "H[{i}][{j}] at {x:?}: {h} but by hand {want:?}");
            }
        }
        let (value, gradient) = self.grad.at(x, &[]);
        for v in directions(x.len()) {
            let (hvp_value, hvp_gradient, hv) = self.hvp.at(x, &v);
            assert_eq!((hvp_value, &hvp_gradient), (value, &gradient), "hvp at {x:?}");
            for (i, &got) in hv.iter().enumerate() {
                let (by_hand, scale) = dot(&want[i], &v);
                assert!(near(got, by_hand, scale), "(H·{v:?})[{i}] at {x:?}: {got}, {by_hand}");
            }
            let grad = |p: &[f64]| self.grad.at(p, &[]).1;
            if let Err(e) = check_hvp(grad, x, &v, &hv, Tolerance::default()) {
                panic!("H·{v:?} at {x:?}: {e}");
            }
            let (jvp_value, jvp) = self.jvp.at(x, &v);
            assert_eq!(jvp_value, self.f.at(x, &[]), "jvp value at {x:?}");
            let (grad_v, scale) = dot(&gradient, &v);
            assert!(near(jvp, grad_v, scale), "jvp along {v:?} at {x:?}: {jvp} but ∇f·v {grad_v}");
            let along = |t: &[f64]| {
                let p: Vec<f64> = x.iter().zip(&v).map(|(xi, vi)| xi + t[0] * vi).collect();
                self.f.at(&p, &[])
            };
            let numeric = numeric_gradient(along, &[0.0])[0];
            assert!(
                Tolerance::default().agree(jvp, numeric),
                "jvp {jvp} but differences {numeric}"
            );
        }
    }
}

/// One test per method: `name(params) at points => hand-written Hessian by its five functions;`.
macro_rules! second_order {
    ($($test:ident ($($x:ident),+) at $at:expr => [$([$($h:expr),+]),+]
        by $f:ident, $grad:ident, $jvp:ident, $hvp:ident, $hessian:ident;)+) => {$(
        #[test]
        fn $test() {
            let method = Method { f: $f, grad: $grad, jvp: $jvp, hvp: $hvp, hessian: $hessian };
            let points: &[&[f64]] = $at;
            for &p in points {
                let &[$($x),+] = p else { unreachable!("arity") };
                method.check(p, &[$(vec![$($h),+]),+]);
            }
        }
    )+};
}

const REALS: &[&[f64]] = &[&[-2.3], &[-0.7], &[0.0], &[0.4], &[1.9]];
const NONZERO: &[&[f64]] = &[&[-2.3], &[-0.7], &[0.4], &[1.9]];
const POSITIVE: &[&[f64]] = &[&[0.3], &[1.0], &[2.5], &[7.0]];
const UNIT: &[&[f64]] = &[&[-0.9], &[-0.4], &[0.0], &[0.3], &[0.8]];
/// Away from every jump of `signum`, `floor`, `ceil`, `round` and `trunc`.
const OFF_JUMPS: &[&[f64]] = &[&[-2.3], &[-0.7], &[0.3], &[1.2], &[2.8]];
const PLANE: &[&[f64]] = &[&[1.0, 2.0], &[-0.5, 0.3], &[2.0, -1.0], &[-1.5, -0.8]];
const UNTIED: &[&[f64]] = &[&[1.0, 2.0], &[2.0, 1.0], &[-3.0, 0.5], &[0.5, -3.0]];

second_order! {
    sin(x) at REALS => [[-x.sin()]] by m_sin, m_sin_grad, m_sin_jvp, m_sin_hvp, m_sin_hessian;
    ufcs_sin(x) at REALS => [[-x.sin()]]
        by m_ufcs_sin, m_ufcs_sin_grad, m_ufcs_sin_jvp, m_ufcs_sin_hvp, m_ufcs_sin_hessian;
    cos(x) at REALS => [[-x.cos()]] by m_cos, m_cos_grad, m_cos_jvp, m_cos_hvp, m_cos_hessian;
    tan(x) at REALS => [[2.0 * x.tan() / x.cos().powi(2)]]
        by m_tan, m_tan_grad, m_tan_jvp, m_tan_hvp, m_tan_hessian;
    asin(x) at UNIT => [[x / (1.0 - x * x).powf(1.5)]]
        by m_asin, m_asin_grad, m_asin_jvp, m_asin_hvp, m_asin_hessian;
    acos(x) at UNIT => [[-x / (1.0 - x * x).powf(1.5)]]
        by m_acos, m_acos_grad, m_acos_jvp, m_acos_hvp, m_acos_hessian;
    atan(x) at REALS => [[-2.0 * x / (1.0 + x * x).powi(2)]]
        by m_atan, m_atan_grad, m_atan_jvp, m_atan_hvp, m_atan_hessian;
    sinh(x) at REALS => [[x.sinh()]] by m_sinh, m_sinh_grad, m_sinh_jvp, m_sinh_hvp, m_sinh_hessian;
    cosh(x) at REALS => [[x.cosh()]] by m_cosh, m_cosh_grad, m_cosh_jvp, m_cosh_hvp, m_cosh_hessian;
    tanh(x) at REALS => [[-2.0 * x.tanh() / x.cosh().powi(2)]]
        by m_tanh, m_tanh_grad, m_tanh_jvp, m_tanh_hvp, m_tanh_hessian;
    asinh(x) at REALS => [[-x / (x * x + 1.0).powf(1.5)]]
        by m_asinh, m_asinh_grad, m_asinh_jvp, m_asinh_hvp, m_asinh_hessian;
    acosh(x) at &[&[1.2], &[2.0], &[5.0]] => [[-x / (x * x - 1.0).powf(1.5)]]
        by m_acosh, m_acosh_grad, m_acosh_jvp, m_acosh_hvp, m_acosh_hessian;
    atanh(x) at UNIT => [[2.0 * x / (1.0 - x * x).powi(2)]]
        by m_atanh, m_atanh_grad, m_atanh_jvp, m_atanh_hvp, m_atanh_hessian;
    exp(x) at REALS => [[x.exp()]] by m_exp, m_exp_grad, m_exp_jvp, m_exp_hvp, m_exp_hessian;
    exp2(x) at REALS => [[x.exp2() * LN_2 * LN_2]]
        by m_exp2, m_exp2_grad, m_exp2_jvp, m_exp2_hvp, m_exp2_hessian;
    exp_m1(x) at REALS => [[x.exp()]]
        by m_exp_m1, m_exp_m1_grad, m_exp_m1_jvp, m_exp_m1_hvp, m_exp_m1_hessian;
    ln(x) at POSITIVE => [[-1.0 / (x * x)]] by m_ln, m_ln_grad, m_ln_jvp, m_ln_hvp, m_ln_hessian;
    ln_1p(x) at &[&[-0.6], &[0.0], &[0.5], &[3.0]] => [[-1.0 / (1.0 + x).powi(2)]]
        by m_ln_1p, m_ln_1p_grad, m_ln_1p_jvp, m_ln_1p_hvp, m_ln_1p_hessian;
    log2(x) at POSITIVE => [[-1.0 / (x * x * LN_2)]]
        by m_log2, m_log2_grad, m_log2_jvp, m_log2_hvp, m_log2_hessian;
    log10(x) at POSITIVE => [[-1.0 / (x * x * LN_10)]]
        by m_log10, m_log10_grad, m_log10_jvp, m_log10_hvp, m_log10_hessian;
    sqrt(x) at POSITIVE => [[-0.25 / (x * x.sqrt())]]
        by m_sqrt, m_sqrt_grad, m_sqrt_jvp, m_sqrt_hvp, m_sqrt_hessian;
    cbrt(x) at NONZERO => [[-2.0 / (9.0 * x.cbrt().powi(5))]]
        by m_cbrt, m_cbrt_grad, m_cbrt_jvp, m_cbrt_hvp, m_cbrt_hessian;
    powi_3(x) at REALS => [[6.0 * x]]
        by m_powi_3, m_powi_3_grad, m_powi_3_jvp, m_powi_3_hvp, m_powi_3_hessian;
    powi_neg2(x) at NONZERO => [[6.0 / x.powi(4)]]
        by m_powi_neg2, m_powi_neg2_grad, m_powi_neg2_jvp, m_powi_neg2_hvp, m_powi_neg2_hessian;
    powi_0(_x) at REALS => [[0.0]]
        by m_powi_0, m_powi_0_grad, m_powi_0_jvp, m_powi_0_hvp, m_powi_0_hessian;
    recip(x) at NONZERO => [[2.0 / (x * x * x)]]
        by m_recip, m_recip_grad, m_recip_jvp, m_recip_hvp, m_recip_hessian;
    abs(_x) at NONZERO => [[0.0]] by m_abs, m_abs_grad, m_abs_jvp, m_abs_hvp, m_abs_hessian;
    signum(_x) at OFF_JUMPS => [[0.0]]
        by m_signum, m_signum_grad, m_signum_jvp, m_signum_hvp, m_signum_hessian;
    floor(_x) at OFF_JUMPS => [[0.0]]
        by m_floor, m_floor_grad, m_floor_jvp, m_floor_hvp, m_floor_hessian;
    ceil(_x) at OFF_JUMPS => [[0.0]] by m_ceil, m_ceil_grad, m_ceil_jvp, m_ceil_hvp, m_ceil_hessian;
    round(_x) at OFF_JUMPS => [[0.0]]
        by m_round, m_round_grad, m_round_jvp, m_round_hvp, m_round_hessian;
    trunc(_x) at OFF_JUMPS => [[0.0]]
        by m_trunc, m_trunc_grad, m_trunc_jvp, m_trunc_hvp, m_trunc_hessian;
    powf_lit(x) at POSITIVE => [[3.75 * x.sqrt()]]
        by m_powf_lit, m_powf_lit_grad, m_powf_lit_jvp, m_powf_lit_hvp, m_powf_lit_hessian;
    relu(_x) at NONZERO => [[0.0]] by m_relu, m_relu_grad, m_relu_jvp, m_relu_hvp, m_relu_hessian;
    atan2(y, x) at PLANE => [
        [-2.0 * x * y / (x * x + y * y).powi(2), (y * y - x * x) / (x * x + y * y).powi(2)],
        [(y * y - x * x) / (x * x + y * y).powi(2), 2.0 * x * y / (x * x + y * y).powi(2)]
    ] by m_atan2, m_atan2_grad, m_atan2_jvp, m_atan2_hvp, m_atan2_hessian;
    log(x, b) at &[&[2.0, 10.0], &[0.5, 3.0], &[5.0, 0.4], &[1.3, 2.0]] => [
        [-1.0 / (x * x * b.ln()), -1.0 / (x * b * b.ln().powi(2))],
        [-1.0 / (x * b * b.ln().powi(2)), x.ln() * (b.ln() + 2.0) / (b * b * b.ln().powi(3))]
    ] by m_log, m_log_grad, m_log_jvp, m_log_hvp, m_log_hessian;
    powf(x, y) at &[&[2.0, 3.0], &[0.5, -1.5], &[3.0, 0.7], &[1.2, 0.0]] => [
        [y * (y - 1.0) * x.powf(y - 2.0), x.powf(y - 1.0) * (1.0 + y * x.ln())],
        [x.powf(y - 1.0) * (1.0 + y * x.ln()), x.powf(y) * x.ln().powi(2)]
    ] by m_powf, m_powf_grad, m_powf_jvp, m_powf_hvp, m_powf_hessian;
    hypot(x, y) at PLANE => [
        [y * y / x.hypot(y).powi(3), -x * y / x.hypot(y).powi(3)],
        [-x * y / x.hypot(y).powi(3), x * x / x.hypot(y).powi(3)]
    ] by m_hypot, m_hypot_grad, m_hypot_jvp, m_hypot_hvp, m_hypot_hessian;
    min(_a, _b) at UNTIED => [[0.0, 0.0], [0.0, 0.0]]
        by m_min, m_min_grad, m_min_jvp, m_min_hvp, m_min_hessian;
    max(_a, _b) at UNTIED => [[0.0, 0.0], [0.0, 0.0]]
        by m_max, m_max_grad, m_max_jvp, m_max_hvp, m_max_hessian;
    mul_add(_a, _b, _c) at &[&[2.0, 3.0, -1.0], &[-0.5, 1.5, 4.0], &[0.0, -2.0, 0.3]]
        => [[0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 0.0]]
        by m_mul_add, m_mul_add_grad, m_mul_add_jvp, m_mul_add_hvp, m_mul_add_hessian;
    exp_sin_sqrt(x, y) at &[&[0.3, 2.0], &[-1.2, 0.5], &[2.0, 4.0]] => [
        [x.sin().exp() * (x.cos().powi(2) - x.sin()) * y.sqrt(),
            x.sin().exp() * x.cos() / (2.0 * y.sqrt())],
        [x.sin().exp() * x.cos() / (2.0 * y.sqrt()), -x.sin().exp() / (4.0 * y * y.sqrt())]
    ] by c_exp_sin_sqrt, c_exp_sin_sqrt_grad, c_exp_sin_sqrt_jvp, c_exp_sin_sqrt_hvp,
        c_exp_sin_sqrt_hessian;
    ln_hypot(x, y) at PLANE => [
        [(y * y - x * x) / (x * x + y * y).powi(2), -2.0 * x * y / (x * x + y * y).powi(2)],
        [-2.0 * x * y / (x * x + y * y).powi(2), (x * x - y * y) / (x * x + y * y).powi(2)]
    ] by c_ln_hypot, c_ln_hypot_grad, c_ln_hypot_jvp, c_ln_hypot_hvp, c_ln_hypot_hessian;
    atan_sqrt(x) at REALS => [[
        (1.0 / (x * x + 1.0) - 2.0 * x * x / (x * x + 2.0))
            / ((x * x + 1.0).sqrt() * (x * x + 2.0))
    ]] by c_atan_sqrt, c_atan_sqrt_grad, c_atan_sqrt_jvp, c_atan_sqrt_hvp, c_atan_sqrt_hessian;
    recip_mul_add(x, y) at &[&[0.3, 2.0], &[1.2, 0.5], &[-2.0, 4.0]] => [
        [2.0 * y * y / (x * y + 1.0).powi(3), (x * y - 1.0) / (x * y + 1.0).powi(3)],
        [(x * y - 1.0) / (x * y + 1.0).powi(3), 2.0 * x * x / (x * y + 1.0).powi(3)]
    ] by c_recip_mul_add, c_recip_mul_add_grad, c_recip_mul_add_jvp, c_recip_mul_add_hvp,
        c_recip_mul_add_hessian;
}

/// `wrt(x)` with a constant exponent `p`: `H = [[p(p−1)x^(p−2)]]`, also at a negative base.
#[test]
fn powf_with_a_constant_exponent() {
    for (x, p) in [(0.5_f64, 2.5), (2.0, -1.5), (3.0, 0.0), (1.7, 3.0), (-2.0, 3.0)] {
        let want = p * (p - 1.0) * x.powf(p - 2.0);
        let [[h]] = m_powf_wrt_hessian(x, p);
        assert!(near(h, want, 0.0), "at x = {x}, p = {p}: {h} but by hand {want}");
        for v in [1.0, -0.5, 2.0] {
            let (value, d, hv) = m_powf_wrt_hvp(x, p, v);
            assert_eq!((value, d), m_powf_wrt_grad(x, p), "hvp at x = {x}, p = {p}");
            assert!(near(hv, want * v, 0.0), "H·{v} at x = {x}, p = {p}: {hv}");
            let grad = |q: &[f64]| vec![m_powf_wrt_grad(q[0], p).1];
            if let Err(e) = check_hvp(grad, &[x], &[v], &[hv], Tolerance::default()) {
                panic!("H·{v} at x = {x}, p = {p}: {e}");
            }
            let (jvp_value, jvp) = m_powf_wrt_jvp(x, p, v);
            assert_eq!(jvp_value, value, "jvp value at x = {x}, p = {p}");
            assert!(near(jvp, d * v, (d * v).abs()), "jvp along {v} at x = {x}, p = {p}: {jvp}");
        }
    }
}
