//! Program-shaped corpus: long straight-line bodies with mutation, shadowing and passive data.
//!
//! Each function has more than fifty statements and mixes what real numeric code does: `let mut`
//! accumulators updated with `= += -= *= /=`, shadowed bindings, values read by many later
//! statements, dead intermediates that are NaN (they must not poison the derivatives), passive
//! parameters (`i32`, `&[f64]`, `&f64`, a struct behind a reference), an outer `const` and
//! `std::f64::consts`, and most of the supported methods.

use autodiff_runtime::grad;

/// A scale factor from the outer scope, read by the programs as a constant.
pub const SCALE: f64 = 1.25;

/// Constants of [`kinematics`], passed by reference and never differentiated.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    /// Multiplies the angular part of the state.
    pub gain: f64,
    /// Added to the coupling term.
    pub offset: f64,
}

/// A signal chain over `x`, `y`, `z` with an integer order `n` and three weights in `data`.
///
/// Exercises a mutable accumulator with every compound assignment, shadowing of all three
/// parameters, a product `s = x·y` read by most statements, a NaN intermediate that never reaches
/// the output, `hypot`, `atan2`, `mul_add`, `max` and `min`. `tests/programs.rs` holds an
/// independent hand-written reverse sweep of this function.
///
/// `data` must hold at least three values.
#[grad(jvp, hvp, hessian)]
pub fn signal_chain(x: f64, y: f64, z: f64, n: i32, data: &[f64]) -> f64 {
    let k = n as f64;
    let w0 = data[0];
    let w1 = data[1];
    let w2 = data[2];
    let s = x * y;
    let c = s.cos();
    let sn = s.sin();
    let e = (0.5 * z).exp();
    let r = x.hypot(z);
    let q = (1.0 + s * s).ln();
    let mut acc = s + e;
    acc += c * w0;
    acc *= 1.0 + 0.1 * k;
    acc -= sn * q;
    acc /= 1.0 + r;
    let nan = (-1.0 - x * x).sqrt();
    let _dead = nan * s + q;
    let x = x * 2.0;
    let t = x.tanh();
    let u = s * t + w1;
    let v = u.powi(2);
    let a = y.atan2(1.0 + z * z);
    let b = a.mul_add(s, e);
    let m = b.max(c);
    let g = (1.0 + m * m).sqrt();
    let h = g.recip();
    let mut p = SCALE * s;
    p = p.sin() + h;
    p *= e;
    p += v * 0.25;
    p -= k * w2 * h;
    let ang = std::f64::consts::PI * t / 4.0;
    let ca = ang.cos();
    let sa = ang.sin();
    let rot_x = ca * x - sa * y;
    let rot_y = sa * x + ca * y;
    let rad = rot_x.hypot(rot_y);
    let lr = (1.0 + rad).ln();
    let y = y * y + 1.0;
    let yl = y.ln();
    let ys = y.sqrt();
    let mix = yl * ys - s / y;
    let z = z - s * 0.1;
    let zc = z.cos();
    let ze = (-z * z).exp();
    let zz = zc * ze + s;
    let mut total = acc;
    total += p;
    total -= 0.5 * lr;
    total *= 1.0 + 0.01 * mix * mix;
    total += zz * s;
    total /= 1.0 + 0.1 * (s * s);
    let abs_part = (s - 3.0).abs();
    let sc = s.exp() * w0;
    total += 0.1 * abs_part + sc * 0.01;
    let fin = total * (1.0 + 0.1 * t.atan());
    fin + s.powi(3) * 0.05 - e.min(3.0)
}

