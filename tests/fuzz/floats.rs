//! The number-type twins (`build/fuzz/floats.rs`, issue 16) against the program:
//! - `f_gen<T: Float>` at `f64` against `f`, and at `f32` against `f_32`, bit for bit in every
//!   mode the program has (up to the sign of a zero, as `check.rs` compares the other twins);
//! - `f_sl`, its arrays as slices with gradients in the caller's buffers, against `f`, bit for
//!   bit;
//! - `f_32` against `f` at the same point (rounded to `f32`), to `f32` precision: see
//!   [`TOL32`] and [`conditioned`] for what that means and where it is not checked.

use std::fmt;

use super::dual::{largest, margin, reset_margin};
use crate::{Fns, Hvp, Jvp, Point, Program, Values};

/// A twin's functions, called through flat `f64` slices (an `f32` twin rounds its inputs to
/// `f32` and widens its results, exactly).
pub enum Twin {
    Scalar {
        value: fn(&Point) -> f64,
        grad: fn(&Point) -> (f64, Vec<f64>),
        jvp: Jvp,
        hvp: fn(&Point, &[f64]) -> Hvp,
        hessian: Option<fn(&Point) -> Vec<f64>>,
    },
    Vector {
        value: fn(&Point) -> Vec<f64>,
        vjp: fn(&Point, &[f64]) -> Values,
        jvp: fn(&Point, &[f64]) -> Values,
        jacobian: Option<fn(&Point) -> Values>,
    },
}

/// A program's number-type twins.
pub struct Floats {
    /// `f_gen` at `f64`, at `f32`, and `f_32`.
    pub generic: Option<Twin>,
    pub generic32: Option<Twin>,
    pub single: Option<Twin>,
    /// `f_sl`, and whether it takes a `&Vec<f64>`.
    pub sliced: Option<Twin>,
    pub vecs: bool,
}

/// `f_32` against `f`: components within `TOL32` of each other, relative to the largest
/// component of the two (and at least 1, as `check.rs`'s `close`). It is 2¹³ units of `f32`'s
/// rounding (`f32::EPSILON` ≈ 1.2·10⁻⁷): room for the rounding of a few thousand operations, or
/// of fewer amplified by a moderate condition number, and far below what a wrong derivative of
/// the `f32` expansion gives (a wrong rule, a wrong constant, a lost term: relative errors of
/// order one). Points where `f32` rounding may legitimately exceed it are skipped
/// ([`conditioned`]); the run prints how many, and the largest error seen as a fraction of it.
pub const TOL32: f64 = 1e-3;

/// What the run checked of the twins.
#[derive(Default)]
pub struct Counts {
    /// Points where `f_gen` (at `f64` and `f32`), `f_32` and `f_sl` were compared.
    pub generic: usize,
    pub single: usize,
    pub sliced: usize,
    /// Of the slice twins' points, those with a `&Vec<f64>`.
    pub vecs: usize,
    /// Points where `f_32` was compared with `f` to `f32` precision, and where not
    /// (ill-conditioned or near a kink).
    pub loose: usize,
    pub loose_skipped: usize,
    /// The largest error of `f_32` against `f` seen, as a fraction of the tolerance.
    pub worst: f64,
}

impl fmt::Display for Counts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} against the generic twin (at f64 and f32), {} against the f32 twin ({} of them to f32 precision against f, {} skipped as ill-conditioned; largest error {:.3} of the tolerance), {} against the slice twin ({} with a &Vec)",
            self.generic,
            self.single,
            self.loose,
            self.loose_skipped,
            self.worst,
            self.sliced,
            self.vecs
        )
    }
}

/// How many of `programs` have each number-type twin, as the run prints it.
pub fn programs(programs: &[Program]) -> String {
    let count = |has: &dyn Fn(&Floats) -> bool| programs.iter().filter(|p| has(&p.floats)).count();
    format!(
        "number-type twins: {} programs with f_gen and f_32, {} with f_sl ({} with a &Vec)",
        count(&|f| f.generic.is_some()),
        count(&|f| f.sliced.is_some()),
        count(&|f| f.sliced.is_some() && f.vecs)
    )
}

