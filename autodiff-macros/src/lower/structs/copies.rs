//! A local bound to a field of a parameter and never changed (`let w = m.w;`,
//! `let inner = self.inner;`), read as the field itself: `g(&w)` is lowered as `g(&m.w)` and
//! `inner.norm()` as `self.inner.norm()`, so a copy of a field passed whole to calls is held
//! as the field is (laid flat, whatever its type), and one that is indexed is typed by its
//! indices as the field is. The `let` goes (the body has no macro that could read the local:
//! lowering refuses macros; the user's `f` is re-emitted unchanged).
//!
//! The rewrite keeps the meaning: the local is bound once in the body, not `mut`, not typed,
//! and the parameter is not `mut` nor bound again, so the local and the field hold the same
//! value wherever the local is in scope. What this does not know: a row (`let r = m.x[0];`),
//! whose index could change, stays a local.

use std::collections::HashMap;

use syn::visit::Visit;
use syn::visit_mut::VisitMut;
use syn::{Block, Expr, FnArg, Pat, Signature, Stmt};

use super::field_path;
use crate::symbol;

/// `body` with the reads of each local bound to a field of a parameter replaced by the field.
pub(in crate::lower) fn inline_copies(sig: &Signature, body: &Block) -> Block {
    let mut bound = Bound::default();
    bound.visit_block(body);
    let roots = sig
        .inputs
        .iter()
        .filter_map(|a| match a {
            FnArg::Receiver(r) if r.mutability.is_none() => Some(symbol::SELF_VALUE.to_owned()),
            FnArg::Typed(t) => match &*t.pat {
                Pat::Ident(p) if p.mutability.is_none() && p.by_ref.is_none() => {
                    Some(symbol::unraw(&p.ident))
                }
                _ => None,
            },
            _ => None,
        })
        .filter(|r| !bound.0.contains_key(r))
        .collect();
    let mut out = body.clone();
    Copies { roots, bound: bound.0, aliases: HashMap::new() }.visit_block_mut(&mut out);
    out
}

/// How many times each name is bound by a pattern in the body.
#[derive(Default)]
struct Bound(HashMap<String, usize>);

impl<'ast> Visit<'ast> for Bound {
    fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
        *self.0.entry(symbol::unraw(&p.ident)).or_default() += 1;
        syn::visit::visit_pat_ident(self, p);
    }
}

struct Copies {
    /// The parameters that are neither `mut` nor bound again.
    roots: Vec<String>,
    bound: HashMap<String, usize>,
    /// The locals in scope that are copies of a field, with the field read.
    aliases: HashMap<String, Expr>,
}

impl Copies {
    /// The local that `stmt` binds to a field of a parameter, if it is one: `let w = m.w;`.
    fn copy(&self, stmt: &Stmt) -> Option<(String, Expr)> {
        let Stmt::Local(l) = stmt else { return None };
        let Pat::Ident(p) = &l.pat else { return None };
        let init = l.init.as_ref().filter(|i| i.diverge.is_none())?;
        if p.mutability.is_some() || p.by_ref.is_some() || p.subpat.is_some() {
            return None;
        }
        let name = symbol::unraw(&p.ident);
        let (root, _) = field_path(&init.expr)?;
        let once = self.bound.get(&name) == Some(&1);
        (once && self.roots.contains(&root)).then(|| (name, (*init.expr).clone()))
    }
}

impl VisitMut for Copies {
    fn visit_block_mut(&mut self, b: &mut Block) {
        let outer = self.aliases.clone();
        let mut stmts = Vec::with_capacity(b.stmts.len());
        for mut stmt in std::mem::take(&mut b.stmts) {
            self.visit_stmt_mut(&mut stmt);
            match self.copy(&stmt) {
                Some((name, read)) => {
                    self.aliases.insert(name, read);
                }
                None => stmts.push(stmt),
            }
        }
        b.stmts = stmts;
        self.aliases = outer;
    }

    fn visit_expr_mut(&mut self, e: &mut Expr) {
        if let Expr::Path(p) = e
            && p.qself.is_none()
            && let Some(read) =
                p.path.get_ident().and_then(|id| self.aliases.get(&symbol::unraw(id)))
        {
            *e = read.clone();
            return;
        }
        syn::visit_mut::visit_expr_mut(self, e);
    }

    fn visit_field_value_mut(&mut self, f: &mut syn::FieldValue) {
        // `Model { w, .. }` for a copy `w`: `Model { w: m.w, .. }`.
        let alias = match &f.expr {
            Expr::Path(p) => {
                p.path.get_ident().is_some_and(|id| self.aliases.contains_key(&symbol::unraw(id)))
            }
            _ => false,
        };
        if alias && f.colon_token.is_none() {
            f.colon_token = Some(Default::default());
        }
        syn::visit_mut::visit_field_value_mut(self, f);
    }
}

#[cfg(test)]
mod tests {
    use quote::quote;

    fn inlined(f: proc_macro2::TokenStream) -> String {
        let item: syn::ItemFn = syn::parse2(f).expect("a function");
        let block = super::inline_copies(&item.sig, &item.block);
        quote!(#block).to_string()
    }

    #[test]
    fn a_copy_of_a_field_is_read_as_the_field() {
        let got = inlined(quote!(
            fn f(m: &M) -> f64 {
                let w = m.w;
                let v = w;
                let i = m.inner;
                g(&w) + h(v) + i.norm() + w[0] + M { w, b: 1.0 }.b
            }
        ));
        let want = quote!({ g(&m.w) + h(m.w) + m.inner.norm() + m.w[0] + M { w: m.w, b: 1.0 }.b });
        assert_eq!(got, want.to_string());
    }

    #[test]
    fn a_local_bound_again_a_mut_root_or_a_row_is_left_alone() {
        for f in [
            quote!(
                fn f(m: &M) -> f64 {
                    let w = m.w;
                    let s = {
                        let w = 1.0;
                        w
                    };
                    g(w) + s
                }
            ),
            quote!(
                fn f(mut m: M) -> f64 {
                    let w = m.w;
                    m.w = [0.0; 2];
                    g(w)
                }
            ),
            quote!(
                fn f(m: &M) -> f64 {
                    let m = *m;
                    let w = m.w;
                    g(w)
                }
            ),
            quote!(
                fn f(m: &M) -> f64 {
                    let mut w = m.w;
                    w[0] = 1.0;
                    g(w)
                }
            ),
            quote!(
                fn f(m: &M) -> f64 {
                    let r = m.x[0];
                    g(r)
                }
            ),
            quote!(
                fn f(m: &M) -> f64 {
                    let w: [f64; 2] = m.w;
                    g(w)
                }
            ),
        ] {
            let item: syn::ItemFn = syn::parse2(f).expect("a function");
            let block = &item.block;
            assert_eq!(inlined(quote!(#item)), quote!(#block).to_string());
        }
    }
}
