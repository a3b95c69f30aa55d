//! Random expressions, conditions and indices over what is in scope. Methods whose domain is
//! limited get arguments that stay inside it (`ln` of `1 + e·e`, `exp` of a bounded value), so
//! that values stay finite and moderate; kinks (`abs`, `max`, branches) are kept, and the test
//! checks finite differences only away from them.

use super::super::ast::{Block, Cmp, Cond, Expr, Int, IntOp, Op, Place, Size, Stmt};
use super::{Gen, Kind};

/// Literals the programs use: exact in binary or short, and none close to a named constant.
const LITS: [f64; 10] = [0.5, 0.25, 0.75, 1.5, 2.0, 0.3, 0.1, 1.25, 3.0, 0.2];

fn bin(op: Op, l: Expr, r: Expr) -> Expr {
    Expr::Bin(op, Box::new(l), Box::new(r))
}

/// Whether Rust could not tell the type of `e` (a float literal, or arithmetic on literals):
/// a method called on it would not compile, and a `let` of it needs its type written.
pub fn ambiguous(e: &Expr) -> bool {
    match e {
        Expr::Lit(_) => true,
        Expr::Neg(x) | Expr::Powi(x, _) => ambiguous(x),
        Expr::Bin(_, l, r) => ambiguous(l) && ambiguous(r),
        Expr::Method { recv, ufcs, .. } => !ufcs && ambiguous(recv),
        Expr::If(arms, els) => arms.iter().all(|(_, b)| ambiguous(&b.tail)) && ambiguous(&els.tail),
        Expr::Array(xs) | Expr::Tuple(xs) => xs.iter().all(ambiguous),
        Expr::Zeros(_) => true,
        Expr::Var(_) | Expr::Elem(..) | Expr::Data(..) | Expr::Cast(_) => false,
    }
}

/// Whether `e` contains `i as f64`.
fn has_cast(e: &Expr) -> bool {
    match e {
        Expr::Cast(_) => true,
        Expr::Lit(_) | Expr::Var(_) | Expr::Elem(..) | Expr::Data(..) | Expr::Zeros(_) => false,
        Expr::Neg(x) | Expr::Powi(x, _) => has_cast(x),
        Expr::Bin(_, l, r) => has_cast(l) || has_cast(r),
        Expr::Method { recv, args, .. } => has_cast(recv) || args.iter().any(has_cast),
        Expr::If(..) => true,
        Expr::Array(xs) | Expr::Tuple(xs) => xs.iter().any(has_cast),
    }
}

/// Whether `a` and `b` are the same expression, up to the order of the operands of `+` and `*`
/// (clippy's `eq_op` sees through that too).
pub fn same(a: &Expr, b: &Expr) -> bool {
    match (a, b) {
        (Expr::Bin(o1, l1, r1), Expr::Bin(o2, l2, r2)) if o1 == o2 => {
            (same(l1, l2) && same(r1, r2))
                || (matches!(o1, Op::Add | Op::Mul) && same(l1, r2) && same(r1, l2))
        }
        _ => a == b,
    }
}

/// The variables a statement reads or writes.
pub fn stmt_names(s: &Stmt, out: &mut Vec<String>) {
    match s {
        Stmt::Let(_, _, e) => names(e, out),
        Stmt::LetInt(..) => {}
        Stmt::Assign(Place::Var(v) | Place::Elem(v, _), _, e) => {
            out.push(v.clone());
            names(e, out);
        }
        Stmt::For(_, _, body) => body.iter().for_each(|s| stmt_names(s, out)),
        Stmt::If(arms, els) => {
            for (c, b) in arms {
                cond_names(c, out);
                b.iter().for_each(|s| stmt_names(s, out));
            }
            els.iter().flatten().for_each(|s| stmt_names(s, out));
        }
    }
}

/// The variables `e` reads, conditions included.
pub fn names(e: &Expr, out: &mut Vec<String>) {
    match e {
        Expr::Var(n) | Expr::Elem(n, _) => out.push(n.clone()),
        Expr::Lit(_) | Expr::Data(..) | Expr::Cast(_) | Expr::Zeros(_) => {}
        Expr::Neg(x) | Expr::Powi(x, _) => names(x, out),
        Expr::Bin(_, l, r) => {
            names(l, out);
            names(r, out);
        }
        Expr::Method { recv, args, .. } => {
            names(recv, out);
            args.iter().for_each(|a| names(a, out));
        }
        Expr::If(arms, els) => {
            for (c, b) in arms {
                cond_names(c, out);
                block_names(b, out);
            }
            block_names(els, out);
        }
        Expr::Array(xs) | Expr::Tuple(xs) => xs.iter().for_each(|x| names(x, out)),
    }
}