/// `f`'s functions as a [`Twin`].
fn of(fns: &Fns) -> Twin {
    match *fns {
        Fns::Scalar { value, grad, jvp, hvp, hessian, .. } => {
            Twin::Scalar { value, grad, jvp, hvp, hessian }
        }
        Fns::Vector { value, vjp, jvp, jacobian, .. } => {
            Twin::Vector { value, vjp, jvp, jacobian: Some(jacobian) }
        }
    }
}

/// Every result of `t` at `p` (directions `v`, `w`, cotangent `u`), named, in a fixed order;
/// `full`: with the Hessian or the Jacobian if `t` has one.
fn results(
    t: &Twin,
    p: &Point,
    (u, v, w): (&[f64], &[f64], &[f64]),
    full: bool,
) -> Vec<(&'static str, Vec<f64>)> {
    match t {
        Twin::Scalar { value, grad, jvp, hvp, hessian } => {
            let (yg, g) = grad(p);
            let (yj, t) = jvp(p, v);
            let (yh, gh, hw) = hvp(p, w);
            let mut out = vec![
                ("value", vec![value(p)]),
                ("value of f_grad", vec![yg]),
                ("gradient", g),
                ("f_jvp", vec![yj, t]),
                ("value of f_hvp", vec![yh]),
                ("gradient of f_hvp", gh),
                ("H·w of f_hvp", hw),
            ];
            if let (true, Some(h)) = (full, hessian) {
                out.push(("f_hessian", h(p)));
            }
            out
        }
        Twin::Vector { value, vjp, jvp, jacobian } => {
            let (yv, g) = vjp(p, u);
            let (yj, t) = jvp(p, v);
            let mut out = vec![
                ("values", value(p)),
                ("values of f_vjp", yv),
                ("cotangents of f_vjp", g),
                ("values of f_jvp", yj),
                ("tangents of f_jvp", t),
            ];
            if let (true, Some(j)) = (full, jacobian) {
                let (y, j) = j(p);
                out.push(("values of f_jacobian", y));
                out.push(("f_jacobian", j));
            }
            out
        }
    }
}

fn bit_equal(a: f64, b: f64) -> bool {
    a.to_bits() == b.to_bits() || (a == 0.0 && b == 0.0)
}

/// `a` and `b` the same to the bit in every mode both have.
fn bits(
    what: &str,
    a: &Twin,
    b: &Twin,
    p: &Point,
    dirs: (&[f64], &[f64], &[f64]),
) -> Result<(), String> {
    let full = matches!(
        (a, b),
        (Twin::Scalar { hessian: Some(_), .. }, Twin::Scalar { hessian: Some(_), .. })
            | (Twin::Vector { jacobian: Some(_), .. }, Twin::Vector { jacobian: Some(_), .. })
    );
    for ((name, x), (_, y)) in results(a, p, dirs, full).into_iter().zip(results(b, p, dirs, full))
    {
        let same = x.len() == y.len() && x.iter().zip(&y).all(|(s, t)| bit_equal(*s, *t));
        if !same {
            return Err(format!("{name} of {what}: {x:?} is not bit for bit {y:?}"));
        }
    }
    Ok(())
}

/// `xs` rounded to `f32` (and back, exactly).
fn rounded(xs: &[f64]) -> Vec<f64> {
    xs.iter().map(|x| f64::from(*x as f32)).collect()
}

/// The largest magnitude in `xs` (at least 1).
fn scale(xs: &[f64]) -> f64 {
    xs.iter().fold(1.0_f64, |m, x| m.max(x.abs()))
}

