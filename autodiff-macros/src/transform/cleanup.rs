//! Clean-up passes: keep only the wanted outputs, and drop what nothing reads (statements, and
//! the carried values and results of loops and branches).

use std::collections::{HashMap, HashSet};

use crate::ir::{
    Block, Branch, Checkpoint, Func, Int, Loop, LoopId, Operand, Source, Stmt, Var, While, reads,
    stmt_defs, substitute, substitute_operand,
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
    let marks = marks(&f);
    let body = sweep_block(&f.body, &marks);
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
                Stmt::While(w) => {
                    self.block(&w.body);
                    for (k, c) in w.carried.iter().enumerate() {
                        if self.resolve(w.yields[k]) == Operand::Var(c.param) {
                            self.map.insert(w.outs[k], self.resolve(c.init));
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

/// `l` without the statements of its body that reach none of its results (all taken as live),
/// for telling what the loop does: a dead statement may read a carried value that the live
/// ones only add to. `names` is the number of variables of the function `l` is built in.
pub fn live_loop(l: &Loop, names: usize) -> Loop {
    let mut m = Marks { live: vec![false; names], tapes: HashSet::new() };
    for o in &l.outs {
        m.live[o.index()] = true;
    }
    mark_loop(l, &mut m);
    Loop { body: sweep_block(&l.body, &m), ..l.clone() }
}

/// Which variables reach an output (through the statements that read them).
pub fn live(f: &Func) -> Vec<bool> {
    marks(f).live
}

/// What reaches an output: the variables, and the tapes a live sweep reads (the loop that fills
/// such a tape is live whole: the tape records every value it carries).
struct Marks {
    live: Vec<bool>,
    tapes: HashSet<LoopId>,
}

fn marks(f: &Func) -> Marks {
    let mut m = Marks { live: vec![false; f.names.len()], tapes: HashSet::new() };
    for o in &f.outputs {
        mark(&mut m.live, *o);
    }
    mark_block(&f.body, &mut m);
    m
}

fn mark(live: &mut [bool], op: Operand) {
    if let Operand::Var(v) = op {
        live[v.index()] = true;
    }
}

/// Marks, backwards, everything the live variables of `block` read.
fn mark_block(block: &Block, m: &mut Marks) {
    for s in block.iter().rev() {
        match s {
            Stmt::For(l) => mark_loop(l, m),
            Stmt::While(w) => mark_while(w, m),
            Stmt::If(b) => mark_branch(b, m),
            Stmt::Checkpoint(c) => mark_checkpoint(c, m),
            _ => {
                if stmt_defs(s).iter().any(|v| m.live[v.index()]) {
                    for op in reads(s) {
                        mark(&mut m.live, op);
                    }
                }
            }
        }
    }
}

/// A carried value is live if its result is, or if a live value of the body reads it: then its
/// yield (the next iteration's value) and its initial value are live too.
fn mark_loop(l: &Loop, m: &mut Marks) {
    loop {
        for (k, c) in l.carried.iter().enumerate() {
            if m.live[l.outs[k].index()] || m.live[c.param.index()] {
                m.live[l.outs[k].index()] = true;
                m.live[c.param.index()] = true;
                mark(&mut m.live, l.yields[k]);
            }
        }
        let before: Vec<bool> = l.carried.iter().map(|c| m.live[c.param.index()]).collect();
        mark_block(&l.body, m);
        let after: Vec<bool> = l.carried.iter().map(|c| m.live[c.param.index()]).collect();
        if before == after {
            break;
        }
    }
    for c in &l.carried {
        if m.live[c.param.index()] {
            mark(&mut m.live, c.init);
        }
    }
}

/// A loop of unknown length, as a `for` loop; when it runs at all (a carried value is live), its
/// conditions are live too, and when a live sweep reads its tape, every carried value.
fn mark_while(w: &While, m: &mut Marks) {
    if w.tape.is_some() && m.tapes.contains(&w.index) {
        for (c, o) in w.carried.iter().zip(&w.outs) {
            m.live[c.param.index()] = true;
            m.live[o.index()] = true;
        }
    }
    loop {
        for (k, c) in w.carried.iter().enumerate() {
            if m.live[w.outs[k].index()] || m.live[c.param.index()] {
                m.live[w.outs[k].index()] = true;
                m.live[c.param.index()] = true;
                mark(&mut m.live, w.yields[k]);
            }
        }
        if w.carried.iter().any(|c| m.live[c.param.index()]) {
            mark(&mut m.live, w.cond);
            mark(&mut m.live, w.first);
        }
        let before: Vec<bool> = w.carried.iter().map(|c| m.live[c.param.index()]).collect();
        mark_block(&w.body, m);
        let after: Vec<bool> = w.carried.iter().map(|c| m.live[c.param.index()]).collect();
        if before == after {
            break;
        }
    }
    for c in &w.carried {
        if m.live[c.param.index()] {
            mark(&mut m.live, c.init);
        }
    }
}

/// A checkpointed sweep is live if any of its results is. Its adjoint is then live whole; of its
/// state, the components that the sweep of an iteration reads, and those that the step needs to
/// compute them (a value the loop only accumulates, such as a running cost, is neither); of a
/// state from a tape, every component (the tape holds them all).
fn mark_checkpoint(c: &Checkpoint, m: &mut Marks) {
    if !c.outs.iter().any(|o| m.live[o.index()]) {
        return;
    }
    for v in &c.outs {
        m.live[v.index()] = true;
    }
    for a in &c.adjoint {
        m.live[a.param.index()] = true;
        mark(&mut m.live, a.init);
    }
    for op in &c.back_yields {
        mark(&mut m.live, *op);
    }
    if let Source::Tape(_) = c.source {
        m.tapes.insert(c.index);
        for (s, b) in c.step_params.iter().zip(&c.back_params) {
            m.live[s.index()] = true;
            m.live[b.index()] = true;
        }
    }
    mark_block(&c.back, m);
    loop {
        let before = kept_state(c, &m.live);
        for (j, keep) in before.iter().enumerate() {
            if *keep {
                m.live[c.step_params[j].index()] = true;
                m.live[c.back_params[j].index()] = true;
                mark(&mut m.live, c.step_yields[j]);
            }
        }
        mark_block(&c.step, m);
        if kept_state(c, &m.live) == before {
            break;
        }
    }
    for (j, keep) in kept_state(c, &m.live).into_iter().enumerate() {
        if let (true, Some(x)) = (keep, c.state.get(j)) {
            mark(&mut m.live, *x);
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

fn mark_branch(b: &Branch, m: &mut Marks) {
    let mut any = false;
    for (k, o) in b.outs.iter().enumerate() {
        if m.live[o.index()] {
            any = true;
            mark(&mut m.live, b.then_yields[k]);
            mark(&mut m.live, b.else_yields[k]);
        }
    }
    if any {
        mark_block(&b.then, m);
        mark_block(&b.otherwise, m);
        mark(&mut m.live, Operand::Var(b.cond));
    }
}

/// `block` without its dead statements, carried values and results.
fn sweep_block(block: &Block, m: &Marks) -> Block {
    let live = &m.live[..];
    let mut out = Vec::new();
    for s in block {
        match s {
            Stmt::While(w) => {
                let keep: Vec<usize> =
                    (0..w.carried.len()).filter(|k| live[w.carried[*k].param.index()]).collect();
                if keep.is_empty() {
                    continue;
                }
                let pick = |v: &[Operand]| keep.iter().map(|k| v[*k]).collect::<Vec<_>>();
                out.push(Stmt::While(Box::new(While {
                    carried: keep.iter().map(|k| w.carried[*k].clone()).collect(),
                    body: sweep_block(&w.body, m),
                    yields: pick(&w.yields),
                    outs: keep.iter().map(|k| w.outs[*k]).collect(),
                    tape: w.tape.filter(|_| m.tapes.contains(&w.index)),
                    ..(**w).clone()
                })));
            }
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
                    body: sweep_block(&l.body, m),
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
                    then: sweep_block(&b.then, m),
                    then_yields: pick(&b.then_yields),
                    otherwise: sweep_block(&b.otherwise, m),
                    else_yields: pick(&b.else_yields),
                    outs,
                })));
            }
            Stmt::Checkpoint(c) => {
                if c.outs.iter().any(|o| live[o.index()]) {
                    let keep = kept_state(c, live);
                    let state = match c.source {
                        Source::Range(_) => pick_ops(&c.state, &keep),
                        Source::Tape(_) => Vec::new(),
                    };
                    let pick = |v: &[Operand]| {
                        v.iter().zip(&keep).filter(|(_, k)| **k).map(|(x, _)| *x).collect()
                    };
                    let pick_vars = |v: &[Var]| {
                        v.iter().zip(&keep).filter(|(_, k)| **k).map(|(x, _)| *x).collect()
                    };
                    out.push(Stmt::Checkpoint(Box::new(Checkpoint {
                        state,
                        step_params: pick_vars(&c.step_params),
                        step: sweep_block(&c.step, m),
                        step_yields: pick(&c.step_yields),
                        back_params: pick_vars(&c.back_params),
                        back: sweep_block(&c.back, m),
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

/// The operands of `v` whose flag in `keep` is set.
fn pick_ops(v: &[Operand], keep: &[bool]) -> Vec<Operand> {
    v.iter().zip(keep).filter(|(_, k)| **k).map(|(x, _)| *x).collect()
}
