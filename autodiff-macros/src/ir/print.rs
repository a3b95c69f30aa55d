//! A compact text form of the IR, for snapshot tests and debugging.
//!
//! ```text
//! in x%0 active x%0
//! for @0 in 0..N carry s%1 = 0.0 {
//!   %2 = load x%0 [@0]
//!   %3 = sin %2
//!   s_1%4 = add s%1 %3
//!   yield s_1%4
//! } -> s_2%5
//! out s_2%5
//! ```

use std::fmt::Write;

use super::{Block, Cond, Func, Int, Name, Operand, Prim, Stmt, Var};

fn var(f: &Func, v: Var) -> String {
    format!("{}%{}", spelled(f, v).unwrap_or_default(), v.0)
}

/// The wanted spelling of `v`'s name before codegen makes it unique (`p_1_bar`).
fn spelled(f: &Func, v: Var) -> Option<String> {
    match f.name(v) {
        Name::Temp => None,
        Name::User { ident, version: 0 } => Some(ident.clone()),
        Name::User { ident, version } => Some(format!("{ident}_{version}")),
        Name::Derived { of, suffix } => {
            Some(format!("{}_{}", spelled(f, *of)?, Name::suffix_str(*suffix)))
        }
        Name::Hint(h) => Some((*h).to_owned()),
        Name::Partial { of, callee, wrt, index } => {
            let of = spelled(f, *of).unwrap_or_else(|| callee.clone());
            let wrt = wrt.and_then(|w| spelled(f, w)).unwrap_or_else(|| index.to_string());
            Some(format!("d{of}_d{wrt}"))
        }
    }
}

fn operand(f: &Func, op: Operand) -> String {
    match op {
        Operand::Var(v) => var(f, v),
        Operand::Lit(x) => format!("{x:?}"),
        Operand::Ext(e) => format!("ext{}", e.0),
        Operand::Bool(b) => b.to_string(),
    }
}

fn operands(f: &Func, ops: &[Operand]) -> String {
    ops.iter().map(|o| operand(f, *o)).collect::<Vec<_>>().join(" ")
}

fn index(ix: &[Int]) -> String {
    let parts: Vec<String> = ix.iter().map(ToString::to_string).collect();
    format!("[{}]", parts.join("]["))
}

fn prim(p: Prim) -> String {
    match p {
        Prim::Powi(n) => format!("powi{n}"),
        Prim::PowiInt(0) => "powi".to_owned(),
        Prim::PowiInt(k) => format!("powi{k:+}"),
        Prim::IntAsF64(0) => "as_f64".to_owned(),
        Prim::IntAsF64(k) => format!("as_f64{k:+}"),
        Prim::Select(c) => format!("select_{c:?}").to_lowercase(),
        other => format!("{other:?}").to_lowercase(),
    }
}

fn cond(f: &Func, c: &Cond) -> String {
    match c {
        Cond::F64(cmp, a, b) => format!("{} {cmp:?} {}", operand(f, *a), operand(f, *b)),
        Cond::Int(cmp, a, b) => format!("{a} {cmp:?} {b}"),
        Cond::Var(v) => var(f, *v),
        Cond::Not(c) => format!("!({})", cond(f, c)),
        Cond::And(a, b) => format!("({}) && ({})", cond(f, a), cond(f, b)),
        Cond::Or(a, b) => format!("({}) || ({})", cond(f, a), cond(f, b)),
    }
}

/// The text form of `f`: inputs, one line per statement (blocks indented), outputs.
pub fn print(f: &Func) -> String {
    let list = |vars: &[Var]| vars.iter().map(|v| var(f, *v)).collect::<Vec<_>>().join(" ");
    let mut out = format!("in {} active {}\n", list(&f.inputs), list(&f.active));
    block(f, &f.body, 0, &mut out);
    let _ = writeln!(out, "out {}", operands(f, &f.outputs));
    out
}

fn block(f: &Func, b: &Block, depth: usize, out: &mut String) {
    for s in b {
        stmt(f, s, depth, out);
    }
}

