//! The pre-pass over a body with differentiated struct parameters: which of their fields it reads
//! (`m.w`, `self.inner.c`), and how. A macro sees tokens, not types, so a field's type is read
//! from its uses: read as a value, it is an `f64`, or an array of as many dimensions as the body
//! indexes it with (at least one where it is iterated over, lent with `&` or asked its `len()`);
//! read only where an integer goes (an index, a range's bound, a cast, a typed integer `let`), it
//! is a constant.

use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::{Block, Expr, Member, Pat, Stmt};

use crate::symbol;

/// How the body uses one field path of a struct parameter.
#[derive(Clone)]
pub(in crate::lower) struct FieldUse {
    /// The parameter's name (`self` for the receiver).
    pub root: String,
    /// The fields from the parameter down (`[inner, c]` for `m.inner.c`).
    pub path: Vec<Member>,
    /// Whether it is read as a value somewhere (else only where an integer goes).
    pub value: bool,
    /// The most dimensions it is indexed with, or known to have.
    pub depth: usize,
    /// Its first use, for messages and for the spans of the generated code's reads.
    pub first: TokenStream,
}

/// Where an expression is read.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ctx {
    /// As a value (an `f64`, or an array).
    Value,
    /// As an integer.
    Int,
}

/// The field paths of `roots` that `body` uses, in order of first use.
pub(in crate::lower) fn uses(body: &Block, roots: &[String]) -> Vec<FieldUse> {
    let mut s = Scan { roots, uses: Vec::new() };
    s.block(body);
    s.uses
}

/// `e` as a path of fields from a name: `m.w` is `("m", [w])`.
pub(in crate::lower) fn field_path(e: &Expr) -> Option<(String, Vec<Member>)> {
    match e {
        Expr::Field(f) => {
            let (root, mut path) = match peel(&f.base) {
                Expr::Path(p) if p.qself.is_none() => {
                    (symbol::unraw(p.path.get_ident()?), Vec::new())
                }
                inner @ Expr::Field(_) => field_path(inner)?,
                _ => return None,
            };
            path.push(f.member.clone());
            Some((root, path))
        }
        Expr::Paren(p) => field_path(&p.expr),
        Expr::Group(g) => field_path(&g.expr),
        _ => None,
    }
}

fn peel(e: &Expr) -> &Expr {
    match e {
        Expr::Paren(p) => peel(&p.expr),
        Expr::Group(g) => peel(&g.expr),
        other => other,
    }
}

/// `x[i][j]` as its base and the number of indices.
fn indexed(e: &Expr) -> (&Expr, usize) {
    match peel(e) {
        Expr::Index(i) => {
            let (base, n) = indexed(&i.expr);
            (base, n + 1)
        }
        other => (other, 0),
    }
}

struct Scan<'a> {
    roots: &'a [String],
    uses: Vec<FieldUse>,
}

