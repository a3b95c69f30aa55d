//! Prints a program's tree as Rust, in two flavours: over `f64` for `#[grad]`, and over the
//! test's hyper-dual type `Hd` (literals and data lifted by `lit(..)`, `f64::m(..)` as
//! `Hd::m(..)`). Parentheses follow Rust's precedence, so that the output is warning-free. The
//! nodes of the iterator form (chains, closures, `match`) are printed by `print_idiom`.

use std::collections::HashSet;
use std::fmt::Write;

use super::ast::{
    Assign, Block, Cmp, Cond, Consumer, Expr, Int, IntOp, Op, Output, Place, Range, Size, Stmt,
};

/// Which of the two functions is printed.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Flavor {
    /// The function over `f64`, given to `#[grad]`.
    Macro,
    /// The same body over `Hd`, the oracle.
    Dual,
    /// The function over `f32` (`f_32`), or over `T: Float` (`f_gen`): see `print_float.rs`.
    F32,
    Generic,
}

/// Precedence levels, loosest first.
const OR: u8 = 1;
const AND: u8 = 2;
const CMP: u8 = 3;
pub(super) const ADD: u8 = 4;
pub(super) const MUL: u8 = 5;
const AS: u8 = 6;
pub(super) const UNARY: u8 = 7;
const POSTFIX: u8 = 8;

/// Prints statements and expressions into a string.
pub struct Printer {
    pub flavor: Flavor,
    /// The variables the program assigns to (declared `let mut`).
    pub mutated: HashSet<String>,
    pub out: String,
    /// The indentation of the statement being printed (a closure's block is indented under it).
    pub depth: usize,
}

/// `f64` or `Hd`.
pub fn real(flavor: Flavor) -> &'static str {
    match flavor {
        Flavor::Macro => "f64",
        Flavor::Dual => "Hd",
        Flavor::F32 => "f32",
        Flavor::Generic => "T",
    }
}

/// The type `[[f64; K]; M]` for lengths `[M, K]` (`f64` for none), over `elem`.
pub fn array_type(elem: &str, dims: &[Size]) -> String {
    dims.iter().rev().fold(elem.to_string(), |t, d| format!("[{t}; {}]", size(d)))
}

/// A length as the program writes it.
pub fn size(s: &Size) -> String {
    s.name.clone().unwrap_or_else(|| s.n.to_string())
}

/// The return type of the program.
pub fn output_type(output: Output, flavor: Flavor) -> String {
    let r = real(flavor);
    match output {
        Output::Scalar => r.to_string(),
        Output::Array(m) => format!("[{r}; {m}]"),
        Output::Tuple(m) => format!("({})", vec![r; m].join(", ")),
    }
}

fn lit(v: f64) -> String {
    let s = format!("{v:?}");
    if s.contains('.') || s.contains('e') { s } else { format!("{s}.0") }
}

pub(super) fn cmp(c: Cmp) -> &'static str {
    match c {
        Cmp::Lt => "<",
        Cmp::Le => "<=",
        Cmp::Gt => ">",
        Cmp::Ge => ">=",
        Cmp::Eq => "==",
        Cmp::Ne => "!=",
    }
}

fn int_prec(i: &Int) -> u8 {
    match i {
        Int::Bin(IntOp::Add | IntOp::Sub, ..) => ADD,
        Int::Bin(..) => MUL,
        _ => POSTFIX + 1,
    }
}

/// An integer expression, parenthesised when looser than `min`.
pub fn int(i: &Int, min: u8) -> String {
    let s = match i {
        Int::Lit(n) => n.to_string(),
        Int::Var(v) => v.clone(),
        Int::Len(d) => format!("{d}.len()"),
        Int::Bin(op, l, r) => {
            let p = int_prec(i);
            let o = match op {
                IntOp::Add => "+",
                IntOp::Sub => "-",
                IntOp::Mul => "*",
                IntOp::Rem => "%",
            };
            format!("{} {o} {}", int(l, p), int(r, p + 1))
        }
    };
    if int_prec(i) < min { format!("({s})") } else { s }
}

