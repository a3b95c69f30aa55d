//! The reads of arrays in a loop's body, in the order they are evaluated, each with whether it
//! is conditional (in a branch, an inner loop, the right of `&&` or `||`): what decides whether
//! a chain keeps the derivatives' bits.
//!
//! A chain's item binds its element at the start of the iteration, where the index loop loaded
//! it at its first read (a later read reuses that load). The reverse sweep adds each load's
//! adjoint to the array's where the load was, so the two agree to the bit when the first read
//! is unconditional (else the index loop loads it once per branch or per inner iteration, and
//! adds each) and no other read of the array in the iteration can be the same element (else the
//! two additions to it come in another order). Windows read through their slice where the
//! index loop did, and data and constant arrays have no adjoint: they always agree.

use super::super::ast::{Block, Cond, Expr, Int, Stmt};

/// A read of an array or data: its first index (`None` for a whole array), and whether it may
/// not be evaluated in an iteration.
#[derive(Clone)]
pub(super) struct Read {
    pub array: String,
    pub index: Option<Int>,
    pub conditional: bool,
}

/// Collects reads in evaluation order.
pub(super) struct Reads {
    pub out: Vec<Read>,
}

impl Reads {
    pub(super) fn stmts(&mut self, stmts: &[Stmt], cond: bool) {
        for s in stmts {
            match s {
                Stmt::Let(_, _, e) | Stmt::Assign(_, _, e) => self.expr(e, cond),
                Stmt::For(_, _, body) => self.stmts(body, true),
                Stmt::If(arms, els) => {
                    for (k, (c, b)) in arms.iter().enumerate() {
                        self.cond(c, cond || k > 0);
                        self.stmts(b, true);
                    }
                    els.iter().for_each(|b| self.stmts(b, true));
                }
                _ => {}
            }
        }
    }

    fn block(&mut self, b: &Block, cond: bool) {
        self.stmts(&b.stmts, cond);
        self.expr(&b.tail, cond);
    }

    pub(super) fn cond(&mut self, c: &Cond, cond: bool) {
        match c {
            Cond::Real(_, l, r) => {
                self.expr(l, cond);
                self.expr(r, cond);
            }
            Cond::Int(..) => {}
            Cond::And(l, r) | Cond::Or(l, r) => {
                self.cond(l, cond);
                self.cond(r, true);
            }
            Cond::Not(x) => self.cond(x, cond),
        }
    }

    fn push(&mut self, array: &str, index: Option<&Int>, conditional: bool) {
        let read = Read { array: array.to_string(), index: index.cloned(), conditional };
        self.out.push(read);
    }

    fn expr(&mut self, e: &Expr, cond: bool) {
        match e {
            Expr::Var(v) => self.push(v, None, cond),
            Expr::Elem(a, ix) => self.push(a, ix.first(), cond),
            Expr::Data(d, i) => self.push(d, Some(i), cond),
            Expr::Neg(x) | Expr::Powi(x, _) | Expr::Ref(x) => self.expr(x, cond),
            Expr::Bin(_, l, r) => {
                self.expr(l, cond);
                self.expr(r, cond);
            }
            Expr::Method { recv, args, .. } => {
                self.expr(recv, cond);
                args.iter().for_each(|a| self.expr(a, cond));
            }
            Expr::If(arms, els) => {
                for (k, (c, b)) in arms.iter().enumerate() {
                    self.cond(c, cond || k > 0);
                    self.block(b, true);
                }
                self.block(els, true);
            }
            Expr::Array(xs) | Expr::Tuple(xs) | Expr::Call(_, xs) => {
                xs.iter().for_each(|x| self.expr(x, cond))
            }
            _ => {}
        }
    }
}
