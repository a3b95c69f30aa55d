//! Functions over `f32` and over a type parameter `T: Float` (`src/floats.rs`):
//! - every supported method over `f32`, in every mode (`_grad`, `_jvp`, `_hvp`, `_hessian`),
//!   against the `f64` closed forms at the same point, to `f32` precision;
//! - the same method over `T: Float`: at `f64` bit for bit the `f64` function's derivatives in
//!   every mode, and at `f32` the `f32` function's;
//! - literals, constants and casts, loops (stored and checkpointed), calls and Jacobians over
//!   `f32` and `T`, against their `f64` twins and finite differences.

use autodiff_runtime::{Tolerance, check_gradient, check_hvp};
use autodiff_suite::floats::*;
use std::f64::consts::{LN_2, LN_10};

/// A primitive float: `f32` or `f64`, read as `f64` (exactly) for comparisons.
trait Real: Copy + std::fmt::Debug + Into<f64> + 'static {
    /// `x` rounded to this type.
    fn of(x: f64) -> Self;
}

impl Real for f32 {
    fn of(x: f64) -> Self {
        x as f32
    }
}

impl Real for f64 {
    fn of(x: f64) -> Self {
        x
    }
}

/// A function of a point, called with a slice.
type At<S, R> = Box<dyn Fn(&[S]) -> R>;
/// A function of a point and a direction, called with slices.
type Along<S, R> = Box<dyn Fn(&[S], &[S]) -> R>;

/// One method's five functions over the scalar `S`, called with slices.
struct Fns<S> {
    primal: At<S, S>,
    grad: At<S, (S, Vec<S>)>,
    jvp: Along<S, (S, S)>,
    hvp: Along<S, (S, Vec<S>, Vec<S>)>,
    hessian: At<S, Vec<Vec<S>>>,
}

/// The [`Fns`] over `$s` of the five functions named, of `$n` parameters read from the indices
/// `$i`, whose gradient `$g` the closure `$flat` turns into a vector.
macro_rules! fns {
    ($s:ty, $n:literal, [$($i:tt),+], $g:ty, $flat:expr; $f:expr, $grad:expr, $jvp:expr, $hvp:expr, $hessian:expr) => {
        Fns::<$s> {
            primal: Box::new(|p| $f($(p[$i]),+)),
            grad: Box::new(|p| {
                let (v, g): ($s, $g) = $grad($(p[$i]),+);
                (v, $flat(g))
            }),
            jvp: Box::new(|p, d| $jvp($(p[$i],)+ $(d[$i]),+)),
            hvp: Box::new(|p, d| {
                let (v, g, h): ($s, $g, $g) = $hvp($(p[$i],)+ $(d[$i]),+);
                (v, $flat(g), $flat(h))
            }),
            hessian: Box::new(|p| {
                let h: [[$s; $n]; $n] = $hessian($(p[$i]),+);
                h.iter().map(|row| row.to_vec()).collect()
            }),
        }
    };
}

/// The functions of a method's module `$m` with the parameters `$x`: over `f32` and `f64`, and
/// the generic one at `f32` and at `f64`.
macro_rules! module {
    ($m:ident; $($x:ident),+) => {
        module!(@arity $m; $($x),+)
    };
    (@arity $m:ident; $a:ident) => {
        module!(@ $m, 1, [0], |g| vec![g], S)
    };
    (@arity $m:ident; $a:ident, $b:ident) => {
        module!(@ $m, 2, [0, 1], |g: (S, S)| vec![g.0, g.1], (S, S))
    };
    (@arity $m:ident; $a:ident, $b:ident, $c:ident) => {
        module!(@ $m, 3, [0, 1, 2], |g: (S, S, S)| vec![g.0, g.1, g.2], (S, S, S))
    };
    (@ $m:ident, $n:literal, $i:tt, $flat:expr, $g:ty) => {
        (
            {
                type S = f32;
                fns!(S, $n, $i, $g, $flat; $m::single, $m::single_grad, $m::single_jvp, $m::single_hvp, $m::single_hessian)
            },
            {
                type S = f64;
                fns!(S, $n, $i, $g, $flat; $m::double, $m::double_grad, $m::double_jvp, $m::double_hvp, $m::double_hessian)
            },
            {
                type S = f32;
                fns!(S, $n, $i, $g, $flat; $m::generic::<S>, $m::generic_grad::<S>, $m::generic_jvp::<S>, $m::generic_hvp::<S>, $m::generic_hessian::<S>)
            },
            {
                type S = f64;
                fns!(S, $n, $i, $g, $flat; $m::generic::<S>, $m::generic_grad::<S>, $m::generic_jvp::<S>, $m::generic_hvp::<S>, $m::generic_hessian::<S>)
            },
        )
    };
}

