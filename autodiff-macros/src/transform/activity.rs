//! Activity analysis: which values depend on a differentiated input (varied), and which reach an
//! output (useful). Only values that are both get tangents or adjoints.

use super::super::ir::{Block, Func, Operand, Stmt, Var, reads, stmt_defs};

/// Which variables depend on a differentiated input. Booleans never do (they have no
/// derivative); a loop's carried value does if its initial value does or an iteration makes it.
pub fn varied(f: &Func) -> Vec<bool> {
    let mut varied = vec![false; f.names.len()];
    for a in &f.active {
        varied[a.index()] = true;
    }
    block(f, &f.body, &mut varied);
    varied
}

fn is_varied(varied: &[bool], op: Operand) -> bool {
    op.var().is_some_and(|v| varied[v.index()])
}

fn set(f: &Func, varied: &mut [bool], v: Var, value: bool) {
    varied[v.index()] = value && f.ty(v).is_real();
}

fn block(f: &Func, b: &Block, varied: &mut Vec<bool>) {
    for s in b {
        match s {
            Stmt::For(l) => {
                for c in &l.carried {
                    let v = is_varied(varied, c.init);
                    set(f, varied, c.param, v);
                }
                // A fixpoint: a carried value that an iteration makes varied is varied from the
                // start (at most one round per carried value).
                loop {
                    block(f, &l.body, varied);
                    let mut changed = false;
                    for (c, y) in l.carried.iter().zip(&l.yields) {
                        if is_varied(varied, *y) && !varied[c.param.index()] {
                            set(f, varied, c.param, true);
                            changed = true;
                        }
                    }
                    if !changed {
                        break;
                    }
                }
                for (c, o) in l.carried.iter().zip(&l.outs) {
                    let v = varied[c.param.index()];
                    set(f, varied, *o, v);
                }
            }
            Stmt::If(br) => {
                block(f, &br.then, varied);
                block(f, &br.otherwise, varied);
                for ((t, e), o) in br.then_yields.iter().zip(&br.else_yields).zip(&br.outs) {
                    let v = is_varied(varied, *t) || is_varied(varied, *e);
                    set(f, varied, *o, v);
                }
            }
            _ => {
                let v = reads(s).into_iter().any(|op| is_varied(varied, op));
                for out in stmt_defs(s) {
                    set(f, varied, out, v);
                }
            }
        }
    }
}
