//! `if` statements: branches that update state, with the bookkeeping of what each path left
//! unread.

use super::super::ast::Stmt;
use super::Gen;

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
        out.push(Stmt::If(arms, els));
    }
}