fn block_names(b: &Block, out: &mut Vec<String>) {
    for s in &b.stmts {
        if let Stmt::Let(_, _, e) = s {
            names(e, out);
        }
    }
    names(&b.tail, out);
}

fn cond_names(c: &Cond, out: &mut Vec<String>) {
    match c {
        Cond::Real(_, l, r) => {
            names(l, out);
            names(r, out);
        }
        Cond::Int(..) => {}
        Cond::And(l, r) | Cond::Or(l, r) => {
            cond_names(l, out);
            cond_names(r, out);
        }
        Cond::Not(x) => cond_names(x, out),
    }
}

/// With `dodge`, `e` as a value that a branch or a loop yields, made a value computed nowhere
/// else (`1.0078125` is no literal of the generator): a region that yields a value computed
/// elsewhere too breaks the macro's forward transform (macro bug 5 of `tests/fuzz_found.rs`).
pub fn fresh(dodge: bool, e: Expr) -> Expr {
    if dodge { Expr::Bin(Op::Mul, Box::new(Expr::Lit(1.0078125)), Box::new(e)) } else { e }
}

/// The values of the branches of an `if`, made distinct (clippy flags branches with the same
/// body), by scaling a repeated one.
pub fn distinct(tails: &mut [&mut Expr]) {
    for k in 1..tails.len() {
        if tails[..k].iter().any(|t| same(t, tails[k])) {
            let e = std::mem::replace(&mut *tails[k], Expr::Lit(0.0));
            *tails[k] = Expr::Bin(Op::Mul, Box::new(Expr::Lit(0.5 + k as f64 / 64.0)), Box::new(e));
        }
    }
}

/// `rhs` for `target = rhs`, changed when clippy would read it as `target op= e`.
pub fn not_assign_op(target: &Expr, rhs: Expr) -> Expr {
    let manual = match &rhs {
        Expr::Bin(Op::Add | Op::Mul, l, r) => **l == *target || **r == *target,
        Expr::Bin(_, l, _) => **l == *target,
        // A self-assignment.
        e => e == target,
    };
    if manual { Expr::Bin(Op::Mul, Box::new(Expr::Lit(0.5)), Box::new(rhs)) } else { rhs }
}

/// The integer expression of a length.
pub fn size_int(s: &Size) -> Int {
    match &s.name {
        Some(name) => Int::Var(name.clone()),
        None => Int::Lit(s.n),
    }
}

fn ibin(op: IntOp, l: Int, r: Int) -> Int {
    Int::Bin(op, Box::new(l), Box::new(r))
}

impl Gen {
    pub(super) fn lit(&mut self) -> Expr {
        Expr::Lit(self.rng.pick(&LITS))
    }

    /// The integer variables in scope: name, smallest and largest value.
    pub(super) fn ints(&self) -> Vec<(String, usize, Option<usize>)> {
        self.visible()
            .filter_map(|v| match v.kind {
                Kind::Int { lo, hi } => Some((v.name.clone(), lo, hi)),
                _ => None,
            })
            .collect()
    }

