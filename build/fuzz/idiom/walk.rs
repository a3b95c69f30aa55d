//! Queries of program trees for the rewrite: the names a statement reads, assigns and declares,
//! a top-down rewrite of the expressions in statements, and the pruning of the names a pattern
//! binds but nothing reads (rustc would warn).

use std::collections::HashSet;

use super::super::ast::{
    Adaptor, Arm, Block, Closure, Cond, Consumer, Expr, Int, Iter, Pat, Place, Stmt,
};

/// The names `i` reads.
pub fn int_names(i: &Int, out: &mut HashSet<String>) {
    match i {
        Int::Var(v) => {
            out.insert(v.clone());
        }
        Int::Len(d) => {
            out.insert(d.clone());
        }
        Int::Lit(_) => {}
        Int::Bin(_, l, r) => {
            int_names(l, out);
            int_names(r, out);
        }
    }
}

/// The names `e` reads (variables, arrays, data and integers), closures' bodies included.
pub fn expr_names(e: &Expr, out: &mut HashSet<String>) {
    match e {
        Expr::Lit(_) | Expr::Zeros(_) => {}
        Expr::Var(v) | Expr::Deref(v) => {
            out.insert(v.clone());
        }
        Expr::IntArg(i) => int_names(i, out),
        Expr::Elem(a, ix) => {
            out.insert(a.clone());
            ix.iter().for_each(|i| int_names(i, out));
        }
        Expr::Data(d, i) => {
            out.insert(d.clone());
            int_names(i, out);
        }
        Expr::Cast(i) => int_names(i, out),
        Expr::Neg(x) | Expr::Powi(x, _) | Expr::Ref(x) => expr_names(x, out),
        Expr::Bin(_, l, r) => {
            expr_names(l, out);
            expr_names(r, out);
        }
        Expr::Method { recv, args, .. } => {
            expr_names(recv, out);
            args.iter().for_each(|a| expr_names(a, out));
        }
        Expr::If(arms, els) => {
            for (c, b) in arms {
                cond_names(c, out);
                block_names(b, out);
            }
            block_names(els, out);
        }
        Expr::Array(xs) | Expr::Tuple(xs) => xs.iter().for_each(|x| expr_names(x, out)),
        Expr::Call(f, xs) => {
            out.insert(f.clone());
            xs.iter().for_each(|x| expr_names(x, out));
        }
        Expr::Reduce(it, consumer) => {
            iter_names(it, out);
            if let Consumer::Fold(init, f) = &**consumer {
                expr_names(init, out);
                closure_names(f, out);
            }
        }
        Expr::Match(s, arms) => {
            int_names(s, out);
            arm_names(arms, out, block_names);
        }
        Expr::Test(c) => cond_names(c, out),
    }
}

fn arm_names<B>(
    arms: &[Arm<B>],
    out: &mut HashSet<String>,
    body: impl Fn(&B, &mut HashSet<String>),
) {
    for a in arms {
        if let Some(g) = &a.guard {
            cond_names(g, out);
        }
        body(&a.body, out);
    }
}

/// The names the conditions in `c` read.
pub fn cond_names(c: &Cond, out: &mut HashSet<String>) {
    match c {
        Cond::Real(_, l, r) => {
            expr_names(l, out);
            expr_names(r, out);
        }
        Cond::Int(_, l, r) => {
            int_names(l, out);
            int_names(r, out);
        }
        Cond::And(l, r) | Cond::Or(l, r) => {
            cond_names(l, out);
            cond_names(r, out);
        }
        Cond::Not(x) => cond_names(x, out),
    }
}

/// The names a block reads (those it declares included: names are unique in a program).
pub fn block_names(b: &Block, out: &mut HashSet<String>) {
    b.stmts.iter().for_each(|s| stmt_names(s, out));
    expr_names(&b.tail, out);
}

/// The names a closure's body reads.
pub fn closure_names(f: &Closure, out: &mut HashSet<String>) {
    block_names(&f.body, out);
}

/// The names an iterator reads.
pub fn iter_names(it: &Iter, out: &mut HashSet<String>) {
    match it {
        Iter::Source(x, _) => {
            out.insert(x.clone());
        }
        Iter::Range(lo, hi, _) => {
            int_names(lo, out);
            int_names(hi, out);
        }
        Iter::Adapt(inner, a) => {
            iter_names(inner, out);
            match a {
                Adaptor::Zip(other) => iter_names(other, out),
                Adaptor::Skip(k) | Adaptor::Take(k) => int_names(k, out),
                Adaptor::Map(f) | Adaptor::Filter(f) => closure_names(f, out),
                _ => {}
            }
        }
    }
}

