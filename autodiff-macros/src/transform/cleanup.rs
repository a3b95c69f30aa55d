//! Clean-up passes: keep only the wanted outputs, and drop what nothing reads (statements, and
//! the carried values and results of loops and branches).

use std::collections::HashMap;

use crate::ir::{
    Block, Branch, Checkpoint, Func, Int, Loop, Operand, Stmt, Var, reads, stmt_defs, substitute,
    substitute_operand,
};

/// `f` returning only the outputs at `indices`, in that order.
pub fn select_outputs(f: &Func, indices: &[usize]) -> Func {
    let outputs = indices.iter().filter_map(|i| f.outputs.get(*i).copied()).collect();
    Func { outputs, ..f.clone() }
}

/// `f` without the statements, carried values and results that never reach an output, and
/// without the values a loop carries through unchanged (an adjoint that cancelled to zero leaves
/// a sweep that stores back what it loaded): their results are their initial values.
pub fn dead_code(f: &Func) -> Func {
    let mut through = Through::default();
    through.block(&f.body);
    let f = match through.map.is_empty() {
        true => f.clone(),
        false => Func {
            body: substitute(&f.body, &through.map),
            outputs: f.outputs.iter().map(|o| through.resolve(*o)).collect(),
            ..f.clone()
        },
    };
    let live = live(&f);
    let body = sweep_block(&f.body, &live);
    Func { body, ..f }
}

/// The values that are others unchanged: an element stored back where it was loaded from
/// (`a[i] = a[i]`), a value a loop carries through unchanged (its result is its initial value).
#[derive(Default)]
struct Through {
    /// Each such value, as the one it is (resolved).
    map: HashMap<Var, Operand>,
    /// Every load: the array and the index it reads.
    loads: HashMap<Var, (Var, Vec<Int>)>,
}

impl Through {
    fn resolve(&self, op: Operand) -> Operand {
        substitute_operand(op, &self.map)
    }

    fn block(&mut self, block: &Block) {
        for s in block {
            match s {
                Stmt::Load { out, array, index } => {
                    self.loads.insert(*out, (*array, index.clone()));
                }
                Stmt::Store { out, array, index, value } => {
                    let array = self.resolve(Operand::Var(*array));
                    let loaded = value.var().and_then(|v| self.loads.get(&v));
                    if let Some((from, at)) = loaded
                        && self.resolve(Operand::Var(*from)) == array
                        && at == index
                    {
                        self.map.insert(*out, array);
                    }
                }
                Stmt::For(l) => {
                    self.block(&l.body);
                    for (k, c) in l.carried.iter().enumerate() {
                        if self.resolve(l.yields[k]) == Operand::Var(c.param) {
                            self.map.insert(l.outs[k], self.resolve(c.init));
                        }
                    }
                }
                Stmt::If(b) => {
                    self.block(&b.then);
                    self.block(&b.otherwise);
                }
                Stmt::Checkpoint(c) => {
                    self.block(&c.step);
                    self.block(&c.back);
                }
                _ => {}
            }
        }
    }
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

/// A checkpointed sweep is live if any of its results is. Its adjoint is then live whole; of its
/// state, the components that the sweep of an iteration reads, and those that the step needs to
/// compute them (a value the loop only accumulates, such as a running cost, is neither).
fn mark_checkpoint(c: &Checkpoint, live: &mut Vec<bool>) {
    if !c.outs.iter().any(|o| live[o.index()]) {
        return;
    }
    for v in &c.outs {
        live[v.index()] = true;
    }
    for a in &c.adjoint {
        live[a.param.index()] = true;
        mark(live, a.init);
    }
    for op in &c.back_yields {
        mark(live, *op);
    }
    mark_block(&c.back, live);
    loop {
        let before = kept_state(c, live);
        for (j, keep) in before.iter().enumerate() {
            if *keep {
                live[c.step_params[j].index()] = true;
                live[c.back_params[j].index()] = true;
                mark(live, c.step_yields[j]);
            }
        }
        mark_block(&c.step, live);
        if kept_state(c, live) == before {
            break;
        }
    }
    for (j, keep) in kept_state(c, live).into_iter().enumerate() {
        if keep {
            mark(live, c.state[j]);
        }
    }
}

/// Which components of a checkpoint's state are live.
fn kept_state(c: &Checkpoint, live: &[bool]) -> Vec<bool> {
    c.step_params
        .iter()
        .zip(&c.back_params)
        .map(|(s, b)| live[s.index()] || live[b.index()])
        .collect()
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
                    let keep = kept_state(c, live);
                    let pick = |v: &[Operand]| {
                        v.iter().zip(&keep).filter(|(_, k)| **k).map(|(x, _)| *x).collect()
                    };
                    let pick_vars = |v: &[Var]| {
                        v.iter().zip(&keep).filter(|(_, k)| **k).map(|(x, _)| *x).collect()
                    };
                    out.push(Stmt::Checkpoint(Box::new(Checkpoint {
                        state: pick(&c.state),
                        step_params: pick_vars(&c.step_params),
                        step: sweep_block(&c.step, live),
                        step_yields: pick(&c.step_yields),
                        back_params: pick_vars(&c.back_params),
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
