//! `if` statements: branches that update state, with the bookkeeping of what each path left
//! unread, and (dodging macro bug 5) branches that each compute what they yield.

use super::super::ast::{Assign, Cond, Expr, Op, Place, Stmt};
use super::super::print::mutated;
use super::tree::{bin, not_assign_op};
use super::{Gen, Kind};

impl Gen {
    pub(super) fn branch_body(&mut self) -> Vec<Stmt> {
        let mut body = Vec::new();
        self.scopes.push(Vec::new());
        let n = self.rng.between(1, 3);
        for k in 0..n {
            if k > 0 && self.budget <= 0 {
                break;
            }
            self.stmt(&mut body, k == 0);
        }
        self.close_scope(&mut body);
        if body.is_empty() {
            // Everything it declared went unused and was dropped: an empty branch is no test.
            self.scopes.push(Vec::new());
            self.assign_real(&mut body);
            self.close_scope(&mut body);
        }
        body
    }

    /// Whether each variable in scope is unread since written, and whether it depends on a
    /// differentiated parameter.
    pub(super) fn pending_state(&self) -> Vec<(bool, bool)> {
        self.visible().map(|v| (v.pending, v.active)).collect()
    }

    /// Adds the flags at the end of a branch to `after`, and restores `before` for the next
    /// branch.
    pub(super) fn merge_pending(&mut self, after: &mut [(bool, bool)], before: &[(bool, bool)]) {
        let end = self.pending_state();
        after.iter_mut().zip(end).for_each(|(a, e)| *a = (a.0 | e.0, a.1 | e.1));
        self.set_pending(before);
    }

    /// Sets the flags of the variables in scope (those of `pending_state`).
    pub(super) fn set_pending(&mut self, state: &[(bool, bool)]) {
        for (v, p) in self.scopes.iter_mut().flatten().zip(state) {
            (v.pending, v.active) = *p;
        }
    }

    /// An `if` statement. Each branch starts from the unread flags before it; after it, a
    /// variable is unread if some path left it so (rustc warns when no path reads a value).
    pub(super) fn if_stmt(&mut self, out: &mut Vec<Stmt>) {
        self.branches += 1;
        let before = self.pending_state();
        let mut after = vec![(false, false); before.len()];
        let mut arms = Vec::new();
        let count = if self.rng.chance(30) { 2 } else { 1 };
        // One list for all the conditions: clippy flags an `else if` repeating a condition.
        let mut used = Vec::new();
        for _ in 0..count {
            let c = self.cond_in(2, &mut used, true);
            let body = self.branch_body();
            arms.push((c, body));
            self.merge_pending(&mut after, &before);
        }
        let els = self.rng.chance(60).then(|| self.branch_body());
        if els.is_some() {
            self.merge_pending(&mut after, &before);
        } else {
            after.iter_mut().zip(&before).for_each(|(a, b)| *a = (a.0 | b.0, a.1 | b.1));
        }
        self.set_pending(&after);
        self.branches -= 1;
        let (arms, els) =
            if self.dodge { self.every_branch_computes(arms, els) } else { (arms, els) };
        out.push(Stmt::If(arms, els));
    }

    /// With `dodge`: an `else` always, each scalar that a branch assigns assigned in every
    /// branch, and each value a branch assigns computed nowhere else (macro bug 5 of
    /// `tests/fuzz_found.rs`: a branch yielding a value that exists elsewhere).
    #[allow(clippy::type_complexity)]
    pub(super) fn every_branch_computes(
        &mut self,
        arms: Vec<(Cond, Vec<Stmt>)>,
        els: Option<Vec<Stmt>>,
    ) -> (Vec<(Cond, Vec<Stmt>)>, Option<Vec<Stmt>>) {
        let mut bodies: Vec<Vec<Stmt>> = arms.iter().map(|(_, b)| b.clone()).collect();
        bodies.push(els.unwrap_or_default());
        let mut assigned = std::collections::HashSet::new();
        bodies.iter().for_each(|b| mutated(b, &mut assigned));
        let scalars: Vec<String> = self
            .visible()
            .filter(|v| v.kind == Kind::Real && assigned.contains(&v.name))
            .map(|v| v.name.clone())
            .collect();
        for (arm, body) in bodies.iter_mut().enumerate() {
            for st in body.iter_mut() {
                if let Stmt::Assign(Place::Var(v), op, rhs) = st {
                    // A factor per branch too: clippy flags branches that differ only in the
                    // names of their locals.
                    let scaled = match arm {
                        0 => rhs.clone(),
                        _ => bin(Op::Mul, Expr::Lit(1.0 + arm as f64 / 64.0), rhs.clone()),
                    };
                    let mut new = self.unique(scaled);
                    if *op == Assign::Set {
                        new = not_assign_op(&Expr::Var(v.clone()), new);
                    }
                    *rhs = new;
                }
            }
            let mut here = std::collections::HashSet::new();
            mutated(body, &mut here);
            // A distinct constant per variable: two variables given one value break it too.
            for (k, t) in scalars.iter().enumerate().filter(|(_, t)| !here.contains(*t)) {
                // Distinct per branch too: clippy flags branches with the same body.
                let c = 0.0625 + k as f64 / 512.0 + arm as f64 / 64.0;
                body.push(Stmt::Assign(Place::Var(t.clone()), Assign::Add, Expr::Lit(c)));
            }
        }
        for t in &scalars {
            self.wrote(t);
        }
        let els = bodies.pop().filter(|b| !b.is_empty());
        let arms = arms.into_iter().zip(bodies).map(|((c, _), b)| (c, b)).collect();
        (arms, els)
    }
}
