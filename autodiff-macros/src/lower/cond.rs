//! Conditions of `if`: comparisons of `f64` values or of integers, combined with `&&`, `||` and
//! `!`. The right side of `&&` and `||` is evaluated only when needed: when it needs statements
//! (`i > 0 && x[i - 1] > 0.0` loads `x[i - 1]`), it becomes a branch yielding a boolean.

use syn::{BinOp, Expr, UnOp};

use super::int::IntCtx;
use super::{Kind, Lower};
use crate::ir::{Branch, Cmp, Cond, Name, Operand, Stmt, Ty, Var};

fn comparison(op: &BinOp) -> Option<Cmp> {
    Some(match op {
        BinOp::Lt(_) => Cmp::Lt,
        BinOp::Le(_) => Cmp::Le,
        BinOp::Gt(_) => Cmp::Gt,
        BinOp::Ge(_) => Cmp::Ge,
        BinOp::Eq(_) => Cmp::Eq,
        BinOp::Ne(_) => Cmp::Ne,
        _ => return None,
    })
}

impl Lower<'_> {
    /// The condition `e` as a boolean variable, its operands computed before it.
    pub(super) fn cond_var(&mut self, e: &Expr) -> Var {
        match self.cond(e) {
            Cond::Var(v) => v,
            c => self.b.test(Name::temp(), c),
        }
    }

    /// The condition `e`, emitting what its operands need.
    pub(super) fn cond(&mut self, e: &Expr) -> Cond {
        match e {
            Expr::Paren(p) => self.cond(&p.expr),
            Expr::Group(g) => self.cond(&g.expr),
            // A closure returning a condition (`filter`'s), inlined.
            Expr::Call(c) if self.is_closure(&c.func) => {
                let never = Cond::Int(
                    Cmp::Eq,
                    Box::new(crate::ir::Int::lit(0)),
                    Box::new(crate::ir::Int::lit(1)),
                );
                self.inline_closure(c, never, |l, body| l.cond(body))
            }
            Expr::Block(b) if b.label.is_none() => match b.block.stmts.split_last() {
                Some((syn::Stmt::Expr(tail, None), init)) => self.scoped(|l| {
                    init.iter().for_each(|s| l.statement(s));
                    l.cond(tail)
                }),
                _ => self.not_a_condition(e),
            },
            Expr::Path(_) if self.flag(e).is_some() => {
                self.flag_cond(e).unwrap_or_else(|| self.not_a_condition(e))
            }
            Expr::Unary(u) if matches!(u.op, UnOp::Not(_)) => {
                Cond::Not(Box::new(self.cond(&u.expr)))
            }
            Expr::Binary(b) if matches!(b.op, BinOp::And(_) | BinOp::Or(_)) => {
                self.short_circuit(matches!(b.op, BinOp::And(_)), &b.left, &b.right)
            }
            Expr::Binary(b)
                if comparison(&b.op).is_some()
                    && (self.kind(&b.left) == Kind::Bool || self.kind(&b.right) == Kind::Bool) =>
            {
                self.cx.error_spanned(
                    e,
                    "`#[grad]` does not compare `bool` values; write the `bool` itself or its negation as the condition (`if done`, `if !done`), and combine conditions with `&&` and `||`",
                );
                Cond::Int(
                    Cmp::Eq,
                    Box::new(crate::ir::Int::lit(0)),
                    Box::new(crate::ir::Int::lit(0)),
                )
            }
            Expr::Binary(b) if comparison(&b.op).is_some() => {
                let cmp = comparison(&b.op).unwrap_or(Cmp::Eq);
                self.compare(cmp, &b.left, &b.right)
            }
            _ => self.not_a_condition(e),
        }
    }

    /// Reports `e`, which is not a condition; a placeholder.
    fn not_a_condition(&mut self, e: &Expr) -> Cond {
        self.cx.error_spanned(
            e,
            "`#[grad]` supports as conditions only comparisons (`<`, `<=`, `>`, `>=`, `==`, `!=`) of `f64` values or of integers and the body's `bool` variables (`let done = err < tol;`), combined with `&&`, `||` and `!`",
        );
        Cond::Int(Cmp::Eq, Box::new(crate::ir::Int::lit(0)), Box::new(crate::ir::Int::lit(0)))
    }

    /// `l <cmp> r`: of integers when neither side is an `f64` and one is an integer, of `f64`
    /// values otherwise.
    fn compare(&mut self, cmp: Cmp, l: &Expr, r: &Expr) -> Cond {
        let (kl, kr) = (self.kind(l), self.kind(r));
        let int = kl != Kind::Real && kr != Kind::Real && (kl == Kind::Int || kr == Kind::Int);
        if int && (self.reads_held(l) || self.reads_held(r)) {
            // A counter held as a number: compared as numbers.
            let (a, b) = (self.held_int(l, IntCtx::Compare), self.held_int(r, IntCtx::Compare));
            return Cond::F64(cmp, a, b);
        }
        if int || (kl == Kind::Unknown && kr == Kind::Unknown) {
            let (a, b) = (self.int_expr(l, IntCtx::Compare), self.int_expr(r, IntCtx::Compare));
            return Cond::Int(cmp, Box::new(a), Box::new(b));
        }
        let a = self.real(l);
        let b = self.real(r);
        Cond::F64(cmp, a, b)
    }

    /// `l && r` or `l || r`, evaluating `r` only when `l` does not decide.
    fn short_circuit(&mut self, and: bool, l: &Expr, r: &Expr) -> Cond {
        let left = self.cond(l);
        self.b.begin();
        let right = self.cond(r);
        let mut block = self.b.end();
        if block.is_empty() {
            let (a, b) = (Box::new(left), Box::new(right));
            return if and { Cond::And(a, b) } else { Cond::Or(a, b) };
        }
        let cond = match left {
            Cond::Var(v) => v,
            c => self.b.test(Name::temp(), c),
        };
        let right_value = self.b.fresh(Name::temp(), Ty::Bool);
        block.push(Stmt::Test { out: right_value, cond: right });
        let out = self.b.fresh(Name::temp(), Ty::Bool);
        let decided = vec![Operand::Bool(!and)];
        let evaluated = vec![Operand::Var(right_value)];
        let branch = if and {
            Branch {
                cond,
                then: block,
                then_yields: evaluated,
                otherwise: Vec::new(),
                else_yields: decided,
                outs: vec![out],
            }
        } else {
            Branch {
                cond,
                then: Vec::new(),
                then_yields: decided,
                otherwise: block,
                else_yields: evaluated,
                outs: vec![out],
            }
        };
        self.b.emit_if(branch);
        Cond::Var(out)
    }
}
