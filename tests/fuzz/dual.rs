//! The fuzzer's oracle: hyper-dual numbers `v + a·ε₁ + b·ε₂ + ab·ε₁ε₂` (ε₁² = ε₂² = 0), which
//! carry a value, two directional derivatives and the mixed second derivative through every
//! operation the generated programs use. Seeded with `x + v ε₁ + w ε₂`, a function returns
//! `f(x)`, `∇f·v`, `∇f·w` and `vᵀ H w`, exactly up to rounding, with no code shared with the
//! macro.
//!
//! Each value part is computed by the same `f64` operation as the plain program, so the value is
//! bit for bit the program's and every comparison takes the same branch. Comparisons (and the
//! kinks of `abs`, `max`, `min`, `hypot`, `atan2`) record how close their operands came, so that
//! the test skips finite differences across a kink.

use std::cell::Cell;
use std::cmp::Ordering;
use std::f64::consts::{LN_2, LN_10};
use std::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Neg, Sub, SubAssign};

/// A hyper-dual number.
#[derive(Clone, Copy, Debug)]
pub struct Hd {
    /// The value.
    pub v: f64,
    /// The derivative along the first direction.
    pub a: f64,
    /// The derivative along the second direction.
    pub b: f64,
    /// The mixed second derivative.
    pub ab: f64,
}

thread_local! {
    /// The smallest distance to a kink seen since [`reset_margin`].
    static MARGIN: Cell<f64> = const { Cell::new(f64::INFINITY) };
    /// The largest value or first derivative seen since [`reset_margin`].
    static LARGEST: Cell<f64> = const { Cell::new(0.0) };
}

/// `atan2(0, 0)`, whose derivative has no value, counts as infinitely large.
fn singular() {
    LARGEST.with(|l| l.set(f64::INFINITY));
}

/// Starts recording the distance to kinks and the largest intermediate.
pub fn reset_margin() {
    MARGIN.with(|m| m.set(f64::INFINITY));
    LARGEST.with(|m| m.set(0.0));
}

/// The smallest distance between compared values (or to a kink) since [`reset_margin`].
pub fn margin() -> f64 {
    MARGIN.with(Cell::get)
}

/// The largest magnitude of a value or first derivative since [`reset_margin`]: where it is
/// huge, a later cancellation leaves only rounding in the oracle (whose derivatives go through
/// it) while a reverse sweep may skip it, so the test does not compare there.
pub fn largest() -> f64 {
    LARGEST.with(Cell::get)
}

fn near(d: f64) {
    MARGIN.with(|m| m.set(m.get().min(d.abs())));
}

/// Records the magnitudes of `x`, and returns it.
fn seen(x: Hd) -> Hd {
    let m = x.v.abs().max(x.a.abs()).max(x.b.abs());
    LARGEST.with(|l| l.set(l.get().max(m)));
    x
}

/// `d · t` for a partial derivative `d` and a tangent part `t`; zero when `t` is, even if `d`
/// is infinite or NaN: a value that does not depend on a direction contributes nothing along
/// it, as in the macro, which differentiates only what depends on the parameters.
fn m(d: f64, t: f64) -> f64 {
    if t == 0.0 { 0.0 } else { d * t }
}

/// A constant: a literal, data, an integer cast.
pub const fn lit(v: f64) -> Hd {
    Hd { v, a: 0.0, b: 0.0, ab: 0.0 }
}

impl Hd {
    /// `g(self)` given `g`, `g'` and `g''` at the value.
    fn chain(self, g: f64, d1: f64, d2: f64) -> Hd {
        let ab = m(d1, self.ab) + m(d2, self.a * self.b);
        seen(Hd { v: g, a: m(d1, self.a), b: m(d1, self.b), ab })
    }

    /// `g(self, y)` given `g` and its first and second partial derivatives at the values.
    #[allow(clippy::too_many_arguments)]
    fn chain2(self, y: Hd, g: f64, gx: f64, gy: f64, gxx: f64, gxy: f64, gyy: f64) -> Hd {
        seen(Hd {
            v: g,
            a: m(gx, self.a) + m(gy, y.a),
            b: m(gx, self.b) + m(gy, y.b),
            ab: m(gx, self.ab)
                + m(gy, y.ab)
                + m(gxx, self.a * self.b)
                + m(gxy, self.a * y.b + self.b * y.a)
                + m(gyy, y.a * y.b),
        })
    }

    pub fn sin(self) -> Hd {
        let (s, c) = (self.v.sin(), self.v.cos());
        self.chain(s, c, -s)
    }

    pub fn cos(self) -> Hd {
        let (s, c) = (self.v.sin(), self.v.cos());
        self.chain(c, -s, -c)
    }