/// What the closed forms give at a point, in `f64`.
struct Want {
    value: f64,
    grad: Vec<f64>,
    hessian: Vec<Vec<f64>>,
}

/// Whether `got`, computed in `f32`, is `want` to `f32` precision: within 16 units of `f32`
/// rounding of `scale` (the size of the terms summed), or of `want` itself.
fn near32(got: f64, want: f64, scale: f64) -> bool {
    (got - want).abs() <= 16.0 * f64::from(f32::EPSILON) * scale.max(want.abs())
}

/// The directions tried at every point: each unit vector and two mixed ones.
fn directions(n: usize) -> Vec<Vec<f64>> {
    let mut all: Vec<Vec<f64>> =
        (0..n).map(|i| (0..n).map(|j| f64::from(i == j)).collect()).collect();
    all.push([0.75, -1.25, 0.5][..n].to_vec());
    all.push([-2.0, 0.5, 1.0][..n].to_vec());
    all
}

/// Σⱼ aⱼ bⱼ and Σⱼ |aⱼ bⱼ|.
fn dot(a: &[f64], b: &[f64]) -> (f64, f64) {
    a.iter().zip(b).fold((0.0, 0.0), |(s, m), (x, y)| (s + x * y, m + (x * y).abs()))
}

/// `xs` as `f64`s (exactly).
fn wide<S: Real>(xs: &[S]) -> Vec<f64> {
    xs.iter().map(|x| (*x).into()).collect()
}

/// Checks the `f32` functions at `p` (rounded to `f32`) against the closed forms at that point.
fn check_f32(fns: &Fns<f32>, p: &[f64], want: &dyn Fn(&[f64]) -> Want) {
    let x32: Vec<f32> = p.iter().map(|x| *x as f32).collect();
    let x = wide(&x32);
    let w = want(&x);
    let value = f64::from((fns.primal)(&x32));
    assert!(near32(value, w.value, 0.0), "value at {x:?}: {value} but {}", w.value);
    let (gv, g) = (fns.grad)(&x32);
    assert_eq!(f64::from(gv).to_bits(), value.to_bits(), "grad's value at {x:?}");
    for (i, (got, want)) in wide(&g).iter().zip(&w.grad).enumerate() {
        assert!(near32(*got, *want, 0.0), "partial {i} at {x:?}: {got} but {want}");
    }
    for (i, row) in (fns.hessian)(&x32).iter().enumerate() {
        for (j, got) in wide(row).iter().enumerate() {
            let want = w.hessian[i][j];
            assert!(near32(*got, want, 0.0), "H[{i}][{j}] at {x:?}: {got} but {want}");
        }
    }
    for v in directions(x.len()) {
        let v32: Vec<f32> = v.iter().map(|d| *d as f32).collect();
        let (jv, jvp) = (fns.jvp)(&x32, &v32);
        assert_eq!(f64::from(jv).to_bits(), value.to_bits(), "jvp's value at {x:?}");
        let (want_jvp, scale) = dot(&w.grad, &v);
        assert!(near32(jvp.into(), want_jvp, scale), "jvp along {v:?} at {x:?}: {jvp}");
        let (hv_value, hv_grad, hv) = (fns.hvp)(&x32, &v32);
        assert_eq!(f64::from(hv_value).to_bits(), value.to_bits(), "hvp's value at {x:?}");
        assert_eq!(wide(&hv_grad), wide(&g), "hvp's gradient at {x:?}");
        for (i, got) in wide(&hv).iter().enumerate() {
            let (want, scale) = dot(&w.hessian[i], &v);
            assert!(near32(*got, want, scale), "(H·{v:?})[{i}] at {x:?}: {got} but {want}");
        }
    }
}

/// The bits of each value, for comparisons to the bit.
fn bits<S: Real>(v: &[S]) -> Vec<u64> {
    v.iter().map(|s| Into::<f64>::into(*s).to_bits()).collect()
}