/// The names a statement reads: a compound assignment reads its target, a plain one only the
/// target's indices.
pub fn stmt_names(s: &Stmt, out: &mut HashSet<String>) {
    match s {
        Stmt::Let(_, _, e) | Stmt::Closure(_, _, e) | Stmt::LetTuple(_, e) => expr_names(e, out),
        Stmt::LetInt(_, i) => int_names(i, out),
        Stmt::Assign(place, op, rhs) => {
            match place {
                Place::Var(v) if *op != super::super::ast::Assign::Set => {
                    out.insert(v.clone());
                }
                Place::Var(_) => {}
                Place::Elem(a, ix) => {
                    // An element's update keeps the others: the array is read.
                    out.insert(a.clone());
                    ix.iter().for_each(|i| int_names(i, out));
                }
            }
            expr_names(rhs, out);
        }
        Stmt::For(_, r, body) => {
            int_names(&r.lo, out);
            int_names(&r.hi, out);
            body.iter().for_each(|s| stmt_names(s, out));
        }
        Stmt::ForIn(_, it, body) => {
            iter_names(it, out);
            body.iter().for_each(|s| stmt_names(s, out));
        }
        Stmt::If(arms, els) => {
            for (c, b) in arms {
                cond_names(c, out);
                b.iter().for_each(|s| stmt_names(s, out));
            }
            els.iter().flatten().for_each(|s| stmt_names(s, out));
        }
        Stmt::Match(scrutinee, arms) => {
            int_names(scrutinee, out);
            arm_names(arms, out, |b, out| b.iter().for_each(|s| stmt_names(s, out)));
        }
    }
}

/// Whether `s` reads `name`.
pub fn reads(s: &Stmt, name: &str) -> bool {
    let mut names = HashSet::new();
    stmt_names(s, &mut names);
    names.contains(name)
}

/// The names assigned (whole or by element) in `stmts`, in order of first assignment.
pub fn assigned(stmts: &[Stmt]) -> Vec<String> {
    let mut out = Vec::new();
    for s in stmts {
        let inner: Vec<String> = match s {
            Stmt::Assign(Place::Var(v) | Place::Elem(v, _), ..) => vec![v.clone()],
            Stmt::For(_, _, b) | Stmt::ForIn(_, _, b) => assigned(b),
            Stmt::If(arms, els) => {
                let mut all: Vec<String> = arms.iter().flat_map(|(_, b)| assigned(b)).collect();
                all.extend(els.iter().flat_map(|b| assigned(b)));
                all
            }
            Stmt::Match(_, arms) => arms.iter().flat_map(|a| assigned(&a.body)).collect(),
            _ => Vec::new(),
        };
        for v in inner {
            if !out.contains(&v) {
                out.push(v);
            }
        }
    }
    out
}

/// The names `stmts` declare, in nested blocks too.
pub fn declared(stmts: &[Stmt], out: &mut HashSet<String>) {
    for s in stmts {
        match s {
            Stmt::Let(n, ..) | Stmt::LetInt(n, _) | Stmt::Closure(n, ..) => {
                out.insert(n.clone());
            }
            Stmt::LetTuple(ns, _) => out.extend(ns.iter().cloned()),
            Stmt::For(v, _, b) => {
                out.insert(v.clone());
                declared(b, out);
            }
            Stmt::ForIn(_, _, b) => declared(b, out),
            Stmt::If(arms, els) => {
                arms.iter().for_each(|(_, b)| declared(b, out));
                els.iter().for_each(|b| declared(b, out));
            }
            Stmt::Match(_, arms) => arms.iter().for_each(|a| declared(&a.body, out)),
            Stmt::Assign(..) => {}
        }
    }
}

/// `e` with every subexpression for which `f` gives a replacement replaced (top down: a
/// replacement is not visited again).
pub fn map_expr(e: &Expr, f: &dyn Fn(&Expr) -> Option<Expr>) -> Expr {
    if let Some(r) = f(e) {
        return r;
    }
    let m = |x: &Expr| map_expr(x, f);
    let bx = |x: &Expr| Box::new(map_expr(x, f));
    match e {
        Expr::Neg(x) => Expr::Neg(bx(x)),
        Expr::Ref(x) => Expr::Ref(bx(x)),
        Expr::Powi(x, n) => Expr::Powi(bx(x), *n),
        Expr::Bin(op, l, r) => Expr::Bin(*op, bx(l), bx(r)),
        Expr::Method { name, recv, args, ufcs } => {
            Expr::Method { name, recv: bx(recv), args: args.iter().map(m).collect(), ufcs: *ufcs }
        }
        Expr::If(arms, els) => Expr::If(
            arms.iter().map(|(c, b)| (map_cond(c, f), map_block(b, f))).collect(),
            Box::new(map_block(els, f)),
        ),
        Expr::Array(xs) => Expr::Array(xs.iter().map(m).collect()),
        Expr::Tuple(xs) => Expr::Tuple(xs.iter().map(m).collect()),
        Expr::Call(g, xs) => Expr::Call(g.clone(), xs.iter().map(m).collect()),
        Expr::Test(c) => Expr::Test(Box::new(map_cond(c, f))),
        Expr::Match(s, arms) => Expr::Match(
            s.clone(),
            arms.iter()
                .map(|a| Arm {
                    pat: a.pat,
                    guard: a.guard.as_ref().map(|g| map_cond(g, f)),
                    body: map_block(&a.body, f),
                })
                .collect(),
        ),
        // The rewrite maps a loop's body before it writes chains in it.
        other => other.clone(),
    }
}