impl Printer {
    /// A printer of `flavor` for a program that assigns to `mutated`.
    pub fn new(flavor: Flavor, mutated: HashSet<String>) -> Self {
        Printer { flavor, mutated, out: String::new(), depth: 0 }
    }

    /// Whether an integer cast is written with `as` (not through `lit(..)` or `T::from`).
    fn casts(&self) -> bool {
        matches!(self.flavor, Flavor::Macro | Flavor::F32)
    }

    fn prec(&self, e: &Expr) -> u8 {
        match e {
            Expr::Bin(Op::Add | Op::Sub, ..) => ADD,
            Expr::Bin(..) => MUL,
            Expr::Neg(_) | Expr::Ref(_) | Expr::Deref(_) => UNARY,
            Expr::Cast(_) if self.casts() => AS,
            Expr::Data(..) if self.flavor == Flavor::F32 => AS,
            Expr::If(..) | Expr::Match(..) | Expr::Test(_) => 0,
            _ => POSTFIX + 1,
        }
    }

    /// `e`, parenthesised when looser than `min`. A cast is parenthesised as an operand, where
    /// `i as f64 < x` would not parse.
    pub fn expr(&self, e: &Expr, min: u8) -> String {
        let s = match e {
            Expr::Lit(v) => match self.flavor {
                Flavor::Macro => lit(*v),
                Flavor::Dual => format!("lit({})", lit(*v)),
                _ => super::print_float::lit(self.flavor, *v),
            },
            Expr::Var(v) => v.clone(),
            Expr::Elem(a, ix) => {
                let ix: String = ix.iter().map(|i| format!("[{}]", int(i, 0))).collect();
                format!("{a}{ix}")
            }
            Expr::Data(d, i) => match self.flavor {
                Flavor::Macro => format!("{d}[{}]", int(i, 0)),
                Flavor::Dual => format!("lit({d}[{}])", int(i, 0)),
                _ => {
                    let read = format!("{d}[{}]", int(i, 0));
                    super::print_float::cast(self.flavor, &read, &read)
                }
            },
            Expr::Cast(i) => match self.flavor {
                Flavor::Macro => format!("{} as f64", int(i, UNARY)),
                Flavor::Dual => format!("lit({} as f64)", int(i, UNARY)),
                _ => super::print_float::cast(self.flavor, &int(i, 0), &int(i, UNARY)),
            },
            Expr::Neg(x) => format!("-{}", self.expr(x, UNARY)),
            Expr::Ref(x) => format!("&{}", self.expr(x, UNARY)),
            Expr::Deref(c) => format!("*{c}"),
            Expr::IntArg(i) => int(i, 0),
            Expr::Call(name, args) => match self.flavor {
                Flavor::Dual => format!("{name}_dual({})", self.list(args)),
                _ => format!("{name}({})", self.list(args)),
            },
            Expr::Bin(op, l, r) => {
                let p = self.prec(e);
                let o = match op {
                    Op::Add => "+",
                    Op::Sub => "-",
                    Op::Mul => "*",
                    Op::Div => "/",
                };
                format!("{} {o} {}", self.operand(l, p), self.operand(r, p + 1))
            }
            Expr::Method { name, recv, args, ufcs } => self.method(name, recv, args, *ufcs),
            Expr::Powi(x, n) => format!("{}.powi({n})", self.expr(x, POSTFIX + 1)),
            Expr::If(arms, els) => self.if_expr(arms, els),
            Expr::Array(xs) => format!("[{}]", self.list(xs)),
            Expr::Tuple(xs) => format!("({})", self.list(xs)),
            Expr::Zeros(dims) => {
                let zero = self.expr(&Expr::Lit(0.0), 0);
                dims.iter().rev().fold(zero, |t, d| format!("[{t}; {}]", size(d)))
            }
            Expr::Reduce(it, consumer) => self.reduce(it, consumer),
            Expr::Match(scrutinee, arms) => self.match_expr(scrutinee, arms),
            Expr::Test(c) => self.cond(c, 0),
        };
        if self.prec(e) < min { format!("({s})") } else { s }
    }

