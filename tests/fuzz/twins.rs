//! The twins that rewrite a program's signature or body and must compute what it computes: the
//! struct twin `f_st` (`build/fuzz/structs.rs`: parameters packed into a
//! `#[derive(Differentiable)]` struct), the array-of-structs twin `f_ao`
//! (`build/fuzz/arrays.rs`: arrays packed into an array of such structs), the call twin
//! `f_call` (`build/fuzz/calls.rs`: a piece of the body in a `#[grad]` helper returning an
//! array or a tuple), and the fusion twin `f_nf`
//! (`build/fuzz/unfused.rs`: the same function, its loops not fused). Their glue gives every
//! result in the program's numbering; their value and derivatives are compared with the
//! program's to the bit, or, for the reverse-mode results of a call twin whose helper sums a
//! cotangent the program sums in another order, to rounding.

use crate::{Fns, Hvp, Point, Values};

/// Two reverse-mode results that differ by the order of a sum: relative to the largest
/// component, as `check.rs` compares analytic results.
const ROUNDING: f64 = 1e-9;

/// A twin of a scalar program, its results in the program's numbering.
pub struct Twin {
    /// `f_st`, `f_ao`, `f_call` or `f_nf`.
    pub name: &'static str,
    pub value: fn(&Point) -> f64,
    pub grad: fn(&Point) -> (f64, Vec<f64>),
    pub jvp: fn(&Point, &[f64]) -> (f64, f64),
    pub hvp: fn(&Point, &[f64]) -> Hvp,
    pub hessian: Option<fn(&Point) -> Vec<f64>>,
    /// Whether its reverse-mode results are the program's to the bit (else to rounding).
    pub exact: bool,
    /// Whether its H·w and Hessian are the program's to the bit (else to rounding): a call
    /// twin's helper that calls a function gives the call's value another tangent in `_hvp`'s
    /// forward sweep, rounded otherwise (`build/fuzz/calls.rs`).
    pub exact_second: bool,
}

/// A twin of a vector program.
pub struct TwinVector {
    pub name: &'static str,
    pub value: fn(&Point) -> Vec<f64>,
    pub vjp: fn(&Point, &[f64]) -> Values,
    pub jvp: fn(&Point, &[f64]) -> Values,
    pub jacobian: fn(&Point) -> Values,
    pub exact: bool,
}

/// `h`, an `n × n` matrix numbered as a twin numbers its scalars, in the program's numbering:
/// `perm[i]` is the program's index of the twin's scalar `i`.
// Only a program with a struct (or array-of-structs) twin and `hessian`/`jacobian` reads it.
#[allow(dead_code)]
pub fn square(h: &[f64], perm: &[usize]) -> Vec<f64> {
    let n = perm.len();
    let mut out = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..n {
            out[perm[i] * n + perm[j]] = h[i * n + j];
        }
    }
    out
}

/// `j`, a Jacobian with columns numbered as a twin numbers its scalars, in the program's
/// numbering.
// Only a program with a struct (or array-of-structs) twin and `hessian`/`jacobian` reads it.
#[allow(dead_code)]
pub fn columns(j: &[f64], perm: &[usize]) -> Vec<f64> {
    let n = perm.len();
    let mut out = vec![0.0; j.len()];
    for (r, row) in j.chunks(n).enumerate() {
        for (c, x) in row.iter().enumerate() {
            out[r * n + perm[c]] = *x;
        }
    }
    out
}

/// `a` against the program's `b`: to the bit (up to the sign of a zero, as `check.rs` compares
/// the other twins), or to rounding when not `exact`.
fn compare(name: &str, what: &str, a: &[f64], b: &[f64], exact: bool) -> Result<(), String> {
    let bits = |x: &f64, y: &f64| x.to_bits() == y.to_bits() || (*x == 0.0 && *y == 0.0);
    let scale = a.iter().chain(b).filter(|x| x.is_finite()).fold(1.0_f64, |m, x| m.max(x.abs()));
    let near = |x: &f64, y: &f64| bits(x, y) || (x - y).abs() <= ROUNDING * scale;
    let same = a.len() == b.len()
        && match exact {
            true => a.iter().zip(b).all(|(x, y)| bits(x, y)),
            false => a.iter().zip(b).all(|(x, y)| near(x, y)),
        };
    let how = if exact { "bit for bit" } else { "to rounding" };
    match same {
        true => Ok(()),
        false => Err(format!("{what} of the twin {name}: {a:?} is not {how} f's {b:?}")),
    }
}

/// The twin's value, `_grad`, `_jvp` (along `v`), `_hvp` (along `w`) and `_hessian` against
/// the program's: values and `_jvp` (forward mode) to the bit, the gradients as `exact` says,
/// H·w and the Hessian as `exact_second` says.
pub fn scalar(t: &Twin, prog: &Fns, p: &Point, v: &[f64], w: &[f64]) -> Result<(), String> {
    let Fns::Scalar { value, grad, jvp, hvp, hessian, .. } = prog else { return Ok(()) };
    let (name, exact) = (t.name, t.exact);
    compare(name, "value", &[(t.value)(p)], &[value(p)], true)?;
    let ((y, g), (yr, gr)) = ((t.grad)(p), grad(p));
    compare(name, "value of _grad", &[y], &[yr], true)?;
    compare(name, "gradient", &g, &gr, exact)?;
    let ((y, d), (yr, dr)) = ((t.jvp)(p, v), jvp(p, v));
    compare(name, "_jvp", &[y, d], &[yr, dr], true)?;
    let ((y, g, hw), (yr, gr, hwr)) = ((t.hvp)(p, w), hvp(p, w));
    compare(name, "value of _hvp", &[y], &[yr], true)?;
    compare(name, "gradient of _hvp", &g, &gr, exact)?;
    compare(name, "H·w of _hvp", &hw, &hwr, t.exact_second)?;
    if let (Some(h), Some(hr)) = (t.hessian, hessian) {
        compare(name, "_hessian", &h(p), &hr(p), t.exact_second)?;
    }
    Ok(())
}

/// The twin's values, `_vjp` (along `u`), `_jvp` (along `v`) and `_jacobian` against the
/// program's: values and `_jvp` to the bit, `_vjp` as `exact` says, `_jacobian` to the bit when
/// computed in forward mode.
pub fn vector(t: &TwinVector, prog: &Fns, p: &Point, u: &[f64], v: &[f64]) -> Result<(), String> {
    let Fns::Vector { value, vjp, jvp, jacobian, mode, .. } = prog else { return Ok(()) };
    let (name, exact) = (t.name, t.exact);
    compare(name, "values", &(t.value)(p), &value(p), true)?;
    let ((y, g), (yr, gr)) = ((t.vjp)(p, u), vjp(p, u));
    compare(name, "values of _vjp", &y, &yr, true)?;
    compare(name, "cotangents of _vjp", &g, &gr, exact)?;
    let ((y, d), (yr, dr)) = ((t.jvp)(p, v), jvp(p, v));
    compare(name, "values of _jvp", &y, &yr, true)?;
    compare(name, "tangents of _jvp", &d, &dr, true)?;
    let ((y, j), (yr, jr)) = ((t.jacobian)(p), jacobian(p));
    compare(name, "values of _jacobian", &y, &yr, true)?;
    compare(name, "_jacobian", &j, &jr, exact || mode() == "forward")
}
