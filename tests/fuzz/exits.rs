//! The loop-exit twin `f_wh` (`build/fuzz/print_while.rs`) against the program: its loops stop
//! through `break`, `while` and `loop` conditions and skip through `continue` (loops of unknown
//! length to the macro, checkpointed online), where `f`'s run over their ranges (stored, or
//! checkpointed offline in `f_ck`); the same iterations, so the same bits in every mode.

use crate::{Exited, ExitedVector, Fns, Point};

/// `a` and `b` equal to the bit, component by component, up to the sign of a zero (as
/// `check.rs` compares the other twins: a zero adjoint's sign depends on its first touch).
fn bits(what: &str, ex: Option<usize>, a: &[f64], b: &[f64]) -> Result<(), String> {
    let equal = |x: &f64, y: &f64| x.to_bits() == y.to_bits() || (*x == 0.0 && *y == 0.0);
    let same = a.len() == b.len() && a.iter().zip(b).all(|(x, y)| equal(x, y));
    let under = match ex {
        Some(s) => format!(" under checkpoint(s = {s})"),
        None => String::new(),
    };
    match same {
        true => Ok(()),
        false => Err(format!(
            "{what} of the loop-exit twin f_wh{under}: {a:?} is not bit for bit f's {b:?}"
        )),
    }
}

/// The twin's value, `f_grad`, `f_jvp` (along `v`), `f_hvp` (along `w`) and `f_hessian`
/// against the program's, to the bit.
pub fn scalar(ex: &Exited, prog: &Fns, p: &Point, v: &[f64], w: &[f64]) -> Result<(), String> {
    let Fns::Scalar { value, grad, jvp, hvp, hessian, .. } = prog else { return Ok(()) };
    let s = ex.snapshots;
    bits("value", s, &[(ex.value)(p)], &[value(p)])?;
    let ((y, g), (yr, gr)) = ((ex.grad)(p), grad(p));
    bits("value of f_grad", s, &[y], &[yr])?;
    bits("gradient", s, &g, &gr)?;
    let ((y, t), (yr, tr)) = ((ex.jvp)(p, v), jvp(p, v));
    bits("f_jvp", s, &[y, t], &[yr, tr])?;
    let ((y, g, hw), (yr, gr, hwr)) = ((ex.hvp)(p, w), hvp(p, w));
    bits("value of f_hvp", s, &[y], &[yr])?;
    bits("gradient of f_hvp", s, &g, &gr)?;
    bits("H·w of f_hvp", s, &hw, &hwr)?;
    if let (Some(h), Some(hr)) = (ex.hessian, hessian) {
        bits("f_hessian", s, &h(p), &hr(p))?;
    }
    Ok(())
}

/// The twin's values, `f_vjp` (along `u`), `f_jvp` (along `v`) and `f_jacobian` against the
/// program's, to the bit.
pub fn vector(
    ex: &ExitedVector,
    prog: &Fns,
    p: &Point,
    u: &[f64],
    v: &[f64],
) -> Result<(), String> {
    let Fns::Vector { value, vjp, jvp, jacobian, .. } = prog else { return Ok(()) };
    let s = ex.snapshots;
    bits("values", s, &(ex.value)(p), &value(p))?;
    let ((y, g), (yr, gr)) = ((ex.vjp)(p, u), vjp(p, u));
    bits("values of f_vjp", s, &y, &yr)?;
    bits("cotangents of f_vjp", s, &g, &gr)?;
    let ((y, t), (yr, tr)) = ((ex.jvp)(p, v), jvp(p, v));
    bits("values of f_jvp", s, &y, &yr)?;
    bits("tangents of f_jvp", s, &t, &tr)?;
    let ((y, j), (yr, jr)) = ((ex.jacobian)(p), jacobian(p));
    bits("values of f_jacobian", s, &y, &yr)?;
    bits("f_jacobian", s, &j, &jr)
}
