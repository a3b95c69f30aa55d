//! The checks of one program at one point: the macro's derivatives against the hyper-dual
//! oracle (to rounding), against central differences (away from kinks), and against each other.

use std::fmt;

use super::dual::{Hd, largest, margin, reset_margin};
use crate::{
    Checkpointed, Fns, Hvp, Iterated, IteratedVector, Optioned, OptionedVector, Point, Program,
    Values,
};

/// Two analytic results that differ only by rounding: relative to the largest component.
const EXACT: f64 = 1e-9;
/// Central differences against an analytic gradient.
const FD: f64 = 1e-5;
/// Points where a value or a first derivative, final or intermediate, exceeds this are not
/// checked: the generator keeps most programs well below it.
const HUGE: f64 = 1e6;
/// Finite differences are skipped when a comparison came closer than this to flipping.
const KINK: f64 = 1e-3;

/// What the run checked.
#[derive(Default)]
pub struct Stats {
    /// Points drawn, and points whose value was finite and moderate (so checked).
    pub points: usize,
    pub checked: usize,
    /// Points where finite differences were skipped: near a kink, or inconsistent between two
    /// steps.
    pub fd_skipped: usize,
    /// Gradient (or Jacobian) components compared with the oracle.
    pub components: usize,
    /// Points where the iterator form was compared, and of those, where to rounding only.
    pub twins: usize,
    pub twins_rounding: usize,
    /// Points where the options twin was compared; of those, where its Jacobian was row by row
    /// or column by column (`jacobian(row_by_row)`, `jacobian(column_by_column)`) and `f`'s in
    /// the same mode, in one pass, compared to the bit.
    pub options: usize,
    pub one_pass: usize,
    /// Points where the loop-exit twin was compared, and of those, under `checkpoint(s = ..)`.
    pub exits: usize,
    pub exits_checkpointed: usize,
    /// Points where the struct twin was compared; the call twin, and of those, to rounding.
    pub structs: usize,
    /// Points where the array-of-structs twin was compared.
    pub arrays: usize,
    pub calls: usize,
    pub calls_rounding: usize,
    /// Points where the fusion twin was compared.
    pub unfused: usize,
    /// The number-type twins (`floats.rs`).
    pub floats: super::floats::Counts,
}

impl fmt::Display for Stats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} points, {} checked ({} without finite differences, near a kink), {} derivative components, {} against the iterator form ({} of them to rounding), {} against the options twin ({} of them a one-pass Jacobian against row by row), {} against the loop-exit twin ({} of them checkpointed), {} against the struct twin, {} against the array-of-structs twin, {} against the call twin ({} of them to rounding), {} against the fusion twin",
            self.points,
            self.checked,
            self.fd_skipped,
            self.components,
            self.twins,
            self.twins_rounding,
            self.options,
            self.one_pass,
            self.exits,
            self.exits_checkpointed,
            self.structs,
            self.arrays,
            self.calls,
            self.calls_rounding,
            self.unfused
        )?;
        write!(f, ", {}", self.floats)
    }
}

/// SplitMix64, for the points.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }

    /// `n` numbers uniform in `-r..r`.
    fn vec(&mut self, n: usize, r: f64) -> Vec<f64> {
        (0..n).map(|_| (2.0 * self.next() - 1.0) * r).collect()
    }
}

/// A random point of a program, with directions.
pub struct Sample {
    pub x: Vec<f64>,
    pub c: Vec<f64>,
    pub data: Vec<f64>,
    pub steps: usize,
    /// Directions in the input space, and a cotangent of the outputs.
    pub v: Vec<f64>,
    pub w: Vec<f64>,
    pub u: Vec<f64>,
}

impl Sample {
    /// Point `k` of `prog`.
    pub fn new(prog: &Program, k: u64) -> Sample {
        let mut rng = Rng(prog.seed.wrapping_mul(0x2545_F491_4F6C_DD1D) ^ k);
        let len = if prog.data { (rng.next() * 6.0) as usize } else { 0 };
        // At most the generator's `MAX_STEPS`, which its indices assume.
        let steps = if prog.steps { (rng.next() * 5.0) as usize } else { 0 };
        Sample {
            steps,
            x: rng.vec(prog.n, 1.5),
            c: rng.vec(prog.nc, 1.0),
            data: rng.vec(len, 1.0),
            v: rng.vec(prog.n, 1.0),
            w: rng.vec(prog.n, 1.0),
            u: rng.vec(prog.m, 1.0),
        }
    }

