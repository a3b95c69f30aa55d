//! The glue of the call twin `f_call` (`calls.rs`) and of the fusion twin `f_nf`
//! (`unfused.rs`): their functions through flat slices, as a `Twin` (or `TwinVector`) for the
//! test, which compares them with `f`'s (to the bit, or a call twin's reverse-mode results to
//! rounding where the generator says the helper sums in another order). Both have `f`'s
//! signature, so their glue is `f`'s with another name.

use std::fmt::Write;

use super::ast::Program;
use super::calls::piece;
use super::emit::Glue;
use super::print::{Flavor, output_type};

/// The glue functions of a scalar program's call twin (`hessian`: it has `f_call_hessian`), and
/// its `Option<Twin>`.
pub fn scalar(prog: &Program, g: &Glue, hessian: bool, s: &mut String) -> String {
    let Some(piece) = piece(prog) else { return "None".to_string() };
    same_signature_scalar("call", g, hessian, (piece.exact, piece.exact_second), s)
}

/// The glue functions of a scalar twin `f_{suffix}` with `f`'s signature (`hessian`: it has
/// `f_{suffix}_hessian`), and its `Some(Twin)`, compared as `exact` says: its gradients, then
/// its H·w and Hessian.
pub fn same_signature_scalar(
    suffix: &str,
    g: &Glue,
    hessian: bool,
    (exact, exact_second): (bool, bool),
    s: &mut String,
) -> String {
    let Glue { load, load_dirs, args: a, dirs: d, n, .. } = g;
    let _ = write!(
        s,
        "fn value_{suffix}(p: &Point) -> f64 {{\n{load}f_{suffix}({a})\n}}\n\
         fn grad_{suffix}(p: &Point) -> (f64, Vec<f64>) {{\n{load}let (y, g) = f_{suffix}_grad({a});\n(y, flat(&g))\n}}\n\
         fn jvp_{suffix}(p: &Point, v: &[f64]) -> (f64, f64) {{\n{load}{load_dirs}f_{suffix}_jvp({a}, {d})\n}}\n\
         fn hvp_{suffix}(p: &Point, v: &[f64]) -> Hvp {{\n{load}{load_dirs}let (y, g, hv) = f_{suffix}_hvp({a}, {d});\n(y, flat(&g), flat(&hv))\n}}\n"
    );
    let hessian = match hessian {
        false => "None".to_string(),
        true => {
            let _ = write!(
                s,
                "fn hessian_{suffix}(p: &Point) -> Vec<f64> {{\n{load}let h: [[f64; {n}]; {n}] = f_{suffix}_hessian({a});\nflat(&h)\n}}\n"
            );
            format!("Some(hessian_{suffix})")
        }
    };
    format!(
        "Some(crate::fuzz::twins::Twin {{ name: \"f_{suffix}\", value: value_{suffix}, grad: grad_{suffix}, jvp: jvp_{suffix}, hvp: hvp_{suffix}, hessian: {hessian}, exact: {exact}, exact_second: {exact_second} }})"
    )
}

/// The glue functions of a vector program's call twin with `m` outputs, and its
/// `Option<TwinVector>`.
pub fn vector(prog: &Program, g: &Glue, m: usize, s: &mut String) -> String {
    let Some(piece) = piece(prog) else { return "None".to_string() };
    same_signature_vector("call", prog, g, m, piece.exact, s)
}

/// The glue functions of a vector twin `f_{suffix}` with `f`'s signature and `m` outputs, and
/// its `Some(TwinVector)`, its reverse-mode results compared to the bit when `exact`.
pub fn same_signature_vector(
    suffix: &str,
    prog: &Program,
    g: &Glue,
    m: usize,
    exact: bool,
    s: &mut String,
) -> String {
    let Glue { load, load_dirs, args: a, dirs: d, n, .. } = g;
    let out_ty = output_type(prog.output, Flavor::Macro);
    let _ = write!(
        s,
        "fn value_{suffix}(p: &Point) -> Vec<f64> {{\n{load}flat(&f_{suffix}({a}))\n}}\n\
         fn vjp_{suffix}(p: &Point, u: &[f64]) -> Values {{\n{load}let u: {out_ty} = unflat(u);\nlet (y, g) = f_{suffix}_vjp({a}, u);\n(flat(&y), flat(&g))\n}}\n\
         fn jvp_{suffix}(p: &Point, v: &[f64]) -> Values {{\n{load}{load_dirs}let (y, t) = f_{suffix}_jvp({a}, {d});\n(flat(&y), flat(&t))\n}}\n\
         fn jacobian_{suffix}(p: &Point) -> Values {{\n{load}let (y, j): ({out_ty}, [[f64; {n}]; {m}]) = f_{suffix}_jacobian({a});\n(flat(&y), flat(&j))\n}}\n"
    );
    format!(
        "Some(crate::fuzz::twins::TwinVector {{ name: \"f_{suffix}\", value: value_{suffix}, vjp: vjp_{suffix}, jvp: jvp_{suffix}, jacobian: jacobian_{suffix}, exact: {exact} }})"
    )
}
