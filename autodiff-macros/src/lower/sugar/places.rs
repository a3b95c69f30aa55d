//! Elements written through: the loop a `for` over `y.iter_mut()` (or `&mut y`, or a
//! `for_each` on it) becomes binds each element of `iter_mut` to the place it is, not to a
//! reference, so that the body reads and writes the array:
//!
//! ```text
//! for (i, v) in y.iter_mut().enumerate() { *v += x[i]; }
//! ```
//! becomes
//! ```text
//! for i in 0..y.len() { y[i] += x[i]; }
//! ```
//! `*v` and `v` (a method's receiver, `v.sin()`) are both `y[i]`. The other parts of the element
//! are bound by `let` as for any chain. What this does not know: a binding in the body (or in the
//! pattern) that shadows the element's name or a name of its place (`y`, the index), and an
//! element of `iter_mut` bound other than to a name: both are refused with what to write.

use std::collections::HashMap;

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};
use syn::visit::Visit;
use syn::visit_mut::VisitMut;
use syn::{Expr, Pat, Stmt, UnOp};

use super::iter::Tree;
use crate::lower::value::peel;
use crate::symbol;

/// What is refused: where, and the message.
pub(super) type Refused = Option<(TokenStream, String)>;

/// `let pat = elem; stmts`, with the parts of `pat` bound to places substituted in `stmts`
/// instead; on a refusal, recorded in `refused`, the tokens without the substitution.
pub(super) fn bind(pat: &Pat, elem: Tree, stmts: &[Stmt], refused: &mut Refused) -> TokenStream {
    if !elem.writes() {
        return quote!(let #pat = #elem; #(#stmts)*);
    }
    let (mut lets, mut places) = (Vec::new(), HashMap::new());
    if let Err(e) = split(pat, &elem, &mut lets, &mut places) {
        *refused = Some(e);
        return TokenStream::new();
    }
    if let Some(e) = shadowed(&lets, stmts, &places) {
        *refused = Some(e);
        return TokenStream::new();
    }
    let mut subst = Subst { places: &places };
    let stmts: Vec<Stmt> = stmts
        .iter()
        .map(|s| {
            let mut s = s.clone();
            subst.visit_stmt_mut(&mut s);
            s
        })
        .collect();
    let lets = lets.iter().map(|(p, e)| quote!(let #p = #e;));
    quote!(#(#lets)* #(#stmts)*)
}

/// `pat` without parentheses and a type.
fn strip(pat: &Pat) -> &Pat {
    match pat {
        Pat::Paren(p) => strip(&p.pat),
        Pat::Type(t) => strip(&t.pat),
        other => other,
    }
}

/// The parts of a pattern bound by `let`, with their values.
type Lets = Vec<(Pat, Tree)>;

/// Matches `pat` against `elem`: a name bound to a place goes to `places` (name to place), any
/// other part to a `let` in `lets`.
fn split(
    pat: &Pat,
    elem: &Tree,
    lets: &mut Lets,
    places: &mut HashMap<String, Expr>,
) -> Result<(), (TokenStream, String)> {
    match (strip(pat), elem) {
        (Pat::Tuple(t), Tree::Tuple(parts))
            if t.elems.len() == parts.len() && !t.elems.iter().any(|p| matches!(p, Pat::Rest(_))) =>
        {
            t.elems.iter().zip(parts).try_for_each(|(p, e)| split(p, e, lets, places))
        }
        (Pat::Ident(pi), Tree::Place(place))
            if pi.by_ref.is_none() && pi.mutability.is_none() && pi.subpat.is_none() =>
        {
            let place = syn::parse2::<Expr>(place.clone()).map_err(|e| {
                (pat.to_token_stream(), format!("internal error in `#[grad]`: the place of this element does not parse ({e}); please report this with the function that caused it"))
            })?;
            places.insert(symbol::unraw(&pi.ident), place);
            Ok(())
        }
        (Pat::Wild(_), Tree::Place(_)) => Ok(()),
        // The index `i` of `enumerate` bound to the loop's own index `i`.
        (Pat::Ident(pi), Tree::Expr(e)) if pi.ident == e.to_string() => Ok(()),
        (p, e) if !e.writes() => {
            lets.push((p.clone(), e.clone()));
            Ok(())
        }
        (p, _) => Err((
            p.to_token_stream(),
            "`#[grad]` rewrites an element of `iter_mut` bound to a name (written `*v`), as in `for v in y.iter_mut()` or `for (i, v) in y.iter_mut().enumerate()`; bind it to a name here".to_owned(),
        )),
    }
}

/// A binding of the pattern's other parts or of the body that shadows a name the places
/// substitute or read (`y`, the index): it would change what `*v` means.
fn shadowed(
    lets: &Lets,
    stmts: &[Stmt],
    places: &HashMap<String, Expr>,
) -> Option<(TokenStream, String)> {
    let mut read: Vec<(String, String, &Expr)> = Vec::new();
    for (name, place) in places {
        read.push((name.clone(), name.clone(), place));
        for n in super::names_in(place) {
            read.push((n, name.clone(), place));
        }
    }
    let mut bound = Bindings::default();
    lets.iter().for_each(|(p, _)| bound.visit_pat(p));
    stmts.iter().for_each(|s| bound.visit_stmt(s));
    for ident in bound.0 {
        let name = symbol::unraw(&ident);
        if let Some((_, v, place)) = read.iter().find(|(n, _, _)| *n == name) {
            let place = place.to_token_stream().to_string().replace(' ', "");
            return Some((
                ident.to_token_stream(),
                format!(
                    "`#[grad]` reads `*{v}` as `{place}` in this loop, and this binding of `{name}` changes what that means; give it another name"
                ),
            ));
        }
    }
    None
}

/// The names bound by patterns.
#[derive(Default)]
struct Bindings(Vec<proc_macro2::Ident>);

impl<'ast> Visit<'ast> for Bindings {
    fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
        self.0.push(p.ident.clone());
        syn::visit::visit_pat_ident(self, p);
    }
}

/// Replaces `*v` and `v` by the place `v` names.
struct Subst<'a> {
    places: &'a HashMap<String, Expr>,
}

impl Subst<'_> {
    fn place(&self, e: &Expr) -> Option<Expr> {
        let Expr::Path(p) = peel(e) else { return None };
        if p.qself.is_some() {
            return None;
        }
        self.places.get(&symbol::unraw(p.path.get_ident()?)).cloned()
    }
}

impl VisitMut for Subst<'_> {
    fn visit_expr_mut(&mut self, e: &mut Expr) {
        let deref = match e {
            Expr::Unary(u) if matches!(u.op, UnOp::Deref(_)) => self.place(&u.expr),
            _ => None,
        };
        if let Some(place) = deref.or_else(|| self.place(e)) {
            *e = place;
            return;
        }
        syn::visit_mut::visit_expr_mut(self, e);
    }
}
