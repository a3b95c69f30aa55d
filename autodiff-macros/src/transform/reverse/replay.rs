//! Re-emitting primal statements: the forward pass itself (same variables), and the
//! recomputation of values in the sweep (new variables, read in place of the old ones). A loop
//! whose sweep runs in the same scope saves, each iteration, what its plan says; a branch
//! carries out of its sides the costly values their sweeps read again (see [`kept`]).

use super::Rev;
use crate::ir::{
    Block, Branch, Carry, Func, Int, Loop, LoopId, Name, Operand, Prim, Stmt, Suffix, Ty, Var,
    While, reads, stmt_defs,
};
use crate::transform::plan::cheap_prim;

impl Rev<'_> {
    /// The forward pass: the function's statements with their own variables; its loops save
    /// what their sweeps need.
    pub(super) fn forward_pass(&mut self) {
        for s in &self.f.body {
            self.replay(s, false, true);
        }
    }

    /// Recomputes, in a sweep, the statements of `block` whose operands are available here and
    /// whose results are not (loops among them save what their own sweeps, in this scope, need).
    pub(super) fn recompute(&mut self, block: &Block) {
        for s in block {
            let defs = stmt_defs(s);
            if !defs.is_empty() && defs.iter().all(|v| self.b.is_mapped(*v)) {
                continue;
            }
            if reads(s).into_iter().all(|op| self.available(op)) {
                self.replay(s, true, true);
            }
        }
    }

    /// Re-emits `s`: with its own variables, or (`fresh`) with new ones read in place of the old
    /// ones from here on. With `saves`, a loop saves what its plan says.
    pub(super) fn replay(&mut self, s: &Stmt, fresh: bool, saves: bool) {
        let name = |out: &Var| self.f.name(*out).clone();
        if !fresh {
            match s {
                Stmt::Op { out, prim, args } => self.b.copy(*out, *prim, args),
                Stmt::For(l) => self.replay_loop(l, false, saves),
                Stmt::While(w) => self.replay_while(w, false, saves),
                Stmt::If(br) => self.replay_branch(br, false),
                other => self.b.emit(other.clone()),
            }
            return;
        }
        let (out, new) = match s {
            Stmt::Op { out, prim, args } => (*out, self.b.recompute(name(out), *prim, args)),
            Stmt::Test { out, cond } => (*out, Operand::Var(self.b.test(name(out), cond.clone()))),
            Stmt::Load { out, array, index } => {
                (*out, self.b.load(name(out), Operand::Var(*array), index.clone()))
            }
            Stmt::Store { out, array, index, value } => {
                (*out, self.b.store(name(out), Operand::Var(*array), index.clone(), *value))
            }
            Stmt::Fill { out, value } => {
                (*out, self.b.fill(name(out), self.f.ty(*out).clone(), *value))
            }
            Stmt::Array { out, elems } => {
                (*out, self.b.array(name(out), self.f.ty(*out).clone(), elems.clone()))
            }
            Stmt::For(l) => return self.replay_loop(l, true, saves),
            Stmt::While(w) => return self.replay_while(w, true, saves),
            Stmt::If(br) => return self.replay_branch(br, true),
            // Not in a primal (the reverse transform makes them).
            Stmt::Checkpoint(_) => return self.b.emit(s.clone()),
            Stmt::Call(c) => {
                let outs: Vec<Var> = c
                    .outs
                    .iter()
                    .map(|o| self.b.fresh(self.f.name(*o).clone(), self.f.ty(*o).clone()))
                    .collect();
                self.b.emit(Stmt::Call(Box::new(crate::ir::Call {
                    outs: outs.clone(),
                    ..(**c).clone()
                })));
                // The residuals of a `g_fwd` call that the sweep loaded from storage stay as
                // they are: if nothing else of the call is read, the call goes.
                let kept = c.kind == crate::ir::CallKind::Fwd;
                for (o, n) in c.outs.iter().zip(outs) {
                    if !(kept && fresh && self.b.is_mapped(*o)) {
                        self.b.map(*o, Operand::Var(n));
                    }
                }
                return;
            }
        };
        self.b.map(out, new);
    }

    /// The storage name of `v`: `v_saved`, or `saved` for a temporary.
    pub(super) fn saved_name(&self, v: Var) -> Name {
        match self.f.name(v) {
            Name::Temp => Name::Hint(crate::symbol::SAVED),
            _ => Name::Derived { of: v, suffix: Suffix::Saved },
        }
    }

    fn replay_loop(&mut self, l: &Loop, fresh: bool, saves: bool) {
        let active = l.carried.iter().any(|c| self.active[c.param.index()]);
        let saves = saves && active && !self.loaded.contains(&l.index);
        let plan = self.plans.loops.get(&l.index).filter(|_| saves);
        let saved: Vec<Var> = plan.map(|p| p.saved.clone()).unwrap_or_default();
        let nested: Vec<LoopId> = plan.map(|p| p.nested.clone()).unwrap_or_default();
        // A reduction's iteration is recomputed with its sweep, its inner loops saving what
        // their sweeps need: the forward pass runs them so too, and once fused with the sweep,
        // the two runs are one.
        let reduction = plan.is_some_and(|p| !p.stores() && p.checkpoint.is_none());
        let slot = vec![Int::index(l.index)];
        let mut carried: Vec<Carry> = Vec::new();
        for c in &l.carried {
            let param = match fresh {
                true => self.b.fresh(self.f.name(c.param).clone(), self.f.ty(c.param).clone()),
                false => c.param,
            };
            carried.push(Carry { param, init: self.b.resolve(c.init) });
        }
        let arrays = match plan.is_some() {
            true => self.storage_types(l.index),
            false => Vec::new(),
        };
        let mut storage = Vec::new();
        for (v, ty) in &arrays {
            let init = crate::transform::zero(&mut self.b, ty);
            let param = self.b.fresh(self.saved_name(*v), ty.clone());
            carried.push(Carry { param, init });
            storage.push(Operand::Var(param));
        }
        self.b.begin();
        for (c, new) in l.carried.iter().zip(&carried) {
            if fresh {
                self.b.map(c.param, Operand::Var(new.param));
            }
        }
        let save = |r: &mut Self, v: Var, value: Operand, storage: &mut Vec<Operand>| {
            if let Some(k) = arrays[..saved.len()].iter().position(|(s, _)| *s == v) {
                let value = r.b.resolve(value);
                storage[k] = r.b.store(r.saved_name(v), storage[k], slot.clone(), value);
            }
        };
        for c in &l.carried {
            save(self, c.param, Operand::Var(c.param), &mut storage);
        }
        for s in &l.body {
            let inner = match s {
                Stmt::For(inner) => reduction || nested.contains(&inner.index),
                _ => false,
            };
            self.replay(s, fresh, inner);
            for v in stmt_defs(s) {
                save(self, v, Operand::Var(v), &mut storage);
            }
            // An inner loop's whole storage, into this loop's slot for it.
            if let Stmt::For(inner) = s
                && nested.contains(&inner.index)
            {
                let before: usize = nested
                    .iter()
                    .take_while(|j| **j != inner.index)
                    .map(|j| self.storage_types(*j).len())
                    .sum();
                let at = saved.len() + before;
                let run = self.storage.get(&inner.index).cloned().unwrap_or_default();
                for (k, (v, array)) in run.held().into_iter().zip(run.arrays()).enumerate() {
                    let (name, value) = (self.saved_name(v), Operand::Var(array));
                    if let Some(slot_array) = storage.get(at + k).copied() {
                        storage[at + k] = self.b.store(name, slot_array, slot.clone(), value);
                    }
                }
            }
        }
        let mut yields = l.yields.clone();
        yields.extend(storage);
        let (body, yields) = self.b.end_yielding(&yields);
        let mut outs = Vec::new();
        for o in &l.outs {
            let new = match fresh {
                true => self.b.fresh(self.f.name(*o).clone(), self.f.ty(*o).clone()),
                false => *o,
            };
            outs.push(new);
        }
        let mut kept = Vec::new();
        for (v, ty) in &arrays {
            let out = self.b.fresh(self.saved_name(*v), ty.clone());
            outs.push(out);
            kept.push(out);
        }
        if fresh {
            // A result the sweep already has (loaded from storage) stays as it is.
            for (o, new) in l.outs.iter().zip(&outs) {
                if !self.b.is_mapped(*o) {
                    self.b.map(*o, Operand::Var(*new));
                }
            }
        }
        let range = l.range.clone();
        self.b.emit_loop(Loop { index: l.index, range, carried, body, yields, outs });
        if !kept.is_empty() {
            let stored = self.assemble(l.index, &mut kept.into_iter());
            self.storage.insert(l.index, stored);
        }
    }

    /// A loop of unknown length; with `saves`, when its sweep is in this scope, it fills a tape
    /// of snapshots for it (the plan says how many).
    fn replay_while(&mut self, w: &While, fresh: bool, saves: bool) {
        let active = w.carried.iter().any(|c| self.active[c.param.index()]);
        let tape = self.plans.loops.get(&w.index).and_then(|p| p.checkpoint);
        let tape = tape.filter(|_| saves && active);
        let first = self.b.resolve(w.first);
        let mut carried: Vec<Carry> = Vec::new();
        for c in &w.carried {
            let param = match fresh {
                true => self.b.fresh(self.f.name(c.param).clone(), self.f.ty(c.param).clone()),
                false => c.param,
            };
            carried.push(Carry { param, init: self.b.resolve(c.init) });
        }
        self.b.begin();
        if fresh {
            for (c, new) in w.carried.iter().zip(&carried) {
                self.b.map(c.param, Operand::Var(new.param));
            }
        }
        for s in &w.body {
            self.replay(s, fresh, false);
        }
        let mut yields = w.yields.clone();
        yields.push(w.cond);
        let (body, mut yields) = self.b.end_yielding(&yields);
        let cond = yields.pop().unwrap_or(w.cond);
        let outs: Vec<Var> = match fresh {
            true => w
                .outs
                .iter()
                .map(|o| self.b.fresh(self.f.name(*o).clone(), self.f.ty(*o).clone()))
                .collect(),
            false => w.outs.clone(),
        };
        if fresh {
            for (o, new) in w.outs.iter().zip(&outs) {
                self.b.map(*o, Operand::Var(*new));
            }
        }
        let (index, range, implicit) = (w.index, w.range.clone(), w.implicit);
        self.b.emit_while(While {
            index,
            range,
            first,
            carried,
            body,
            yields,
            cond,
            outs,
            tape,
            implicit,
        });
    }

    /// Re-emits `br`, its sides carrying out, besides its results, the values of theirs that
    /// are costly to compute again ([`kept`]): each is read as the branch's new result from
    /// here on, so that the sweep of the side taken reads it rather than recomputes it (the
    /// other side yields a zero in its place, which no sweep reads). The cleanup drops those
    /// that no sweep reads. In a side replayed afresh, a value already at hand is not computed
    /// again.
    fn replay_branch(&mut self, br: &Branch, fresh: bool) {
        let (kept_then, kept_else) = (kept(self.f, &br.then), kept(self.f, &br.otherwise));
        let zeros = |vs: &[Kept]| vs.iter().map(|_| Operand::Lit(0.0)).collect::<Vec<_>>();
        let carried = |vs: &[Kept]| vs.iter().map(|k| Operand::Var(k.0)).collect::<Vec<_>>();
        let mut then_yields = br.then_yields.clone();
        then_yields.extend(carried(&kept_then).into_iter().chain(zeros(&kept_else)));
        let mut else_yields = br.else_yields.clone();
        else_yields.extend(zeros(&kept_then).into_iter().chain(carried(&kept_else)));
        let side = |r: &mut Self, block: &Block, yields: &[Operand]| {
            r.b.begin();
            for s in block {
                let at_hand = matches!(s, Stmt::Op { out, .. } if r.b.is_mapped(*out));
                if !(fresh && at_hand) {
                    r.replay(s, fresh, false);
                }
            }
            r.b.end_yielding(yields)
        };
        let (then, then_yields) = side(self, &br.then, &then_yields);
        let (otherwise, else_yields) = side(self, &br.otherwise, &else_yields);
        let mut outs: Vec<Var> = match fresh {
            true => br
                .outs
                .iter()
                .map(|o| self.b.fresh(self.f.name(*o).clone(), self.f.ty(*o).clone()))
                .collect(),
            false => br.outs.clone(),
        };
        if fresh {
            for (o, new) in br.outs.iter().zip(&outs) {
                self.b.map(*o, Operand::Var(*new));
            }
        }
        let kept_outs: Vec<(&Kept, Var)> = kept_then
            .iter()
            .chain(&kept_else)
            .map(|k| (k, self.b.fresh(self.f.name(k.0).clone(), self.f.ty(k.0).clone())))
            .collect();
        outs.extend(kept_outs.iter().map(|(_, o)| *o));
        let cond = br.cond;
        self.b.emit_if(Branch { cond, then, then_yields, otherwise, else_yields, outs });
        for ((v, _, _), o) in &kept_outs {
            self.b.map(*v, Operand::Var(*o));
        }
        // A rule of the sweep that computes a kept value again from another (`d sin x = cos x
        // dx`, `x` kept) reads it too. Not one computed from values outside the branch only
        // (`√a`): an equal statement after the branch would read the zero of the side not
        // taken.
        let own: Vec<Var> = kept_outs.iter().map(|((v, _, _), _)| *v).collect();
        for ((_, prim, args), o) in &kept_outs {
            if args.iter().any(|a| a.var().is_some_and(|x| own.contains(&x))) {
                self.b.remember(*prim, args, *o);
            }
        }
    }
}

