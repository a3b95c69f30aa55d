//! The pre-pass of a loop or a branch: the user variables declared outside it that it assigns
//! (whole, or an element), which become the values the region carries or yields.

use std::collections::HashSet;

use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::{Block, Expr, Pat, Stmt};

use crate::symbol;

/// The names assigned in `block` that it does not declare itself, in order of first assignment.
pub(super) fn in_block(block: &Block) -> Vec<String> {
    let mut w = Walker::default();
    w.block(block, &[]);
    w.out
}

/// The names assigned in `block` that it does not declare, where a closed form of a counter
/// cannot follow them: inside an `if`, a `match`, or a loop that may end early (`while`, `loop`,
/// a `for` with `break`, `continue` or `return`), at any depth.
pub(super) fn conditional(block: &Block) -> Vec<String> {
    let mut w = Walker::default();
    w.block(block, &[]);
    w.conditional
}

/// Where `e` first assigns `name` (an assignment that is not to a variable `e` declares): the
/// assignment's tokens.
pub(super) fn first_assignment(e: &Expr, name: &str) -> Option<TokenStream> {
    let mut w = Walker::default();
    w.expr(e);
    w.out.iter().position(|n| n == name).map(|i| w.at[i].clone())
}

/// Whether `stmts` (those after `let mut name = ...;`) add or subtract an integer literal to
/// `name` (`name += 1`), which Rust allows only on an integer.
pub(super) fn stepped_by_integer(stmts: &[Stmt], name: &str) -> bool {
    let mut w = Walker { scopes: vec![HashSet::new()], ..Walker::default() };
    w.stmts(stmts);
    w.int_steps.iter().any(|n| n == name)
}

/// The names a pattern binds.
pub(super) fn pattern_names(pat: &Pat) -> Vec<String> {
    let mut w = Walker { scopes: vec![HashSet::new()], ..Walker::default() };
    w.declare_pat(pat);
    let mut names: Vec<String> = w.scopes.pop().unwrap_or_default().into_iter().collect();
    names.sort();
    names
}

/// The names assigned in the branches of `i` (and of its `else if`s) that they do not declare.
pub(super) fn in_if(i: &syn::ExprIf) -> Vec<String> {
    let mut w = Walker::default();
    w.block(&i.then_branch, &[]);
    if let Some((_, els)) = &i.else_branch {
        w.expr(els);
    }
    w.out
}

/// The names assigned in the body of the closure `c` that it does not declare (its parameters
/// are declared in it).
pub(super) fn in_closure(c: &syn::ExprClosure) -> Vec<String> {
    let mut w = Walker { scopes: vec![HashSet::new()], ..Walker::default() };
    for p in &c.inputs {
        w.declare_pat(p);
    }
    w.expr(&c.body);
    w.out
}

/// The root variable of an assignment target: `y` in `y`, `y[i]`, `y[i][j]`, `q.w`, `q.v[i]`.
pub(super) fn target_root(e: &Expr) -> Option<&syn::Ident> {
    match e {
        Expr::Path(p) if p.qself.is_none() => p.path.get_ident(),
        Expr::Index(i) => target_root(&i.expr),
        Expr::Field(f) => target_root(&f.base),
        Expr::Paren(p) => target_root(&p.expr),
        Expr::Group(g) => target_root(&g.expr),
        _ => None,
    }
}

#[derive(Default)]
struct Walker {
    /// The names declared in each open block, innermost last.
    scopes: Vec<HashSet<String>>,
    /// The names assigned, in order of first assignment...
    out: Vec<String>,
    /// ... and the tokens of that assignment.
    at: Vec<TokenStream>,
    /// The names an integer literal is added to or subtracted from (`k += 1`).
    int_steps: Vec<String>,
    /// How many branches and loops that may end early are open here.
    cond: usize,
    /// The names assigned where one is open.
    conditional: Vec<String>,
}

impl Walker {
    fn declare_pat(&mut self, pat: &Pat) {
        let name = match pat {
            Pat::Ident(pi) => symbol::unraw(&pi.ident),
            Pat::Type(pt) => return self.declare_pat(&pt.pat),
            Pat::Reference(r) => return self.declare_pat(&r.pat),
            Pat::Paren(p) => return self.declare_pat(&p.pat),
            Pat::Tuple(t) => return t.elems.iter().for_each(|p| self.declare_pat(p)),
            Pat::Slice(s) => return s.elems.iter().for_each(|p| self.declare_pat(p)),
            Pat::Or(o) => return o.cases.iter().for_each(|p| self.declare_pat(p)),
            Pat::Guard(g) => return self.declare_pat(&g.pat),
            _ => return,
        };
        if let Some(scope) = self.scopes.last_mut() {
            scope.insert(name);
        }
    }

    fn assign(&mut self, target: &Expr, whole: &Expr) {
        let Some(id) = target_root(target) else { return };
        let name = symbol::unraw(id);
        if self.scopes.iter().any(|s| s.contains(&name)) {
            return;
        }
        if self.cond > 0 && !self.conditional.contains(&name) {
            self.conditional.push(name.clone());
        }
        if !self.out.contains(&name) {
            self.out.push(name);
            self.at.push(whole.to_token_stream());
        }
    }

    /// Records `k += 1` or `k -= 1` (an integer literal) for a variable `k` declared outside.
    fn int_step(&mut self, b: &syn::ExprBinary) {
        let int = matches!(&*b.right, Expr::Lit(l) if matches!(&l.lit, syn::Lit::Int(i) if !matches!(i.suffix(), "f64" | "f32")));
        let plus_minus = matches!(b.op, syn::BinOp::AddAssign(_) | syn::BinOp::SubAssign(_));
        let Some(id) = target_root(&b.left).filter(|_| int && plus_minus) else { return };
        let name = symbol::unraw(id);
        if !self.scopes.iter().any(|s| s.contains(&name)) {
            self.int_steps.push(name);
        }
    }

