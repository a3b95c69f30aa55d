//! The iterator form of a program (`f_it`): the same tree with some loops written as iterator
//! chains, some `if` chains on integers as `match`, and some subexpressions as closures bound
//! with `let` and called, each rewrite keeping the arithmetic and its order, so that `f_it` and
//! its derivatives equal `f`'s to the bit:
//! - `for i in lo..hi { .. x[i + 1] .. }` as `for (i, &v) in x.iter().skip(lo + 1).enumerate()`
//!   or a `zip` of such chains (`skip`, `take`, `step_by(2)` for `x[2 * i]`, `rev` for
//!   `x[N - 1 - i]` or a reversed range, `windows(k)` for `x[i]`, `x[i + 1]`, rows of
//!   matrices, `data`), the loop's body reading the elements the chain gives;
//! - a loop whose body is one `if` on those elements as a `filter`;
//! - a reduction `s += e` as `s = chain.fold(s, |acc, ..| acc + e)`, or, for a fresh
//!   accumulator, `let s = chain.fold(init, ..)`, or `let s = chain.map(..).sum::<f64>()` when it
//!   starts at `-0.0` (where `sum` starts);
//! - a loop that updates state as `chain.fold(state, |mut state, ..| { body; state })`, a tuple
//!   of the variables it assigns when it assigns several.
//!
//! Decisions come from their own generator (seeded from the program's), so the program as
//! generated does not depend on them. Names the rewrite introduces (`v1`, `w2`, `row3`, `acc4`,
//! `u5`, `h6`, `z7`) are fresh: the generator's are `s`, `y`, `t`, `n` with a number, and
//! parameters with one letter and a digit.

mod chain;
mod closure;
mod forms;
mod live;
mod matches;
mod plan;
mod reads;
pub(super) mod walk;

use std::collections::{HashMap, HashSet};

use super::ast::{Block, Body, Expr, Pass, Program, Stmt};
use super::rng::Rng;

/// What a name in scope holds, as far as the rewrite needs to know.
#[derive(Clone, PartialEq)]
enum Ty {
    Real,
    /// An array with these lengths, `owned` unless a reference (a parameter `&[f64; N]`).
    Array {
        dims: Vec<usize>,
        owned: bool,
    },
    Int,
    /// `&[f64]` data.
    Data,
    /// A window's slice, or a closure: nothing the rewrite iterates over.
    Other,
}

/// The state of the rewrite of one program.
struct Rewriter {
    rng: Rng,
    /// Names in scope, innermost scope last.
    scopes: Vec<Vec<(String, Ty)>>,
    consts: HashMap<String, usize>,
    next: usize,
    /// Whether anything was rewritten.
    changed: bool,
    /// Per `for` loop of the program (in the order of a walk), the variables it assigns that
    /// are read after it; and how many loops the rewrite has met.
    live: Vec<HashSet<String>>,
    loops: usize,
    /// The constant array parameters (no adjoint).
    constants: HashSet<String>,
    /// Whether the derivatives keep their bits (see `reads`); if not, the twin is compared to
    /// rounding.
    exact: bool,
}

/// The iterator form of `prog`, or `None` if the rewrite changed nothing.
pub fn program(prog: &Program) -> Option<Body> {
    let mut r = Rewriter {
        rng: Rng::new(prog.seed ^ 0x5EED_1DE0_11AB_C0DE),
        scopes: vec![Vec::new()],
        consts: prog.consts.iter().cloned().collect(),
        next: 0,
        changed: false,
        live: live::after_loops(&prog.body, &prog.tail),
        loops: 0,
        constants: prog
            .params
            .iter()
            .filter(|p| p.pass == Pass::Constant)
            .map(|p| p.name.clone())
            .collect(),
        exact: true,
    };
    for p in &prog.params {
        let ty = match (p.pass, p.dims.is_empty()) {
            (Pass::Data, _) => Ty::Data,
            (Pass::Steps, _) => Ty::Int,
            (_, true) => Ty::Real,
            (pass, false) => {
                Ty::Array { dims: p.dims.iter().map(|d| d.n).collect(), owned: pass == Pass::Value }
            }
        };
        r.declare(&p.name, ty);
    }
    let stmts = r.block(prog.body.clone());
    let tail = r.expr(prog.tail.clone());
    if !r.changed {
        return None;
    }
    let mut body = Block { stmts, tail };
    forms::finish(&mut body);
    Some(Body { stmts: body.stmts, tail: body.tail, exact: r.exact })
}

impl Rewriter {
    fn fresh(&mut self, prefix: &str) -> String {
        self.next += 1;
        format!("{prefix}{}", self.next)
    }

    fn declare(&mut self, name: &str, ty: Ty) {
        if let Some(scope) = self.scopes.last_mut() {
            scope.push((name.to_string(), ty));
        }
    }

    fn ty(&self, name: &str) -> Option<&Ty> {
        self.scopes.iter().rev().flatten().find(|(n, _)| n == name).map(|(_, t)| t)
    }