/// A value a branch carries out for its sweep, with the statement that computes it.
type Kept = (Var, Prim, Vec<Operand>);

/// The values of `block` (a side of a branch) that the branch carries out for its sweep: the
/// scalars whose computation calls libm or takes a square root, its own and, through them, those
/// its inner branches carry out. The rule: carrying a value out of a branch costs a register or
/// a stack slot, and no memory traffic; recomputing it in the sweep costs the call again. So
/// what a loop's storage would save ([`crate::transform::plan`]: the libm calls), and square
/// roots too (which a loop recomputes rather than store and load), are carried out; arithmetic,
/// divisions included, is recomputed where the sweep needs it. The values are the forward
/// pass's own, so the sweep computes with the same numbers to the bit.
fn kept(f: &Func, block: &Block) -> Vec<Kept> {
    let mut out = Vec::new();
    for s in block {
        match s {
            Stmt::Op { out: v, prim, args }
                if *f.ty(*v) == Ty::F64 && (*prim == Prim::Sqrt || !cheap_prim(*prim)) =>
            {
                out.push((*v, *prim, args.clone()));
            }
            Stmt::If(inner) => {
                out.extend(kept(f, &inner.then));
                out.extend(kept(f, &inner.otherwise));
            }
            _ => {}
        }
    }
    out
}
