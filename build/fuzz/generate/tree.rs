//! Queries and small rewrites of generated trees: which variables an expression reads, whether
//! its type is known, whether two expressions are the same, and the changes that keep clippy
//! quiet.

use super::super::ast::{Assign, Block, Cond, Expr, Op, Stmt};
use super::super::print::reads_int_stmt;

/// `l op r`.
pub(super) fn bin(op: Op, l: Expr, r: Expr) -> Expr {
    Expr::Bin(op, Box::new(l), Box::new(r))
}

/// Whether Rust could not tell the type of `e` (a float literal, or arithmetic on literals):
/// a method called on it would not compile, and a `let` of it needs its type written.
pub(super) fn ambiguous(e: &Expr) -> bool {
    match e {
        Expr::Lit(_) => true,
        Expr::Neg(x) | Expr::Powi(x, _) | Expr::Ref(x) => ambiguous(x),
        Expr::Bin(_, l, r) => ambiguous(l) && ambiguous(r),
        Expr::Method { recv, ufcs, .. } => !ufcs && ambiguous(recv),
        Expr::If(arms, els) => arms.iter().all(|(_, b)| ambiguous(&b.tail)) && ambiguous(&els.tail),
        Expr::Array(xs) | Expr::Tuple(xs) => xs.iter().all(ambiguous),
        Expr::Zeros(_) => true,
        Expr::Match(_, arms) => arms.iter().all(|a| ambiguous(&a.body.tail)),
        Expr::Var(_)
        | Expr::Elem(..)
        | Expr::Data(..)
        | Expr::Cast(_)
        | Expr::Call(..)
        | Expr::Reduce(..)
        | Expr::Test(_)
        | Expr::Deref(_)
        | Expr::IntArg(_) => false,
    }
}

/// Whether `a` and `b` are the same expression, up to the order of the operands of `+` and `*`
/// (clippy's `eq_op` sees through that too).
pub(super) fn same(a: &Expr, b: &Expr) -> bool {
    match (a, b) {
        (Expr::Bin(o1, l1, r1), Expr::Bin(o2, l2, r2)) if o1 == o2 => {
            (same(l1, l2) && same(r1, r2))
                || (matches!(o1, Op::Add | Op::Mul) && same(l1, r2) && same(r1, l2))
        }
        _ => a == b,
    }
}

/// The variables `e` reads, conditions included.
pub(super) fn names(e: &Expr, out: &mut Vec<String>) {
    match e {
        Expr::Var(n) | Expr::Elem(n, _) | Expr::Deref(n) => out.push(n.clone()),
        // The iterator form's nodes are not the generator's: it never asks about them.
        Expr::Lit(_)
        | Expr::Data(..)
        | Expr::Cast(_)
        | Expr::Zeros(_)
        | Expr::IntArg(_)
        | Expr::Reduce(..)
        | Expr::Match(..)
        | Expr::Test(_) => {}
        Expr::Neg(x) | Expr::Powi(x, _) | Expr::Ref(x) => names(x, out),
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
        Expr::Array(xs) | Expr::Tuple(xs) | Expr::Call(_, xs) => {
            xs.iter().for_each(|x| names(x, out))
        }
    }
}

pub(super) fn block_names(b: &Block, out: &mut Vec<String>) {
    for s in &b.stmts {
        if let Stmt::Let(_, _, e) = s {
            names(e, out);
        }
    }
    names(&b.tail, out);
}

pub(super) fn cond_names(c: &Cond, out: &mut Vec<String>) {
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

/// The values of the branches of an `if`, made distinct (clippy flags branches with the same
/// body), by scaling a repeated one.
pub(super) fn distinct(tails: &mut [&mut Expr]) {
    for k in 1..tails.len() {
        if tails[..k].iter().any(|t| same(t, tails[k])) {
            let e = std::mem::replace(&mut *tails[k], Expr::Lit(0.0));
            *tails[k] = Expr::Bin(Op::Mul, Box::new(Expr::Lit(0.5 + k as f64 / 64.0)), Box::new(e));
        }
    }
}

/// `rhs` for `target = rhs`, changed when clippy would read it as `target op= e` or as a
/// self-assignment.
pub(super) fn not_assign_op(target: &Expr, rhs: Expr) -> Expr {
    if rhs == *target {
        return bin(Op::Add, bin(Op::Mul, Expr::Lit(0.5), rhs), Expr::Lit(0.25));
    }
    let manual = match &rhs {
        Expr::Bin(Op::Add | Op::Mul, l, r) => **l == *target || **r == *target,
        Expr::Bin(_, l, _) => **l == *target,
        _ => false,
    };
    if manual { bin(Op::Mul, Expr::Lit(0.5), rhs) } else { rhs }
}

/// `rhs` for `target op= rhs`, changed when clippy would read it as a misrefactored
/// `target op= target op e` (or `e op target` for `+` and `*`).
pub(super) fn not_misrefactored(op: Assign, target: &Expr, rhs: Expr) -> Expr {
    let suspicious = match (op, &rhs) {
        (Assign::Add, Expr::Bin(Op::Add, l, r)) | (Assign::Mul, Expr::Bin(Op::Mul, l, r)) => {
            **l == *target || **r == *target
        }
        (Assign::Sub, Expr::Bin(Op::Sub, l, _)) | (Assign::Div, Expr::Bin(Op::Div, l, _)) => {
            **l == *target
        }
        _ => false,
    };
    if suspicious { bin(Op::Mul, Expr::Lit(0.5), rhs) } else { rhs }
}

/// Removes `let name = ..;` (an integer) from `block` if nothing in it reads `name`.
pub(super) fn drop_unread_int(block: &mut Vec<Stmt>, name: &str) {
    if !block.iter().any(|s| reads_int_stmt(s, name)) {
        block.retain(|s| !matches!(s, Stmt::LetInt(n, _) if n == name));
    }
}