    pub fn tan(self) -> Hd {
        let t = self.v.tan();
        let d = 1.0 + t * t;
        self.chain(t, d, 2.0 * t * d)
    }

    pub fn tanh(self) -> Hd {
        let t = self.v.tanh();
        let d = 1.0 - t * t;
        self.chain(t, d, -2.0 * t * d)
    }

    pub fn atan(self) -> Hd {
        let d = 1.0 / (1.0 + self.v * self.v);
        self.chain(self.v.atan(), d, -2.0 * self.v * d * d)
    }

    pub fn asinh(self) -> Hd {
        let r = 1.0 / (1.0 + self.v * self.v).sqrt();
        self.chain(self.v.asinh(), r, -self.v * r * r * r)
    }

    pub fn asin(self) -> Hd {
        let r = 1.0 / (1.0 - self.v * self.v).sqrt();
        self.chain(self.v.asin(), r, self.v * r * r * r)
    }

    pub fn acos(self) -> Hd {
        let r = 1.0 / (1.0 - self.v * self.v).sqrt();
        self.chain(self.v.acos(), -r, -self.v * r * r * r)
    }

    pub fn atanh(self) -> Hd {
        let d = 1.0 / (1.0 - self.v * self.v);
        self.chain(self.v.atanh(), d, 2.0 * self.v * d * d)
    }

    pub fn acosh(self) -> Hd {
        let r = 1.0 / (self.v * self.v - 1.0).sqrt();
        self.chain(self.v.acosh(), r, -self.v * r * r * r)
    }

    pub fn exp(self) -> Hd {
        let e = self.v.exp();
        self.chain(e, e, e)
    }

    pub fn exp2(self) -> Hd {
        let e = self.v.exp2();
        self.chain(e, e * LN_2, e * LN_2 * LN_2)
    }

    pub fn exp_m1(self) -> Hd {
        let e = self.v.exp();
        self.chain(self.v.exp_m1(), e, e)
    }

    pub fn sinh(self) -> Hd {
        let (s, c) = (self.v.sinh(), self.v.cosh());
        self.chain(s, c, s)
    }

    pub fn cosh(self) -> Hd {
        let (s, c) = (self.v.sinh(), self.v.cosh());
        self.chain(c, s, c)
    }

    pub fn ln(self) -> Hd {
        let r = 1.0 / self.v;
        self.chain(self.v.ln(), r, -r * r)
    }

    pub fn log2(self) -> Hd {
        let r = 1.0 / (self.v * LN_2);
        self.chain(self.v.log2(), r, -r / self.v)
    }

    pub fn log10(self) -> Hd {
        let r = 1.0 / (self.v * LN_10);
        self.chain(self.v.log10(), r, -r / self.v)
    }

    pub fn ln_1p(self) -> Hd {
        let r = 1.0 / (1.0 + self.v);
        self.chain(self.v.ln_1p(), r, -r * r)
    }

    pub fn sqrt(self) -> Hd {
        let s = self.v.sqrt();
        self.chain(s, 0.5 / s, -0.25 / (s * self.v))
    }

    pub fn cbrt(self) -> Hd {
        let c = self.v.cbrt();
        self.chain(c, 1.0 / (3.0 * c * c), -2.0 / (9.0 * c.powi(5)))
    }

    pub fn recip(self) -> Hd {
        let r = 1.0 / self.v;
        self.chain(self.v.recip(), -r * r, 2.0 * r * r * r)
    }

    pub fn abs(self) -> Hd {
        near(self.v);
        let s = if self.v > 0.0 {
            1.0
        } else if self.v < 0.0 {
            -1.0
        } else {
            0.0
        };
        self.chain(self.v.abs(), s, 0.0)
    }

    pub fn powi(self, n: i32) -> Hd {
        let x = self.v;
        let nf = f64::from(n);
        self.chain(x.powi(n), nf * x.powi(n - 1), nf * (nf - 1.0) * x.powi(n - 2))
    }

    /// `self^y` for a positive base.
    pub fn powf(self, y: Hd) -> Hd {
        let (x, p) = (self.v, y.v);
        let g = x.powf(p);
        let l = x.ln();
        let gx = p * x.powf(p - 1.0);
        let gxx = p * (p - 1.0) * x.powf(p - 2.0);
        let gxy = x.powf(p - 1.0) * (1.0 + p * l);
        self.chain2(y, g, gx, g * l, gxx, gxy, g * l * l)
    }

    /// The larger value; at a tie, the receiver.
    pub fn max(self, y: Hd) -> Hd {
        near(self.v - y.v);
        let pick = if self.v >= y.v { self } else { y };
        Hd { v: self.v.max(y.v), ..pick }
    }

    /// The smaller value; at a tie, the receiver.
    pub fn min(self, y: Hd) -> Hd {
        near(self.v - y.v);
        let pick = if self.v <= y.v { self } else { y };
        Hd { v: self.v.min(y.v), ..pick }
    }

