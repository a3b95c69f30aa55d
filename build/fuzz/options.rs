//! The options twin `f_opt` (issue 20): the program's function under another combination of the
//! attribute's options than `f`'s, in another order: `#[grad]` alone, `jvp`, `hvp`, `hessian`
//! without `hvp`, `jacobian` without `jvp`, `jacobian(forward)`, `jacobian(reverse)`, the
//! hidden `jacobian(row_by_row)` and `jacobian(column_by_column)` (one `f_vjp` per row, one
//! `f_jvp` per column, against `f`'s Jacobian in one pass), `wrt` when nothing needs it,
//! `stack = ..`. Every function it has must equal `f`'s to the bit (its Jacobian to rounding
//! when another mode computes it). Every vector program has one, half of them row by row or
//! column by column; half of the scalar programs have one.

use super::ast::{Modes, Pass, Program};
use super::rng::Rng;

/// The options of `f_opt` and which functions they give.
pub struct Opts {
    /// The attribute's options, in the order written.
    pub attr: Vec<String>,
    pub jvp: bool,
    /// `f_opt_hvp` (asked for, or emitted by `hessian`).
    pub hvp: bool,
    pub hessian: bool,
    /// `f_opt_jacobian`, and the mode it forces.
    pub jacobian: Option<Option<&'static str>>,
}

/// The options twin of `prog`, if it has one (half of the programs).
pub fn opts(prog: &Program) -> Option<Opts> {
    let mut rng = Rng::new(prog.seed ^ 0x6f70_7469_6f6e);
    // Every vector program has one: half of them compare `f`'s Jacobian with one kernel call
    // per row or column.
    let vector = matches!(prog.modes, Modes::Vector { .. });
    if !vector && !rng.chance(50) {
        return None;
    }
    let mut o =
        Opts { attr: Vec::new(), jvp: rng.chance(50), hvp: false, hessian: false, jacobian: None };
    match prog.modes {
        Modes::Scalar { .. } => {
            let asked_hvp = rng.chance(40);
            o.hessian = rng.chance(40);
            o.hvp = asked_hvp || o.hessian;
            if asked_hvp {
                o.attr.push("hvp".into());
            }
            if o.hessian {
                o.attr.push("hessian".into());
            }
        }
        Modes::Vector { .. } => {
            o.jacobian = match rng.below(8) {
                0 => None,
                1 => Some(None),
                2 => Some(Some("forward")),
                3 => Some(Some("reverse")),
                4 | 5 => Some(Some("row_by_row")),
                _ => Some(Some("column_by_column")),
            };
            match o.jacobian {
                Some(Some(mode)) => o.attr.push(format!("jacobian({mode})")),
                Some(None) => o.attr.push("jacobian".into()),
                None => {}
            }
        }
    }
    if o.jvp {
        o.attr.push("jvp".into());
    }
    let constants = prog.params.iter().any(|p| p.pass == Pass::Constant);
    if constants || rng.chance(20) {
        let names: Vec<&str> = prog
            .params
            .iter()
            .filter(|p| matches!(p.pass, Pass::Value | Pass::Ref))
            .map(|p| p.name.as_str())
            .collect();
        o.attr.push(format!("wrt({})", names.join(", ")));
    }
    if rng.chance(20) {
        o.attr.push("stack = 4_000_000".into());
    }
    // Any order.
    for k in (1..o.attr.len()).rev() {
        o.attr.swap(k, rng.below(k + 1));
    }
    Some(o)
}
