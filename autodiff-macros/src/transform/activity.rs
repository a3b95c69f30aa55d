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
            Stmt::Checkpoint(c) => {
                // Like a loop: the state is varied if it starts so or a step makes it so, and
                // the adjoint likewise through the steps of the sweep.
                for (x, (s, b)) in c.state.iter().zip(c.step_params.iter().zip(&c.back_params)) {
                    let v = is_varied(varied, *x);
                    set(f, varied, *s, v);
                    set(f, varied, *b, v);
                }
                for a in &c.adjoint {
                    let v = is_varied(varied, a.init);
                    set(f, varied, a.param, v);
                }
                loop {
                    block(f, &c.step, varied);
                    block(f, &c.back, varied);
                    let mut changed = false;
                    for (k, y) in c.step_yields.iter().enumerate() {
                        if is_varied(varied, *y) && !varied[c.step_params[k].index()] {
                            set(f, varied, c.step_params[k], true);
                            set(f, varied, c.back_params[k], true);
                            changed = true;
                        }
                    }
                    for (a, y) in c.adjoint.iter().zip(&c.back_yields) {
                        if is_varied(varied, *y) && !varied[a.param.index()] {
                            set(f, varied, a.param, true);
                            changed = true;
                        }
                    }
                    if !changed {
                        break;
                    }
                }
                for (a, o) in c.adjoint.iter().zip(&c.outs) {
                    let v = varied[a.param.index()];
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