/// Whether `f`'s results at `p` are well enough conditioned for `f32` to reach them within
/// [`TOL32`]: finite and moderate; no comparison or kink within 10⁻² of flipping (an `f32`
/// evaluation may take the other side); no intermediate value or first derivative larger than
/// 10³ times the results (its `f32` rounding, 2⁻²⁴ of it, could then exceed the tolerance after a
/// cancellation); and results that move by less than a quarter of the tolerance when every
/// input moves by 2⁻¹⁷ of itself (64 units of `f32` rounding: rounding errors inside the
/// function act as such perturbations).
fn conditioned(prog: &Program, p: &Point, near: &Point, dirs: (&[f64], &[f64], &[f64])) -> bool {
    let f = of(&prog.fns);
    let at = results(&f, p, dirs, false);
    if at.iter().flat_map(|(_, x)| x).any(|x| !x.is_finite() || x.abs() > 1e6) {
        return false;
    }
    reset_margin();
    match &prog.fns {
        Fns::Scalar { dual, .. } => drop(dual(p, dirs.1, dirs.2)),
        Fns::Vector { dual, .. } => drop(dual(p, dirs.1, dirs.2)),
    }
    let (kink, big) = (margin(), largest());
    let size = at.iter().map(|(_, x)| scale(x)).fold(1.0, f64::max);
    if kink < 1e-2 || big > 1e3 * size {
        return false;
    }
    let moved = results(&f, near, dirs, false);
    at.iter().zip(&moved).all(|((_, x), (_, y))| {
        let s = scale(x).max(scale(y));
        x.iter().zip(y).all(|(a, b)| (a - b).abs() <= 0.25 * TOL32 * s)
    })
}

/// `f_32` against `f` at the point `s` rounded to `f32`, to [`TOL32`], where [`conditioned`].
fn loose(
    single: &Twin,
    prog: &Program,
    s: &crate::check::Sample,
    counts: &mut Counts,
) -> Result<(), String> {
    let (x, c, data) = (rounded(&s.x), rounded(&s.c), rounded(&s.data));
    let (u, v, w) = (rounded(&s.u), rounded(&s.v), rounded(&s.w));
    let p = Point { x: &x, c: &c, data: &data, steps: s.steps };
    let step = |xs: &[f64], sign: &[f64]| -> Vec<f64> {
        xs.iter()
            .zip(sign.iter().chain(std::iter::repeat(&1.0)))
            .map(|(a, d)| a * (1.0 + d.signum() * 2f64.powi(-17)))
            .collect()
    };
    let (xn, cn) = (step(&x, &s.v), step(&c, &s.w));
    let near = Point { x: &xn, c: &cn, data: &data, steps: s.steps };
    let dirs = (u.as_slice(), v.as_slice(), w.as_slice());
    if !conditioned(prog, &p, &near, dirs) {
        counts.loose_skipped += 1;
        return Ok(());
    }
    counts.loose += 1;
    let f = of(&prog.fns);
    for ((name, a), (_, b)) in
        results(single, &p, dirs, true).into_iter().zip(results(&f, &p, dirs, true))
    {
        let sc = scale(&a).max(scale(&b));
        for (k, (x, y)) in a.iter().zip(&b).enumerate() {
            let err = (x - y).abs() / (TOL32 * sc);
            counts.worst = counts.worst.max(err);
            if err.is_nan() || err > 1.0 {
                return Err(format!(
                    "{name} of the f32 twin f_32: component {k} is {x:e} but f's is {y:e}, beyond f32 precision ({TOL32} of {sc:e})\n  f_32 {a:?}\n  f    {b:?}\n  at the point rounded to f32: x = {x_:?}, c = {c:?}, data = {data:?}",
                    x_ = x
                ));
            }
        }
    }
    Ok(())
}

/// Checks `prog`'s number-type twins at `s` (a point where `f` itself was checked).
pub fn program(
    prog: &Program,
    s: &crate::check::Sample,
    counts: &mut Counts,
) -> Result<(), String> {
    let tw = &prog.floats;
    let p = Point { x: &s.x, c: &s.c, data: &s.data, steps: s.steps };
    let dirs = (s.u.as_slice(), s.v.as_slice(), s.w.as_slice());
    let f = of(&prog.fns);
    if let Some(generic) = &tw.generic {
        counts.generic += 1;
        bits("the generic twin f_gen at f64 against f", generic, &f, &p, dirs)?;
    }
    if let (Some(gen32), Some(single)) = (&tw.generic32, &tw.single) {
        counts.single += 1;
        bits("the generic twin f_gen at f32 against the f32 twin f_32", gen32, single, &p, dirs)?;
        loose(single, prog, s, counts)?;
    }
    if let Some(sl) = &tw.sliced {
        counts.sliced += 1;
        counts.vecs += usize::from(tw.vecs);
        bits("the slice twin f_sl against f", sl, &f, &p, dirs)?;
    }
    Ok(())
}
