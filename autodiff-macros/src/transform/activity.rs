//! Activity analysis: which values depend on a differentiated input (varied), and which reach an
//! output (useful). Only values that are both get tangents or adjoints.

use std::collections::HashMap;

use super::super::ir::{Block, Carry, Func, LoopId, Operand, Source, Stmt, Var, reads, stmt_defs};

/// Which variables depend on a differentiated input. Booleans never do (they have no
/// derivative); a loop's carried value does if its initial value does or an iteration makes it.
/// The state of a sweep from a tape is varied where the loop that filled the tape carries varied
/// values.
pub fn varied(f: &Func) -> Vec<bool> {
    let mut varied = vec![false; f.names.len()];
    for a in &f.active {
        varied[a.index()] = true;
    }
    let mut tapes = HashMap::new();
    block(f, &f.body, &mut varied, &mut tapes);
    varied
}

/// Which carried values of each loop that fills a tape are varied.
type Tapes = HashMap<LoopId, Vec<bool>>;

/// A loop's carried values: varied from the start if their initial values are, then to a
/// fixpoint (a carried value that an iteration makes varied is varied from the start; at most
/// one round per carried value).
fn carried(
    f: &Func,
    carried: &[Carry],
    body: &Block,
    yields: &[Operand],
    varied: &mut Vec<bool>,
    tapes: &mut Tapes,
) {
    for c in carried {
        let v = is_varied(varied, c.init);
        set(f, varied, c.param, v);
    }
    loop {
        block(f, body, varied, tapes);
        let mut changed = false;
        for (c, y) in carried.iter().zip(yields) {
            if is_varied(varied, *y) && !varied[c.param.index()] {
                set(f, varied, c.param, true);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
}

fn is_varied(varied: &[bool], op: Operand) -> bool {
    op.var().is_some_and(|v| varied[v.index()])
}

fn set(f: &Func, varied: &mut [bool], v: Var, value: bool) {
    varied[v.index()] = value && f.ty(v).is_real();
}

fn block(f: &Func, b: &Block, varied: &mut Vec<bool>, tapes: &mut Tapes) {
    for s in b {
        match s {
            Stmt::For(l) => {
                carried(f, &l.carried, &l.body, &l.yields, varied, tapes);
                for (c, o) in l.carried.iter().zip(&l.outs) {
                    let v = varied[c.param.index()];
                    set(f, varied, *o, v);
                }
            }
            Stmt::While(w) => {
                carried(f, &w.carried, &w.body, &w.yields, varied, tapes);
                for (c, o) in w.carried.iter().zip(&w.outs) {
                    let v = varied[c.param.index()];
                    set(f, varied, *o, v);
                }
                if w.tape.is_some() {
                    let of = w.carried.iter().map(|c| varied[c.param.index()]).collect();
                    tapes.insert(w.index, of);
                }
            }
            Stmt::Checkpoint(c) => {
                // Like a loop: the state is varied if it starts so or a step makes it so, and
                // the adjoint likewise through the steps of the sweep.
                let from_tape = match c.source {
                    Source::Tape(_) => tapes.get(&c.index).cloned(),
                    Source::Range(_) => None,
                };
                for (j, (s, b)) in c.step_params.iter().zip(&c.back_params).enumerate() {
                    let v = match &from_tape {
                        Some(of) => of.get(j).copied().unwrap_or(false),
                        None => c.state.get(j).is_some_and(|x| is_varied(varied, *x)),
                    };
                    set(f, varied, *s, v);
                    set(f, varied, *b, v);
                }
                for a in &c.adjoint {
                    let v = is_varied(varied, a.init);
                    set(f, varied, a.param, v);
                }
                loop {
                    block(f, &c.step, varied, tapes);
                    block(f, &c.back, varied, tapes);
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
                block(f, &br.then, varied, tapes);
                block(f, &br.otherwise, varied, tapes);
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
