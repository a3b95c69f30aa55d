//! Clean-up passes: keep only the wanted outputs, and drop what nothing reads (statements, and
//! the carried values and results of loops and branches).

use crate::ir::{Block, Branch, Checkpoint, Func, Loop, Operand, Stmt, reads, stmt_defs};

/// `f` returning only the outputs at `indices`, in that order.
pub fn select_outputs(f: &Func, indices: &[usize]) -> Func {
    let outputs = indices.iter().filter_map(|i| f.outputs.get(*i).copied()).collect();
    Func { outputs, ..f.clone() }
}

/// `f` without the statements, carried values and results that never reach an output.
pub fn dead_code(f: &Func) -> Func {
    let live = live(f);
    let body = sweep_block(&f.body, &live);
    Func { body, ..f.clone() }
}

/// Which variables reach an output (through the statements that read them).
pub fn live(f: &Func) -> Vec<bool> {
    let mut live = vec![false; f.names.len()];
    for o in &f.outputs {
        mark(&mut live, *o);
    }
    mark_block(&f.body, &mut live);
    live
}

fn mark(live: &mut [bool], op: Operand) {
    if let Operand::Var(v) = op {
        live[v.index()] = true;
    }
}

/// Marks, backwards, everything the live variables of `block` read.
fn mark_block(block: &Block, live: &mut Vec<bool>) {
    for s in block.iter().rev() {
        match s {
            Stmt::For(l) => mark_loop(l, live),
            Stmt::If(b) => mark_branch(b, live),
            Stmt::Checkpoint(c) => mark_checkpoint(c, live),
            _ => {
                if stmt_defs(s).iter().any(|v| live[v.index()]) {
                    for op in reads(s) {
                        mark(live, op);
                    }
                }
            }
        }
    }
}

/// A carried value is live if its result is, or if a live value of the body reads it: then its
/// yield (the next iteration's value) and its initial value are live too.
fn mark_loop(l: &Loop, live: &mut Vec<bool>) {
    loop {
        for (k, c) in l.carried.iter().enumerate() {
            if live[l.outs[k].index()] || live[c.param.index()] {
                live[l.outs[k].index()] = true;
                live[c.param.index()] = true;
                mark(live, l.yields[k]);
            }
        }
        let before: Vec<bool> = l.carried.iter().map(|c| live[c.param.index()]).collect();
        mark_block(&l.body, live);
        let after: Vec<bool> = l.carried.iter().map(|c| live[c.param.index()]).collect();
        if before == after {
            break;
        }
    }
    for c in &l.carried {
        if live[c.param.index()] {
            mark(live, c.init);
        }
    }
}

/// A checkpointed sweep is live whole if any of its results is: every iteration's step feeds the
/// states its sweep reads.
fn mark_checkpoint(c: &Checkpoint, live: &mut Vec<bool>) {
    if !c.outs.iter().any(|o| live[o.index()]) {
        return;
    }
    for v in c.outs.iter().chain(&c.step_params).chain(&c.back_params) {
        live[v.index()] = true;
    }
    for a in &c.adjoint {
        live[a.param.index()] = true;
        mark(live, a.init);
    }
    for op in c.state.iter().chain(&c.step_yields).chain(&c.back_yields) {
        mark(live, *op);
    }
    mark_block(&c.step, live);
    mark_block(&c.back, live);
}

fn mark_branch(b: &Branch, live: &mut Vec<bool>) {
    let mut any = false;
    for (k, o) in b.outs.iter().enumerate() {
        if live[o.index()] {
            any = true;
            mark(live, b.then_yields[k]);
            mark(live, b.else_yields[k]);
        }
    }
    if any {
        mark_block(&b.then, live);
        mark_block(&b.otherwise, live);
        mark(live, Operand::Var(b.cond));
    }
}

/// `block` without its dead statements, carried values and results.
fn sweep_block(block: &Block, live: &[bool]) -> Block {
    let mut out = Vec::new();
    for s in block {
        match s {
            Stmt::For(l) => {
                let keep: Vec<usize> =
                    (0..l.carried.len()).filter(|k| live[l.carried[*k].param.index()]).collect();
                if keep.is_empty() {
                    continue;
                }
                let pick = |v: &[Operand]| keep.iter().map(|k| v[*k]).collect::<Vec<_>>();
                let outs = keep.iter().map(|k| l.outs[*k]).collect();
                let carried = keep.iter().map(|k| l.carried[*k].clone()).collect();
                out.push(Stmt::For(Box::new(Loop {
                    index: l.index,
                    range: l.range.clone(),
                    carried,
                    body: sweep_block(&l.body, live),
                    yields: pick(&l.yields),
                    outs,
                })));
            }
            Stmt::If(b) => {
                let keep: Vec<usize> =
                    (0..b.outs.len()).filter(|k| live[b.outs[*k].index()]).collect();
                if keep.is_empty() {
                    continue;
                }
                let pick = |v: &[Operand]| keep.iter().map(|k| v[*k]).collect::<Vec<_>>();
                let outs = keep.iter().map(|k| b.outs[*k]).collect();
                out.push(Stmt::If(Box::new(Branch {
                    cond: b.cond,
                    then: sweep_block(&b.then, live),
                    then_yields: pick(&b.then_yields),
                    otherwise: sweep_block(&b.otherwise, live),
                    else_yields: pick(&b.else_yields),
                    outs,
                })));
            }
            Stmt::Checkpoint(c) => {
                if c.outs.iter().any(|o| live[o.index()]) {
                    out.push(Stmt::Checkpoint(Box::new(Checkpoint {
                        step: sweep_block(&c.step, live),
                        back: sweep_block(&c.back, live),
                        ..(**c).clone()
                    })));
                }
            }
            _ => {
                if stmt_defs(s).iter().any(|v| live[v.index()]) {
                    out.push(s.clone());
                }
            }
        }
    }
    out
}