/// Checks that `a` and `b` give the same bits at `p` (rounded to `S`) in every mode.
fn same_bits<S: Real>(a: &Fns<S>, b: &Fns<S>, p: &[f64]) {
    let x: Vec<S> = p.iter().map(|v| S::of(*v)).collect();
    assert_eq!(bits(&[(a.primal)(&x)]), bits(&[(b.primal)(&x)]), "value at {x:?}");
    let ((av, ag), (bv, bg)) = ((a.grad)(&x), (b.grad)(&x));
    assert_eq!((bits(&[av]), bits(&ag)), (bits(&[bv]), bits(&bg)), "grad at {x:?}");
    for (ra, rb) in (a.hessian)(&x).iter().zip(&(b.hessian)(&x)) {
        assert_eq!(bits(ra), bits(rb), "hessian at {x:?}");
    }
    for v in directions(x.len()) {
        let d: Vec<S> = v.iter().map(|t| S::of(*t)).collect();
        let ((aj, ajv), (bj, bjv)) = ((a.jvp)(&x, &d), (b.jvp)(&x, &d));
        assert_eq!(bits(&[aj, ajv]), bits(&[bj, bjv]), "jvp along {v:?} at {x:?}");
        let ((a0, a1, a2), (b0, b1, b2)) = ((a.hvp)(&x, &d), (b.hvp)(&x, &d));
        let (sa, sb) = ((bits(&[a0]), bits(&a1), bits(&a2)), (bits(&[b0]), bits(&b1), bits(&b2)));
        assert_eq!(sa, sb, "hvp along {v:?} at {x:?}");
    }
}

/// One test per method: `name(params) at points => value, [gradient], [Hessian];`, the closed
/// forms in `f64`. The `f32` functions are checked against them, and the generic function at
/// each type against the one written for it.
macro_rules! methods {
    ($($name:ident ($($x:ident),+) at $at:expr => $value:expr, [$($d:expr),+], [$([$($h:expr),+]),+];)+) => {$(
        #[test]
        fn $name() {
            let want = |p: &[f64]| {
                let &[$($x),+] = p else { unreachable!("arity") };
                Want { value: $value, grad: vec![$($d),+], hessian: vec![$(vec![$($h),+]),+] }
            };
            let (single, double, generic32, generic64) = module!($name; $($x),+);
            let points: &[&[f64]] = $at;
            for &p in points {
                check_f32(&single, p, &want);
                same_bits(&generic64, &double, p);
                same_bits(&generic32, &single, p);
            }
        }
    )+};
}

const REALS: &[&[f64]] = &[&[-2.3], &[-0.7], &[0.0], &[0.4], &[1.9]];
const NONZERO: &[&[f64]] = &[&[-2.3], &[-0.7], &[0.4], &[1.9]];
const POSITIVE: &[&[f64]] = &[&[0.3], &[1.0], &[2.5], &[7.0]];
const UNIT: &[&[f64]] = &[&[-0.9], &[-0.4], &[0.0], &[0.3], &[0.8]];
const ABOVE_ONE: &[&[f64]] = &[&[1.2], &[2.0], &[5.0]];
const ABOVE_MINUS_ONE: &[&[f64]] = &[&[-0.6], &[0.0], &[0.5], &[3.0]];
/// Away from every jump of `signum`, `floor`, `ceil`, `round` and `trunc`.
const OFF_JUMPS: &[&[f64]] = &[&[-2.3], &[-0.7], &[0.3], &[1.2], &[2.8]];
const PLANE: &[&[f64]] = &[&[1.0, 2.0], &[-0.5, 0.3], &[2.0, -1.0], &[-1.5, -0.8]];
const UNTIED: &[&[f64]] = &[&[1.0, 2.0], &[2.0, 1.0], &[-3.0, 0.5], &[0.5, -3.0]];

