//! A `loop` whose body begins with its exit test, read as the `while` loop it is:
//!
//! ```text
//! loop { if i >= n { break; } body }                  while !(i >= n) { body }
//! loop { let stop = i >= n; if stop { break; } body }  while !(i >= n) { body }
//! ```
//! (the `let` kept at the top of the body when the body reads `stop`; `if !more { break; }` after
//! `let more = go;` is `while !(!(go))`). The body is then the loop's own, run whole in each
//! iteration, where the rewrite of exits (`exits`) would have put it under the flag of the
//! `break`: so a counter stepped in it (`i += 1`) is read from the iteration's index, as in the
//! `while` loop (`counter/held.rs`), and the loop runs no last iteration that only exits. The
//! `break` may name the loop's own label; the body may exit elsewhere too.
//!
//! What this does not know: an exit test after other statements (`loop { a; if c { break; } b }`,
//! whose `a` runs once more than `b`), which stays the flags of `exits`.

use syn::{Block, Expr, ExprBreak, ExprLoop, ExprParen, ExprUnary, ExprWhile, Pat, Stmt, UnOp};

use super::names_in;
use crate::lower::value::peel;
use crate::symbol;

/// `l` as a `while` loop, if its body begins with its exit test.
pub(in crate::lower) fn as_while(l: &ExprLoop) -> Option<ExprWhile> {
    let own = |b: &ExprBreak| {
        let label = match (&b.label, &l.label) {
            (None, _) => true,
            (Some(named), Some(own)) => named.ident == own.name.ident,
            (Some(_), None) => false,
        };
        label && b.expr.is_none()
    };
    let (first, after) = l.body.stmts.split_first()?;
    let (stop, rest) = match (exit_test(first, own), first) {
        (Some(c), _) => (c.clone(), after.to_vec()),
        (None, Stmt::Local(local)) => {
            let (name, value) = bool_let(local)?;
            let (second, rest) = after.split_first()?;
            let stop = through(exit_test(second, own)?, &name, value)?;
            let read = rest.iter().any(|s| names_in(s).contains(&name));
            let kept = read.then(|| Stmt::Local(local.clone()));
            (stop, kept.into_iter().chain(rest.iter().cloned()).collect())
        }
        (None, _) => return None,
    };
    Some(ExprWhile {
        attrs: l.attrs.clone(),
        label: l.label.clone(),
        while_token: syn::Token![while](l.loop_token.span),
        cond: Box::new(not(stop)),
        body: Block { brace_token: l.body.brace_token, stmts: rest },
    })
}

/// `d` of `if d { break; }`, the `break` one that `own` says leaves the loop.
fn exit_test(s: &Stmt, own: impl Fn(&ExprBreak) -> bool) -> Option<&Expr> {
    let Stmt::Expr(Expr::If(i), _) = s else { return None };
    match (i.then_branch.stmts.as_slice(), &i.else_branch) {
        ([Stmt::Expr(Expr::Break(b), _)], None) if own(b) => Some(&i.cond),
        _ => None,
    }
}

/// The name and value of `let b = value;` (or `let b: bool = value;`), a `bool` that is not
/// `mut`.
fn bool_let(local: &syn::Local) -> Option<(String, &Expr)> {
    let pat = match &local.pat {
        Pat::Type(t) => &*t.pat,
        other => other,
    };
    let Pat::Ident(p) = pat else { return None };
    let plain = p.by_ref.is_none() && p.mutability.is_none() && p.subpat.is_none();
    let init = local.init.as_ref().filter(|i| i.diverge.is_none())?;
    plain.then(|| (symbol::unraw(&p.ident), &*init.expr))
}

/// The test `d` (`b` or `!b`) with the `bool` `b` read as its value.
fn through(d: &Expr, b: &str, value: &Expr) -> Option<Expr> {
    let is_b = |e: &Expr| matches!(peel(e), Expr::Path(p) if p.path.get_ident().is_some_and(|id| symbol::unraw(id) == b));
    match peel(d) {
        e if is_b(e) => Some(value.clone()),
        Expr::Unary(u) if matches!(u.op, UnOp::Not(_)) && is_b(&u.expr) => Some(not(value.clone())),
        _ => None,
    }
}

/// `(e)`.
fn paren(e: Expr) -> Expr {
    Expr::Paren(ExprParen { attrs: Vec::new(), paren_token: Default::default(), expr: Box::new(e) })
}

/// `!(e)`.
fn not(e: Expr) -> Expr {
    let op = UnOp::Not(Default::default());
    Expr::Unary(ExprUnary { attrs: Vec::new(), op, expr: Box::new(paren(e)) })
}