    /// An operand of an arithmetic operator or a comparison.
    fn operand(&self, e: &Expr, min: u8) -> String {
        match e {
            Expr::Cast(_) if self.casts() => format!("({})", self.expr(e, 0)),
            Expr::Data(..) if self.flavor == Flavor::F32 => format!("({})", self.expr(e, 0)),
            _ => self.expr(e, min),
        }
    }

    pub(super) fn list(&self, xs: &[Expr]) -> String {
        xs.iter().map(|x| self.expr(x, 0)).collect::<Vec<_>>().join(", ")
    }

    fn method(&self, name: &str, recv: &Expr, args: &[Expr], ufcs: bool) -> String {
        if ufcs {
            let all: Vec<Expr> =
                std::iter::once(recv.clone()).chain(args.iter().cloned()).collect();
            format!("{}::{name}({})", real(self.flavor), self.list(&all))
        } else {
            format!("{}.{name}({})", self.expr(recv, POSTFIX + 1), self.list(args))
        }
    }

    fn if_expr(&self, arms: &[(Cond, Block)], els: &Block) -> String {
        let mut s = String::new();
        for (k, (c, b)) in arms.iter().enumerate() {
            if k > 0 {
                s.push_str(" else ");
            }
            let _ = write!(s, "if {} {}", self.cond(c, 0), self.block(b));
        }
        let _ = write!(s, " else {}", self.block(els));
        s
    }

    pub(super) fn block(&self, b: &Block) -> String {
        if b.stmts.is_empty() {
            return format!("{{ {} }}", self.expr(&b.tail, 0));
        }
        let mut p = Printer::new(self.flavor, self.mutated.clone());
        for st in &b.stmts {
            p.stmt(st, 0);
        }
        let inner: Vec<&str> = p.out.lines().map(str::trim).collect();
        format!("{{ {} {} }}", inner.join(" "), self.expr(&b.tail, 0))
    }

    fn cond_prec(c: &Cond) -> u8 {
        match c {
            Cond::Or(..) => OR,
            Cond::And(..) => AND,
            Cond::Real(..) | Cond::Int(..) => CMP,
            Cond::Not(_) => UNARY,
        }
    }

    /// A condition, parenthesised when looser than `min`.
    pub fn cond(&self, c: &Cond, min: u8) -> String {
        let p = Self::cond_prec(c);
        let s = match c {
            Cond::Real(op, l, r) => {
                format!("{} {} {}", self.operand(l, ADD), cmp(*op), self.operand(r, ADD))
            }
            Cond::Int(op, l, r) => format!("{} {} {}", int(l, ADD), cmp(*op), int(r, ADD)),
            Cond::And(l, r) => format!("{} && {}", self.cond(l, AND), self.cond(r, AND + 1)),
            Cond::Or(l, r) => format!("{} || {}", self.cond(l, OR), self.cond(r, OR + 1)),
            Cond::Not(x) => format!("!{}", self.cond(x, UNARY + 1)),
        };
        if p < min { format!("({s})") } else { s }
    }

    pub(super) fn line(&mut self, depth: usize, text: &str) {
        let _ = writeln!(self.out, "{}{text}", "    ".repeat(depth));
    }