methods! {
    sin(x) at REALS => x.sin(), [x.cos()], [[-x.sin()]];
    cos(x) at REALS => x.cos(), [-x.sin()], [[-x.cos()]];
    tan(x) at REALS => x.tan(), [1.0 / x.cos().powi(2)], [[2.0 * x.tan() / x.cos().powi(2)]];
    asin(x) at UNIT => x.asin(), [1.0 / (1.0 - x * x).sqrt()], [[x / (1.0 - x * x).powf(1.5)]];
    acos(x) at UNIT => x.acos(), [-1.0 / (1.0 - x * x).sqrt()], [[-x / (1.0 - x * x).powf(1.5)]];
    atan(x) at REALS => x.atan(), [1.0 / (1.0 + x * x)], [[-2.0 * x / (1.0 + x * x).powi(2)]];
    sinh(x) at REALS => x.sinh(), [x.cosh()], [[x.sinh()]];
    cosh(x) at REALS => x.cosh(), [x.sinh()], [[x.cosh()]];
    tanh(x) at REALS => x.tanh(), [1.0 / x.cosh().powi(2)], [[-2.0 * x.tanh() / x.cosh().powi(2)]];
    asinh(x) at REALS => x.asinh(), [1.0 / (x * x + 1.0).sqrt()], [[-x / (x * x + 1.0).powf(1.5)]];
    acosh(x) at ABOVE_ONE => x.acosh(), [1.0 / (x * x - 1.0).sqrt()], [[-x / (x * x - 1.0).powf(1.5)]];
    atanh(x) at UNIT => x.atanh(), [1.0 / (1.0 - x * x)], [[2.0 * x / (1.0 - x * x).powi(2)]];
    exp(x) at REALS => x.exp(), [x.exp()], [[x.exp()]];
    exp2(x) at REALS => x.exp2(), [x.exp2() * LN_2], [[x.exp2() * LN_2 * LN_2]];
    exp_m1(x) at REALS => x.exp_m1(), [x.exp()], [[x.exp()]];
    ln(x) at POSITIVE => x.ln(), [1.0 / x], [[-1.0 / (x * x)]];
    ln_1p(x) at ABOVE_MINUS_ONE => x.ln_1p(), [1.0 / (1.0 + x)], [[-1.0 / (1.0 + x).powi(2)]];
    log2(x) at POSITIVE => x.log2(), [1.0 / (x * LN_2)], [[-1.0 / (x * x * LN_2)]];
    log10(x) at POSITIVE => x.log10(), [1.0 / (x * LN_10)], [[-1.0 / (x * x * LN_10)]];
    sqrt(x) at POSITIVE => x.sqrt(), [0.5 / x.sqrt()], [[-0.25 / (x * x.sqrt())]];
    cbrt(x) at NONZERO => x.cbrt(), [1.0 / (3.0 * x.cbrt().powi(2))], [[-2.0 / (9.0 * x.cbrt().powi(5))]];
    powi_3(x) at REALS => x.powi(3), [3.0 * x * x], [[6.0 * x]];
    powi_neg2(x) at NONZERO => x.powi(-2), [-2.0 / x.powi(3)], [[6.0 / x.powi(4)]];
    powi_0(_x) at REALS => 1.0, [0.0], [[0.0]];
    recip(x) at NONZERO => x.recip(), [-1.0 / (x * x)], [[2.0 / (x * x * x)]];
    abs(x) at NONZERO => x.abs(), [x.signum()], [[0.0]];
    signum(x) at OFF_JUMPS => x.signum(), [0.0], [[0.0]];
    floor(x) at OFF_JUMPS => x.floor(), [0.0], [[0.0]];
    ceil(x) at OFF_JUMPS => x.ceil(), [0.0], [[0.0]];
    round(x) at OFF_JUMPS => x.round(), [0.0], [[0.0]];
    trunc(x) at OFF_JUMPS => x.trunc(), [0.0], [[0.0]];
    ufcs(x) at REALS => x.sin() * x.cos(), [x.cos().powi(2) - x.sin().powi(2)], [[-4.0 * x.sin() * x.cos()]];
    powf_lit(x) at POSITIVE => x.powf(2.5), [2.5 * x.powf(1.5)], [[3.75 * x.sqrt()]];
    relu(x) at NONZERO => x.max(0.0), [f64::from(x > 0.0)], [[0.0]];
    sin_cos(x) at REALS => x.sin() * x.cos() + x.sin(), [x.cos().powi(2) - x.sin().powi(2) + x.cos()], [[-4.0 * x.sin() * x.cos() - x.sin()]];
    atan2(y, x) at PLANE => y.atan2(x), [x / (x * x + y * y), -y / (x * x + y * y)], [[-2.0 * x * y / (x * x + y * y).powi(2), (y * y - x * x) / (x * x + y * y).powi(2)], [(y * y - x * x) / (x * x + y * y).powi(2), 2.0 * x * y / (x * x + y * y).powi(2)]];
    log(x, b) at &[&[2.0, 10.0], &[0.5, 3.0], &[5.0, 0.4], &[1.3, 2.0]] => x.log(b), [1.0 / (x * b.ln()), -x.ln() / (b * b.ln().powi(2))], [[-1.0 / (x * x * b.ln()), -1.0 / (x * b * b.ln().powi(2))], [-1.0 / (x * b * b.ln().powi(2)), x.ln() * (b.ln() + 2.0) / (b * b * b.ln().powi(3))]];
    powf(x, y) at &[&[2.0, 3.0], &[0.5, -1.5], &[3.0, 0.7], &[1.2, 0.0]] => x.powf(y), [y * x.powf(y - 1.0), x.powf(y) * x.ln()], [[y * (y - 1.0) * x.powf(y - 2.0), x.powf(y - 1.0) * (1.0 + y * x.ln())], [x.powf(y - 1.0) * (1.0 + y * x.ln()), x.powf(y) * x.ln().powi(2)]];
    hypot(x, y) at PLANE => x.hypot(y), [x / x.hypot(y), y / x.hypot(y)], [[y * y / x.hypot(y).powi(3), -x * y / x.hypot(y).powi(3)], [-x * y / x.hypot(y).powi(3), x * x / x.hypot(y).powi(3)]];
    min(a, b) at UNTIED => a.min(b), [f64::from(a < b), f64::from(b < a)], [[0.0, 0.0], [0.0, 0.0]];
    max(a, b) at UNTIED => a.max(b), [f64::from(a > b), f64::from(b > a)], [[0.0, 0.0], [0.0, 0.0]];
    mul_add(a, b, c) at &[&[2.0, 3.0, -1.0], &[-0.5, 1.5, 4.0], &[0.0, -2.0, 0.3]] => a.mul_add(b, c), [b, a, 1.0], [[0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 0.0]];
    clamp(x, lo, hi) at &[&[0.5, -1.0, 2.0], &[-3.0, -1.0, 2.0], &[2.5, -1.0, 2.0], &[0.6, 0.5, 0.7]] => x.clamp(lo, hi), [f64::from(lo < x && x < hi), f64::from(x < lo), f64::from(x > hi)], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]];
    exp_sin_sqrt(x, y) at &[&[0.3, 2.0], &[-1.2, 0.5], &[2.0, 4.0]] => x.sin().exp() * y.sqrt(), [x.sin().exp() * x.cos() * y.sqrt(), x.sin().exp() / (2.0 * y.sqrt())], [[x.sin().exp() * (x.cos().powi(2) - x.sin()) * y.sqrt(), x.sin().exp() * x.cos() / (2.0 * y.sqrt())], [x.sin().exp() * x.cos() / (2.0 * y.sqrt()), -x.sin().exp() / (4.0 * y * y.sqrt())]];
    ln_hypot(x, y) at PLANE => x.hypot(y).ln(), [x / (x * x + y * y), y / (x * x + y * y)], [[(y * y - x * x) / (x * x + y * y).powi(2), -2.0 * x * y / (x * x + y * y).powi(2)], [-2.0 * x * y / (x * x + y * y).powi(2), (x * x - y * y) / (x * x + y * y).powi(2)]];

}