    /// What `let name: ty = init` declares.
    fn let_ty(&self, ty: &Option<Vec<super::ast::Size>>, init: &Expr) -> Ty {
        match ty {
            Some(d) if d.is_empty() => Ty::Real,
            Some(d) => Ty::Array { dims: d.iter().map(|s| s.n).collect(), owned: true },
            None => match init {
                Expr::Zeros(d) => Ty::Array { dims: d.iter().map(|s| s.n).collect(), owned: true },
                Expr::Array(xs) => Ty::Array { dims: vec![xs.len()], owned: true },
                Expr::Var(a) | Expr::Elem(a, _) => match (self.ty(a), init) {
                    (Some(Ty::Array { dims, .. }), Expr::Elem(_, ix)) if dims.len() > ix.len() => {
                        Ty::Array { dims: dims[ix.len()..].to_vec(), owned: true }
                    }
                    (Some(Ty::Array { dims, .. }), Expr::Var(_)) => {
                        Ty::Array { dims: dims.clone(), owned: true }
                    }
                    _ => Ty::Real,
                },
                _ => Ty::Real,
            },
        }
    }

    /// `stmts` in a new scope that starts with `bindings`, rewritten.
    fn nested(&mut self, bindings: Vec<(String, Ty)>, stmts: Vec<Stmt>) -> Vec<Stmt> {
        self.scopes.push(bindings);
        let out = self.block(stmts);
        self.scopes.pop();
        out
    }

    /// A closure's body in a new scope that starts with `bindings`, rewritten.
    fn nested_block(&mut self, bindings: Vec<(String, Ty)>, b: Block) -> Block {
        self.scopes.push(bindings);
        self.scopes.push(Vec::new());
        let stmts = self.stmts(b.stmts);
        let tail = self.expr(b.tail);
        self.scopes.pop();
        self.scopes.pop();
        Block { stmts, tail }
    }

    /// A block, rewritten in its own scope.
    fn block(&mut self, stmts: Vec<Stmt>) -> Vec<Stmt> {
        self.scopes.push(Vec::new());
        let out = self.stmts(stmts);
        self.scopes.pop();
        out
    }

    /// Statements, rewritten in the current scope.
    fn stmts(&mut self, stmts: Vec<Stmt>) -> Vec<Stmt> {
        let mut out: Vec<Stmt> = Vec::new();
        for s in stmts {
            match s {
                Stmt::Let(name, ty, init) => {
                    let t = self.let_ty(&ty, &init);
                    let init = self.expr(init);
                    out.push(Stmt::Let(name.clone(), ty, init));
                    self.declare(&name, t);
                }
                Stmt::LetInt(name, v) => {
                    self.declare(&name, Ty::Int);
                    out.push(Stmt::LetInt(name, v));
                }
                Stmt::Assign(p, op, e) => {
                    let e = self.expr(e);
                    out.push(Stmt::Assign(p, op, e));
                }
                Stmt::For(var, range, body) => {
                    let id = self.loops;
                    self.loops += 1;
                    self.for_loop(var, range, body, id, &mut out);
                }
                Stmt::If(arms, els) => {
                    let arms: Vec<_> = arms.into_iter().map(|(c, b)| (c, self.block(b))).collect();
                    let els = els.map(|b| self.block(b));
                    out.push(self.if_stmt(arms, els));
                }
                other => out.push(other),
            }
        }
        self.closures(&mut out);
        out
    }

    /// An expression, its `if`s on integers perhaps as `match`.
    fn expr(&mut self, e: Expr) -> Expr {
        match e {
            Expr::If(arms, els) => {
                let arms: Vec<_> =
                    arms.into_iter().map(|(c, b)| (c, self.value_block(b))).collect();
                let els = self.value_block(*els);
                self.if_expr(arms, els)
            }
            Expr::Bin(op, l, r) => Expr::Bin(op, Box::new(self.expr(*l)), Box::new(self.expr(*r))),
            Expr::Neg(x) => Expr::Neg(Box::new(self.expr(*x))),
            Expr::Powi(x, n) => Expr::Powi(Box::new(self.expr(*x)), n),
            Expr::Method { name, recv, args, ufcs } => Expr::Method {
                name,
                recv: Box::new(self.expr(*recv)),
                args: args.into_iter().map(|a| self.expr(a)).collect(),
                ufcs,
            },
            Expr::Array(xs) => Expr::Array(xs.into_iter().map(|x| self.expr(x)).collect()),
            Expr::Tuple(xs) => Expr::Tuple(xs.into_iter().map(|x| self.expr(x)).collect()),
            Expr::Call(g, xs) => Expr::Call(g, xs.into_iter().map(|x| self.expr(x)).collect()),
            other => other,
        }
    }

    fn value_block(&mut self, b: Block) -> Block {
        self.nested_block(Vec::new(), b)
    }
}
