//! Guarded loops: a loop whose whole body is one `if` on the elements it visits
//! (`for i in 0..N { if x[i] > 0.5 { .. } }`), the loop that `filter` writes in iterator form.
//! The condition reads elements at the loop's variable (`x[i]`, `x[i + 1]`, `m[i][1]`,
//! `data[i]`), the variable itself, and literals: nothing the body may assign.

use super::super::ast::{Cmp, Cond, Expr, Int, IntOp, Stmt};
use super::int::ibin;
use super::{Gen, Kind};

impl Gen {
    /// Sometimes, the condition of a guard for a loop over `var` (largest value `hi`, `None`
    /// over `data.len()`); `None` otherwise or when nothing fits.
    pub(super) fn guard(&mut self, var: &str, hi: Option<usize>) -> Option<Cond> {
        if self.branches >= 2 || !self.rng.chance(18) {
            return None;
        }
        let first = self.guard_leaf(var, hi)?;
        let cond = match self.rng.below(4) {
            0 => Cond::Real(self.cmp(), first, self.lit()),
            1 => match self.guard_leaf(var, hi).filter(|e| *e != first) {
                Some(second) => Cond::Real(self.cmp(), first, second),
                None => Cond::Real(self.cmp(), first, self.lit()),
            },
            2 => {
                let m = self.rng.between(2, 3);
                let rem = ibin(IntOp::Rem, Int::Var(var.into()), Int::Lit(m));
                let parity = Cond::Int(Cmp::Eq, rem, Int::Lit(1));
                let real = Cond::Real(self.cmp(), first, self.lit());
                match self.rng.chance(50) {
                    true => Cond::And(Box::new(parity), Box::new(real)),
                    false => Cond::Or(Box::new(real), Box::new(parity)),
                }
            }
            _ => {
                let l = Cond::Real(Cmp::Gt, first.clone(), Expr::Neg(Box::new(Expr::Lit(0.5))));
                let r = Cond::Real(Cmp::Lt, first, self.lit());
                Cond::And(Box::new(l), Box::new(r))
            }
        };
        Some(cond)
    }

    /// An element at `var`: `x[i]`, `x[i + c]`, `m[i][c]` of an array in scope, or `data[i]`.
    fn guard_leaf(&mut self, var: &str, hi: Option<usize>) -> Option<Expr> {
        let Some(hi) = hi else {
            let d = self.visible().find(|v| v.kind == Kind::Data).map(|v| v.name.clone())?;
            let lo = self.ints().into_iter().find(|(i, ..)| i == var).map_or(0, |(_, lo, _)| lo);
            return Some(self.data_read(&d, var, lo));
        };
        let arrays: Vec<(String, Vec<usize>)> = self
            .visible()
            .filter(|v| self.readable(&v.name))
            .filter_map(|v| match &v.kind {
                Kind::Array(d) if d[0].n > hi => {
                    Some((v.name.clone(), d.iter().map(|s| s.n).collect()))
                }
                _ => None,
            })
            .collect();
        if arrays.is_empty() {
            return None;
        }
        let (x, dims) = arrays[self.rng.below(arrays.len())].clone();
        self.read(&x);
        self.read(var);
        let room = dims[0] - 1 - hi;
        let first = match self.rng.below(room + 2) {
            0 | 1 => Int::Var(var.into()),
            c => ibin(IntOp::Add, Int::Var(var.into()), Int::Lit(c - 1)),
        };
        let mut ix = vec![first];
        ix.extend(dims[1..].iter().map(|&n| Int::Lit(self.rng.below(n))));
        Some(Expr::Elem(x, ix))
    }

    /// The body of a loop as one `if cond { .. }`: a carried update and more statements inside
    /// the branch, whose unread values may also skip it.
    pub(super) fn guarded(&mut self, cond: Cond, body: &mut Vec<Stmt>, stmts: usize) {
        self.branches += 1;
        let before = self.pending_state();
        let mut after = before.clone();
        let mut inner = Vec::new();
        self.scopes.push(Vec::new());
        self.loop_stmts(&mut inner, stmts);
        self.close_scope(&mut inner);
        self.merge_pending(&mut after, &before);
        self.set_pending(&after);
        self.branches -= 1;
        body.push(Stmt::If(vec![(cond, inner)], None));
    }
}