impl Scan<'_> {
    /// Records a use of `e` (a field path of a root, indexed `depth` times) if it is one.
    fn record(&mut self, e: &Expr, ctx: Ctx, depth: usize) -> bool {
        let (base, n) = indexed(e);
        let Some((root, path)) = field_path(base) else { return false };
        if !self.roots.contains(&root) {
            return false;
        }
        let value = ctx == Ctx::Value;
        let same = |u: &&mut FieldUse| u.root == root && u.path == path;
        match self.uses.iter_mut().find(same) {
            Some(u) => {
                u.value |= value;
                u.depth = u.depth.max(depth.max(n));
            }
            None => {
                let first = base.to_token_stream();
                self.uses.push(FieldUse { root, path, value, depth: depth.max(n), first });
            }
        }
        if let Expr::Index(i) = peel(e) {
            self.indices(i);
        }
        true
    }

    /// The indices of `x[i][j]`, read as integers.
    fn indices(&mut self, i: &syn::ExprIndex) {
        self.expr(&i.index, Ctx::Int);
        if let Expr::Index(inner) = peel(&i.expr) {
            self.indices(inner);
        }
    }

    fn block(&mut self, b: &Block) {
        for stmt in &b.stmts {
            match stmt {
                Stmt::Local(l) => {
                    let int = matches!(&l.pat, Pat::Type(t) if crate::lower::types::is_int(&t.ty));
                    if let Some(init) = &l.init {
                        self.expr(&init.expr, if int { Ctx::Int } else { Ctx::Value });
                        if let Some((_, e)) = &init.diverge {
                            self.expr(e, Ctx::Value);
                        }
                    }
                }
                Stmt::Expr(e, _) => self.expr(e, Ctx::Value),
                Stmt::Item(_) | Stmt::Macro(_) => {}
            }
        }
    }

    fn expr(&mut self, e: &Expr, ctx: Ctx) {
        if self.record(e, ctx, 0) {
            return;
        }
        match e {
            Expr::Index(i) => {
                self.expr(&i.expr, ctx);
                self.expr(&i.index, Ctx::Int);
            }
            Expr::MethodCall(m) => self.method(m, ctx),
            Expr::Cast(c) => self.expr(&c.expr, Ctx::Int),
            Expr::Range(r) => {
                r.start.iter().chain(r.end.iter()).for_each(|x| self.expr(x, Ctx::Int));
            }
            Expr::Reference(r) if !self.record(&r.expr, ctx, 1) => self.expr(&r.expr, ctx),
            Expr::ForLoop(f) => {
                let iterated = if matches!(peel(&f.expr), Expr::Range(_)) { Ctx::Int } else { ctx };
                if !self.record(&f.expr, iterated, 1) {
                    self.expr(&f.expr, iterated);
                }
                self.block(&f.body);
            }
            Expr::Match(m) => {
                self.expr(&m.expr, Ctx::Int);
                for arm in &m.arms {
                    if let Pat::Guard(g) = &arm.pat {
                        self.expr(&g.guard, Ctx::Value);
                    }
                    self.expr(&arm.body, ctx);
                }
            }
            Expr::Binary(b) => {
                self.expr(&b.left, ctx);
                self.expr(&b.right, ctx);
            }
            Expr::Unary(u) => self.expr(&u.expr, ctx),
            Expr::Paren(p) => self.expr(&p.expr, ctx),
            Expr::Group(g) => self.expr(&g.expr, ctx),
            Expr::Field(f) => self.expr(&f.base, ctx),
            Expr::Block(b) => self.block(&b.block),
            Expr::Unsafe(b) => self.block(&b.block),
            Expr::If(i) => {
                self.expr(&i.cond, Ctx::Value);
                self.block(&i.then_branch);
                if let Some((_, els)) = &i.else_branch {
                    self.expr(els, ctx);
                }
            }
            Expr::While(w) => {
                self.expr(&w.cond, Ctx::Value);
                self.block(&w.body);
            }
            Expr::Loop(l) => self.block(&l.body),
            Expr::Closure(c) => self.expr(&c.body, Ctx::Value),
            Expr::Call(c) => {
                self.expr(&c.func, Ctx::Value);
                c.args.iter().for_each(|a| self.expr(a, ctx));
            }
            Expr::Assign(a) => {
                self.expr(&a.left, Ctx::Value);
                self.expr(&a.right, Ctx::Value);
            }
            Expr::Array(a) => a.elems.iter().for_each(|x| self.expr(x, Ctx::Value)),
            Expr::Tuple(t) => t.elems.iter().for_each(|x| self.expr(x, ctx)),
            Expr::Repeat(r) => {
                self.expr(&r.expr, Ctx::Value);
                self.expr(&r.len, Ctx::Int);
            }
            Expr::Struct(s) => {
                s.fields.iter().for_each(|f| self.expr(&f.expr, Ctx::Value));
                if let Some(rest) = &s.rest {
                    self.expr(rest, Ctx::Value);
                }
            }
            Expr::Return(r) => r.expr.iter().for_each(|x| self.expr(x, Ctx::Value)),
            Expr::Let(l) => self.expr(&l.expr, Ctx::Value),
            _ => {}
        }
    }

    /// `recv.method(args)`: `len()` tells that the receiver is an array, an iterator method that
    /// it is one read as a value, an `f64` method that it is an `f64` (or, among integers, an
    /// integer).
    fn method(&mut self, m: &syn::ExprMethodCall, ctx: Ctx) {
        let name = m.method.to_string();
        let recorded = if name == symbol::LEN {
            self.record(&m.receiver, Ctx::Int, 1)
        } else if symbol::ITER_METHODS.contains(&name.as_str()) {
            self.record(&m.receiver, Ctx::Value, 1)
        } else if symbol::method_prim(&name).is_some() || name == symbol::SIN_COS {
            let int = ctx == Ctx::Int && symbol::INT_METHODS.contains(&name.as_str());
            self.record(&m.receiver, if int { Ctx::Int } else { Ctx::Value }, 0)
        } else {
            false
        };
        if !recorded {
            self.expr(&m.receiver, ctx);
        }
        let args = if symbol::INT_METHODS.contains(&name.as_str()) { ctx } else { Ctx::Value };
        m.args.iter().for_each(|a| self.expr(a, args));
    }
}

#[cfg(test)]
mod tests {
    use super::uses;

    fn scan(body: &str) -> Vec<(String, bool, usize)> {
        let block: syn::Block = syn::parse_str(body).expect("a block");
        uses(&block, &["m".to_owned(), "self".to_owned()])
            .into_iter()
            .map(|u| {
                let path: Vec<String> = u
                    .path
                    .iter()
                    .map(|m| quote::ToTokens::to_token_stream(m).to_string())
                    .collect();
                (format!("{}.{}", u.root, path.join(".")), u.value, u.depth)
            })
            .collect()
    }

    #[test]
    fn a_fields_type_is_read_from_its_uses() {
        let found = scan(
            "{ let mut s = m.b; for k in 0..m.n { s += m.w[k] * m.x[k][m.n - 1]; } \
               let t: usize = m.k; s + self.inner.c.sin() + m.v.iter().sum::<f64>() + m.u.len() as f64 }",
        );
        assert_eq!(
            found,
            vec![
                ("m.b".into(), true, 0),
                ("m.n".into(), false, 0),
                ("m.w".into(), true, 1),
                ("m.x".into(), true, 2),
                ("m.k".into(), false, 0),
                ("self.inner.c".into(), true, 0),
                ("m.v".into(), true, 1),
                ("m.u".into(), false, 1),
            ]
        );
    }
}
