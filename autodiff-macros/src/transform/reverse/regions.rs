//! The sweep of a loop (a loop running backwards) and of a branch (the same branch again).

use super::Rev;
use super::adjoint::Adj;
use std::collections::HashMap;

use crate::ir::{
    Block, Branch, Carry, Checkpoint, Int, Loop, Name, Operand, Prim, Range, Source, Stmt, Suffix,
    Ty, Var, While, free_vars, substitute, substitute_operand,
};
use crate::transform::additive::additive;

/// What a loop's sweep carries: the adjoints of the loop's carried values, the accumulators of
/// the adjoints of outer values (each with its outer variable and its initial value), and, once
/// the iteration is built, what each iteration yields.
/// An active carried value of a loop: its position, whether it is additive, and the adjoint of
/// its result.
type Seed = (usize, bool, Operand);

struct Sweep {
    carried: Vec<Carry>,
    accs: Vec<(Var, Var, Operand)>,
    yields: Vec<Operand>,
}

impl Rev<'_> {
    /// The variables that `block` (with `yields`) reads from outside and that have adjoints.
    pub(super) fn outer_adjoints(
        &self,
        block: &Block,
        yields: &[Operand],
        inner: &[Var],
    ) -> Vec<Var> {
        free_vars(block, yields)
            .into_iter()
            .filter(|v| !inner.contains(v) && self.varied[v.index()] && self.f.ty(*v).is_real())
            .collect()
    }

    /// The sweep of `l`: a loop over the same indices in the opposite order (in the same order
    /// when it only accumulates; or, for a loop its plan checkpoints, a checkpointed sweep). It carries the adjoints of the loop's carried
    /// values (except additive ones, whose adjoint is the same in every iteration) and
    /// accumulates those of the values the body reads from outside.
    pub(super) fn rev_loop(&mut self, l: &Loop, adj: &mut Adj) {
        let Some((seeds, sweep)) = self.sweep_start(l, adj) else { return };
        let checkpoint = self.plans.loops.get(&l.index).and_then(|p| p.checkpoint);
        let (kept, outs) = match checkpoint {
            Some(slots) => self.checkpointed(l, &seeds, sweep, adj, slots),
            None => {
                self.b.begin();
                let slot = vec![Int::index(l.index)];
                let stored = self.storage.get(&l.index).cloned().unwrap_or_default();
                for (v, st) in &stored.values {
                    let loaded =
                        self.b.load(self.f.name(*v).clone(), Operand::Var(*st), slot.clone());
                    self.b.map(*v, loaded);
                }
                // The inner loops' storage of this iteration: their sweeps read it, and they
                // do not run again to save it.
                let nested = stored.nested;
                for (j, inner) in &nested {
                    let loaded = self.load_slot(inner, &slot);
                    self.storage.insert(*j, loaded);
                    self.loaded.insert(*j);
                }
                let (sweep, kept) = self.iteration(l, &seeds, sweep, adj);
                for (j, _) in &nested {
                    self.loaded.remove(j);
                }
                let body = self.b.end();
                let outs = self.fresh_like(&sweep.carried);
                let range = Range { rev: !l.range.rev, ..l.range.clone() };
                let (carried, yields) = (sweep.carried, sweep.yields);
                let mut sweep =
                    Loop { index: l.index, range, carried, body, yields, outs: outs.clone() };
                // A sweep whose iterations can run in any order (it only accumulates) runs in the
                // loop's own order: the order its sums are rounded in is then the same whether or
                // not fusion joins it to a loop over the same indices (a stored sweep and a
                // checkpointed one fuse differently, and must agree to the bit).
                if self.only_accumulates(&sweep) {
                    sweep.range.rev = l.range.rev;
                }
                self.b.emit_loop(sweep);
                (kept, outs)
            }
        };
        self.sweep_end(l, seeds, (kept, outs), adj);
    }

    /// The sweep of a loop of unknown length: from the tape of snapshots its forward run filled
    /// (online checkpointing), one iteration of the loop to recompute states and the sweep of one
    /// iteration from its state, as a checkpointed `for` loop's.
    pub(super) fn rev_while(&mut self, w: &While, adj: &mut Adj) {
        if self.plans.loops.get(&w.index).is_some_and(|p| p.implicit) {
            return self.rev_implicit(w, adj);
        }
        let l = w.as_loop();
        let Some((seeds, sweep)) = self.sweep_start(&l, adj) else { return };
        let slots = self.plans.loops.get(&w.index).and_then(|p| p.checkpoint);
        let slots = slots.unwrap_or(crate::symbol::DEFAULT_SNAPSHOTS);
        let (step_params, step, mut step_yields) = self.step(&l, &[w.cond]);
        let cond = step_yields.pop().unwrap_or(Operand::Bool(false));
        self.b.begin();
        let back_params = self.state_params(&l);
        let (sweep, kept) = self.iteration(&l, &seeds, sweep, adj);
        let back = self.b.end();
        let outs = self.fresh_like(&sweep.carried);
        let accumulates = Loop {
            carried: sweep.carried.clone(),
            body: back.clone(),
            yields: sweep.yields.clone(),
            outs: outs.clone(),
            ..l.clone()
        };
        if self.only_accumulates(&accumulates) {
            // A sweep that only accumulates needs the states in no particular order: the loop
            // runs again, the sweep of each iteration from its state and then the step to the
            // next, as a checkpointed `for` loop's does (see `checkpointed`); no tape.
            let state: Vec<Operand> = l.carried.iter().map(|c| self.b.resolve(c.init)).collect();
            let map: HashMap<Var, Operand> =
                step_params.iter().zip(&back_params).map(|(s, b)| (*s, Operand::Var(*b))).collect();
            let mut carried: Vec<Carry> = back_params
                .iter()
                .zip(&state)
                .map(|(p, i)| Carry { param: *p, init: *i })
                .collect();
            let mut all_outs = self.fresh_like(&carried);
            carried.extend(accumulates.carried);
            all_outs.extend(outs.iter().copied());
            let mut body = back;
            body.extend(substitute(&step, &map));
            let mut yields: Vec<Operand> =
                step_yields.iter().map(|y| substitute_operand(*y, &map)).collect();
            yields.extend(accumulates.yields);
            self.b.emit_while(While {
                index: w.index,
                range: w.range.clone(),
                first: self.b.resolve(w.first),
                carried,
                body,
                yields,
                cond: substitute_operand(cond, &map),
                outs: all_outs,
                tape: None,
                implicit: false,
            });
            return self.sweep_end(&l, seeds, (kept, outs), adj);
        }
        self.b.emit(Stmt::Checkpoint(Box::new(Checkpoint {
            index: w.index,
            source: Source::Tape(w.range.clone()),
            slots,
            state: Vec::new(),
            step_params,
            step,
            step_yields,
            adjoint: sweep.carried,
            back_params,
            back,
            back_yields: sweep.yields,
            outs: outs.clone(),
        })));
        self.sweep_end(&l, seeds, (kept, outs), adj);
    }

    /// Whether the sweep `l` only accumulates: each of its carried values is additive, what its
    /// body computes and nothing reads aside (the sweep of an inner loop may pass an additive
    /// adjoint through a branch and drop it, which the sweep in the loop's own order and the one
    /// from snapshots must not tell apart from a loop that does not).
    fn only_accumulates(&self, l: &Loop) -> bool {
        let l = crate::transform::cleanup::live_loop(l, self.b.func().names.len());
        (0..l.carried.len()).all(|k| additive(&l, k))
    }

    /// What the sweep of `l` starts from: for each active carried value, whether it is additive
    /// and the adjoint of its result; the sweep carrying the adjoints of the others, and the
    /// accumulators of the outer values the body reads. `None` when no carried value is active.
    fn sweep_start(&mut self, l: &Loop, adj: &mut Adj) -> Option<(Vec<Seed>, Sweep)> {
        let active: Vec<usize> =
            (0..l.carried.len()).filter(|k| self.active[l.carried[*k].param.index()]).collect();
        if active.is_empty() {
            return None;
        }
        let seeds: Vec<Seed> = active
            .iter()
            .map(|k| (*k, additive(l, *k), self.take_or_zero(adj, l.outs[*k])))
            .collect();
        let params: Vec<Var> = l.carried.iter().map(|c| c.param).collect();
        let frees = self.outer_adjoints(&l.body, &l.yields, &params);
        let mut sweep = Sweep { carried: Vec::new(), accs: Vec::new(), yields: Vec::new() };
        for (k, additive, ob) in &seeds {
            if !additive {
                let param = self.fresh_bar(l.carried[*k].param);
                sweep.carried.push(Carry { param, init: *ob });
            }
        }
        for v in &frees {
            let init = match self.f.ty(*v) {
                Ty::Array(_) => self.take_or_zero(adj, *v),
                _ => Operand::Lit(0.0),
            };
            sweep.accs.push((*v, self.fresh_bar(*v), init));
        }
        Some((seeds, sweep))
    }

    /// The adjoints a loop's sweep gives: those of the carried values' initial values, and those
    /// of the outer values whose accumulators it `kept`, from its results `outs`.
    fn sweep_end(
        &mut self,
        l: &Loop,
        seeds: Vec<Seed>,
        (kept, outs): (Vec<Var>, Vec<Var>),
        adj: &mut Adj,
    ) {
        let mut outs = outs.into_iter();
        for (k, additive, ob) in seeds {
            let bar = if additive { ob } else { Operand::Var(outs.next().unwrap_or(l.outs[k])) };
            if let Some(v) = l.carried[k].init.var() {
                self.contribute(adj, v, bar);
            }
        }
        for (v, out) in kept.into_iter().zip(outs) {
            self.contribute(adj, v, Operand::Var(out));
        }
    }

    /// Fresh variables for the state (the carried values) of `l`, read in their place from here
    /// on in the open block: the parameters of a checkpointed sweep's closures.
    fn state_params(&mut self, l: &Loop) -> Vec<Var> {
        l.carried
            .iter()
            .map(|c| {
                let p = self.b.fresh(self.f.name(c.param).clone(), self.f.ty(c.param).clone());
                self.b.map(c.param, Operand::Var(p));
                p
            })
            .collect()
    }

    /// One iteration of `l` as a block of its own, from fresh state parameters: the `step` of a
    /// checkpointed sweep (its parameters, statements and yields, and after them what `also`
    /// are in it: a loop's condition).
    fn step(&mut self, l: &Loop, also: &[Operand]) -> (Vec<Var>, Block, Vec<Operand>) {
        self.b.begin();
        let params = self.state_params(l);
        for s in &l.body {
            self.replay(s, true, false);
        }
        let mut yields = l.yields.clone();
        yields.extend(also);
        let (step, yields) = self.b.end_yielding(&yields);
        (params, step, yields)
    }

    /// The sweep of one iteration of `l`, in the open block: it recomputes what it needs, runs
    /// the adjoints of the body backwards, and yields the carried adjoints and accumulators.
    /// Returns the sweep with its final carried values and yields, and the outer variables whose
    /// accumulators it kept.
    fn iteration(
        &mut self,
        l: &Loop,
        seeds: &[Seed],
        mut sweep: Sweep,
        adj: &mut Adj,
    ) -> (Sweep, Vec<Var>) {
        self.recompute(&l.body);
        let mut inner = Adj::default();
        for (v, acc, _) in &sweep.accs {
            if let Ty::Array(_) = self.f.ty(*v) {
                inner.arrays.insert(*v, Operand::Var(*acc));
            }
        }
        let mut next_param = sweep.carried.iter().map(|c| c.param);
        for (k, additive, ob) in seeds {
            let seed = if *additive {
                *ob
            } else {
                Operand::Var(next_param.next().unwrap_or(l.carried[*k].param))
            };
            if let Some(y) = l.yields[*k].var() {
                self.contribute(&mut inner, y, seed);
            }
        }
        self.rev_block(&l.body, &mut inner);
        for (k, additive, _) in seeds {
            let bar = self.take_or_zero(&mut inner, l.carried[*k].param);
            if !additive {
                sweep.yields.push(bar);
            }
        }
        let mut kept = Vec::new();
        for (v, acc, init) in std::mem::take(&mut sweep.accs) {
            let next = match self.f.ty(v) {
                Ty::Array(_) => inner.arrays.remove(&v).unwrap_or(Operand::Var(acc)),
                // The iteration's contribution is a temporary: the accumulator is `v_bar`.
                _ => match self.take_as(&mut inner, v, Name::Temp) {
                    Some(s) => {
                        let name = self.f.derived_name(v, Suffix::Bar);
                        let next =
                            self.b.push_named(name.clone(), Prim::Add, &[Operand::Var(acc), s]);
                        self.b.name_temp(next, name);
                        next
                    }
                    None => Operand::Var(acc),
                },
            };
            if next == Operand::Var(acc) {
                // Nothing read `v` in a way that reaches the adjoints: not carried.
                if let Ty::Array(_) = self.f.ty(v) {
                    adj.arrays.insert(v, init);
                }
                continue;
            }
            sweep.carried.push(Carry { param: acc, init });
            sweep.yields.push(next);
            kept.push(v);
        }
        (sweep, kept)
    }

    /// The sweep of `l` by binomial checkpointing in `slots` snapshots of its carried values:
    /// one iteration of `l` to recompute states, and the sweep of one iteration from its state.
    fn checkpointed(
        &mut self,
        l: &Loop,
        seeds: &[Seed],
        sweep: Sweep,
        adj: &mut Adj,
        slots: u64,
    ) -> (Vec<Var>, Vec<Var>) {
        let state: Vec<Operand> = l.carried.iter().map(|c| self.b.resolve(c.init)).collect();
        let (step_params, step, step_yields) = self.step(l, &[]);
        self.b.begin();
        let back_params = self.state_params(l);
        let (sweep, kept) = self.iteration(l, seeds, sweep, adj);
        let back = self.b.end();
        let outs = self.fresh_like(&sweep.carried);
        let accumulates = Loop {
            index: l.index,
            range: l.range.clone(),
            carried: sweep.carried.clone(),
            body: back.clone(),
            yields: sweep.yields.clone(),
            outs: outs.clone(),
        };
        if self.only_accumulates(&accumulates) {
            // A sweep that only accumulates needs the states in no particular order: one loop
            // in the loop's own order runs the sweep of each iteration from its state, then
            // steps to the next state. Nothing is stored or recomputed twice, and the sums are
            // rounded in the order of the stored sweep's (see `rev_loop`), to the bit.
            let map: HashMap<Var, Operand> =
                step_params.iter().zip(&back_params).map(|(s, b)| (*s, Operand::Var(*b))).collect();
            let mut carried: Vec<Carry> = back_params
                .iter()
                .zip(&state)
                .map(|(p, i)| Carry { param: *p, init: *i })
                .collect();
            let state_outs = self.fresh_like(&carried);
            carried.extend(accumulates.carried);
            let mut body = back;
            body.extend(substitute(&step, &map));
            let mut yields: Vec<Operand> =
                step_yields.iter().map(|y| substitute_operand(*y, &map)).collect();
            yields.extend(accumulates.yields);
            let mut all_outs = state_outs;
            all_outs.extend(outs.iter().copied());
            self.b.emit_loop(Loop { carried, body, yields, outs: all_outs, ..accumulates });
            return (kept, outs);
        }
        self.b.emit(Stmt::Checkpoint(Box::new(Checkpoint {
            index: l.index,
            source: Source::Range(l.range.clone()),
            slots,
            state,
            step_params,
            step,
            step_yields,
            adjoint: sweep.carried,
            back_params,
            back,
            back_yields: sweep.yields,
            outs: outs.clone(),
        })));
        (kept, outs)
    }

    /// New variables with the names and types of `carried`'s (the results of a sweep).
    pub(super) fn fresh_like(&mut self, carried: &[Carry]) -> Vec<Var> {
        carried
            .iter()
            .map(|c| {
                let (name, ty) =
                    (self.b.func().name(c.param).clone(), self.b.func().ty(c.param).clone());
                self.b.fresh(name, ty)
            })
            .collect()
    }

    pub(super) fn fresh_bar(&mut self, v: Var) -> Var {
        let name = self.f.derived_name(v, Suffix::Bar);
        self.b.fresh(name, self.f.ty(v).clone())
    }

    /// The sweep of `br`: the same branch, each side recomputing what it needs and yielding the
    /// adjoints of the values it reads from outside.
    pub(super) fn rev_branch(&mut self, br: &Branch, adj: &mut Adj) {
        let active: Vec<usize> =
            (0..br.outs.len()).filter(|k| self.active[br.outs[*k].index()]).collect();
        if active.is_empty() {
            return;
        }
        let obs: Vec<(usize, Operand)> =
            active.iter().map(|k| (*k, self.take_or_zero(adj, br.outs[*k]))).collect();
        let mut frees = self.outer_adjoints(&br.then, &br.then_yields, &[]);
        for v in self.outer_adjoints(&br.otherwise, &br.else_yields, &[]) {
            if !frees.contains(&v) {
                frees.push(v);
            }
        }
        let pre: Vec<Option<Operand>> = frees
            .iter()
            .map(|v| match self.f.ty(*v) {
                Ty::Array(_) => Some(self.take_or_zero(adj, *v)),
                _ => None,
            })
            .collect();
        let side = |r: &mut Self, block: &Block, yields: &[Operand]| {
            r.b.begin();
            r.recompute(block);
            let mut inner = Adj::default();
            for (v, p) in frees.iter().zip(&pre) {
                if let Some(p) = p {
                    inner.arrays.insert(*v, *p);
                }
            }
            for (k, ob) in &obs {
                if let Some(y) = yields[*k].var() {
                    r.contribute(&mut inner, y, *ob);
                }
            }
            r.rev_block(block, &mut inner);
            let bars: Vec<Option<Operand>> = frees
                .iter()
                .zip(&pre)
                .map(|(v, p)| r.take(&mut inner, *v).filter(|bar| Some(*bar) != *p))
                .collect();
            (r.b.end(), bars)
        };
        let (then, then_bars) = side(self, &br.then, &br.then_yields);
        let (otherwise, else_bars) = side(self, &br.otherwise, &br.else_yields);
        let (mut then_yields, mut else_yields, mut outs, mut targets) =
            (vec![], vec![], vec![], vec![]);
        for (i, v) in frees.iter().enumerate() {
            let (t, e) = (then_bars[i], else_bars[i]);
            if t.is_none() && e.is_none() {
                if let Some(p) = pre[i] {
                    adj.arrays.insert(*v, p);
                }
                continue;
            }
            let fallback = pre[i].unwrap_or(Operand::Lit(0.0));
            then_yields.push(t.unwrap_or(fallback));
            else_yields.push(e.unwrap_or(fallback));
            outs.push(self.fresh_bar(*v));
            targets.push(*v);
        }
        if outs.is_empty() {
            return;
        }
        let cond = br.cond;
        self.b.emit_if(Branch {
            cond,
            then,
            then_yields,
            otherwise,
            else_yields,
            outs: outs.clone(),
        });
        for (v, o) in targets.into_iter().zip(outs) {
            self.contribute(adj, v, Operand::Var(o));
        }
    }
}
