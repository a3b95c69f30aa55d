//! Scopes for the rewrites that find a parameter's reads by its name (`arrays.rs`): which of
//! the names they look for a binding of the body shadows, where. A `let` shadows a name from
//! its pattern to the end of its block (its initializer and its `else` still read the outer
//! one), a closure's parameters in its body, a `for` loop's pattern in its body (not in its
//! range), a `match` arm's pattern in its guard and its body, and an `if let` or `while let`
//! in the rest of its condition and its block.
//!
//! A visitor keeps a [`Shadows`] and sends the visits that open scopes here ([`Scoped`]). What
//! this does not know: items nested in the body (a `fn` or a `const` inside it, which cannot
//! read the function's parameters), which are not visited.

use syn::visit::Visit;
use syn::visit_mut::VisitMut;
use syn::{Block, Expr, Pat, Stmt};

use crate::symbol;

/// The names a visitor looks for, and those of them shadowed where it is.
#[derive(Clone, Default)]
pub(in crate::lower) struct Shadows {
    /// The names looked for.
    watched: Vec<String>,
    /// The watched names bound again in the scopes entered, innermost last.
    hidden: Vec<String>,
}

impl Shadows {
    pub(in crate::lower) fn new(watched: Vec<String>) -> Self {
        Shadows { watched, hidden: Vec::new() }
    }

    /// Whether `name` is shadowed here.
    pub(in crate::lower) fn hides(&self, name: &str) -> bool {
        self.hidden.iter().any(|h| h == name)
    }

    /// The watched names that `pat` binds are shadowed from here.
    fn bind(&mut self, pat: &Pat) {
        let watched = bound_names(pat).into_iter().filter(|n| self.watched.contains(n));
        self.hidden.extend(watched);
    }

    /// Leaves the scopes entered since `mark` (a length of `hidden`).
    fn leave(&mut self, mark: usize) {
        self.hidden.truncate(mark);
    }
}

/// The names `pat` binds.
pub(in crate::lower) fn bound_names(pat: &Pat) -> Vec<String> {
    let mut names = Names(Vec::new());
    names.visit_pat(pat);
    names.0
}

/// The patterns of the `let`s of the condition `cond` (`let Some(x) = e && x > 0.0`).
pub(in crate::lower) fn condition_lets(cond: &Expr) -> Vec<&Pat> {
    match cond {
        Expr::Let(l) => vec![&*l.pat],
        Expr::Binary(b) if matches!(b.op, syn::BinOp::And(_)) => {
            let mut out = condition_lets(&b.left);
            out.extend(condition_lets(&b.right));
            out
        }
        _ => Vec::new(),
    }
}

/// The names a pattern binds.
struct Names(Vec<String>);

impl<'ast> Visit<'ast> for Names {
    fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
        self.0.push(symbol::unraw(&p.ident));
        syn::visit::visit_pat_ident(self, p);
    }

    // A guard binds nothing (a closure in it binds in the closure only).
    fn visit_pat_guard(&mut self, g: &'ast syn::PatGuard) {
        self.visit_pat(&g.pat);
    }
}

/// The `VisitMut` methods of a [`Scoped`] visitor that open scopes, each sent here: written
/// once, inside each visitor's `impl VisitMut`.
macro_rules! scoped_visits {
    () => {
        fn visit_block_mut(&mut self, b: &mut syn::Block) {
            super::scope::block(self, b);
        }

        fn visit_expr_closure_mut(&mut self, c: &mut syn::ExprClosure) {
            super::scope::closure(self, c);
        }

        fn visit_expr_for_loop_mut(&mut self, f: &mut syn::ExprForLoop) {
            super::scope::for_loop(self, f);
        }

        fn visit_arm_mut(&mut self, a: &mut syn::Arm) {
            super::scope::arm(self, a);
        }

        fn visit_expr_if_mut(&mut self, i: &mut syn::ExprIf) {
            super::scope::if_expr(self, i);
        }

        fn visit_expr_while_mut(&mut self, w: &mut syn::ExprWhile) {
            super::scope::while_expr(self, w);
        }
    };
}
pub(super) use scoped_visits;

