//! Which of the variables a loop assigns are read after it: a `fold` that ends a loop assigns
//! its result once, after the loop, where rustc warns if nothing reads it (inside the loop,
//! the next iteration read it). Computed on the program as generated, for every `for` loop in
//! the order a walk of the tree meets them.
//!
//! A read anywhere in a statement counts (rustc counts a read on some path); the generator
//! never overwrites a variable without reading it, so no assignment hides an earlier value, but
//! a `let` does: a variable declared in a loop's body is a new one in the next iteration.

use std::collections::HashSet;

use super::super::ast::{Expr, Stmt};
use super::walk::{assigned, declared, expr_names, reads};

/// What follows a statement.
enum Cont<'a> {
    /// The function's output.
    Tail(&'a Expr),
    /// The rest of a block, then what follows it.
    After(&'a [Stmt], &'a Cont<'a>),
    /// The end of a loop's body: the next iteration, or what follows the loop.
    Loop(&'a [Stmt], &'a Cont<'a>),
}

/// Whether `stmts` read `name` before they declare it anew: `Some(true)` if they read it,
/// `Some(false)` if they declare it first, `None` if neither.
fn scan(stmts: &[Stmt], name: &str) -> Option<bool> {
    for s in stmts {
        let mut inside = HashSet::new();
        declared(std::slice::from_ref(s), &mut inside);
        if inside.contains(name) {
            return Some(false);
        }
        if reads(s, name) {
            return Some(true);
        }
    }
    None
}

fn live(cont: &Cont, name: &str) -> bool {
    match cont {
        Cont::Tail(e) => {
            let mut names = HashSet::new();
            expr_names(e, &mut names);
            names.contains(name)
        }
        Cont::After(rest, up) => scan(rest, name).unwrap_or_else(|| live(up, name)),
        Cont::Loop(body, up) => scan(body, name) == Some(true) || live(up, name),
    }
}

fn walk(stmts: &[Stmt], cont: &Cont, out: &mut Vec<HashSet<String>>) {
    for (k, s) in stmts.iter().enumerate() {
        let here = Cont::After(&stmts[k + 1..], cont);
        match s {
            Stmt::For(_, _, body) => {
                let after: HashSet<String> =
                    assigned(body).into_iter().filter(|n| live(&here, n)).collect();
                out.push(after);
                walk(body, &Cont::Loop(body, &here), out);
            }
            Stmt::If(arms, els) => {
                arms.iter().for_each(|(_, b)| walk(b, &here, out));
                els.iter().for_each(|b| walk(b, &here, out));
            }
            _ => {}
        }
    }
}

/// For each `for` loop of `body`, in the order of a walk, the variables it assigns that are
/// read after it.
pub fn after_loops(body: &[Stmt], tail: &Expr) -> Vec<HashSet<String>> {
    let mut out = Vec::new();
    walk(body, &Cont::Tail(tail), &mut out);
    out
}
