//! Views: `let w = &x[i..i + 2];` (and what `windows` and `chunks` give) names a range of an
//! array's or a slice's elements without copying them. Lowering reads `w[j]` as
//! `x[i + j]` and `w.len()` as the range's length, so a view is never a value of the IR.
//!
//! A view reads the names of its base and start as they were bound where the view was made: a
//! name shadowed since (`for w in x.windows(2) { let x = ..; .. w[1] .. }`) is read under a
//! fresh alias of its old binding.
//!
//! What this does not know: a view passed to a function or returned.

use std::collections::HashMap;
use std::rc::Rc;

use proc_macro2::{Group, TokenStream, TokenTree};
use quote::{ToTokens, quote};
use syn::{Expr, RangeLimits};

use super::int::IntCtx;
use super::value::peel;
use super::{Binding, Bound, Lower};
use crate::symbol;

/// The elements `start..end` of `base`.
pub(super) struct View {
    /// The array or slice, as written (itself never a view).
    pub base: TokenStream,
    /// The first position, an integer expression.
    pub start: TokenStream,
    /// The number of elements.
    pub len: TokenStream,
    /// The bindings of the names these read, where the view was made.
    bound: Vec<(String, Bound)>,
}

/// The identifiers in `t`, nested groups included.
fn idents(t: &TokenStream, out: &mut Vec<String>) {
    for tt in t.clone() {
        match tt {
            TokenTree::Ident(id) => out.push(symbol::unraw(&id)),
            TokenTree::Group(g) => idents(&g.stream(), out),
            _ => {}
        }
    }
}

/// `t` with the identifiers in `map` replaced (their spans kept where the replacement is one
/// identifier).
fn substitute(t: &TokenStream, map: &HashMap<String, TokenStream>) -> TokenStream {
    let mut out = TokenStream::new();
    for tt in t.clone() {
        match tt {
            TokenTree::Ident(id) => match map.get(&symbol::unraw(&id)) {
                Some(new) => out.extend(new.clone().into_iter().map(|mut tt| {
                    if let TokenTree::Ident(_) = tt {
                        tt.set_span(id.span());
                    }
                    tt
                })),
                None => out.extend([TokenTree::Ident(id)]),
            },
            TokenTree::Group(g) => {
                let mut new = Group::new(g.delimiter(), substitute(&g.stream(), map));
                new.set_span(g.span());
                out.extend([TokenTree::Group(new)]);
            }
            other => out.extend([other]),
        }
    }
    out
}

