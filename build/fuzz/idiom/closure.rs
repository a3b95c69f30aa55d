//! Closures bound with `let` and called: a subexpression of a statement's value becomes
//! `let h = |z1: f64, ..| e;` two statements earlier, and the statement calls `h(..)`. Some of
//! the values it reads (variables, elements, data, casts) become parameters, the arguments of
//! the call; the rest it captures. It captures nothing that the statement between, or the
//! statement calling it, declares or assigns (rustc's borrows forbid it, and the macro pins a
//! capture to its value where the closure is written), and a statement between keeps clippy
//! from asking for the closure to be inlined (`redundant_closure_call`).

use std::collections::HashSet;

use super::super::ast::{Expr, Place, Stmt};
use super::walk::{expr_names, map_expr};
use super::{Rewriter, Ty};

/// Whether `e` is arithmetic, methods called on a receiver and leaves only (no branch, no call,
/// nothing of the iterator form).
fn plain(e: &Expr) -> bool {
    match e {
        Expr::Lit(_) | Expr::Var(_) | Expr::Elem(..) | Expr::Data(..) | Expr::Cast(_) => true,
        Expr::Neg(x) | Expr::Powi(x, _) => plain(x),
        Expr::Bin(_, l, r) => plain(l) && plain(r),
        Expr::Method { recv, args, .. } => plain(recv) && args.iter().all(plain),
        _ => false,
    }
}

/// The subexpressions of `e` a closure may be: arithmetic or a method called on a receiver
/// (`f64::sin(z)` would be clippy's `redundant_closure`), plain.
fn candidates<'a>(e: &'a Expr, out: &mut Vec<&'a Expr>) {
    let fits = match e {
        Expr::Bin(..) | Expr::Neg(_) | Expr::Powi(..) => true,
        Expr::Method { ufcs, .. } => !ufcs,
        _ => false,
    };
    if fits && plain(e) {
        out.push(e);
    }
    match e {
        Expr::Neg(x) | Expr::Powi(x, _) | Expr::Ref(x) => candidates(x, out),
        Expr::Bin(_, l, r) => {
            candidates(l, out);
            candidates(r, out);
        }
        Expr::Method { recv, args, .. } => {
            candidates(recv, out);
            args.iter().for_each(|a| candidates(a, out));
        }
        Expr::Array(xs) | Expr::Tuple(xs) | Expr::Call(_, xs) => {
            xs.iter().for_each(|x| candidates(x, out))
        }
        _ => {}
    }
}

/// The leaves of `e` that may be parameters: `f64` values.
fn leaves(e: &Expr, out: &mut Vec<Expr>) {
    match e {
        Expr::Var(_) | Expr::Elem(..) | Expr::Data(..) | Expr::Cast(_) if !out.contains(e) => {
            out.push(e.clone())
        }
        Expr::Var(_) | Expr::Elem(..) | Expr::Data(..) | Expr::Cast(_) => {}
        Expr::Neg(x) | Expr::Powi(x, _) => leaves(x, out),
        Expr::Bin(_, l, r) => {
            leaves(l, out);
            leaves(r, out);
        }
        Expr::Method { recv, args, .. } => {
            leaves(recv, out);
            args.iter().for_each(|a| leaves(a, out));
        }
        _ => {}
    }
}

/// The names a statement `let`s or assigns.
fn written(s: &Stmt) -> HashSet<String> {
    match s {
        Stmt::Let(n, ..) | Stmt::LetInt(n, _) => HashSet::from([n.clone()]),
        Stmt::Assign(Place::Var(n) | Place::Elem(n, _), ..) => HashSet::from([n.clone()]),
        _ => HashSet::new(),
    }
}

impl Rewriter {
    /// Sometimes, one subexpression of a statement of `out` as a closure.
    pub(super) fn closures(&mut self, out: &mut Vec<Stmt>) {
        if out.len() < 2 || !self.rng.chance(35) {
            return;
        }
        let k = 1 + self.rng.below(out.len() - 1);
        let simple = |s: &Stmt| matches!(s, Stmt::Let(..) | Stmt::LetInt(..) | Stmt::Assign(..));
        if !simple(&out[k - 1]) {
            return;
        }
        let (Stmt::Let(_, _, e) | Stmt::Assign(_, _, e)) = &out[k] else { return };
        let mut found = Vec::new();
        candidates(e, &mut found);
        if found.is_empty() {
            return;
        }
        let sub = found[self.rng.below(found.len())].clone();
        let mut blocked = written(&out[k - 1]);
        blocked.extend(written(&out[k]));
        let mut all = Vec::new();
        leaves(&sub, &mut all);
        if all.is_empty() {
            return;
        }
        // A leaf reading a blocked name must be a parameter; the others sometimes are.
        let mut params = Vec::new();
        for leaf in all {
            let mut names = HashSet::new();
            expr_names(&leaf, &mut names);
            let readable = names.iter().all(|n| !blocked.contains(n) && self.capturable(n));
            if !readable || self.rng.chance(55) {
                params.push(leaf);
            }
        }
        let zs: Vec<String> = params.iter().map(|_| self.fresh("z")).collect();
        let body = map_expr(&sub, &|x: &Expr| {
            params.iter().position(|p| p == x).map(|at| Expr::Var(zs[at].clone()))
        });
        let h = self.fresh("h");
        let call = Expr::Call(h.clone(), params.clone());
        let replaced = map_expr(e, &|x: &Expr| (*x == sub).then(|| call.clone()));
        out[k] = match &out[k] {
            Stmt::Let(n, ty, _) => Stmt::Let(n.clone(), ty.clone(), replaced),
            Stmt::Assign(p, op, _) => Stmt::Assign(p.clone(), *op, replaced),
            other => other.clone(),
        };
        out.insert(k - 1, Stmt::Closure(h, zs, body));
        self.changed = true;
    }

    /// Whether a closure may capture `name` (an `f64`, an array, an integer or data in scope).
    fn capturable(&self, name: &str) -> bool {
        self.ty(name).is_some_and(|t| !matches!(t, Ty::Other))
    }
}
