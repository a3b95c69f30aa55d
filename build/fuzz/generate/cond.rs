//! Conditions of `if`s: comparisons of `f64` values and of integers, joined by `&&`, `||` and
//! `!`, none repeating another's operands (clippy would flag the tautology or contradiction).

use super::super::ast::{Cmp, Cond, Expr};
use super::Gen;
use super::tree::same;

impl Gen {
    pub(super) fn cmp(&mut self) -> Cmp {
        let ops = [Cmp::Lt, Cmp::Le, Cmp::Gt, Cmp::Ge, Cmp::Eq, Cmp::Ne];
        ops[self.rng.weighted(&[5, 3, 5, 3, 1, 1])]
    }

    /// A condition of an `if`: comparisons joined by `&&`, `||`, `!`. No two compare the same
    /// operands and at most one compares integers, so that no condition is a tautology or a
    /// contradiction in disguise (clippy would say so).
    pub(super) fn cond(&mut self, depth: u32) -> Cond {
        let mut used = Vec::new();
        self.cond_in(depth, &mut used, true)
    }

    /// A condition whose comparisons avoid the operands in `used` (`None` for an integer one);
    /// `!(..)` only at the `top` (clippy finds simpler forms of negations combined).
    pub(super) fn cond_in(
        &mut self,
        depth: u32,
        used: &mut Vec<Option<(Expr, Expr)>>,
        top: bool,
    ) -> Cond {
        let ints = !used.contains(&None);
        let deeper = |w| if depth > 0 { w } else { 0 };
        let not = if top { deeper(4) } else { 0 };
        match self.rng.weighted(&[55, if ints { 25 } else { 0 }, deeper(8), deeper(8), not]) {
            1 => match self.int_cond() {
                Some(c) => {
                    used.push(None);
                    c
                }
                None => self.real_cond(used),
            },
            2 => {
                let l = self.cond_in(depth - 1, used, false);
                Cond::And(Box::new(l), Box::new(self.cond_in(depth - 1, used, false)))
            }
            3 => {
                let l = self.cond_in(depth - 1, used, false);
                Cond::Or(Box::new(l), Box::new(self.cond_in(depth - 1, used, false)))
            }
            4 => {
                let l = self.cond_in(0, used, false);
                let r = self.cond_in(0, used, false);
                let inner = if self.rng.chance(50) {
                    Cond::And(Box::new(l), Box::new(r))
                } else {
                    Cond::Or(Box::new(l), Box::new(r))
                };
                Cond::Not(Box::new(inner))
            }
            _ => self.real_cond(used),
        }
    }

    /// A comparison of `f64` values, of operands not in `used`.
    pub(super) fn real_cond(&mut self, used: &mut Vec<Option<(Expr, Expr)>>) -> Cond {
        let l = self.nonconst(1);
        // The reads of a right side that is then replaced must not count.
        let before = self.pending_state();
        let mut r = if self.rng.chance(50) { self.lit() } else { self.expr(1) };
        // The same operands, or one operand against two literals (`x > 0.25 && x > 1.5`).
        let lit = |e: &Expr| matches!(e, Expr::Lit(_));
        let clash = |used: &Vec<Option<(Expr, Expr)>>, l: &Expr, r: &Expr| {
            same(l, r)
                || used.iter().flatten().any(|(a, b)| {
                    (same(a, l) && (same(b, r) || (lit(b) && lit(r))))
                        || (same(a, r) && (same(b, l) || (lit(b) && lit(l))))
                })
        };
        for k in 0..8 {
            if !clash(used, &l, &r) {
                break;
            }
            self.set_pending(&before);
            r = if k < 4 { self.nonconst(1) } else { Expr::Lit(0.125 + k as f64 / 8.0) };
        }
        used.push(Some((l.clone(), r.clone())));
        Cond::Real(self.cmp(), l, r)
    }
}