    /// `block`, with `params` declared in it (a loop's variable).
    fn block(&mut self, block: &Block, params: &[&Pat]) {
        self.scopes.push(HashSet::new());
        for p in params {
            self.declare_pat(p);
        }
        self.stmts(&block.stmts);
        self.scopes.pop();
    }

    /// The statements of a block, in its innermost scope.
    fn stmts(&mut self, stmts: &[Stmt]) {
        for stmt in stmts {
            match stmt {
                Stmt::Local(l) => {
                    if let Some(init) = &l.init {
                        self.expr(&init.expr);
                    }
                    self.declare_pat(&l.pat);
                }
                Stmt::Expr(e, _) => self.expr(e),
                Stmt::Item(_) | Stmt::Macro(_) => {}
            }
        }
    }

    fn expr(&mut self, e: &Expr) {
        match e {
            Expr::Assign(a) => {
                // `(a, b) = ..` assigns each place (`sugar::destructure`).
                for place in super::sugar::destructure::places(&a.left) {
                    self.assign(place, e);
                    self.indices(place);
                }
                self.expr(&a.right);
            }
            Expr::Binary(b) if is_compound(&b.op) => {
                self.assign(&b.left, e);
                self.int_step(b);
                self.indices(&b.left);
                self.expr(&b.right);
            }
            Expr::Binary(b) => {
                self.expr(&b.left);
                self.expr(&b.right);
            }
            Expr::ForLoop(f) => {
                self.expr(&f.expr);
                // A `filter` in the loop's chain is an `if` around the body.
                let exits = super::sugar::exits::of_block(&f.body).any() || filters(&f.expr);
                self.cond += usize::from(exits);
                self.block(&f.body, &[&f.pat]);
                self.cond -= usize::from(exits);
            }
            Expr::If(i) => {
                self.expr(&i.cond);
                self.cond += 1;
                self.block(&i.then_branch, &[]);
                if let Some((_, els)) = &i.else_branch {
                    self.expr(els);
                }
                self.cond -= 1;
            }
            Expr::Block(b) => self.block(&b.block, &[]),
            Expr::Match(m) => {
                self.expr(&m.expr);
                self.cond += 1;
                for arm in &m.arms {
                    self.scopes.push(HashSet::new());
                    self.declare_pat(&arm.pat);
                    if let Pat::Guard(g) = &arm.pat {
                        self.expr(&g.guard);
                    }
                    self.expr(&arm.body);
                    self.scopes.pop();
                }
                self.cond -= 1;
            }
            Expr::Closure(c) => {
                self.scopes.push(HashSet::new());
                c.inputs.iter().for_each(|p| self.declare_pat(p));
                self.expr(&c.body);
                self.scopes.pop();
            }
            Expr::While(w) => {
                self.cond += 1;
                self.expr(&w.cond);
                self.block(&w.body, &[]);
                self.cond -= 1;
            }
            Expr::Loop(l) => {
                self.cond += 1;
                self.block(&l.body, &[]);
                self.cond -= 1;
            }
            Expr::Let(l) => self.expr(&l.expr),
            // `&mut y` and `y.iter_mut()` write `y` (in the loop they become, `sugar::places`).
            Expr::Reference(r) if r.mutability.is_some() => {
                self.assign(&r.expr, e);
                self.expr(&r.expr);
            }
            Expr::Reference(r) => self.expr(&r.expr),
            Expr::MethodCall(m) if m.method == symbol::ITER_MUT && m.args.is_empty() => {
                self.assign(&m.receiver, e);
                self.expr(&m.receiver);
            }
            Expr::Field(f) => self.expr(&f.base),
            Expr::Paren(p) => self.expr(&p.expr),
            Expr::Group(g) => self.expr(&g.expr),
            Expr::Unary(u) => self.expr(&u.expr),
            Expr::Cast(c) => self.expr(&c.expr),
            Expr::Index(i) => {
                self.expr(&i.expr);
                self.expr(&i.index);
            }
            Expr::MethodCall(m) => {
                self.expr(&m.receiver);
                m.args.iter().for_each(|a| self.expr(a));
            }
            Expr::Call(c) => {
                self.expr(&c.func);
                c.args.iter().for_each(|a| self.expr(a));
            }
            Expr::Array(a) => a.elems.iter().for_each(|x| self.expr(x)),
            Expr::Tuple(t) => t.elems.iter().for_each(|x| self.expr(x)),
            _ => {}
        }
    }

    /// The index expressions of an assignment target (`y[{ s += 1.0; i }]` is refused later,
    /// but is walked all the same).
    fn indices(&mut self, target: &Expr) {
        if let Expr::Index(i) = target {
            self.indices(&i.expr);
            self.expr(&i.index);
        }
    }
}

/// Whether the chain of method calls `e` has a `filter`.
fn filters(e: &Expr) -> bool {
    match e {
        Expr::MethodCall(m) => m.method == symbol::FILTER || filters(&m.receiver),
        Expr::Paren(p) => filters(&p.expr),
        _ => false,
    }
}

fn is_compound(op: &syn::BinOp) -> bool {
    use syn::BinOp::*;
    matches!(
        op,
        AddAssign(_)
            | SubAssign(_)
            | MulAssign(_)
            | DivAssign(_)
            | RemAssign(_)
            | BitXorAssign(_)
            | BitAndAssign(_)
            | BitOrAssign(_)
            | ShlAssign(_)
            | ShrAssign(_)
    )
}
