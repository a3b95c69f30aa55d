//! The fusion twin `f_nf` (issue 18): the program's function under `f`'s own options and the
//! hidden option `__unfused`, which turns off loop fusion (`transform/fuse.rs`: a loop's sweep
//! that only accumulates joins the forward loop over the same indices, so that one body runs an
//! iteration and its sweep). Fusion moves computations and merges repeated ones; it does not
//! change what is computed or the order of any sum: a sweep that only accumulates runs in its
//! loop's own order whether or not it is fused (`reverse/regions.rs`). So every function of the
//! twin is `f`'s to the bit (up to the sign of a zero, as every twin: an adjoint assigned at its
//! first touch keeps the sign of what it is assigned, one zeroed and then added into does not).
//! Forward mode (`_jvp`, and the forward-mode Jacobian) is not fused in either: compared all the
//! same. `_hvp` and `_hessian` are forward mode over the (fused or unfused) sweep.

use super::ast::Program;
use super::emit::{Glue, attributed, options};
use super::emit_calls::{same_signature_scalar, same_signature_vector};
use super::print::Flavor;
use super::print_while::has_loop;
use super::rng::Rng;

/// The hidden option that turns fusion off.
const UNFUSED: &str = "__unfused";

/// Whether `prog` has a fusion twin: half of the programs with a loop (without one there is
/// nothing to fuse).
fn has_twin(prog: &Program) -> bool {
    has_loop(&prog.body) && Rng::new(prog.seed ^ 0x756e_6675_7365).chance(50)
}

/// The twin's text, if `prog` has one.
pub fn twin(prog: &Program) -> Option<String> {
    if !has_twin(prog) {
        return None;
    }
    let mut attr = options(prog, None);
    attr.push(UNFUSED.to_string());
    let body = (prog.body.as_slice(), &prog.tail);
    Some(attributed(prog, Flavor::Macro, "f_nf", None, body, Some(&attr)))
}

/// The glue functions of a scalar program's twin (`hessian`: it has `f_nf_hessian`), and its
/// `Option<Twin>`.
pub fn scalar(prog: &Program, g: &Glue, hessian: bool, s: &mut String) -> String {
    match has_twin(prog) {
        true => same_signature_scalar("nf", g, hessian, (true, true), s),
        false => "None".to_string(),
    }
}

/// The glue functions of a vector program's twin with `m` outputs, and its `Option<TwinVector>`.
pub fn vector(prog: &Program, g: &Glue, m: usize, s: &mut String) -> String {
    match has_twin(prog) {
        true => same_signature_vector("nf", prog, g, m, true, s),
        false => "None".to_string(),
    }
}
