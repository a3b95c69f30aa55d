//! The sweep of a loop (a loop running backwards) and of a branch (the same branch again).

use super::Rev;
use super::adjoint::Adj;
use crate::ir::{
    Block, Branch, Carry, Int, Loop, Name, Operand, Prim, Range, Suffix, Ty, Var, free_vars,
};
use crate::transform::additive::additive;

impl Rev<'_> {
    /// The variables that `block` (with `yields`) reads from outside and that have adjoints.
    fn outer_adjoints(&self, block: &Block, yields: &[Operand], inner: &[Var]) -> Vec<Var> {
        free_vars(block, yields)
            .into_iter()
            .filter(|v| !inner.contains(v) && self.varied[v.index()] && self.f.ty(*v).is_real())
            .collect()
    }

    /// The sweep of `l`: a loop over the same indices in the opposite order. It carries the
    /// adjoints of the loop's carried values (except additive ones, whose adjoint is the same in
    /// every iteration) and accumulates the adjoints of the values the body reads from outside.
    pub(super) fn rev_loop(&mut self, l: &Loop, adj: &mut Adj) {
        let active: Vec<usize> =
            (0..l.carried.len()).filter(|k| self.active[l.carried[*k].param.index()]).collect();
        if active.is_empty() {
            return;
        }
        let seeds: Vec<(usize, bool, Operand)> = active
            .iter()
            .map(|k| (*k, additive(l, *k), self.take_or_zero(adj, l.outs[*k])))
            .collect();
        let params: Vec<Var> = l.carried.iter().map(|c| c.param).collect();
        let frees = self.outer_adjoints(&l.body, &l.yields, &params);
        let mut carried: Vec<Carry> = Vec::new();
        for (k, additive, ob) in &seeds {
            if !additive {
                let param = self.fresh_bar(l.carried[*k].param);
                carried.push(Carry { param, init: *ob });
            }
        }
        let mut accs = Vec::new();
        for v in &frees {
            let ty = self.f.ty(*v).clone();
            let init = match ty {
                Ty::Array(_) => self.take_or_zero(adj, *v),
                _ => Operand::Lit(0.0),
            };
            accs.push((*v, self.fresh_bar(*v), init));
        }
        self.b.begin();
        let slot = vec![Int::index(l.index)];
        for (v, st) in self.storage.get(&l.index).cloned().unwrap_or_default() {
            let loaded = self.b.load(self.f.name(v).clone(), Operand::Var(st), slot.clone());
            self.b.map(v, loaded);
        }
        self.recompute(&l.body);
        let mut inner = Adj::default();
        for (v, acc, _) in &accs {
            if let Ty::Array(_) = self.f.ty(*v) {
                inner.arrays.insert(*v, Operand::Var(*acc));
            }
        }
        let mut next_param = carried.iter().map(|c| c.param);
        for (k, additive, ob) in &seeds {
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
        let mut yields = Vec::new();
        for (k, additive, _) in &seeds {
            let bar = self.take_or_zero(&mut inner, l.carried[*k].param);
            if !additive {
                yields.push(bar);
            }
        }
        let mut kept = Vec::new();
        for (v, acc, init) in accs {
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
            carried.push(Carry { param: acc, init });
            yields.push(next);
            kept.push(v);
        }
        let body = self.b.end();
        let outs: Vec<Var> = carried
            .iter()
            .map(|c| {
                let (name, ty) =
                    (self.b.func().name(c.param).clone(), self.b.func().ty(c.param).clone());
                self.b.fresh(name, ty)
            })
            .collect();
        let range = Range { rev: !l.range.rev, ..l.range.clone() };
        self.b.emit_loop(Loop { index: l.index, range, carried, body, yields, outs: outs.clone() });
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

    fn fresh_bar(&mut self, v: Var) -> Var {
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
