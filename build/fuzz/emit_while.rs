//! The glue of the loop-exit twin `f_wh` (`print_while.rs`): its functions through flat slices,
//! as `Exited` (or `ExitedVector`) for the test, which compares them with `f`'s to the bit.

use std::fmt::Write;

use super::ast::Program;
use super::emit::Glue;
use super::print::{Flavor, output_type};
use super::print_while;

/// The glue functions of a scalar program's twin (`hessian`: it has `f_wh_hessian`), and its
/// `Option<Exited>`.
pub fn scalar(prog: &Program, g: &Glue, hessian: bool, s: &mut String) -> String {
    let Some(ex) = print_while::exits(prog) else { return "None".to_string() };
    let Glue { load, load_dirs, args: a, dirs: d, n, .. } = g;
    let _ = write!(
        s,
        "fn value_wh(p: &Point) -> f64 {{\n{load}f_wh({a})\n}}\n\
         fn grad_wh(p: &Point) -> (f64, Vec<f64>) {{\n{load}let (y, g) = f_wh_grad({a});\n(y, flat(&g))\n}}\n\
         fn jvp_wh(p: &Point, v: &[f64]) -> (f64, f64) {{\n{load}{load_dirs}f_wh_jvp({a}, {d})\n}}\n\
         fn hvp_wh(p: &Point, v: &[f64]) -> Hvp {{\n{load}{load_dirs}let (y, g, hv) = f_wh_hvp({a}, {d});\n(y, flat(&g), flat(&hv))\n}}\n"
    );
    let hessian = match hessian {
        false => "None",
        true => {
            let _ = write!(
                s,
                "fn hessian_wh(p: &Point) -> Vec<f64> {{\n{load}let h: [[f64; {n}]; {n}] = f_wh_hessian({a});\nflat(&h)\n}}\n"
            );
            "Some(hessian_wh)"
        }
    };
    format!(
        "Some(Exited {{ value: value_wh, grad: grad_wh, jvp: jvp_wh, hvp: hvp_wh, hessian: {hessian}, snapshots: {:?} }})",
        snapshots(&ex)
    )
}

/// The glue functions of a vector program's twin with `m` outputs, and its
/// `Option<ExitedVector>`.
pub fn vector(prog: &Program, g: &Glue, m: usize, s: &mut String) -> String {
    let Some(ex) = print_while::exits(prog) else { return "None".to_string() };
    let Glue { load, load_dirs, args: a, dirs: d, n, .. } = g;
    let out_ty = output_type(prog.output, Flavor::Macro);
    let _ = write!(
        s,
        "fn value_wh(p: &Point) -> Vec<f64> {{\n{load}flat(&f_wh({a}))\n}}\n\
         fn vjp_wh(p: &Point, u: &[f64]) -> Values {{\n{load}let u: {out_ty} = unflat(u);\nlet (y, g) = f_wh_vjp({a}, u);\n(flat(&y), flat(&g))\n}}\n\
         fn jvp_wh(p: &Point, v: &[f64]) -> Values {{\n{load}{load_dirs}let (y, t) = f_wh_jvp({a}, {d});\n(flat(&y), flat(&t))\n}}\n\
         fn jacobian_wh(p: &Point) -> Values {{\n{load}let (y, j): ({out_ty}, [[f64; {n}]; {m}]) = f_wh_jacobian({a});\n(flat(&y), flat(&j))\n}}\n"
    );
    format!(
        "Some(ExitedVector {{ value: value_wh, vjp: vjp_wh, jvp: jvp_wh, jacobian: jacobian_wh, snapshots: {:?} }})",
        snapshots(&ex)
    )
}

/// The snapshots the twin's attribute gives, if it adds `checkpoint(s = ..)`.
fn snapshots(ex: &print_while::Exits) -> Option<usize> {
    ex.checkpoint.and_then(|c| c.snapshots)
}