/// A kinematics-like program over `a`, `b`, `c`, `d`, with a passive `&f64` and a passive struct.
///
/// Exercises the inverse trigonometric and hyperbolic methods, `exp2`, `exp_m1`, `ln_1p`, `log`,
/// `log2`, `log10`, `cbrt`, `powf` with a constant and with a differentiated exponent, `powi`
/// with a negative exponent, the piecewise-constant methods, UFCS calls, `min`/`max`/`abs`, a
/// NaN dead intermediate and a final `return`.
///
/// Defined for `a` in (-1, 1), `b > 0`, `c > 1`, `d != 0`.
#[grad(jvp, hvp, hessian, wrt(a, b, c, d))]
#[allow(clippy::needless_return)]
pub fn kinematics(a: f64, b: f64, c: f64, d: f64, r: &f64, p: &Params) -> f64 {
    let gain = p.gain;
    let off = p.offset;
    let rr = *r;
    let sa = a.asin();
    let ca = a.acos();
    let ta = a.atan();
    let ang = sa + ca * 0.5 - ta;
    let sh = b.sinh();
    let ch = b.cosh();
    let th = (b * 0.5).tanh();
    let ash = d.asinh();
    let ach = c.acosh();
    let ath = (a * 0.5).atanh();
    let hyp = sh * ath + ch * ash - ach;
    let e2 = c.exp2();
    let em = d.exp_m1();
    let l1 = a.ln_1p();
    let lg = c.log(3.0);
    let l2 = b.log2();
    let l10 = c.log10();
    let cb = d.cbrt();
    let pf = b.powf(1.5);
    let pv = c.powf(a);
    let rc = (1.0 + b * b).recip();
    let mn = a.min(d);
    let sg = d.signum();
    let fl = (c * 2.0).floor();
    let ce = (b * 3.0).ceil();
    let ro = (a * 5.0).round();
    let tr = (c * 1.5).trunc();
    let steps = fl + ce - ro + tr * sg;
    let us = f64::sin(a * b);
    let uc = f64::atan2(d, c);
    let mut state = ang * gain;
    state += hyp;
    state = state.mul_add(rc, e2 * 0.1);
    state -= em * l1;
    state *= 1.0 + 0.01 * steps;
    state /= 1.0 + lg * lg;
    let _unused = (-2.0 - a * a).ln();
    let mut energy = 0.5 * ch * ch;
    energy -= 0.5 * sh * sh;
    energy += l2 * l10 + cb * pf;
    energy *= pv.powi(-2).sqrt() + 1.0;
    energy += mn.abs() * rr;
    let coupling = us * uc + off;
    let c = c * 0.5 + coupling;
    let w = c.powi(3) - c * ch;
    let x = w.sin() * state;
    let y = (x * x + 1.0).ln_1p();
    let z = y.max(energy * 0.5);
    let q = z * ch + rc * ch - ch.recip();
    let mut total = q;
    total += x * 0.5;
    total -= energy * 0.1;
    total += state * th;
    let scaled = total * std::f64::consts::FRAC_1_SQRT_2;
    return scaled + 0.001 * w * w;
}

/// A calibration program differentiated only with respect to `p` and `r`.
///
/// `q` and `s` are `f64` parameters left out of `wrt(...)`, so they are constants of the
/// derivatives, like the integer `n`. Exercises a `let mut` that starts as a literal and becomes
/// active (a Horner polynomial), shadowing of differentiated parameters, passive sub-expressions
/// with methods (`s.exp()`, `(q * q + 1.0).log2()`), `powf` with a differentiated exponent,
/// `hypot`, `cbrt`, `abs`, `max` and a NaN dead intermediate.
#[grad(wrt(p, r), jvp, hvp, hessian)]
pub fn calibrate(p: f64, q: f64, r: f64, s: f64, n: i32) -> f64 {
    let nf = n as f64;
    let base = p * q + r * s;
    let pr = p * r;
    let mut acc = base.sin();
    acc += pr.cos() * q;
    acc -= (s * s + 1.0).ln() * pr;
    acc *= 1.0 + 0.5 * nf / (nf + 1.0);
    acc /= 2.0 + base.tanh();
    let p = p * 1.5 + SCALE;
    let r = r - 0.25 * p;
    let qq = q * q;
    let ss = s.exp();
    let u = p * qq + r * ss;
    let v = u.atan();
    let w = (u * u + pr * pr + 1.0).sqrt();
    let h1 = base.exp() * 0.1;
    let h2 = h1 * pr + v;
    let h3 = h2 / w;
    let mut poly = 0.5;
    poly = poly * pr + 1.0;
    poly = poly * pr - 0.5;
    poly = poly * pr + 0.25;
    poly = poly * pr + nf;
    let _nan = (q - 10.0 - p * p).sqrt();
    let g1 = h3 * poly;
    let g2 = g1.mul_add(v, acc);
    let g3 = g2.hypot(base);
    let g4 = g3.cbrt();
    let g5 = (g4 - base).abs();
    let g6 = g5.max(pr * 4.0);
    let g7 = g6 * std::f64::consts::PI / 180.0;
    let lp = (pr * pr + 2.0).log10();
    let lq = (qq + 1.0).log2();
    let mut z = lp * lq;
    z += g7;
    z -= v * 0.3;
    z *= ss.recip() + 1.0;
    z /= 1.0 + qq;
    let a1 = z.sinh();
    let a2 = z.cosh();
    let a3 = a1 / a2;
    let a4 = (a3 + 2.0).powf(r * 0.1);
    let a5 = a4.exp_m1();
    let b1 = base * base;
    let b2 = b1 * 0.5 - pr;
    let b3 = (b2 * b2 + 0.5).ln();
    let b4 = b3 * nf;
    let b5 = b4 - acc * s;
    let c1 = f64::cos(u * 0.5);
    let c2 = c1 * c1 + (u * 0.5).sin().powi(2);
    let c3 = c2 * a5;
    let mut out = c3 + b5;
    out += g2 * 0.1;
    out -= 0.01 * poly * poly;
    out *= 1.0 + 0.001 * nf;
    out + h3
}

/// Deferred initialisation (`let y;` then `y = ...;`), which lowering treats like `let y = ...;`.
/// Its closed form: `f = x² sin x + x`, `f' = 2x sin x + x² cos x + 1`.
#[grad(jvp, hvp)]
#[allow(clippy::needless_late_init)] // the form under test
pub fn deferred(x: f64) -> f64 {
    let y;
    let z: f64;
    y = x * x;
    z = y * x.sin();
    z + x
}