fn map_block(b: &Block, f: &dyn Fn(&Expr) -> Option<Expr>) -> Block {
    Block { stmts: map_stmts(&b.stmts, f), tail: map_expr(&b.tail, f) }
}

/// `c` with its expressions mapped.
pub fn map_cond(c: &Cond, f: &dyn Fn(&Expr) -> Option<Expr>) -> Cond {
    match c {
        Cond::Real(op, l, r) => Cond::Real(*op, map_expr(l, f), map_expr(r, f)),
        Cond::Int(..) => c.clone(),
        Cond::And(l, r) => Cond::And(Box::new(map_cond(l, f)), Box::new(map_cond(r, f))),
        Cond::Or(l, r) => Cond::Or(Box::new(map_cond(l, f)), Box::new(map_cond(r, f))),
        Cond::Not(x) => Cond::Not(Box::new(map_cond(x, f))),
    }
}

/// `stmts` with their expressions mapped.
pub fn map_stmts(stmts: &[Stmt], f: &dyn Fn(&Expr) -> Option<Expr>) -> Vec<Stmt> {
    stmts
        .iter()
        .map(|s| match s {
            Stmt::Let(n, ty, e) => Stmt::Let(n.clone(), ty.clone(), map_expr(e, f)),
            Stmt::Assign(p, op, e) => Stmt::Assign(p.clone(), *op, map_expr(e, f)),
            Stmt::For(v, r, b) => Stmt::For(v.clone(), r.clone(), map_stmts(b, f)),
            Stmt::If(arms, els) => Stmt::If(
                arms.iter().map(|(c, b)| (map_cond(c, f), map_stmts(b, f))).collect(),
                els.as_ref().map(|b| map_stmts(b, f)),
            ),
            other => other.clone(),
        })
        .collect()
}

/// `p` with the names that `used` lacks as `_` (and a tuple or reference of nothing but `_`
/// as `_`).
pub fn prune(p: &Pat, used: &HashSet<String>) -> Pat {
    match p {
        Pat::Name(n) | Pat::Mut(n) if !used.contains(n) => Pat::Wild,
        Pat::Ref(inner) => match prune(inner, used) {
            Pat::Wild => Pat::Wild,
            q => Pat::Ref(Box::new(q)),
        },
        Pat::Tuple(ps) => {
            let qs: Vec<Pat> = ps.iter().map(|q| prune(q, used)).collect();
            if qs.iter().all(|q| *q == Pat::Wild) { Pat::Wild } else { Pat::Tuple(qs) }
        }
        other => other.clone(),
    }
}

/// Whether an integer expression in `stmts` (an index, a bound, an integer `let`, a condition)
/// satisfies `pred` (for one of its subexpressions).
pub fn any_int(stmts: &[Stmt], pred: &dyn Fn(&Int) -> bool) -> bool {
    fn int(i: &Int, pred: &dyn Fn(&Int) -> bool) -> bool {
        pred(i) || matches!(i, Int::Bin(_, l, r) if int(l, pred) || int(r, pred))
    }
    fn cond(c: &Cond, pred: &dyn Fn(&Int) -> bool) -> bool {
        match c {
            Cond::Int(_, l, r) => int(l, pred) || int(r, pred),
            Cond::Real(_, l, r) => expr(l, pred) || expr(r, pred),
            Cond::And(l, r) | Cond::Or(l, r) => cond(l, pred) || cond(r, pred),
            Cond::Not(x) => cond(x, pred),
        }
    }
    fn expr(e: &Expr, pred: &dyn Fn(&Int) -> bool) -> bool {
        let found = std::cell::Cell::new(false);
        let visit = |x: &Expr| -> Option<Expr> {
            let hit = match x {
                Expr::Elem(_, ix) => ix.iter().any(|i| int(i, pred)),
                Expr::Data(_, i) | Expr::Cast(i) => int(i, pred),
                Expr::If(arms, _) => arms.iter().any(|(c, _)| cond(c, pred)),
                _ => false,
            };
            found.set(found.get() || hit);
            None
        };
        map_expr(e, &visit);
        found.get()
    }
    stmts.iter().any(|s| match s {
        Stmt::Let(_, _, e) => expr(e, pred),
        Stmt::LetInt(_, i) => int(i, pred),
        Stmt::Assign(p, _, e) => {
            matches!(p, Place::Elem(_, ix) if ix.iter().any(|i| int(i, pred))) || expr(e, pred)
        }
        Stmt::For(_, r, b) => int(&r.lo, pred) || int(&r.hi, pred) || any_int(b, pred),
        Stmt::If(arms, els) => {
            arms.iter().any(|(c, b)| cond(c, pred) || any_int(b, pred))
                || els.iter().any(|b| any_int(b, pred))
        }
        _ => false,
    })
}
