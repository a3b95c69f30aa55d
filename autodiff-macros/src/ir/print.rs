//! A compact text form of the IR, for snapshot tests and debugging.
//!
//! ```text
//! in t1%0 t2%1 active t1%0 t2%1
//! p%2 = mul t1%0 t2%1
//! %3 = add p%2 t1%0
//! out %3
//! ```

use std::fmt::Write;

use super::{Func, Name, Operand, Prim, Var};

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
    }
}

fn operand(f: &Func, op: Operand) -> String {
    match op {
        Operand::Var(v) => var(f, v),
        Operand::Lit(x) => format!("{x:?}"),
        Operand::Ext(e) => format!("ext{}", e.0),
    }
}

fn prim(p: Prim) -> String {
    match p {
        Prim::Powi(n) => format!("powi{n}"),
        Prim::Select(c) => format!("select_{c:?}").to_lowercase(),
        other => format!("{other:?}").to_lowercase(),
    }
}

/// The text form of `f`: inputs, one line per statement, outputs.
pub fn print(f: &Func) -> String {
    let list = |vars: &[Var]| vars.iter().map(|v| var(f, *v)).collect::<Vec<_>>().join(" ");
    let mut out = format!("in {} active {}\n", list(&f.inputs), list(&f.active));
    for s in &f.stmts {
        let args: Vec<String> = s.args.iter().map(|a| operand(f, *a)).collect();
        let _ = writeln!(out, "{} = {} {}", var(f, s.out), prim(s.prim), args.join(" "));
    }
    let outs: Vec<String> = f.outputs.iter().map(|o| operand(f, *o)).collect();
    let _ = writeln!(out, "out {}", outs.join(" "));
    out
}
