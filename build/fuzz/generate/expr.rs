//! Random expressions over what is in scope. Methods whose domain is limited get arguments that
//! stay inside it (`ln` of `1 + e·e`, `exp` of a bounded value), so that values stay finite and
//! moderate; kinks (`abs`, `max`, branches) are kept, and the test checks finite differences
//! only away from them.

use super::super::ast::{Block, Expr, Int, Op, Stmt};
use super::tree::{ambiguous, bin, distinct, same};
use super::{Gen, Kind};

/// Literals the programs use: exact in binary or short, and none close to a named constant.
pub(super) const LITS: [f64; 10] = [0.5, 0.25, 0.75, 1.5, 2.0, 0.3, 0.1, 1.25, 3.0, 0.2];

impl Gen {
    pub(super) fn lit(&mut self) -> Expr {
        Expr::Lit(self.rng.pick(&LITS))
    }

    /// A literal other than `e` (`x - x` is clippy's `eq_op`).
    pub(super) fn lit_but(&mut self, e: &Expr) -> Expr {
        let l = self.lit();
        if l == *e { Expr::Lit(0.4) } else { l }
    }

    /// A read of a variable, an element or data: the leaves of expressions.
    pub(super) fn read_leaf(&mut self) -> Option<Expr> {
        let candidates: Vec<(String, Kind)> = self
            .visible()
            .filter(|v| self.readable(&v.name) && !matches!(v.kind, Kind::Data))
            .map(|v| (v.name.clone(), v.kind.clone()))
            .collect();
        let data: Vec<String> =
            self.visible().filter(|v| v.kind == Kind::Data).map(|v| v.name.clone()).collect();
        let data_loop = self.ints().into_iter().find(|(_, _, hi)| hi.is_none());
        if let (Some((i, lo, _)), Some(d)) = (&data_loop, data.first())
            && self.rng.chance(35)
        {
            return Some(self.data_read(d, i, *lo));
        }
        if candidates.is_empty() {
            return None;
        }
        let (name, kind) = candidates[self.rng.below(candidates.len())].clone();
        self.read(&name);
        match kind {
            Kind::Real => Some(Expr::Var(name)),
            Kind::Array(dims) => {
                let ix = dims.iter().map(|d| self.index(d)).collect();
                Some(Expr::Elem(name, ix))
            }
            Kind::Int { .. } => {
                let cast = Expr::Cast(Int::Var(name));
                Some(if self.rng.chance(50) { bin(Op::Mul, cast, Expr::Lit(0.25)) } else { cast })
            }
            Kind::Data => None,
        }
    }

    /// `data[i]` in a loop over `data.len()` from `lo`, or `data[i - 1]` when `lo` is at least 1.
    pub(super) fn data_read(&mut self, d: &str, i: &str, lo: usize) -> Expr {
        self.read(i);
        self.read(d);
        let var = Int::Var(i.to_string());
        let index = if lo >= 1 && self.rng.chance(50) {
            Int::Bin(super::super::ast::IntOp::Sub, Box::new(var), Box::new(Int::Lit(1)))
        } else {
            var
        };
        Expr::Data(d.to_string(), index)
    }

    /// A read of a variable that depends on a differentiated parameter (there is always one).
    pub(super) fn active_leaf(&mut self) -> Expr {
        let candidates: Vec<(String, Kind)> = self
            .visible()
            .filter(|v| v.active && self.readable(&v.name) && !v.int_let)
            .filter(|v| matches!(v.kind, Kind::Real | Kind::Array(_)))
            .map(|v| (v.name.clone(), v.kind.clone()))
            .collect();
        let Some((name, kind)) = candidates.get(self.rng.below(candidates.len().max(1))).cloned()
        else {
            return Expr::Lit(0.5);
        };
        self.read(&name);
        match kind {
            Kind::Array(dims) => {
                let ix = dims.iter().map(|d| self.index(d)).collect();
                Expr::Elem(name, ix)
            }
            _ => Expr::Var(name),
        }
    }