    /// A statement at indentation `depth`.
    pub fn stmt(&mut self, s: &Stmt, depth: usize) {
        self.depth = depth;
        match s {
            Stmt::Let(name, ty, init) => {
                let m = if self.mutated.contains(name) { "mut " } else { "" };
                let ty = match ty {
                    Some(dims) => format!(": {}", array_type(real(self.flavor), dims)),
                    None => String::new(),
                };
                let text = format!("let {m}{name}{ty} = {};", self.expr(init, 0));
                self.line(depth, &text);
            }
            Stmt::LetInt(name, v) => self.line(depth, &format!("let {name} = {};", int(v, 0))),
            Stmt::Assign(place, op, rhs) => {
                let target = match place {
                    Place::Var(v) => v.clone(),
                    Place::Elem(a, ix) => self.expr(&Expr::Elem(a.clone(), ix.clone()), 0),
                };
                let o = match op {
                    Assign::Set => "=",
                    Assign::Add => "+=",
                    Assign::Sub => "-=",
                    Assign::Mul => "*=",
                    Assign::Div => "/=",
                };
                let text = match self.flavor {
                    // `T: Float` has no `+=`: `s = s + e`, the same operation.
                    Flavor::Generic if *op != Assign::Set => {
                        super::print_float::spelled(self, &target, *op, rhs)
                    }
                    _ => format!("{target} {o} {};", self.expr(rhs, 0)),
                };
                self.line(depth, &text);
            }
            Stmt::For(var, range, body) => {
                let var =
                    if body.iter().any(|s| reads_int_stmt(s, var)) { var.as_str() } else { "_" };
                let text = format!("for {var} in {} {{", range_text(range));
                self.line(depth, &text);
                self.stmts(body, depth + 1);
                self.line(depth, "}");
            }
            Stmt::If(arms, els) => {
                for (k, (c, body)) in arms.iter().enumerate() {
                    let head = if k == 0 { "if" } else { "} else if" };
                    self.depth = depth;
                    let text = format!("{head} {} {{", self.cond(c, 0));
                    self.line(depth, &text);
                    self.stmts(body, depth + 1);
                }
                if let Some(body) = els {
                    self.line(depth, "} else {");
                    self.stmts(body, depth + 1);
                }
                self.line(depth, "}");
            }
            Stmt::ForIn(..) | Stmt::Closure(..) | Stmt::LetTuple(..) | Stmt::Match(..) => {
                self.idiom_stmt(s, depth)
            }
        }
    }

    /// Statements at indentation `depth`.
    pub fn stmts(&mut self, ss: &[Stmt], depth: usize) {
        for s in ss {
            self.stmt(s, depth);
        }
    }
}

pub(super) fn range_text(r: &Range) -> String {
    let dots = if r.inclusive { "..=" } else { ".." };
    let text = format!("{}{dots}{}", int(&r.lo, ADD), int(&r.hi, ADD));
    if r.rev { format!("({text}).rev()") } else { text }
}

pub(super) fn reads_int(i: &Int, name: &str) -> bool {
    match i {
        Int::Var(v) => v == name,
        Int::Lit(_) | Int::Len(_) => false,
        Int::Bin(_, l, r) => reads_int(l, name) || reads_int(r, name),
    }
}

pub(super) fn reads_int_expr(e: &Expr, name: &str) -> bool {
    match e {
        Expr::Lit(_) | Expr::Var(_) | Expr::Zeros(_) | Expr::Deref(_) => false,
        Expr::Elem(_, ix) => ix.iter().any(|i| reads_int(i, name)),
        Expr::Data(_, i) | Expr::Cast(i) | Expr::IntArg(i) => reads_int(i, name),
        Expr::Neg(x) | Expr::Powi(x, _) | Expr::Ref(x) => reads_int_expr(x, name),
        Expr::Bin(_, l, r) => reads_int_expr(l, name) || reads_int_expr(r, name),
        Expr::Method { recv, args, .. } => {
            reads_int_expr(recv, name) || args.iter().any(|a| reads_int_expr(a, name))
        }
        Expr::If(arms, els) => {
            arms.iter().any(|(c, b)| reads_int_cond(c, name) || reads_int_block(b, name))
                || reads_int_block(els, name)
        }
        Expr::Array(xs) | Expr::Tuple(xs) | Expr::Call(_, xs) => {
            xs.iter().any(|x| reads_int_expr(x, name))
        }
        Expr::Reduce(it, consumer) => {
            super::print_idiom::reads_int_iter(it, name)
                || match &**consumer {
                    Consumer::Sum => false,
                    Consumer::Fold(init, f) => {
                        reads_int_expr(init, name) || reads_int_block(&f.body, name)
                    }
                }
        }
        Expr::Match(scrutinee, arms) => {
            reads_int(scrutinee, name)
                || arms.iter().any(|a| {
                    a.guard.as_ref().is_some_and(|g| reads_int_cond(g, name))
                        || reads_int_block(&a.body, name)
                })
        }
        Expr::Test(c) => reads_int_cond(c, name),
    }
}