/// Literals, `std::f32::consts`, a suffixed literal, an integer `let` and a constant cast to
/// `f32`, `f32::EPSILON`: the `f32` function against its `f64` twin to `f32` precision, and the
/// generic one against both (at `f64` bit for bit).
#[test]
fn literals_constants_and_casts() {
    let data = [0.25, -3.0];
    for (x, y0, y1, k) in [(0.5, 1.25, -2.0, 2), (-1.5, 0.75, 3.0, 3), (2.0, -0.5, 0.125, -1)] {
        let (v32, (gx32, gy32)) = literals_f32_grad(x as f32, [y0 as f32, y1 as f32], k, &data);
        let (v64, (gx64, gy64)) = literals_f64_grad(x, [y0, y1], k, &data);
        assert!(near32(v32.into(), v64, 0.0), "value {v32} but {v64}");
        assert!(near32(gx32.into(), gx64, gx64.abs()), "∂x {gx32} but {gx64}");
        for (g32, g64) in gy32.iter().zip(gy64) {
            assert!(near32(f64::from(*g32), g64, 0.0), "∂y {g32} but {g64}");
        }
        let generic = literals_gen_grad(x, [y0, y1], k, &data);
        assert_eq!(generic, (v64, (gx64, gy64)), "generic at f64");
        let (vg, (gxg, _)) = literals_gen_grad(x as f32, [y0 as f32, y1 as f32], k, &data);
        assert!(near32(vg.into(), v64, 0.0) && near32(gxg.into(), gx64, 0.0), "generic at f32");
        let (_, _, hv32) =
            literals_f32_hvp(x as f32, [y0 as f32, y1 as f32], k, &data, 1.0, [0.5, -1.0]);
        let (_, _, hv64) = literals_f64_hvp(x, [y0, y1], k, &data, 1.0, [0.5, -1.0]);
        assert!(near32(hv32.0.into(), hv64.0, hv64.0.abs() + 1.0), "H·v {hv32:?} but {hv64:?}");
    }
}