    /// `√(x² + y²)`; at the origin, derivatives zero (the macro's convention, as for `abs`).
    pub fn hypot(self, y: Hd) -> Hd {
        let (x, yv) = (self.v, y.v);
        let h = x.hypot(yv);
        near(h);
        if h == 0.0 {
            return lit(h);
        }
        let h3 = h * h * h;
        self.chain2(y, h, x / h, yv / h, yv * yv / h3, -x * yv / h3, x * x / h3)
    }

    /// `atan2(self, x)`: the angle of the point `(x, self)`.
    pub fn atan2(self, x: Hd) -> Hd {
        let (yv, xv) = (self.v, x.v);
        let r2 = xv * xv + yv * yv;
        near(r2.sqrt());
        if r2 == 0.0 {
            singular();
        }
        if xv < 0.0 {
            // Across the negative x axis the angle jumps by 2π (its derivatives do not).
            near(yv);
        }
        let q = r2 * r2;
        let g = yv.atan2(xv);
        self.chain2(
            x,
            g,
            xv / r2,
            -yv / r2,
            -2.0 * xv * yv / q,
            (yv * yv - xv * xv) / q,
            2.0 * xv * yv / q,
        )
    }

    /// `self * a + b` with one rounding, as `f64::mul_add`.
    pub fn mul_add(self, a: Hd, b: Hd) -> Hd {
        let p = self * a + b;
        Hd { v: self.v.mul_add(a.v, b.v), ..p }
    }
}

impl Add for Hd {
    type Output = Hd;
    fn add(self, y: Hd) -> Hd {
        seen(Hd { v: self.v + y.v, a: self.a + y.a, b: self.b + y.b, ab: self.ab + y.ab })
    }
}

impl Sub for Hd {
    type Output = Hd;
    fn sub(self, y: Hd) -> Hd {
        seen(Hd { v: self.v - y.v, a: self.a - y.a, b: self.b - y.b, ab: self.ab - y.ab })
    }
}

impl Mul for Hd {
    type Output = Hd;
    fn mul(self, y: Hd) -> Hd {
        seen(Hd {
            v: self.v * y.v,
            a: m(y.v, self.a) + m(self.v, y.a),
            b: m(y.v, self.b) + m(self.v, y.b),
            ab: m(y.v, self.ab) + self.a * y.b + self.b * y.a + m(self.v, y.ab),
        })
    }
}

impl Div for Hd {
    type Output = Hd;
    fn div(self, y: Hd) -> Hd {
        let (x, d) = (self.v, y.v);
        let r = 1.0 / d;
        self.chain2(y, x / d, r, -x * r * r, 0.0, -r * r, 2.0 * x * r * r * r)
    }
}

impl Neg for Hd {
    type Output = Hd;
    fn neg(self) -> Hd {
        Hd { v: -self.v, a: -self.a, b: -self.b, ab: -self.ab }
    }
}

impl AddAssign for Hd {
    fn add_assign(&mut self, y: Hd) {
        *self = *self + y;
    }
}

impl SubAssign for Hd {
    fn sub_assign(&mut self, y: Hd) {
        *self = *self - y;
    }
}

impl MulAssign for Hd {
    fn mul_assign(&mut self, y: Hd) {
        *self = *self * y;
    }
}

impl DivAssign for Hd {
    fn div_assign(&mut self, y: Hd) {
        *self = *self / y;
    }
}

/// Comparisons look at the values only, as the plain program does, and record how close they
/// were.
impl PartialEq for Hd {
    fn eq(&self, y: &Hd) -> bool {
        near(self.v - y.v);
        self.v == y.v
    }
}

impl PartialOrd for Hd {
    fn partial_cmp(&self, y: &Hd) -> Option<Ordering> {
        near(self.v - y.v);
        self.v.partial_cmp(&y.v)
    }
}

/// Values built from a list of hyper-dual numbers: `Hd`, arrays of them, tuples of up to 12 of
/// those (the glue nests longer ones).
pub trait Seed: Sized {
    /// Takes as many numbers as `Self` holds, in row-major order.
    fn take(it: &mut dyn Iterator<Item = Hd>) -> Self;
}

impl Seed for Hd {
    fn take(it: &mut dyn Iterator<Item = Hd>) -> Self {
        it.next().unwrap_or(lit(0.0))
    }
}

impl<T: Seed, const N: usize> Seed for [T; N] {
    fn take(it: &mut dyn Iterator<Item = Hd>) -> Self {
        std::array::from_fn(|_| T::take(it))
    }
}

macro_rules! seed_tuples {
    ($(($($t:ident),+))*) => {$(
        impl<$($t: Seed),+> Seed for ($($t,)+) {
            fn take(it: &mut dyn Iterator<Item = Hd>) -> Self {
                ($($t::take(it),)+)
            }
        }
    )*};
}