pub(super) fn reads_int_block(b: &Block, name: &str) -> bool {
    b.stmts.iter().any(|s| reads_int_stmt(s, name)) || reads_int_expr(&b.tail, name)
}

pub(super) fn reads_int_cond(c: &Cond, name: &str) -> bool {
    match c {
        Cond::Real(_, l, r) => reads_int_expr(l, name) || reads_int_expr(r, name),
        Cond::Int(_, l, r) => reads_int(l, name) || reads_int(r, name),
        Cond::And(l, r) | Cond::Or(l, r) => reads_int_cond(l, name) || reads_int_cond(r, name),
        Cond::Not(x) => reads_int_cond(x, name),
    }
}

/// Whether `s` reads the integer variable `name` (a loop variable, to print `for _` if not).
pub fn reads_int_stmt(s: &Stmt, name: &str) -> bool {
    match s {
        Stmt::Let(_, _, e) => reads_int_expr(e, name),
        Stmt::LetInt(_, v) => reads_int(v, name),
        Stmt::Assign(place, _, rhs) => {
            let target = match place {
                Place::Var(_) => false,
                Place::Elem(_, ix) => ix.iter().any(|i| reads_int(i, name)),
            };
            target || reads_int_expr(rhs, name)
        }
        Stmt::For(_, r, body) => {
            reads_int(&r.lo, name)
                || reads_int(&r.hi, name)
                || body.iter().any(|s| reads_int_stmt(s, name))
        }
        Stmt::If(arms, els) => {
            arms.iter()
                .any(|(c, b)| reads_int_cond(c, name) || b.iter().any(|s| reads_int_stmt(s, name)))
                || els.iter().flatten().any(|s| reads_int_stmt(s, name))
        }
        Stmt::ForIn(_, it, body) => {
            super::print_idiom::reads_int_iter(it, name)
                || body.iter().any(|s| reads_int_stmt(s, name))
        }
        Stmt::Closure(_, _, e) | Stmt::LetTuple(_, e) => reads_int_expr(e, name),
        Stmt::Match(scrutinee, arms) => {
            reads_int(scrutinee, name)
                || arms.iter().any(|a| {
                    a.guard.as_ref().is_some_and(|g| reads_int_cond(g, name))
                        || a.body.iter().any(|s| reads_int_stmt(s, name))
                })
        }
    }
}

/// The variables a program assigns to, whole or by element (not counting a closure's
/// assignments to its own parameters, which its pattern declares `mut`).
pub fn mutated(body: &[Stmt], out: &mut HashSet<String>) {
    for s in body {
        match s {
            Stmt::Assign(place, _, e) => {
                let (Place::Var(v) | Place::Elem(v, _)) = place;
                out.insert(v.clone());
                mutated_expr(e, out);
            }
            Stmt::For(_, _, b) => mutated(b, out),
            Stmt::ForIn(_, it, b) => {
                super::print_idiom::mutated_iter(it, out);
                mutated(b, out);
            }
            Stmt::If(arms, els) => {
                for (_, b) in arms {
                    mutated(b, out);
                }
                if let Some(b) = els {
                    mutated(b, out);
                }
            }
            Stmt::Match(_, arms) => arms.iter().for_each(|a| mutated(&a.body, out)),
            Stmt::Let(_, _, e) | Stmt::Closure(_, _, e) | Stmt::LetTuple(_, e) => {
                mutated_expr(e, out)
            }
            Stmt::LetInt(..) => {}
        }
    }
}

/// The variables assigned in the blocks and closures inside `e`.
pub(super) fn mutated_expr(e: &Expr, out: &mut HashSet<String>) {
    match e {
        Expr::If(arms, els) => {
            for (_, b) in arms {
                mutated(&b.stmts, out);
            }
            mutated(&els.stmts, out);
        }
        Expr::Match(_, arms) => arms.iter().for_each(|a| mutated(&a.body.stmts, out)),
        Expr::Reduce(it, consumer) => {
            super::print_idiom::mutated_iter(it, out);
            if let Consumer::Fold(_, f) = &**consumer {
                super::print_idiom::mutated_closure(f, out);
            }
        }
        _ => {}
    }
}
