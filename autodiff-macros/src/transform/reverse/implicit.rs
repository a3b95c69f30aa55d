//! The sweep of a loop differentiated implicitly: Christianson's two-phase method. The loop ran
//! to a fixed point `x* = g(x*, p)` of its body; the adjoint `ā` of that point solves
//! `ā = x̄ + (∂g/∂x)ᵀ ā`, found by fixed-point iteration with the sweep of one iteration of the
//! body at `x*` (phase 1, until `ā` repeats exactly, at most
//! [`IMPLICIT_ITERATIONS`](crate::symbol::IMPLICIT_ITERATIONS) times), and the parameters get
//! `p̄ = (∂g/∂p)ᵀ ā` from one more sweep of it (phase 2). The fixed point does not depend on
//! where the loop started, so the carried values' initial values get no adjoint. Memory: one
//! iteration; cost: the adjoint iterations, however many iterations the loop ran.

use super::Rev;
use super::adjoint::Adj;
use crate::ir::{Carry, Cmp, Cond, Int, Loop, LoopInfo, Operand, Prim, Range, Ty, Var, While};
use crate::symbol::IMPLICIT_ITERATIONS;

impl Rev<'_> {
    /// The implicit sweep of `w` (see the module's documentation).
    pub(super) fn rev_implicit(&mut self, w: &While, adj: &mut Adj) {
        let l = w.as_loop();
        let active: Vec<usize> =
            (0..l.carried.len()).filter(|k| self.active[l.carried[*k].param.index()]).collect();
        if active.is_empty() {
            return;
        }
        let bars: Vec<(usize, Operand)> =
            active.iter().map(|k| (*k, self.take_or_zero(adj, l.outs[*k]))).collect();
        let params: Vec<Var> = l.carried.iter().map(|c| c.param).collect();
        let frees = self.outer_adjoints(&l.body, &l.yields, &params);
        // Phase 1: ā ← x̄ + (∂g/∂x)ᵀ ā until it repeats.
        let span = self.f.loops.get(w.index.0 as usize).map(|i| i.span);
        let span = span.unwrap_or_else(proc_macro2::Span::call_site);
        let index = self.b.new_loop(LoopInfo { ident: None, span });
        let carried: Vec<Carry> = bars
            .iter()
            .map(|(k, x_bar)| Carry { param: self.fresh_bar(l.carried[*k].param), init: *x_bar })
            .collect();
        self.b.begin();
        let seeds: Vec<(usize, Operand)> =
            bars.iter().zip(&carried).map(|((k, _), c)| (*k, Operand::Var(c.param))).collect();
        let outer: Vec<(Var, Option<Operand>)> = frees
            .iter()
            .map(|v| match self.f.ty(*v) {
                Ty::Array(_) => (*v, Some(crate::transform::zero(&mut self.b, self.f.ty(*v)))),
                _ => (*v, None),
            })
            .collect();
        let (through, _) = self.at_fixed_point(w, &l, &seeds, &outer);
        let mut yields = Vec::new();
        let mut same = Vec::new();
        for (((_, x_bar), c), t) in bars.iter().zip(&carried).zip(through) {
            let next = match t {
                Some(t) => self.b.push(Prim::Add, &[*x_bar, t]),
                None => *x_bar,
            };
            yields.push(next);
            same.push(Cond::F64(Cmp::Eq, next, Operand::Var(c.param)));
        }
        let again = match same.into_iter().reduce(|a, b| Cond::And(Box::new(a), Box::new(b))) {
            Some(repeats) => {
                let again = Cond::Not(Box::new(repeats));
                Operand::Var(self.b.test(crate::ir::Name::temp(), again))
            }
            None => Operand::Bool(false),
        };
        yields.push(again);
        let (body, mut yields) = self.b.end_yielding(&yields);
        let cond = yields.pop().unwrap_or(Operand::Bool(false));
        let outs = self.fresh_like(&carried);
        let range = Range {
            lo: Int::lit(0),
            hi: Int::lit(IMPLICIT_ITERATIONS),
            inclusive: false,
            rev: false,
        };
        self.b.emit_while(While {
            index,
            range: Some(range),
            first: Operand::Bool(true),
            carried,
            body,
            yields,
            cond,
            outs: outs.clone(),
            tape: None,
            implicit: false,
        });
        // Phase 2: p̄ = (∂g/∂p)ᵀ ā.
        let seeds: Vec<(usize, Operand)> =
            bars.iter().zip(&outs).map(|((k, _), o)| (*k, Operand::Var(*o))).collect();
        let outer: Vec<(Var, Option<Operand>)> = frees
            .iter()
            .map(|v| match self.f.ty(*v) {
                Ty::Array(_) => (*v, Some(self.take_or_zero(adj, *v))),
                _ => (*v, None),
            })
            .collect();
        let (_, outer_bars) = self.at_fixed_point(w, &l, &seeds, &outer);
        for ((v, init), bar) in outer.iter().zip(outer_bars) {
            match (init, bar) {
                (Some(_), Some(new)) => {
                    adj.arrays.insert(*v, new);
                }
                (Some(old), None) => {
                    adj.arrays.insert(*v, *old);
                }
                (None, Some(bar)) => self.contribute(adj, *v, bar),
                (None, None) => {}
            }
        }
    }

    /// In the open block, the sweep of one iteration of `l` at the results of `w` (its fixed
    /// point), from the adjoints `seeds` of carried values after it (by position): the adjoints
    /// of those carried values before it, and those of the outer values `outer` (scalars; arrays
    /// from the given adjoint).
    fn at_fixed_point(
        &mut self,
        w: &While,
        l: &Loop,
        seeds: &[(usize, Operand)],
        outer: &[(Var, Option<Operand>)],
    ) -> (Vec<Option<Operand>>, Vec<Option<Operand>>) {
        for (c, o) in l.carried.iter().zip(&w.outs) {
            self.b.map(c.param, Operand::Var(*o));
        }
        self.recompute(&l.body);
        let mut inner = Adj::default();
        for (v, init) in outer {
            if let Some(init) = init {
                inner.arrays.insert(*v, *init);
            }
        }
        for (k, seed) in seeds {
            if let Some(y) = l.yields[*k].var() {
                self.contribute(&mut inner, y, *seed);
            }
        }
        self.rev_block(&l.body, &mut inner);
        let through =
            seeds.iter().map(|(k, _)| self.take(&mut inner, l.carried[*k].param)).collect();
        let outer = outer
            .iter()
            .map(|(v, init)| self.take(&mut inner, *v).filter(|bar| Some(*bar) != *init))
            .collect();
        (through, outer)
    }
}