impl Lower<'_> {
    /// The view `&x[a..b]` (or `&x[a..=b]`), if `e` is one; `None` if it is not.
    pub(super) fn view(&mut self, e: &Expr) -> Option<View> {
        let Expr::Reference(r) = peel(e) else { return None };
        let Expr::Index(ix) = peel(&r.expr) else { return None };
        let Expr::Range(range) = peel(&ix.index) else { return None };
        let zero: Expr = syn::parse_quote!(0);
        let start = range.start.as_deref().unwrap_or(&zero);
        let base = &ix.expr;
        let end: TokenStream = match (&range.end, &range.limits) {
            (Some(end), RangeLimits::Closed(_)) => quote!(#end + 1),
            (Some(end), RangeLimits::HalfOpen(_)) => end.to_token_stream(),
            (None, _) => quote!(#base.len()),
        };
        // A view of a view: the same base, shifted.
        let inner = self.view_of(base);
        let (base, offset) = match &inner {
            Some(v) => (v.base.clone(), Some(v.start.clone())),
            None => (peel(base).to_token_stream(), None),
        };
        let shift = |t: TokenStream| match &offset {
            Some(o) => quote!(#o + #t),
            None => t,
        };
        let (start, end) = (shift(start.to_token_stream()), shift(end));
        let len = self.length(&start, &end);
        let mut names = Vec::new();
        [&base, &start, &len].iter().for_each(|t| idents(t, &mut names));
        let mut bound: Vec<(String, Bound)> = Vec::new();
        for n in names {
            let was = inner.as_ref().and_then(|v| v.bound.iter().find(|(m, _)| *m == n));
            let b = was.map(|(_, b)| b.clone()).or_else(|| self.env.get(&n).cloned());
            if let Some(b) = b.filter(|_| !bound.iter().any(|(m, _)| *m == n)) {
                bound.push((n, b));
            }
        }
        Some(View { base, start, len, bound })
    }

    /// The base, start and length of `v` as they read here, for the read `at`: a variable
    /// shadowed since the view was made is read under a fresh alias of the binding it had then,
    /// an integer as the value it stood for. A constant parameter is read by its name in the
    /// generated code: one shadowed since is an error at the read (`None`).
    fn as_made(&mut self, v: &View, at: &Expr) -> Option<(TokenStream, TokenStream, TokenStream)> {
        let mut map = HashMap::new();
        for (name, b) in &v.bound {
            if self.env.get(name).map(|now| now.serial) == Some(b.serial) {
                continue;
            }
            match &b.binding {
                Binding::Slot(_) => {
                    let alias = self.names.fresh(name);
                    self.env.insert(alias.to_string(), b.clone());
                    map.insert(name.clone(), alias.into_token_stream());
                }
                Binding::Int(k) => {
                    let tokens = &k.tokens;
                    map.insert(name.clone(), quote!((#tokens)));
                }
                _ => {
                    self.cx.error_spanned(
                        at,
                        format!(
                            "`#[grad]` cannot read this view here: it reads the parameter `{name}`, and `{name}` means something else here; rename the variable that shadows it"
                        ),
                    );
                    return None;
                }
            }
        }
        if map.is_empty() {
            return Some((v.base.clone(), v.start.clone(), v.len.clone()));
        }
        Some((substitute(&v.base, &map), substitute(&v.start, &map), substitute(&v.len, &map)))
    }

    /// `end - start` as tokens: a literal when the two differ by a known constant (`i + 2 - i`).
    fn length(&mut self, start: &TokenStream, end: &TokenStream) -> TokenStream {
        let parse = |t: &TokenStream| syn::parse2::<Expr>(t.clone()).ok();
        let (Some(s), Some(e)) = (parse(start), parse(end)) else { return quote!(#end - #start) };
        let ks = self.probe(|l| l.int_konst(&s, IntCtx::Index));
        let ke = self.probe(|l| l.int_konst(&e, IntCtx::Index));
        if let (Some(ks), Some(ke)) = (ks, ke)
            && let (Some(ls), Some(le)) = (ks.linear, ke.linear)
            && ls.index == le.index
            && ls.names == le.names
            && let Some(d) =
                le.constant.checked_sub(ls.constant).and_then(|d| u64::try_from(d).ok())
        {
            return proc_macro2::Literal::u64_unsuffixed(d).into_token_stream();
        }
        quote!((#end - #start))
    }

    /// The view a name stands for, if `e` is a name bound to one.
    pub(super) fn view_of(&self, e: &Expr) -> Option<Rc<View>> {
        let Expr::Path(p) = peel(e) else { return None };
        match self.lookup(&symbol::unraw(p.path.get_ident()?))? {
            Binding::View(v) => Some(Rc::clone(v)),
            _ => None,
        }
    }

    /// Whether `e` reads a view: `w[j]` or `w.len()`.
    pub(super) fn view_of_read(&self, e: &Expr) -> bool {
        match peel(e) {
            Expr::Index(ix) => self.view_of(&ix.expr).is_some(),
            Expr::MethodCall(m) => m.method == symbol::LEN && self.view_of(&m.receiver).is_some(),
            _ => false,
        }
    }

    /// `e` with a view read through: `w[j]` as `x[start + j]`, `w.len()` as the view's length;
    /// `None` if `e` reads no view.
    pub(super) fn unview(&mut self, e: &Expr) -> Option<Expr> {
        let tokens = match peel(e) {
            Expr::Index(ix) => {
                let v = self.view_of(&ix.expr)?;
                let Some((base, start, _)) = self.as_made(&v, e) else {
                    return Some(syn::parse_quote!(0.0));
                };
                let (base, start, j) = (&base, &start, &ix.index);
                match super::sugar::int_literal(j) {
                    Some(0) => quote!(#base[#start]),
                    _ => quote!(#base[#start + #j]),
                }
            }
            Expr::MethodCall(m) if m.method == symbol::LEN && m.args.is_empty() => {
                let v = self.view_of(&m.receiver)?;
                let Some((_, _, len)) = self.as_made(&v, e) else {
                    return Some(syn::parse_quote!(0));
                };
                quote!((#len))
            }
            _ => return None,
        };
        super::sugar::parse(self.cx, e, tokens)
    }
}
