//! What a generated function reads among the user's parameters: the variables its statements
//! read, and the parameters named in the constant expressions and integer expressions it keeps.

use std::collections::HashSet;

use crate::ir::{Block, Cond, Func, Int, Operand, Stmt, Var, reads};

/// Adds to `vars` every variable `f` reads, and to `params` every non-differentiated parameter
/// named in its constants, indices and bounds.
pub fn collect(f: &Func, vars: &mut HashSet<Var>, params: &mut HashSet<String>) {
    for o in &f.outputs {
        operand(f, *o, vars, params);
    }
    block(f, &f.body, vars, params);
}

fn operand(f: &Func, op: Operand, vars: &mut HashSet<Var>, params: &mut HashSet<String>) {
    match op {
        Operand::Var(v) => {
            vars.insert(v);
        }
        Operand::Ext(e) => params.extend(f.exts[e.0 as usize].params.iter().cloned()),
        Operand::Lit(_) | Operand::Bool(_) => {}
    }
}

fn int(i: &Int, params: &mut HashSet<String>) {
    params.extend(i.params.iter().cloned());
}

fn cond(c: &Cond, params: &mut HashSet<String>) {
    match c {
        Cond::Int(_, a, b) => {
            int(a, params);
            int(b, params);
        }
        Cond::Not(c) => cond(c, params),
        Cond::And(a, b) | Cond::Or(a, b) => {
            cond(a, params);
            cond(b, params);
        }
        Cond::F64(..) | Cond::Var(_) => {}
    }
}

fn block(f: &Func, b: &Block, vars: &mut HashSet<Var>, params: &mut HashSet<String>) {
    for s in b {
        for op in reads(s) {
            operand(f, op, vars, params);
        }
        match s {
            Stmt::Test { cond: c, .. } => cond(c, params),
            Stmt::Load { index, .. } | Stmt::Store { index, .. } => {
                index.iter().for_each(|i| int(i, params));
            }
            Stmt::Fill { out, .. } => {
                if let Some(shape) = f.ty(*out).shape() {
                    shape.dims.iter().for_each(|d| int(d, params));
                }
            }
            // What a region's blocks yield is read too (by the region's results), values defined
            // inside the blocks included.
            Stmt::For(l) => {
                int(&l.range.lo, params);
                int(&l.range.hi, params);
                block(f, &l.body, vars, params);
                l.yields.iter().for_each(|y| operand(f, *y, vars, params));
            }
            Stmt::If(br) => {
                block(f, &br.then, vars, params);
                block(f, &br.otherwise, vars, params);
                for y in br.then_yields.iter().chain(&br.else_yields) {
                    operand(f, *y, vars, params);
                }
            }
            Stmt::While(w) => {
                if let Some(r) = &w.range {
                    int(&r.lo, params);
                    int(&r.hi, params);
                }
                block(f, &w.body, vars, params);
                w.yields.iter().for_each(|y| operand(f, *y, vars, params));
                operand(f, w.cond, vars, params);
            }
            Stmt::Checkpoint(c) => {
                if let Some(r) = c.source.range() {
                    int(&r.lo, params);
                    int(&r.hi, params);
                }
                block(f, &c.step, vars, params);
                block(f, &c.back, vars, params);
                for y in c.step_yields.iter().chain(&c.back_yields) {
                    operand(f, *y, vars, params);
                }
            }
            // A constant argument is passed as written, and reads the parameters it names.
            Stmt::Call(c) => {
                for a in &c.args {
                    if let Some(e) = a.ext() {
                        operand(f, Operand::Ext(e), vars, params);
                    }
                }
            }
            _ => {}
        }
    }
}