/// A visitor that keeps its scopes in a [`Shadows`]: its `visit_block_mut`,
/// `visit_expr_closure_mut`, `visit_expr_for_loop_mut`, `visit_arm_mut`, `visit_expr_if_mut`
/// and `visit_expr_while_mut` call the functions of this file of the same name.
pub(in crate::lower) trait Scoped: VisitMut + Sized {
    fn shadows(&mut self) -> &mut Shadows;

    /// Before the statement `k` of a block is visited (a hook: nothing by default).
    fn at_stmt(&mut self, _stmts: &mut Vec<Stmt>, _k: usize) {}
}

/// A block: each `let` shadows from its pattern to the block's end.
pub(in crate::lower) fn block<V: Scoped>(v: &mut V, b: &mut Block) {
    let mark = v.shadows().hidden.len();
    let mut k = 0;
    while k < b.stmts.len() {
        v.at_stmt(&mut b.stmts, k);
        match &mut b.stmts[k] {
            Stmt::Local(l) => {
                v.visit_attributes_mut(&mut l.attrs);
                if let Some(init) = &mut l.init {
                    v.visit_expr_mut(&mut init.expr);
                    if let Some((_, e)) = &mut init.diverge {
                        v.visit_expr_mut(e);
                    }
                }
                v.shadows().bind(&l.pat);
            }
            Stmt::Item(_) => {}
            stmt => v.visit_stmt_mut(stmt),
        }
        k += 1;
    }
    v.shadows().leave(mark);
}

/// A closure: its parameters shadow in its body.
pub(in crate::lower) fn closure<V: Scoped>(v: &mut V, c: &mut syn::ExprClosure) {
    let mark = v.shadows().hidden.len();
    c.inputs.iter().for_each(|p| v.shadows().bind(p));
    v.visit_expr_mut(&mut c.body);
    v.shadows().leave(mark);
}

/// A `for` loop: its pattern shadows in its body, not in its range.
pub(in crate::lower) fn for_loop<V: Scoped>(v: &mut V, f: &mut syn::ExprForLoop) {
    v.visit_expr_mut(&mut f.expr);
    let mark = v.shadows().hidden.len();
    v.shadows().bind(&f.pat);
    v.visit_block_mut(&mut f.body);
    v.shadows().leave(mark);
}

/// A `match` arm: its pattern shadows in its guard and its body.
pub(in crate::lower) fn arm<V: Scoped>(v: &mut V, arm: &mut syn::Arm) {
    let mark = v.shadows().hidden.len();
    v.shadows().bind(&arm.pat);
    // Its guard (`Pat::Guard`), after the pattern's bindings.
    v.visit_pat_mut(&mut arm.pat);
    v.visit_expr_mut(&mut arm.body);
    v.shadows().leave(mark);
}

/// An `if`: an `if let` shadows in the rest of its condition and in its block, not in the
/// `else`.
pub(in crate::lower) fn if_expr<V: Scoped>(v: &mut V, i: &mut syn::ExprIf) {
    let mark = v.shadows().hidden.len();
    condition(v, &mut i.cond);
    v.visit_block_mut(&mut i.then_branch);
    v.shadows().leave(mark);
    if let Some((_, els)) = &mut i.else_branch {
        v.visit_expr_mut(els);
    }
}

/// A `while`: a `while let` shadows in the rest of its condition and in its body.
pub(in crate::lower) fn while_expr<V: Scoped>(v: &mut V, w: &mut syn::ExprWhile) {
    let mark = v.shadows().hidden.len();
    condition(v, &mut w.cond);
    v.visit_block_mut(&mut w.body);
    v.shadows().leave(mark);
}

/// A condition, a `let` in it (`let Some(x) = e && x > 0.0`) shadowing from its pattern on.
fn condition<V: Scoped>(v: &mut V, cond: &mut Expr) {
    match cond {
        Expr::Let(l) => {
            v.visit_expr_mut(&mut l.expr);
            v.shadows().bind(&l.pat);
        }
        Expr::Binary(b) if matches!(b.op, syn::BinOp::And(_)) => {
            condition(v, &mut b.left);
            condition(v, &mut b.right);
        }
        other => v.visit_expr_mut(other),
    }
}
