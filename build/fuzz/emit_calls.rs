//! The glue of the call twin `f_call` (`calls.rs`): its functions through flat slices, as a
//! `Twin` (or `TwinVector`) for the test, which compares them with `f`'s (to the bit, or its
//! reverse-mode results to rounding where the generator says the helper sums in another order).
//! `f_call` has `f`'s signature, so its glue is `f`'s with another name.

use std::fmt::Write;

use super::ast::Program;
use super::calls::piece;
use super::emit::Glue;
use super::print::{Flavor, output_type};

/// The glue functions of a scalar program's call twin (`hessian`: it has `f_call_hessian`), and
/// its `Option<Twin>`.
pub fn scalar(prog: &Program, g: &Glue, hessian: bool, s: &mut String) -> String {
    let Some(piece) = piece(prog) else { return "None".to_string() };
    let Glue { load, load_dirs, args: a, dirs: d, n, .. } = g;
    let _ = write!(
        s,
        "fn value_call(p: &Point) -> f64 {{\n{load}f_call({a})\n}}\n\
         fn grad_call(p: &Point) -> (f64, Vec<f64>) {{\n{load}let (y, g) = f_call_grad({a});\n(y, flat(&g))\n}}\n\
         fn jvp_call(p: &Point, v: &[f64]) -> (f64, f64) {{\n{load}{load_dirs}f_call_jvp({a}, {d})\n}}\n\
         fn hvp_call(p: &Point, v: &[f64]) -> Hvp {{\n{load}{load_dirs}let (y, g, hv) = f_call_hvp({a}, {d});\n(y, flat(&g), flat(&hv))\n}}\n"
    );
    let hessian = match hessian {
        false => "None",
        true => {
            let _ = write!(
                s,
                "fn hessian_call(p: &Point) -> Vec<f64> {{\n{load}let h: [[f64; {n}]; {n}] = f_call_hessian({a});\nflat(&h)\n}}\n"
            );
            "Some(hessian_call)"
        }
    };
    format!(
        "Some(crate::fuzz::twins::Twin {{ name: \"f_call\", value: value_call, grad: grad_call, jvp: jvp_call, hvp: hvp_call, hessian: {hessian}, exact: {}, exact_second: {} }})",
        piece.exact, piece.exact_second
    )
}

/// The glue functions of a vector program's call twin with `m` outputs, and its
/// `Option<TwinVector>`.
pub fn vector(prog: &Program, g: &Glue, m: usize, s: &mut String) -> String {
    let Some(piece) = piece(prog) else { return "None".to_string() };
    let Glue { load, load_dirs, args: a, dirs: d, n, .. } = g;
    let out_ty = output_type(prog.output, Flavor::Macro);
    let _ = write!(
        s,
        "fn value_call(p: &Point) -> Vec<f64> {{\n{load}flat(&f_call({a}))\n}}\n\
         fn vjp_call(p: &Point, u: &[f64]) -> Values {{\n{load}let u: {out_ty} = unflat(u);\nlet (y, g) = f_call_vjp({a}, u);\n(flat(&y), flat(&g))\n}}\n\
         fn jvp_call(p: &Point, v: &[f64]) -> Values {{\n{load}{load_dirs}let (y, t) = f_call_jvp({a}, {d});\n(flat(&y), flat(&t))\n}}\n\
         fn jacobian_call(p: &Point) -> Values {{\n{load}let (y, j): ({out_ty}, [[f64; {n}]; {m}]) = f_call_jacobian({a});\n(flat(&y), flat(&j))\n}}\n"
    );
    format!(
        "Some(crate::fuzz::twins::TwinVector {{ name: \"f_call\", value: value_call, vjp: vjp_call, jvp: jvp_call, jacobian: jacobian_call, exact: {} }})",
        piece.exact
    )
}