    fn point(&self) -> Point<'_> {
        Point { x: &self.x, c: &self.c, data: &self.data, steps: self.steps }
    }
}

impl fmt::Display for Sample {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "x (differentiated, flattened) = {:?}", self.x)?;
        writeln!(f, "constants = {:?}, data = {:?}, steps = {}", self.c, self.data, self.steps)?;
        write!(f, "v = {:?}\nw = {:?}\nu = {:?}", self.v, self.w, self.u)
    }
}

fn unit(n: usize, k: usize) -> Vec<f64> {
    (0..n).map(|i| if i == k { 1.0 } else { 0.0 }).collect()
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn scale(xs: &[f64]) -> f64 {
    xs.iter().filter(|x| x.is_finite()).fold(1.0_f64, |m, x| m.max(x.abs()))
}

/// `values` against `reference`, within `tol` relative to the larger of the two.
fn close(what: &str, values: &[f64], reference: &[f64], tol: f64) -> Result<(), String> {
    if values.len() != reference.len() {
        return Err(format!("{what}: {} components, expected {}", values.len(), reference.len()));
    }
    let s = scale(values).max(scale(reference));
    for (k, (a, b)) in values.iter().zip(reference).enumerate() {
        let agree = (a.is_nan() && b.is_nan()) || a == b || (a - b).abs() <= tol * s;
        if !agree {
            return Err(format!(
                "{what}: component {k} is {a:e} but the reference is {b:e}\n  got      {values:?}\n  expected {reference:?}"
            ));
        }
    }
    Ok(())
}

/// `a` and `b` the same to the bit, except for the sign of a zero: a derivative that is zero may
/// be `0.0` in one form and `-0.0` in another (an adjoint assigned at its first touch keeps the
/// sign of what it is assigned, one zeroed and then added into does not), as `autodiff_runtime::guide::memory` states.
fn bit_equal(a: f64, b: f64) -> bool {
    a.to_bits() == b.to_bits() || (a == 0.0 && b == 0.0)
}

fn same_bits(what: &str, a: f64, b: f64) -> Result<(), String> {
    if bit_equal(a, b) {
        Ok(())
    } else {
        Err(format!("{what}: {a:e} is not bit for bit the value of `f`, {b:e}"))
    }
}

/// `a` and `b` equal to the bit (up to the sign of a zero), component by component.
fn all_bits(what: &str, a: &[f64], b: &[f64]) -> Result<(), String> {
    let same = a.len() == b.len() && a.iter().zip(b).all(|(x, y)| bit_equal(*x, *y));
    if same { Ok(()) } else { Err(format!("{what}: {a:?} is not bit for bit {b:?}")) }
}

/// The checkpointed twin's `f_grad` and `f_hvp` (along `w`) against the program's, to the bit.
fn checkpointed(
    ck: &Checkpointed,
    p: &Point,
    w: &[f64],
    grad: &(f64, Vec<f64>),
    hvp: &Hvp,
) -> Result<(), String> {
    let (y, g) = (ck.grad)(p);
    all_bits("value of the checkpointed f_grad", &[y], &[grad.0])?;
    all_bits("gradient of the checkpointed f_grad", &g, &grad.1)?;
    let (y, g, hw) = (ck.hvp)(p, w);
    all_bits("value of the checkpointed f_hvp", &[y], &[hvp.0])?;
    all_bits("gradient of the checkpointed f_hvp", &g, &hvp.1)?;
    all_bits("H·w of the checkpointed f_hvp", &hw, &hvp.2)
}

/// Derivatives of the iterator form against the program's: to the bit when `exact`, else to
/// rounding.
fn twin(what: &str, a: &[f64], b: &[f64], exact: bool) -> Result<(), String> {
    match exact {
        true => all_bits(what, a, b),
        false => close(&format!("{what} (to rounding)"), a, b, EXACT),
    }
}

/// The iterator form's value, `f_grad`, `f_jvp` (along `v`), `f_hvp` (along `w`) and
/// `f_hessian` against the program's: the values to the bit, the derivatives too when the
/// generator says they keep their bits.
fn iterated_scalar(it: &Iterated, prog: &Fns, p: &Point, s: &Sample) -> Result<(), String> {
    let Fns::Scalar { value, grad, jvp, hvp, hessian, .. } = prog else { return Ok(()) };
    all_bits("value of f_it", &[(it.value)(p)], &[value(p)])?;
    let ((y, g), (yr, gr)) = ((it.grad)(p), grad(p));
    all_bits("value of f_it_grad", &[y], &[yr])?;
    twin("gradient of f_it_grad", &g, &gr, it.exact)?;
    let ((y, t), (yr, tr)) = ((it.jvp)(p, &s.v), jvp(p, &s.v));
    all_bits("value of f_it_jvp", &[y], &[yr])?;
    twin("slope of f_it_jvp", &[t], &[tr], it.exact)?;
    let ((y, g, hw), (yr, gr, hwr)) = ((it.hvp)(p, &s.w), hvp(p, &s.w));
    all_bits("value of f_it_hvp", &[y], &[yr])?;
    twin("gradient of f_it_hvp", &g, &gr, it.exact)?;
    twin("H·w of f_it_hvp", &hw, &hwr, it.exact)?;
    if let (Some(h), Some(hr)) = (it.hessian, hessian) {
        twin("f_it_hessian", &h(p), &hr(p), it.exact)?;
    }
    Ok(())
}

/// The iterator form's values, `f_vjp` (along `u`), `f_jvp` (along `v`) and `f_jacobian`
/// against the program's, as [`iterated_scalar`] compares them.
fn iterated_vector(it: &IteratedVector, prog: &Fns, p: &Point, s: &Sample) -> Result<(), String> {
    let Fns::Vector { value, vjp, jvp, jacobian, .. } = prog else { return Ok(()) };
    all_bits("values of f_it", &(it.value)(p), &value(p))?;
    let ((y, g), (yr, gr)) = ((it.vjp)(p, &s.u), vjp(p, &s.u));
    all_bits("values of f_it_vjp", &y, &yr)?;
    twin("cotangents of f_it_vjp", &g, &gr, it.exact)?;
    let ((y, t), (yr, tr)) = ((it.jvp)(p, &s.v), jvp(p, &s.v));
    all_bits("values of f_it_jvp", &y, &yr)?;
    twin("tangents of f_it_jvp", &t, &tr, it.exact)?;
    let ((y, j), (yr, jr)) = ((it.jacobian)(p), jacobian(p));
    all_bits("values of f_it_jacobian", &y, &yr)?;
    twin("f_it_jacobian", &j, &jr, it.exact)
}

/// The options twin's functions against the program's, to the bit; its Hessian against the
/// program's `f_hvp` by columns `by_cols`.
fn optioned_scalar(
    o: &Optioned,
    prog: &Fns,
    p: &Point,
    s: &Sample,
    by_cols: &[f64],
) -> Result<(), String> {
    let Fns::Scalar { grad, jvp, hvp, .. } = prog else { return Ok(()) };
    let at = |what: &str| format!("{what} of f_opt under #[grad({})]", o.options);
    let ((y, g), (yr, gr)) = ((o.grad)(p), grad(p));
    all_bits(&at("f_grad"), &[y], &[yr])?;
    all_bits(&at("gradient of f_grad"), &g, &gr)?;
    if let Some(j) = o.jvp {
        let ((y, t), (yr, tr)) = (j(p, &s.v), jvp(p, &s.v));
        all_bits(&at("f_jvp"), &[y, t], &[yr, tr])?;
    }
    if let Some(h) = o.hvp {
        let ((y, g, hw), (yr, gr, hwr)) = (h(p, &s.w), hvp(p, &s.w));
        all_bits(&at("value of f_hvp"), &[y], &[yr])?;
        all_bits(&at("gradient of f_hvp"), &g, &gr)?;
        all_bits(&at("H·w of f_hvp"), &hw, &hwr)?;
    }
    if let Some(h) = o.hessian {
        close(&at("f_hessian against f_hvp by columns"), &h(p), by_cols, EXACT)?;
    }
    Ok(())
}

/// The options twin's functions against the program's, to the bit (the Jacobian to rounding
/// when the two compute it in different modes).
fn optioned_vector(o: &OptionedVector, prog: &Fns, p: &Point, s: &Sample) -> Result<(), String> {
    let Fns::Vector { vjp, jvp, jacobian, mode, .. } = prog else { return Ok(()) };
    let at = |what: &str| format!("{what} of f_opt under #[grad({})]", o.options);
    let ((y, g), (yr, gr)) = ((o.vjp)(p, &s.u), vjp(p, &s.u));
    all_bits(&at("values of f_vjp"), &y, &yr)?;
    all_bits(&at("cotangents of f_vjp"), &g, &gr)?;
    if let Some(j) = o.jvp {
        let ((y, t), (yr, tr)) = (j(p, &s.v), jvp(p, &s.v));
        all_bits(&at("values of f_jvp"), &y, &yr)?;
        all_bits(&at("tangents of f_jvp"), &t, &tr)?;
    }
    if let (Some(jac), Some(its_mode)) = (o.jacobian, o.mode) {
        if let Some(forced) = o.forced.filter(|f| *f != its_mode()) {
            return Err(at(&format!("f_jacobian_mode is {}, not {forced}:", its_mode())));
        }
        let ((y, j), (yr, jr)) = (jac(p), jacobian(p));
        all_bits(&at("values of f_jacobian"), &y, &yr)?;
        match its_mode() == mode() {
            true => all_bits(&at("f_jacobian"), &j, &jr)?,
            false => close(&at("f_jacobian (another mode)"), &j, &jr, EXACT)?,
        }
    }
    Ok(())
}

/// Central differences of `f` (with `m` outputs) along each input at `x`, with steps `h` and
/// `h / 2` combined (Richardson), or `None` when the two steps disagree (a kink, or rounding) or
/// when the rounding of `f` itself could reach the tolerance (large values, small slopes).
fn central(f: &dyn Fn(&[f64]) -> Vec<f64>, x: &[f64], m: usize) -> Option<Vec<Vec<f64>>> {
    let mut cols = Vec::new();
    let size = scale(&f(x));
    for k in 0..x.len() {
        let h = f64::EPSILON.cbrt() * x[k].abs().max(1.0);
        let diff = |h: f64| {
            let (mut p, mut q) = (x.to_vec(), x.to_vec());
            p[k] += h;
            q[k] -= h;
            let (fp, fq) = (f(&p), f(&q));
            (0..m).map(|i| (fp[i] - fq[i]) / (2.0 * h)).collect::<Vec<f64>>()
        };
        let (d1, d2) = (diff(h), diff(h / 2.0));
        let s = scale(&d1).max(scale(&d2));
        // NaN counts as disagreeing.
        let agree = |(a, b): (&f64, &f64)| (a - b).abs() <= FD * s;
        // What rounding `f` to its last bit makes of the difference with the smaller step, after
        // Richardson's combination.
        let noise = 16.0 * f64::EPSILON * size / h;
        if !d1.iter().zip(&d2).all(agree) || noise > 0.1 * FD * s {
            return None;
        }
        cols.push(d1.iter().zip(&d2).map(|(a, b)| (4.0 * b - a) / 3.0).collect());
    }
    Some(cols)
}

/// Checks `prog` at `sample`, recording what was checked in `stats`.
pub fn program(prog: &Program, sample: &Sample, stats: &mut Stats) -> Result<(), String> {
    stats.points += 1;
    let checked = stats.checked;
    match &prog.fns {
        Fns::Scalar { .. } => scalar(prog, sample, stats)?,
        Fns::Vector { .. } => vector(prog, sample, stats)?,
    }
    match stats.checked > checked {
        true => super::floats::program(prog, sample, &mut stats.floats),
        false => Ok(()),
    }
}

/// The hyper-dual evaluations along each unit direction (second direction `w`), the smallest
/// margin to a kink seen, and the largest intermediate.
fn duals<T>(n: usize, w: &[f64], eval: impl Fn(&[f64], &[f64]) -> T) -> (Vec<T>, f64, f64) {
    reset_margin();
    let out = (0..n).map(|k| eval(&unit(n, k), w)).collect();
    (out, margin(), largest())
}

fn scalar(prog: &Program, s: &Sample, stats: &mut Stats) -> Result<(), String> {
    let Fns::Scalar {
        value,
        grad,
        jvp,
        hvp,
        hessian,
        dual,
        checkpointed: ck,
        iterated,
        optioned,
        exited,
        structed,
        arrayed,
        called,
        unfused,
    } = &prog.fns
    else {
        return Ok(());
    };
    let (p, n) = (s.point(), prog.n);
    let y = value(&p);
    if !y.is_finite() || y.abs() > HUGE {
        return Ok(());
    }
    let (hd, kink, big) = duals(n, &s.w, |v, w| dual(&p, v, w));
    if big > HUGE {
        return Ok(());
    }
    stats.checked += 1;
    let (yg, g) = grad(&p);
    same_bits("value of f_grad", yg, y)?;
    for h in &hd {
        same_bits("value of the hyper-dual oracle (a bug of the test)", h.v, y)?;
    }
    let dual_g: Vec<f64> = hd.iter().map(|h| h.a).collect();
    let dual_hw: Vec<f64> = hd.iter().map(|h| h.ab).collect();
    close("gradient against the hyper-dual oracle", &g, &dual_g, EXACT)?;
    stats.components += n;
    let f = |x: &[f64]| vec![value(&Point { x, ..s.point() })];
    match central(&f, &s.x, 1).filter(|_| kink > KINK) {
        Some(cols) => {
            let fd: Vec<f64> = cols.iter().map(|c| c[0]).collect();
            close("gradient against central differences", &g, &fd, FD)?;
        }
        None => stats.fd_skipped += 1,
    }
    let (yj, slope) = jvp(&p, &s.v);
    same_bits("value of f_jvp", yj, y)?;
    close("f_jvp against the gradient", &[slope], &[dot(&g, &s.v)], EXACT)?;
    let (yh, gh, hw) = hvp(&p, &s.w);
    if let Some(ck) = ck {
        checkpointed(ck, &p, &s.w, &(yg, g.clone()), &(yh, gh.clone(), hw.clone()))?;
    }
    same_bits("value of f_hvp", yh, y)?;
    close("the gradient of f_hvp against f_grad", &gh, &g, EXACT)?;
    close("H·w of f_hvp against the hyper-dual oracle", &hw, &dual_hw, EXACT)?;
    let cols: Vec<Vec<f64>> = (0..n).map(|j| hvp(&p, &unit(n, j)).2).collect();
    // Relative to the whole Hessian: an entry that is zero one way round may be rounding the
    // other (the sum of large terms that cancel).
    let by_cols: Vec<f64> = (0..n * n).map(|k| cols[k % n][k / n]).collect();
    let by_rows: Vec<f64> = (0..n * n).map(|k| cols[k / n][k % n]).collect();
    close("Hessian symmetry (rows against columns)", &by_rows, &by_cols, EXACT)?;
    if let Some(hessian) = hessian {
        let h = hessian(&p);
        close("f_hessian against f_hvp by columns", &h, &by_cols, EXACT)?;
    }
    let hd_vw = dual(&p, &s.v, &s.w);
    let hw_cols: Vec<f64> = (0..n).map(|i| (0..n).map(|j| cols[j][i] * s.w[j]).sum()).collect();
    close("v·H·w against the hyper-dual oracle", &[dot(&s.v, &hw_cols)], &[hd_vw.ab], EXACT)?;
    close("∇f·v against the hyper-dual oracle", &[slope], &[hd_vw.a], EXACT)?;
    if let Some(o) = optioned {
        stats.options += 1;
        optioned_scalar(o, &prog.fns, &p, s, &by_cols)?;
    }
    if let Some(ex) = exited {
        stats.exits += 1;
        stats.exits_checkpointed += usize::from(ex.snapshots.is_some());
        super::exits::scalar(ex, &prog.fns, &p, &s.v, &s.w)?;
    }
    if let Some(t) = structed {
        stats.structs += 1;
        super::twins::scalar(t, &prog.fns, &p, &s.v, &s.w)?;
    }
    if let Some(t) = arrayed {
        stats.arrays += 1;
        super::twins::scalar(t, &prog.fns, &p, &s.v, &s.w)?;
    }
    if let Some(t) = called {
        stats.calls += 1;
        stats.calls_rounding += usize::from(!t.exact || !t.exact_second);
        super::twins::scalar(t, &prog.fns, &p, &s.v, &s.w)?;
    }
    if let Some(t) = unfused {
        stats.unfused += 1;
        super::twins::scalar(t, &prog.fns, &p, &s.v, &s.w)?;
    }
    let Some(it) = iterated else { return Ok(()) };
    stats.twins += 1;
    stats.twins_rounding += usize::from(!it.exact);
    iterated_scalar(it, &prog.fns, &p, s)
}

fn vector(prog: &Program, s: &Sample, stats: &mut Stats) -> Result<(), String> {
    let Fns::Vector {
        value,
        vjp,
        jvp,
        jacobian,
        mode,
        forced,
        dual,
        checkpointed: ck,
        iterated,
        optioned,
        exited,
        structed,
        arrayed,
        called,
        unfused,
    } = &prog.fns
    else {
        return Ok(());
    };
    let (p, n, m) = (s.point(), prog.n, prog.m);
    let y = value(&p);
    if y.iter().any(|y| !y.is_finite() || y.abs() > HUGE) {
        return Ok(());
    }
    let (hd, kink, big) = duals(n, &s.w, |v, w| dual(&p, v, w));
    if big > HUGE {
        return Ok(());
    }
    stats.checked += 1;
    let expected_mode = forced.unwrap_or(if n < m { "forward" } else { "reverse" });
    if mode() != expected_mode {
        return Err(format!("f_jacobian_mode is {}, expected {expected_mode}", mode()));
    }
    let (yj, jac) = jacobian(&p);
    for (a, b) in yj.iter().zip(&y) {
        same_bits("value of f_jacobian", *a, *b)?;
    }
    let dual_j: Vec<f64> = (0..m * n).map(|k| hd[k % n][k / n].a).collect();
    close("Jacobian against the hyper-dual oracle", &jac, &dual_j, EXACT)?;
    stats.components += m * n;
    let f = |x: &[f64]| value(&Point { x, ..s.point() });
    match central(&f, &s.x, m).filter(|_| kink > KINK) {
        Some(cols) => {
            let fd: Vec<f64> = (0..m * n).map(|k| cols[k % n][k / n]).collect();
            close("Jacobian against central differences", &jac, &fd, FD)?;
        }
        None => stats.fd_skipped += 1,
    }
    let (yt, t) = jvp(&p, &s.v);
    for (a, b) in yt.iter().zip(&y) {
        same_bits("value of f_jvp", *a, *b)?;
    }
    let jv: Vec<f64> = (0..m).map(|i| dot(&jac[i * n..(i + 1) * n], &s.v)).collect();
    close("f_jvp against J·v", &t, &jv, EXACT)?;
    let along: Vec<Hd> = dual(&p, &s.v, &s.w);
    let dual_jv: Vec<f64> = along.iter().map(|h| h.a).collect();
    close("f_jvp against the hyper-dual oracle", &t, &dual_jv, EXACT)?;
    let (yv, g) = vjp(&p, &s.u);
    for (a, b) in yv.iter().zip(&y) {
        same_bits("value of f_vjp", *a, *b)?;
    }
    if let Some(ck) = ck {
        let (yc, gc): Values = ck(&p, &s.u);
        all_bits("value of the checkpointed f_vjp", &yc, &yv)?;
        all_bits("cotangents of the checkpointed f_vjp", &gc, &g)?;
    }
    let ut_j: Vec<f64> = (0..n).map(|j| (0..m).map(|i| s.u[i] * jac[i * n + j]).sum()).collect();
    close("f_vjp against uᵀJ", &g, &ut_j, EXACT)?;
    if let Some(o) = optioned {
        stats.options += 1;
        let rows = o.options.contains("row_by_row") && mode() == "reverse";
        let cols = o.options.contains("column_by_column") && mode() == "forward";
        stats.one_pass += usize::from(rows || cols);
        optioned_vector(o, &prog.fns, &p, s)?;
    }
    if let Some(ex) = exited {
        stats.exits += 1;
        stats.exits_checkpointed += usize::from(ex.snapshots.is_some());
        super::exits::vector(ex, &prog.fns, &p, &s.u, &s.v)?;
    }
    if let Some(t) = structed {
        stats.structs += 1;
        super::twins::vector(t, &prog.fns, &p, &s.u, &s.v)?;
    }
    if let Some(t) = arrayed {
        stats.arrays += 1;
        super::twins::vector(t, &prog.fns, &p, &s.u, &s.v)?;
    }
    if let Some(t) = called {
        stats.calls += 1;
        stats.calls_rounding += usize::from(!t.exact);
        super::twins::vector(t, &prog.fns, &p, &s.u, &s.v)?;
    }
    if let Some(t) = unfused {
        stats.unfused += 1;
        super::twins::vector(t, &prog.fns, &p, &s.u, &s.v)?;
    }
    let Some(it) = iterated else { return Ok(()) };
    stats.twins += 1;
    stats.twins_rounding += usize::from(!it.exact);
    iterated_vector(it, &prog.fns, &p, s)
}