    /// A variable, an element, data, a cast loop variable or a literal.
    pub(super) fn leaf(&mut self) -> Expr {
        if self.rng.chance(15) {
            return self.lit();
        }
        self.read_leaf().unwrap_or(Expr::Lit(0.5))
    }

    /// An expression that reads at least one variable (so that its type is known).
    pub(super) fn nonconst(&mut self, depth: u32) -> Expr {
        for _ in 0..6 {
            let before = self.pending_state();
            let e = self.expr(depth);
            if !ambiguous(&e) {
                return e;
            }
            // A discarded expression reads nothing (an `if` on literals may read in its condition).
            self.set_pending(&before);
        }
        self.read_leaf().unwrap_or(Expr::Lit(0.5))
    }

    /// A random expression of at most `depth` levels.
    pub(super) fn expr(&mut self, depth: u32) -> Expr {
        if depth == 0 {
            return self.leaf();
        }
        let allow_if = depth >= 2 && self.branches < 2;
        let calls = if self.callees.is_empty() { 0 } else { 7 };
        let w = [18, 22, 14, 5, 3, 22, 9, 4, if allow_if { 3 } else { 0 }, calls];
        match self.rng.weighted(&w) {
            0 => self.leaf(),
            1 => {
                let (l, r) = (self.expr(depth - 1), self.expr(depth - 1));
                let op = if self.rng.chance(65) { Op::Add } else { Op::Sub };
                let r = if same(&l, &r) { self.lit_but(&l) } else { r };
                bin(op, l, r)
            }
            2 => bin(Op::Mul, self.expr(depth - 1), self.expr(depth - 1)),
            3 => {
                let num = self.expr(depth - 1);
                let den = if self.rng.chance(30) {
                    let d = self.rng.pick(&[2.0, 4.0, 0.5]);
                    Expr::Lit(if num == Expr::Lit(d) { 3.0 } else { d })
                } else {
                    self.positive(depth - 1)
                };
                bin(Op::Div, num, den)
            }
            4 => match self.nonconst(depth - 1) {
                e @ Expr::Neg(_) => e,
                e => Expr::Neg(Box::new(e)),
            },
            5 => self.unary(depth - 1),
            6 => self.binary_method(depth - 1),
            7 => {
                let base = self.nonconst(depth - 1);
                Expr::Powi(Box::new(base), self.rng.pick(&[2, 3]))
            }
            8 => self.if_expr(depth - 1),
            _ => self.call(depth).unwrap_or_else(|| self.leaf()),
        }
    }

    /// A value between -1 and 1 (about): `sin`, `cos`, `tanh` or `atan` of `e`.
    pub(super) fn squash(&mut self, e: Expr) -> Expr {
        let name = self.rng.pick(&["sin", "cos", "tanh", "atan"]);
        self.method(name, e, vec![])
    }

    /// A method call, written `f64::name(recv, ..)` sometimes, and always when the receiver's
    /// type would be ambiguous.
    pub(super) fn method(&mut self, name: &'static str, recv: Expr, args: Vec<Expr>) -> Expr {
        let ufcs = ambiguous(&recv) || self.rng.chance(12);
        Expr::Method { name, recv: Box::new(recv), args, ufcs }
    }

    /// A value of at least one: `1 + e·e`, `2 + sin e`, `exp(tanh e) + 0.5`.
    pub(super) fn positive(&mut self, depth: u32) -> Expr {
        let e = self.nonconst(depth);
        match self.rng.below(3) {
            0 => bin(Op::Add, Expr::Lit(1.0), bin(Op::Mul, e.clone(), e)),
            1 => {
                let s = self.method("sin", e, vec![]);
                bin(Op::Add, Expr::Lit(2.0), s)
            }
            _ => {
                let t = self.method("tanh", e, vec![]);
                let x = self.method("exp", t, vec![]);
                bin(Op::Add, x, Expr::Lit(0.5))
            }
        }
    }