seed_tuples! {
    (A)
    (A, B)
    (A, B, C)
    (A, B, C, D)
    (A, B, C, D, E)
    (A, B, C, D, E, F)
    (A, B, C, D, E, F, G)
    (A, B, C, D, E, F, G, H)
    (A, B, C, D, E, F, G, H, I)
    (A, B, C, D, E, F, G, H, I, J)
    (A, B, C, D, E, F, G, H, I, J, K)
    (A, B, C, D, E, F, G, H, I, J, K, L)
}

/// The differentiated parameters at `x`, seeded with the directions `v` and `w`.
pub fn seed<T: Seed>(x: &[f64], v: &[f64], w: &[f64]) -> T {
    let mut it = (0..x.len()).map(|k| Hd { v: x[k], a: v[k], b: w[k], ab: 0.0 });
    T::take(&mut it)
}

/// The constant parameters at `c`.
pub fn constant<T: Seed>(c: &[f64]) -> T {
    T::take(&mut c.iter().map(|&v| lit(v)))
}

#[cfg(test)]
mod tests {
    use super::{Hd, lit};

    /// A constant operand.
    const C: Hd = lit(0.7);

    /// An operation under test, named.
    type Case = (&'static str, fn(Hd) -> Hd);

    /// `x` seeded along both directions: `g(x)` then carries `g'` and `g''`.
    fn var(x: f64) -> Hd {
        Hd { v: x, a: 1.0, b: 1.0, ab: 0.0 }
    }

    /// Central difference of `g` at `x`.
    fn diff(g: impl Fn(f64) -> f64, x: f64) -> f64 {
        let h = 1e-5 * x.abs().max(1.0);
        (g(x + h) - g(x - h)) / (2.0 * h)
    }

    fn close(what: &str, a: f64, b: f64) {
        assert!((a - b).abs() <= 1e-6 * a.abs().max(b.abs()).max(1.0), "{what}: {a} against {b}");
    }

    /// First and second derivatives of `g` (over `Hd`) against differences of its value and of
    /// its first derivative, at `x`.
    fn check(what: &str, g: impl Fn(Hd) -> Hd, x: f64) {
        let y = g(var(x));
        close(what, y.v, g(lit(x)).v);
        close(what, y.a, diff(|t| g(lit(t)).v, x));
        close(what, y.b, y.a);
        close(what, y.ab, diff(|t| g(var(t)).a, x));
    }

    #[test]
    fn every_operation_against_finite_differences() {
        let unary: [Case; 26] = [
            ("sin", Hd::sin),
            ("cos", Hd::cos),
            ("tan", Hd::tan),
            ("tanh", Hd::tanh),
            ("atan", Hd::atan),
            ("asinh", Hd::asinh),
            ("asin", Hd::asin),
            ("acos", Hd::acos),
            ("atanh", Hd::atanh),
            ("exp", Hd::exp),
            ("exp2", Hd::exp2),
            ("exp_m1", Hd::exp_m1),
            ("sinh", Hd::sinh),
            ("cosh", Hd::cosh),
            ("abs", Hd::abs),
            ("powi 3", |x| x.powi(3)),
            ("powi -2", |x| x.powi(-2)),
            ("recip", Hd::recip),
            ("cbrt", Hd::cbrt),
            ("neg", |x| -x),
            ("mul", |x| x * x * C),
            ("div", |x| C / (x * x + C)),
            ("sub", |x| C - x * x),
            ("max", |x| x.max(C * x + C)),
            ("min", |x| x.min(C)),
            ("mul_add", |x| x.mul_add(x, C)),
        ];
        for (what, g) in unary {
            for x in [-0.6, 0.35, 0.55] {
                check(what, g, x);
            }
        }
        let positive: [Case; 8] = [
            ("ln", Hd::ln),
            ("log2", Hd::log2),
            ("log10", Hd::log10),
            ("ln_1p", Hd::ln_1p),
            ("sqrt", Hd::sqrt),
            ("acosh", |x| (x + lit(1.0)).acosh()),
            ("powf", |x| x.powf(x * C)),
            ("powf constant", |x| x.powf(C)),
        ];
        for (what, g) in positive {
            for x in [0.4, 1.3, 2.5] {
                check(what, g, x);
            }
        }
        let binary: [Case; 3] = [
            ("hypot", |x| x.hypot(x * x - C)),
            ("atan2", |x| (x * C).atan2(x * x - C)),
            ("atan2 across", |x| (x - C).atan2(-C - x)),
        ];
        for (what, g) in binary {
            for x in [-1.1, 0.3, 1.7] {
                check(what, g, x);
            }
        }
    }
}
