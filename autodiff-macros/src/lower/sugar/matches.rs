//! `match` on an integer, a `bool` or a float, rewritten as the `if` chain it means:
//!
//! ```text
//! match k { 0 => a, 1 | 2 => b, 3..=5 if x > 0.0 => c, n => d(n) }
//! ```
//! becomes
//! ```text
//! { let m = k; if m == 0 { a } else if m == 1 || m == 2 { b }
//!   else if m >= 3 && m <= 5 && x > 0.0 { c } else { let n = m; d(n) } }
//! ```
//! The scrutinee is bound once (unless it is a name or a literal). rustc has checked that the
//! user's `match` is exhaustive, so the last arm is the final `else`. Patterns: literals,
//! ranges, `|`, `_`, names (`n`, `n @ 1..=3`) and paths to constants; guards may compare
//! `f64` values. On a float (`match x { v if v > 1.0 => v.ln(), 0.0..=1.0 => x, _ => -x }`)
//! the chain is the `if`/`else if` a user would write: the scrutinee is a value like any other
//! and the tests are comparisons, which have no derivative.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Arm, Expr, ExprMatch, Pat, RangeLimits};

use super::parse;
use crate::lower::value::peel;
use crate::lower::{Kind, Lower};
use crate::symbol;

/// The patterns a `match` arm may have, for messages.
const PATTERNS: &str =
    "integer, float and `bool` literals, ranges (`1..=3`), `|`, `_`, names and constants";