    /// An index into a dimension of length `len`, always in bounds.
    pub(super) fn index(&mut self, len: &Size) -> Int {
        let n = len.n;
        if n == 1 {
            return Int::Lit(0);
        }
        let ints = self.ints();
        for _ in 0..8 {
            let choice = self.rng.weighted(&[2, 8, 3, 2, 2, 1, 1, 1]);
            if choice == 0 || ints.is_empty() {
                return Int::Lit(self.rng.below(n));
            }
            let (v, lo, hi) = ints[self.rng.below(ints.len())].clone();
            let var = Int::Var(v.clone());
            let fits = hi.is_some_and(|h| h < n);
            let index = match choice {
                1 if fits => var,
                2 => {
                    let c = Int::Lit(self.rng.between(1, n - 1));
                    ibin(IntOp::Rem, ibin(IntOp::Add, var, c), size_int(len))
                }
                3 if !fits => ibin(IntOp::Rem, var, size_int(len)),
                4 if fits => {
                    let last = match &len.name {
                        Some(_) => ibin(IntOp::Sub, size_int(len), Int::Lit(1)),
                        None => Int::Lit(n - 1),
                    };
                    ibin(IntOp::Sub, last, var)
                }
                5 if hi.is_some_and(|h| h + 1 < n) => {
                    let room = n - 1 - hi.unwrap_or(n);
                    ibin(IntOp::Add, var, Int::Lit(self.rng.between(1, room)))
                }
                6 if lo >= 1 && hi.is_some_and(|h| h - 1 < n) => {
                    ibin(IntOp::Sub, var, Int::Lit(self.rng.between(1, lo.min(2))))
                }
                7 if ints.len() > 1 => {
                    let (u, ..) = ints[self.rng.below(ints.len())].clone();
                    self.read(&u);
                    ibin(IntOp::Rem, ibin(IntOp::Add, var, Int::Var(u)), size_int(len))
                }
                _ => continue,
            };
            self.read(&v);
            return index;
        }
        Int::Lit(self.rng.below(n))
    }

    /// A read of a variable, an element or data: the leaves of expressions.
    fn read_leaf(&mut self) -> Option<Expr> {
        let candidates: Vec<(String, Kind)> = self
            .visible()
            .filter(|v| self.readable(&v.name) && !matches!(v.kind, Kind::Data))
            // Macro bugs 1, 2 and 4 of `tests/fuzz_found.rs`: locals that the macro folds into
            // constants (arrays of literals, a scalar started at a literal), and `n as f64` of
            // an integer `let` in a loop.
            .filter(|v| !(self.dodge && (v.int_let || (!v.param && !v.active))))
            .map(|v| (v.name.clone(), v.kind.clone()))
            .collect();
        let data: Vec<String> =
            self.visible().filter(|v| v.kind == Kind::Data).map(|v| v.name.clone()).collect();
        let data_loop = self.ints().into_iter().find(|(_, _, hi)| hi.is_none());
        if let (Some((i, ..)), Some(d)) = (&data_loop, data.first())
            && self.rng.chance(35)
        {
            self.read(i);
            self.read(d);
            return Some(Expr::Data(d.clone(), Int::Var(i.clone())));
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
            let e = self.expr(depth);
            if !ambiguous(&e) {
                return e;
            }
        }
        self.read_leaf().unwrap_or(Expr::Lit(0.5))
    }