fn stmt(f: &Func, s: &Stmt, depth: usize, out: &mut String) {
    let pad = "  ".repeat(depth);
    let _ = match s {
        Stmt::Op { out: o, prim: p, args } => {
            writeln!(out, "{pad}{} = {} {}", var(f, *o), prim(*p), operands(f, args))
        }
        Stmt::Test { out: o, cond: c } => {
            writeln!(out, "{pad}{} = test {}", var(f, *o), cond(f, c))
        }
        Stmt::Load { out: o, array, index: ix } => {
            writeln!(out, "{pad}{} = load {} {}", var(f, *o), var(f, *array), index(ix))
        }
        Stmt::Store { out: o, array, index: ix, value } => writeln!(
            out,
            "{pad}{} = store {} {} {}",
            var(f, *o),
            var(f, *array),
            index(ix),
            operand(f, *value)
        ),
        Stmt::Fill { out: o, value } => {
            let dims = f.ty(*o).shape().map(|s| index(&s.dims)).unwrap_or_default();
            writeln!(out, "{pad}{} = fill {} {dims}", var(f, *o), operand(f, *value))
        }
        Stmt::Array { out: o, elems } => {
            writeln!(out, "{pad}{} = array {}", var(f, *o), operands(f, elems))
        }
        Stmt::For(l) => {
            let r = &l.range;
            let dots = if r.inclusive { "..=" } else { ".." };
            let rev = if r.rev { " rev" } else { "" };
            let carried: Vec<String> = l
                .carried
                .iter()
                .map(|c| format!(" {} = {}", var(f, c.param), operand(f, c.init)))
                .collect();
            let _ = writeln!(
                out,
                "{pad}for @{} in {}{dots}{}{rev} carry{} {{",
                l.index.0,
                r.lo,
                r.hi,
                carried.join(",")
            );
            block(f, &l.body, depth + 1, out);
            let _ = writeln!(out, "{pad}  yield {}", operands(f, &l.yields));
            writeln!(
                out,
                "{pad}}} -> {}",
                l.outs.iter().map(|v| var(f, *v)).collect::<Vec<_>>().join(" ")
            )
        }
        Stmt::While(w) => {
            let range = match &w.range {
                Some(r) => {
                    let dots = if r.inclusive { "..=" } else { ".." };
                    let rev = if r.rev { " rev" } else { "" };
                    format!(" in {}{dots}{}{rev}", r.lo, r.hi)
                }
                None => String::new(),
            };
            let mut tape = w.tape.map(|s| format!(" tape{s}")).unwrap_or_default();
            if w.implicit {
                tape.push_str(" implicit");
            }
            let carried: Vec<String> = w
                .carried
                .iter()
                .map(|c| format!(" {} = {}", var(f, c.param), operand(f, c.init)))
                .collect();
            let _ = writeln!(
                out,
                "{pad}while{tape} @{}{range} if {} carry{} {{",
                w.index.0,
                operand(f, w.first),
                carried.join(",")
            );
            block(f, &w.body, depth + 1, out);
            let _ = writeln!(out, "{pad}  yield {}", operands(f, &w.yields));
            writeln!(
                out,
                "{pad}}} again {} -> {}",
                operand(f, w.cond),
                w.outs.iter().map(|v| var(f, *v)).collect::<Vec<_>>().join(" ")
            )
        }
        Stmt::Call(c) => {
            let path = format!("{:?}", c.callee);
            let args: Vec<String> = c
                .args
                .iter()
                .map(|a| match a {
                    crate::ir::Arg::Value { op, by_ref: true } => format!("&{}", operand(f, *op)),
                    crate::ir::Arg::Value { op, by_ref: false } => operand(f, *op),
                    // A constant filling a differentiated parameter, with its zero direction.
                    crate::ir::Arg::Fixed { ext, zero } => match zero {
                        crate::ir::Zero::Scalar => format!("ext{}/0.0", ext.0),
                        crate::ir::Zero::Inferred { by_ref: false } => {
                            format!("ext{}/zero()", ext.0)
                        }
                        crate::ir::Zero::Inferred { by_ref: true } => {
                            format!("ext{}/&zero()", ext.0)
                        }
                        crate::ir::Zero::Like { by_ref: false } => {
                            format!("ext{}/zero_like", ext.0)
                        }
                        crate::ir::Zero::Like { by_ref: true } => {
                            format!("ext{}/&zero_like", ext.0)
                        }
                    },
                    crate::ir::Arg::Const(e) => format!("ext{}", e.0),
                })
                .collect();
            let outs: Vec<String> = c.outs.iter().map(|v| var(f, *v)).collect();
            let extra = match c.kind {
                crate::ir::CallKind::Vjp => format!("bars ({})", operands(f, c.bars())),
                crate::ir::CallKind::Rev => format!(
                    "residuals ({}) bars ({})",
                    operands(f, &c.dirs[..1.min(c.dirs.len())]),
                    operands(f, c.bars())
                ),
                crate::ir::CallKind::VjpJvp => format!(
                    "bars ({}) dirs ({}) bar_dots ({})",
                    operands(f, c.bars()),
                    operands(f, c.arg_dirs()),
                    operands(f, c.bar_dots())
                ),
                _ => format!("dirs ({})", operands(f, &c.dirs)),
            };
            let ret = match c.ret {
                crate::ir::Ret::Scalar => String::new(),
                crate::ir::Ret::Array => " -> array".to_owned(),
                crate::ir::Ret::Tuple(n) => format!(" -> tuple{n}"),
                crate::ir::Ret::Struct => " -> struct".to_owned(),
            };
            writeln!(
                out,
                "{pad}{} = call {path}{ret} {:?} ({}) {extra}",
                outs.join(" "),
                c.kind,
                args.join(", "),
            )
        }
        Stmt::Checkpoint(c) => {
            let range = |r: &crate::ir::Range| {
                let dots = if r.inclusive { "..=" } else { ".." };
                format!("{}{dots}{}", r.lo, r.hi)
            };
            let source = match &c.source {
                crate::ir::Source::Range(r) => format!("in {}", range(r)),
                crate::ir::Source::Tape(None) => "from tape".to_owned(),
                crate::ir::Source::Tape(Some(r)) => format!("from tape in {}", range(r)),
            };
            let list = |vs: &[Var]| vs.iter().map(|v| var(f, *v)).collect::<Vec<_>>().join(" ");
            let _ = writeln!(
                out,
                "{pad}checkpoint{} @{} {source} state {} ({}) {{",
                c.slots,
                c.index.0,
                operands(f, &c.state),
                list(&c.step_params)
            );
            block(f, &c.step, depth + 1, out);
            let _ = writeln!(out, "{pad}  yield {}", operands(f, &c.step_yields));
            let adjoint: Vec<String> = c
                .adjoint
                .iter()
                .map(|a| format!("{} = {}", var(f, a.param), operand(f, a.init)))
                .collect();
            let _ = writeln!(
                out,
                "{pad}}} back ({}) carry {} {{",
                list(&c.back_params),
                adjoint.join(", ")
            );
            block(f, &c.back, depth + 1, out);
            let _ = writeln!(out, "{pad}  yield {}", operands(f, &c.back_yields));
            writeln!(out, "{pad}}} -> {}", list(&c.outs))
        }
        Stmt::If(b) => {
            let _ = writeln!(out, "{pad}if {} {{", var(f, b.cond));
            block(f, &b.then, depth + 1, out);
            let _ = writeln!(out, "{pad}  yield {}", operands(f, &b.then_yields));
            let _ = writeln!(out, "{pad}}} else {{");
            block(f, &b.otherwise, depth + 1, out);
            let _ = writeln!(out, "{pad}  yield {}", operands(f, &b.else_yields));
            writeln!(
                out,
                "{pad}}} -> {}",
                b.outs.iter().map(|v| var(f, *v)).collect::<Vec<_>>().join(" ")
            )
        }
    };
}