    /// `1 + e·e`.
    pub(super) fn one_plus_square(&mut self, e: Expr) -> Expr {
        bin(Op::Add, Expr::Lit(1.0), bin(Op::Mul, e.clone(), e))
    }

    /// A method of one argument, its argument kept in its domain.
    pub(super) fn unary(&mut self, depth: u32) -> Expr {
        let e = self.nonconst(depth);
        let names = [
            "sin", "cos", "tanh", "atan", "asinh", "exp", "ln", "log2", "log10", "ln_1p", "sqrt",
            "cbrt", "recip", "sinh", "cosh", "exp2", "exp_m1", "tan", "asin", "acos", "atanh",
            "acosh", "abs", "powf",
        ];
        let name = self.rng.pick(&names);
        let (recv, args) = match name {
            "sin" | "cos" | "tanh" | "atan" | "asinh" | "abs" => (e, vec![]),
            "exp" | "sinh" | "cosh" | "exp2" | "exp_m1" => (self.squash(e), vec![]),
            "ln" | "log2" | "log10" | "sqrt" | "cbrt" | "recip" => {
                (self.one_plus_square(e), vec![])
            }
            "ln_1p" => (bin(Op::Mul, e.clone(), e), vec![]),
            "tan" | "asin" | "acos" | "atanh" => {
                let t = self.method("tanh", e, vec![]);
                (bin(Op::Mul, Expr::Lit(0.75), t), vec![])
            }
            "acosh" => (bin(Op::Add, Expr::Lit(1.5), bin(Op::Mul, e.clone(), e)), vec![]),
            _ => {
                let base = self.one_plus_square(e);
                let exponent = if self.rng.chance(50) {
                    Expr::Lit(self.rng.pick(&[1.5, 0.5, 0.75]))
                } else {
                    let x = self.nonconst(0);
                    self.squash(x)
                };
                (base, vec![exponent])
            }
        };
        self.method(name, recv, args)
    }

    /// `max`, `min`, `hypot`, `atan2` or `mul_add`.
    pub(super) fn binary_method(&mut self, depth: u32) -> Expr {
        let a = self.nonconst(depth);
        let b = self.expr(depth);
        let b = if a == b { self.lit_but(&a) } else { b };
        match self.rng.below(6) {
            0 => self.method("max", a, vec![b]),
            1 => self.method("min", a, vec![b]),
            2 => self.method("hypot", a, vec![b]),
            3 => self.method("atan2", a, vec![b]),
            4 => {
                let b = self.one_plus_square(b);
                self.method("atan2", a, vec![b])
            }
            _ => {
                let c = self.expr(depth);
                self.method("mul_add", a, vec![b, c])
            }
        }
    }

    /// `if c { e1 } else if c2 { e2 } else { e3 }` as a value; a block sometimes binds a `let`.
    pub(super) fn if_expr(&mut self, depth: u32) -> Expr {
        self.branches += 1;
        let arms = if self.rng.chance(25) { 2 } else { 1 };
        let mut conds = Vec::new();
        // One list for all the conditions: clippy flags an `else if` repeating a condition.
        let mut used = Vec::new();
        for _ in 0..arms {
            let c = self.cond_in(1, &mut used, true);
            let b = self.value_block(depth);
            conds.push((c, b));
        }
        let mut els = self.value_block(depth);
        self.branches -= 1;
        let mut tails: Vec<&mut Expr> = conds.iter_mut().map(|(_, b)| &mut b.tail).collect();
        tails.push(&mut els.tail);
        distinct(&mut tails);
        Expr::If(conds, Box::new(els))
    }

    pub(super) fn value_block(&mut self, depth: u32) -> Block {
        if !self.rng.chance(20) {
            return Block { stmts: vec![], tail: self.expr(depth) };
        }
        let name = self.fresh("t");
        let init = self.nonconst(depth);
        let stmt = Stmt::Let(name.clone(), None, init);
        let tail = bin(Op::Mul, Expr::Var(name), self.expr(depth));
        Block { stmts: vec![stmt], tail }
    }
}