/// The lessons' function over `f32`: the generated gradient against the hand-written one, and
/// the generic one at `f32` bit for bit; at `f64`, against the `f64` function of `src/loops.rs`.
#[test]
fn lessons_over_f32_and_generic() {
    let x: [f32; 7] = [0.5, -1.25, 2.0, 0.75, -0.3, 1.1, 3.0];
    let (value, grad) = lessons_f32_grad(&x);
    let (hand_value, hand) = lessons_f32_by_hand(&x);
    assert!(near32(value.into(), hand_value.into(), 7.0));
    for (g, h) in grad.iter().zip(hand) {
        assert!(near32(f64::from(*g), f64::from(h), 4.0), "{grad:?} but {hand:?}");
    }
    assert_eq!(lessons_gen_grad(&x), (value, grad), "generic at f32");
    let x64 = x.map(f64::from);
    assert_eq!(lessons_gen_grad(&x64), autodiff_suite::loops::lessons_grad(x64), "generic at f64");
    let v = [1.0, 0.0, -0.5, 0.25, 0.0, 2.0, 1.0];
    let (_, _, hv) = lessons_f32_hvp(&x, &v.map(|t: f64| t as f32));
    let (_, _, hv64) = autodiff_suite::loops::lessons_hvp(x64, v);
    for (a, b) in hv.iter().zip(hv64) {
        assert!(near32(f64::from(*a), b, 8.0), "{hv:?} but {hv64:?}");
    }
}

/// A loop whose state is stored for the sweep, with a branch in it, over `f32` and `T`.
#[test]
fn stored_loop_with_a_branch() {
    for (x0, k) in [(1.0, 0.5), (2.0, 2.0), (0.7, -0.3)] {
        let g64 = euler_f64_grad(x0, k);
        assert_eq!(euler_gen_grad(x0, k), g64, "generic at f64");
        assert_eq!(euler_gen_hvp(x0, k, 1.0, -1.0), euler_f64_hvp(x0, k, 1.0, -1.0));
        let (v, (dx, dk)) = euler_f32_grad(x0 as f32, k as f32);
        let scale = 200.0 * g64.1.0.abs().max(g64.1.1.abs());
        assert!(near32(v.into(), g64.0, scale) && near32(dx.into(), g64.1.0, scale), "{v}, {dx}");
        assert!(near32(dk.into(), g64.1.1, scale), "∂k {dk} but {}", g64.1.1);
        assert_eq!(euler_gen_grad(x0 as f32, k as f32), (v, (dx, dk)), "generic at f32");
    }
}