impl Lower<'_> {
    /// `m` as the `if` chain it means, or `None` after reporting why it cannot be.
    pub(in crate::lower) fn desugar_match(&mut self, m: &ExprMatch) -> Option<Expr> {
        if self.kind(&m.expr) == Kind::Array {
            self.cx.error_spanned(
                m.match_token,
                "`#[grad]` supports `match` on integers, floats and `bool`s, not on arrays; index the array and compare its elements with `if` and `else if`",
            );
            return None;
        }
        let Some((last, rest)) = m.arms.split_last() else {
            self.cx.error_spanned(m, "`#[grad]` needs a `match` with at least one arm");
            return None;
        };
        // A condition is repeated in each arm's test (it is pure); an integer is bound once.
        let boolean = self.kind(&m.expr) == Kind::Bool
            || m.arms.iter().any(|a| matches!(split_guard(&a.pat).0, Pat::Lit(l) if matches!(l.lit, syn::Lit::Bool(_))));
        let simple = boolean || matches!(peel(&m.expr), Expr::Path(_) | Expr::Lit(_));
        let (scrutinee, prologue) = match simple {
            true => (peel(&m.expr).to_token_stream(), TokenStream::new()),
            false => {
                let name = self.names.fresh("m");
                let e = &m.expr;
                (name.to_token_stream(), quote!(let #name = #e;))
            }
        };
        let mut chain = self.arm_body(last, &scrutinee)?;
        for arm in rest.iter().rev() {
            let body = self.arm_body(arm, &scrutinee)?;
            let cond = self.arm_cond(arm, &scrutinee)?;
            chain = match cond {
                Some(c) => quote_spanned!(arm.span()=> if #c #body else #chain),
                // An arm that matches everything ends the chain.
                None => body,
            };
        }
        parse(self.cx, m, quote!({ #prologue #chain }))
    }

    /// The condition under which `arm` is taken, guard included; `Ok(None)` when it always is.
    fn arm_cond(&mut self, arm: &Arm, scrutinee: &TokenStream) -> Option<Option<TokenStream>> {
        let (pat, guard) = split_guard(&arm.pat);
        let names = bound_names(pat);
        let pat = self.pat_cond(pat, scrutinee)?;
        let guard = guard.map(|g| {
            let g = substitute(g, &names, scrutinee);
            quote!((#g))
        });
        Some(match (pat, guard) {
            (Some(p), Some(g)) => Some(quote!(#p && #g)),
            (p, g) => p.or(g),
        })
    }

    /// The arm's body as a block, binding the names its pattern binds to the scrutinee.
    fn arm_body(&mut self, arm: &Arm, scrutinee: &TokenStream) -> Option<TokenStream> {
        let names = bound_names(split_guard(&arm.pat).0);
        let lets = names.iter().map(|n| quote!(let #n = #scrutinee;));
        let body = match &*arm.body {
            Expr::Block(b) if b.label.is_none() && names.is_empty() => {
                return Some(b.to_token_stream());
            }
            Expr::Block(b) if b.label.is_none() => {
                let stmts = &b.block.stmts;
                quote!(#(#stmts)*)
            }
            other => other.to_token_stream(),
        };
        Some(quote_spanned!(arm.body.span()=> { #(#lets)* #body }))
    }

    /// The condition a pattern tests on the scrutinee; `Ok(None)` for one that always matches.
    fn pat_cond(&mut self, pat: &Pat, s: &TokenStream) -> Option<Option<TokenStream>> {
        Some(match pat {
            Pat::Wild(_) => None,
            Pat::Ident(pi) => match &pi.subpat {
                Some((_, sub)) => self.pat_cond(sub, s)?,
                None => None,
            },
            Pat::Paren(p) => self.pat_cond(&p.pat, s)?,
            Pat::Lit(l) if matches!(l.lit, syn::Lit::Bool(_)) => match &l.lit {
                syn::Lit::Bool(b) if b.value => Some(quote!((#s))),
                _ => Some(quote!(!(#s))),
            },
            Pat::Lit(_) | Pat::Path(_) => Some(quote!(#s == #pat)),
            Pat::Range(r) => {
                let lo = r
                    .start
                    .as_ref()
                    .filter(|lo| super::int_literal(lo) != Some(0))
                    .map(|lo| quote!(#s >= #lo));
                let hi = r.end.as_ref().map(|hi| match r.limits {
                    RangeLimits::Closed(_) => quote!(#s <= #hi),
                    RangeLimits::HalfOpen(_) => quote!(#s < #hi),
                });
                match (lo, hi) {
                    (Some(a), Some(b)) => Some(quote!(#a && #b)),
                    (a, b) => a.or(b),
                }
            }
            Pat::Or(o) => {
                let mut parts = Vec::new();
                for case in &o.cases {
                    match self.pat_cond(case, s)? {
                        Some(c) => parts.push(c),
                        None => return Some(None),
                    }
                }
                Some(quote!((#(#parts)||*)))
            }
            other => {
                self.cx.error_spanned(
                    other,
                    format!("`#[grad]` supports as `match` patterns only {PATTERNS}"),
                );
                return None;
            }
        })
    }
}

/// An arm's pattern and its guard (`pat if guard`), if it has one.
fn split_guard(pat: &Pat) -> (&Pat, Option<&Expr>) {
    match pat {
        Pat::Guard(g) => (&g.pat, Some(&g.guard)),
        other => (other, None),
    }
}

/// The names a `match` pattern binds (`n` in `n` or `n @ 1..=3`).
fn bound_names(pat: &Pat) -> Vec<syn::Ident> {
    match pat {
        Pat::Ident(pi) => {
            let mut names = vec![pi.ident.clone()];
            if let Some((_, sub)) = &pi.subpat {
                names.extend(bound_names(sub));
            }
            names
        }
        Pat::Paren(p) => bound_names(&p.pat),
        // Every case of an or-pattern binds the same names.
        Pat::Or(o) => o.cases.first().map(bound_names).unwrap_or_default(),
        _ => Vec::new(),
    }
}

/// `e` with every name in `names` read as the scrutinee (a guard reads what its pattern binds).
fn substitute(e: &Expr, names: &[syn::Ident], scrutinee: &TokenStream) -> TokenStream {
    fn walk(tokens: TokenStream, names: &[String], s: &TokenStream) -> TokenStream {
        let mut out = TokenStream::new();
        let mut prev_dot = false;
        for t in tokens {
            match t {
                proc_macro2::TokenTree::Ident(id)
                    if !prev_dot && names.contains(&symbol::unraw(&id)) =>
                {
                    out.extend(quote!((#s)));
                    prev_dot = false;
                }
                proc_macro2::TokenTree::Group(g) => {
                    let mut inner =
                        proc_macro2::Group::new(g.delimiter(), walk(g.stream(), names, s));
                    inner.set_span(g.span());
                    out.extend([proc_macro2::TokenTree::Group(inner)]);
                    prev_dot = false;
                }
                other => {
                    prev_dot =
                        matches!(&other, proc_macro2::TokenTree::Punct(p) if p.as_char() == '.');
                    out.extend([other]);
                }
            }
        }
        out
    }
    let names: Vec<String> = names.iter().map(symbol::unraw).collect();
    walk(e.to_token_stream(), &names, scrutinee)
}