    /// A random expression of at most `depth` levels.
    pub(super) fn expr(&mut self, depth: u32) -> Expr {
        if depth == 0 {
            return self.leaf();
        }
        let allow_if = depth >= 2 && self.branches < 2;
        let w = [18, 22, 14, 5, 3, 22, 9, 4, if allow_if { 3 } else { 0 }];
        match self.rng.weighted(&w) {
            0 => self.leaf(),
            1 => {
                let (l, r) = (self.expr(depth - 1), self.expr(depth - 1));
                let op = if self.rng.chance(65) { Op::Add } else { Op::Sub };
                let r = if same(&l, &r) { self.lit() } else { r };
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
            7 => Expr::Powi(Box::new(self.nonconst(depth - 1)), self.rng.pick(&[2, 3])),
            _ => self.if_expr(depth - 1),
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
    fn one_plus_square(&mut self, e: Expr) -> Expr {
        bin(Op::Add, Expr::Lit(1.0), bin(Op::Mul, e.clone(), e))
    }

    /// A method of one argument, its argument kept in its domain.
    fn unary(&mut self, depth: u32) -> Expr {
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
    fn binary_method(&mut self, depth: u32) -> Expr {
        let a = self.nonconst(depth);
        let b = self.expr(depth);
        let b = if a == b { self.lit() } else { b };
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
    fn if_expr(&mut self, depth: u32) -> Expr {
        self.branches += 1;
        let arms = if self.rng.chance(25) { 2 } else { 1 };
        let mut conds = Vec::new();
        // One list for all the conditions: clippy flags an `else if` repeating a condition.
        let mut used = Vec::new();
        for _ in 0..arms {
            let c = self.cond_in(1, &mut used);
            let b = self.value_block(depth);
            conds.push((c, b));
        }
        let mut els = self.value_block(depth);
        self.branches -= 1;
        for (_, b) in &mut conds {
            b.tail = fresh(self.dodge, b.tail.clone());
        }
        els.tail = fresh(self.dodge, els.tail);
        let mut tails: Vec<&mut Expr> = conds.iter_mut().map(|(_, b)| &mut b.tail).collect();
        tails.push(&mut els.tail);
        distinct(&mut tails);
        Expr::If(conds, Box::new(els))
    }

    fn value_block(&mut self, depth: u32) -> Block {
        if !self.rng.chance(20) {
            return Block { stmts: vec![], tail: self.expr(depth) };
        }
        let name = self.fresh("t");
        let init = self.nonconst(depth);
        let stmt = Stmt::Let(name.clone(), None, init);
        let tail = bin(Op::Mul, Expr::Var(name), self.expr(depth));
        Block { stmts: vec![stmt], tail }
    }

    fn cmp(&mut self) -> Cmp {
        let ops = [Cmp::Lt, Cmp::Le, Cmp::Gt, Cmp::Ge, Cmp::Eq, Cmp::Ne];
        ops[self.rng.weighted(&[5, 3, 5, 3, 1, 1])]
    }

    /// A comparison of integers that is true for some values of its variable, false for others.
    fn int_cond(&mut self) -> Option<Cond> {
        let ints = self.ints();
        if ints.is_empty() {
            return None;
        }
        let (v, lo, hi) = ints[self.rng.below(ints.len())].clone();
        let var = Int::Var(v.clone());
        let cond = match self.rng.below(3) {
            0 => {
                let c = self.rng.below(2);
                Cond::Int(Cmp::Eq, ibin(IntOp::Rem, var, Int::Lit(2)), Int::Lit(c))
            }
            1 if ints.len() > 1 => {
                let (u, ..) = ints[self.rng.below(ints.len())].clone();
                if u == v {
                    return None;
                }
                self.read(&u);
                Cond::Int(self.cmp(), var, Int::Var(u))
            }
            _ => {
                let top = hi.unwrap_or(4).max(lo + 1);
                let c = self.rng.between(lo.max(1), top);
                let op = [Cmp::Lt, Cmp::Le, Cmp::Gt, Cmp::Ge, Cmp::Eq, Cmp::Ne][self.rng.below(6)];
                Cond::Int(op, var, Int::Lit(c))
            }
        };
        self.read(&v);
        Some(cond)
    }

    /// A condition of an `if`: comparisons joined by `&&`, `||`, `!`. No two compare the same
    /// operands and at most one compares integers, so that no condition is a tautology or a
    /// contradiction in disguise (clippy would say so).
    pub(super) fn cond(&mut self, depth: u32) -> Cond {
        let mut used = Vec::new();
        self.cond_in(depth, &mut used)
    }

    /// A condition whose comparisons avoid the operands in `used` (`None` for an integer one).
    pub(super) fn cond_in(&mut self, depth: u32, used: &mut Vec<Option<(Expr, Expr)>>) -> Cond {
        let ints = !used.contains(&None);
        let deeper = |w| if depth > 0 { w } else { 0 };
        match self.rng.weighted(&[55, if ints { 25 } else { 0 }, deeper(8), deeper(8), deeper(4)]) {
            1 => match self.int_cond() {
                Some(c) => {
                    used.push(None);
                    c
                }
                None => self.real_cond(used),
            },
            2 => {
                let l = self.cond_in(depth - 1, used);
                Cond::And(Box::new(l), Box::new(self.cond_in(depth - 1, used)))
            }
            3 => {
                let l = self.cond_in(depth - 1, used);
                Cond::Or(Box::new(l), Box::new(self.cond_in(depth - 1, used)))
            }
            4 => {
                let l = self.cond_in(0, used);
                let r = self.cond_in(0, used);
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
    fn real_cond(&mut self, used: &mut Vec<Option<(Expr, Expr)>>) -> Cond {
        let l = self.nonconst(1);
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
            r = if k < 4 { self.nonconst(1) } else { Expr::Lit(0.125 + k as f64 / 8.0) };
        }
        used.push(Some((l.clone(), r.clone())));
        match self.cmp() {
            // Macro bug 2 of `tests/fuzz_found.rs`: the expansion drops the parentheses of
            // `(i as f64) < x`.
            Cmp::Lt if self.dodge && has_cast(&l) => Cond::Real(Cmp::Gt, r, l),
            op => Cond::Real(op, l, r),
        }
    }
}