/// A checkpointed loop over `f32` and `T`: the generic one at `f64` against finite differences
/// of its own gradient, and the `f32` one against it to `f32` precision.
#[test]
fn checkpointed_loop() {
    let (x0, v0, c) = (1.0, -0.5, 0.3);
    let (value, grad, hv) = oscillator_gen_hvp(x0, v0, c, 1.0, 0.5, -1.0);
    let grad_at = |p: &[f64]| {
        let (_, g) = oscillator_gen_grad(p[0], p[1], p[2]);
        vec![g.0, g.1, g.2]
    };
    let f = |p: &[f64]| oscillator_gen(p[0], p[1], p[2]);
    check_gradient(f, &[x0, v0, c], &[grad.0, grad.1, grad.2], Tolerance::default()).unwrap();
    check_hvp(grad_at, &[x0, v0, c], &[1.0, 0.5, -1.0], &[hv.0, hv.1, hv.2], Tolerance::default())
        .unwrap();
    let (v32, g32, hv32) = oscillator_f32_hvp(x0 as f32, v0 as f32, c as f32, 1.0, 0.5, -1.0);
    // 5 000 steps in `f32`: the rounding of each step accumulates.
    let near = |a: f32, b: f64| (f64::from(a) - b).abs() <= 1e-3 * b.abs().max(1.0);
    assert!(near(v32, value), "{v32} but {value}");
    for (a, b) in [(g32.0, grad.0), (g32.1, grad.1), (g32.2, grad.2)] {
        assert!(near(a, b), "{g32:?} but {grad:?}");
    }
    for (a, b) in [(hv32.0, hv.0), (hv32.1, hv.1), (hv32.2, hv.2)] {
        assert!(near(a, b), "{hv32:?} but {hv:?}");
    }
    assert_eq!(
        oscillator_gen_hvp(x0 as f32, v0 as f32, c as f32, 1.0, 0.5, -1.0),
        (v32, g32, hv32)
    );
}

/// A generic callee called from a generic caller and from an `f32` one: the partials of
/// `softplus(x) = ln(1 + eˣ)` are `σ(x)`, and its second derivative `σ(x)(1 − σ(x))`.
#[test]
fn calls_of_a_generic_callee() {
    let sigma = |t: f64| 1.0 / (1.0 + (-t).exp());
    let sp = |t: f64| (1.0 + t.exp()).ln();
    for (x, y0, y1) in [(0.5, 1.5, -0.25), (-1.0, 0.75, 2.0)] {
        let (value, (dx, dy)) = caller_gen_grad(x, [y0, y1]);
        let want = sp(x * y0) + sp(y1) * sp(2.0);
        assert!((value - want).abs() < 1e-12, "{value} but {want}");
        let want = [sigma(x * y0) * y0, sigma(x * y0) * x, sigma(y1) * sp(2.0)];
        for (got, want) in [dx, dy[0], dy[1]].iter().zip(want) {
            assert!((got - want).abs() < 1e-12, "{got} but {want}");
        }
        let (_, _, (hx, _)) = caller_gen_hvp(x, [y0, y1], 1.0, [0.0, 0.0]);
        let s = sigma(x * y0);
        assert!((hx - s * (1.0 - s) * y0 * y0).abs() < 1e-12, "H·e₀ {hx}");
        let (v32, (dx32, dy32)) = caller_f32_grad(x as f32, [y0 as f32, y1 as f32]);
        assert!(near32(v32.into(), value, 0.0) && near32(dx32.into(), dx, 0.0));
        assert!(near32(dy32[1].into(), dy[1], 0.0), "{dy32:?} but {dy:?}");
        assert_eq!(caller_gen_grad(x as f32, [y0 as f32, y1 as f32]), (v32, (dx32, dy32)));
    }
}

/// Jacobians of vector functions over `f32` (a tuple) and `T` (an array), by closed form.
#[test]
fn jacobians() {
    let (r, t) = (2.0_f64, 0.7_f64);
    let want = [[t.cos(), -r * t.sin()], [t.sin(), r * t.cos()]];
    let ((x, y), j32) = polar_f32_jacobian(r as f32, t as f32);
    assert!(near32(x.into(), r * t.cos(), 0.0) && near32(y.into(), r * t.sin(), 0.0));
    let (value, j64) = polar_gen_jacobian(r, t);
    assert_eq!(value, [r * t.cos(), r * t.sin()]);
    for i in 0..2 {
        for j in 0..2 {
            assert!(near32(j32[i][j].into(), want[i][j], 0.0), "{j32:?} but {want:?}");
            assert!((j64[i][j] - want[i][j]).abs() < 1e-15, "{j64:?} but {want:?}");
        }
    }
    assert_eq!(polar_f32_jacobian_mode(), "reverse");
}
