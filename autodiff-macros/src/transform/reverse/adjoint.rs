//! The adjoint of each statement, walking a block backwards: contributions to the operands'
//! adjoints, accumulated at transform time for scalars and threaded through one array value for
//! arrays.

use std::collections::HashMap;

use super::Rev;
use crate::ir::{Block, Int, Name, Operand, Prim, Stmt, Suffix, Ty, Var};
use crate::rules::{apply, partials};
use crate::transform::arrays::{add, sum_elements};
use crate::transform::{sum, zero};

/// The adjoints known so far while a block is walked backwards.
#[derive(Default)]
pub(super) struct Adj {
    /// The contributions to each scalar's adjoint, summed when its definition is reached.
    terms: HashMap<Var, Vec<Operand>>,
    /// The adjoint of each array so far (contributions are added into it as they come).
    pub(super) arrays: HashMap<Var, Operand>,
}

impl Rev<'_> {
    fn bar(&self, v: Var) -> Name {
        self.f.derived_name(v, Suffix::Bar)
    }

    /// Adds `c` to the adjoint of `v` (of any type).
    pub(super) fn contribute(&mut self, adj: &mut Adj, v: Var, c: Operand) {
        if !self.varied[v.index()] {
            return;
        }
        match self.f.ty(v) {
            Ty::Array(_) => {
                let next = match adj.arrays.remove(&v) {
                    None => c,
                    Some(cur) => {
                        let (ty, name) = (self.f.ty(v).clone(), self.bar(v));
                        add(&mut self.b, &ty, cur, c, name)
                    }
                };
                adj.arrays.insert(v, next);
            }
            _ => adj.terms.entry(v).or_default().push(c),
        }
    }

    /// Adds `c` to the element (or sub-array) `index` of the adjoint of the array `a`.
    fn contribute_at(&mut self, adj: &mut Adj, a: Var, index: &[Int], c: Operand) {
        let ty = self.f.ty(a).clone();
        let cur = match adj.arrays.remove(&a) {
            Some(cur) => cur,
            None => self.zero_named(&ty, self.bar(a)),
        };
        let elem = ty.indexed(index.len()).unwrap_or(Ty::F64);
        let old = self.b.load(Name::temp(), cur, index.to_vec());
        let new = add(&mut self.b, &elem, old, c, Name::temp());
        let next = self.b.store(self.bar(a), cur, index.to_vec(), new);
        adj.arrays.insert(a, next);
    }

    /// A zero of type `ty` for an adjoint, named `name`; an array is recorded as an accumulator.
    fn zero_named(&mut self, ty: &Ty, name: Name) -> Operand {
        let z = zero(&mut self.b, ty);
        if let Operand::Var(v) = z {
            self.b.rename(v, name);
            self.b.func_mut().accumulators.push(v);
        }
        z
    }

    /// The adjoint of `v` (summed, for a scalar), taken out of `adj`; `None` if it is zero.
    pub(super) fn take(&mut self, adj: &mut Adj, v: Var) -> Option<Operand> {
        let name = self.bar(v);
        self.take_as(adj, v, name)
    }

    /// [`Rev::take`], naming a scalar's sum `name`.
    pub(super) fn take_as(&mut self, adj: &mut Adj, v: Var, name: Name) -> Option<Operand> {
        match self.f.ty(v) {
            Ty::Array(_) => adj.arrays.remove(&v),
            _ => sum(&mut self.b, adj.terms.remove(&v)?, name),
        }
    }

    /// The adjoint of `v`, or a zero of its type.
    pub(super) fn take_or_zero(&mut self, adj: &mut Adj, v: Var) -> Operand {
        match self.take(adj, v) {
            Some(a) => a,
            None => self.zero_named(&self.f.ty(v).clone(), self.bar(v)),
        }
    }

    /// The sweep of `block`: its statements' adjoints, last statement first.
    pub(super) fn rev_block(&mut self, block: &Block, adj: &mut Adj) {
        for s in block.iter().rev() {
            self.rev_stmt(s, adj);
        }
    }

    fn rev_stmt(&mut self, s: &Stmt, adj: &mut Adj) {
        let varied = |op: &Operand| op.var().filter(|v| self.varied[v.index()]);
        match s {
            Stmt::Op { out, prim, args } => {
                let Some(bar) = self.take(adj, *out) else { return };
                self.op(adj, *out, *prim, args, bar);
            }
            Stmt::Test { .. } => {}
            Stmt::Load { out, array, index } => {
                if !self.varied[array.index()] {
                    return;
                }
                if let Some(bar) = self.take(adj, *out) {
                    self.contribute_at(adj, *array, index, bar);
                }
            }
            Stmt::Store { out, array, index, value } => {
                let Some(ob) = adj.arrays.remove(out) else { return };
                if let Some(v) = varied(value) {
                    let vb = self.b.load(self.bar(v), ob, index.clone());
                    self.contribute(adj, v, vb);
                }
                if self.varied[array.index()] {
                    let elem = self.f.ty(*array).indexed(index.len()).unwrap_or(Ty::F64);
                    let z = zero(&mut self.b, &elem);
                    let ab = self.b.store(self.bar(*array), ob, index.clone(), z);
                    self.contribute(adj, *array, ab);
                }
            }
            Stmt::Fill { out, value } => {
                let Some(ob) = adj.arrays.remove(out) else { return };
                if let Some(v) = varied(value) {
                    let ty = self.f.ty(*out).clone();
                    let name = self.bar(v);
                    let s = sum_elements(&mut self.b, &ty, ob, name);
                    self.contribute(adj, v, s);
                }
            }
            Stmt::Array { out, elems } => {
                let Some(ob) = adj.arrays.remove(out) else { return };
                for (k, e) in elems.iter().enumerate() {
                    if let Some(v) = varied(e) {
                        let eb = self.b.load(self.bar(v), ob, vec![Int::lit(k as u64)]);
                        self.contribute(adj, v, eb);
                    }
                }
            }
            Stmt::For(l) => self.rev_loop(l, adj),
            Stmt::While(w) => self.rev_while(w, adj),
            Stmt::If(br) => self.rev_branch(br, adj),
            // A checkpointed sweep is made by this transform, never found in a primal.
            Stmt::Checkpoint(_) => {}
            Stmt::Call(c) => self.call(c, adj),
        }
    }

    /// `out = prim(args)` with adjoint `bar`: `āᵢ += bar · ∂out/∂aᵢ`.
    fn op(&mut self, adj: &mut Adj, out: Var, prim: Prim, args: &[Operand], bar: Operand) {
        let rules = partials(&mut self.b, prim, args, Operand::Var(out));
        for (arg, partial) in args.iter().zip(&rules) {
            let Some(v) = arg.var().filter(|v| self.varied[v.index()]) else { continue };
            if let Some(c) = apply(&mut self.b, partial, bar) {
                self.contribute(adj, v, c);
            }
        }
    }
}
