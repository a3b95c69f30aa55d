//! Iterator chains, rewritten into the `for` loops over integer ranges they mean. A chain is a
//! sequence of elements by position (`x.iter().skip(1)` has `x.len() - 1` of them, the `p`-th
//! being `&x[p + 1]`), then per-element stages (`map`, `filter`), then a consumer:
//!
//! ```text
//! x.iter().zip(&y).map(|(a, b)| a * b).sum::<f64>()
//! ```
//! becomes
//! ```text
//! { let mut acc = -0.0; for i in 0..x.len().min(y.len()) { acc += (|(a, b)| a * b)((&x[i], &y[i])); } acc }
//! ```
//! and the closure is inlined where lowering meets its call. A `for` loop over a chain binds its
//! pattern to the element; `sum` starts from `-0.0` and `product` from `1.0` (as the standard
//! library's do, so the values are the same to the bit); `fold` carries its accumulator, a tuple
//! included. Elements are references where the standard library's are (`&x[i]`): a reference to
//! a value is the value to lowering, and `*` undoes a `&` in the constants it keeps as tokens.
//!
//! `y.iter_mut()` (and `&mut y`) gives the places `y[p]`, which a `for` loop or a `for_each`
//! binds by substitution (`sugar::places`), so `*v = ..` writes `y[p]`.
//!
//! `reduce(f)` unwrapped at once (`.reduce(f64::max).unwrap()`) is a fold whose accumulator
//! starts as the first element: a flag `first` tells which element that is.
//!
//! What this does not know: `map`, `filter` or a consumer after `iter_mut`, an adaptor that needs positions (`enumerate`, `zip`, `skip`, `take`,
//! `step_by`) after a `filter`, and consumers that are not sums, products, folds, unwrapped
//! `reduce`s or `for_each` (`collect`, `count`, `max_by`, ...): those are refused with what to
//! write instead.

use std::rc::Rc;

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};
use syn::{Expr, ExprForLoop, ExprMethodCall, Pat};

use super::parse;
use crate::lower::value::peel;
use crate::lower::{Kind, Lower};
use crate::symbol;

/// An element: an expression, an element written through (`iter_mut`), or a tuple of elements
/// (`zip`, `enumerate`).
#[derive(Clone)]
pub(super) enum Tree {
    Expr(TokenStream),
    /// The place `y[p]` an element of `y.iter_mut()` is: the loop's body reads and writes it
    /// where it reads `*v`.
    Place(TokenStream),
    Tuple(Vec<Tree>),
}

impl Tree {
    /// Whether an element of it is written through.
    pub(super) fn writes(&self) -> bool {
        match self {
            Tree::Expr(_) => false,
            Tree::Place(_) => true,
            Tree::Tuple(parts) => parts.iter().any(Tree::writes),
        }
    }
}

impl ToTokens for Tree {
    fn to_tokens(&self, out: &mut TokenStream) {
        match self {
            Tree::Expr(t) => out.extend(t.clone()),
            Tree::Place(t) => out.extend(quote!(&mut #t)),
            Tree::Tuple(parts) => out.extend(quote!((#(#parts),*))),
        }
    }
}

/// The element at a position (an integer expression).
type Elem = Rc<dyn Fn(&TokenStream) -> Tree>;

/// What an element goes through once its position is fixed.
enum Stage {
    /// `.map(f)`
    Map(Expr),
    /// `.filter(g)`
    Filter(Expr),
}

/// A sequence: `len` elements, the `p`-th being `elem(p)`, visited backwards when `backward`,
/// each then going through `stages`.
struct Seq {
    len: TokenStream,
    elem: Elem,
    backward: bool,
    stages: Vec<Stage>,
    /// For the integers of a range, that range (`lo..hi`): a loop runs over it as it is.
    range: Option<TokenStream>,
}

/// `f(args)`, with a closure written in place parenthesised.
pub(super) fn call(f: &Expr, args: &[TokenStream]) -> TokenStream {
    match peel(f) {
        Expr::Closure(_) => quote!((#f)(#(#args),*)),
        _ => quote!(#f(#(#args),*)),
    }
}

/// `e` as the receiver of a method or an index: parenthesised unless it is a path, a field or an
/// index.
fn atom(e: &Expr) -> TokenStream {
    match peel(e) {
        inner @ (Expr::Path(_)
        | Expr::Field(_)
        | Expr::Index(_)
        | Expr::MethodCall(_)
        | Expr::Lit(_)) => inner.to_token_stream(),
        other => quote!((#other)),
    }
}

/// A position as an operand: parenthesised unless it is one name or literal.
fn operand(p: &TokenStream) -> TokenStream {
    let mut trees = p.clone().into_iter();
    match (trees.next(), trees.next()) {
        (Some(proc_macro2::TokenTree::Ident(_) | proc_macro2::TokenTree::Literal(_)), None) => {
            p.clone()
        }
        _ => quote!((#p)),
    }
}

/// The length of the shorter of two sequences: `a.min(b)`, or `b` when it is `a` shortened by
/// `skip` (`x.iter().zip(x.iter().skip(1))` has `x.len().saturating_sub(1)` elements).
fn shorter(a: TokenStream, b: TokenStream) -> TokenStream {
    // Compared without spaces: how a token stream prints them depends on the compiler.
    let (ta, tb) = (a.to_string().replace(' ', ""), b.to_string().replace(' ', ""));
    let shortened = |long: &str, short: &str| {
        short.strip_prefix(long).is_some_and(|rest| rest.starts_with(".saturating_sub("))
    };
    if ta == tb || shortened(&tb, &ta) {
        a
    } else if shortened(&ta, &tb) {
        b
    } else {
        quote!(#a.min(#b))
    }
}

/// `pat` without its leading `&`s and parentheses.
fn strip_ref(pat: &Pat) -> &Pat {
    match pat {
        Pat::Reference(r) => strip_ref(&r.pat),
        Pat::Paren(p) => strip_ref(&p.pat),
        Pat::Type(t) => strip_ref(&t.pat),
        other => other,
    }
}

/// Whether `tokens` name `name` anywhere.
fn mentions(tokens: TokenStream, name: &str) -> bool {
    tokens.into_iter().any(|t| match t {
        proc_macro2::TokenTree::Ident(id) => symbol::unraw(&id) == name,
        proc_macro2::TokenTree::Group(g) => mentions(g.stream(), name),
        _ => false,
    })
}

/// Whether `e` is the literal `0`.
fn is_zero(e: &Expr) -> bool {
    super::int_literal(e) == Some(0)
}

/// Whether `e` is a range `for` takes as it is: `a..b`, `a..=b`, `(a..b).rev()`.
pub(in crate::lower) fn is_plain_range(e: &Expr) -> bool {
    match peel(e) {
        Expr::Range(_) => true,
        Expr::MethodCall(m) => {
            m.method == symbol::REV
                && m.args.is_empty()
                && matches!(peel(&m.receiver), Expr::Range(_))
        }
        _ => false,
    }
}

/// Whether `e` is a chain's consumer that gives one value: `sum`, `product`, `fold`, or
/// `reduce` unwrapped.
fn reduces(e: &Expr) -> bool {
    matches!(peel(e), Expr::MethodCall(m)
        if [symbol::SUM, symbol::PRODUCT, symbol::FOLD].contains(&m.method.to_string().as_str()))
        || unwrapped_reduce(e).is_some()
}

/// The `reduce(f)` call whose `Option` `e` unwraps (`.reduce(f64::max).unwrap()`, or
/// `.expect(..)`), and its `f`.
fn unwrapped_reduce(e: &Expr) -> Option<(&ExprMethodCall, &Expr)> {
    let Expr::MethodCall(m) = peel(e) else { return None };
    let unwraps = (m.method == symbol::UNWRAP && m.args.is_empty())
        || (m.method == symbol::EXPECT && m.args.len() == 1);
    match peel(&m.receiver) {
        Expr::MethodCall(r) if unwraps && r.method == symbol::REDUCE && r.args.len() == 1 => {
            Some((r, &r.args[0]))
        }
        _ => None,
    }
}

/// The outermost iterator method of the chain `m` (`m`'s own method if none is), and its name.
fn outermost_iter_method(m: &ExprMethodCall) -> (&syn::Ident, String) {
    let mut at = m;
    loop {
        let name = at.method.to_string();
        if symbol::ITER_METHODS.contains(&name.as_str()) {
            return (&at.method, name);
        }
        match peel(&at.receiver) {
            Expr::MethodCall(inner) => at = inner,
            _ => return (&m.method, m.method.to_string()),
        }
    }
}

impl Seq {
    /// Whether its elements are written through (`iter_mut`).
    fn writes(&self) -> bool {
        (self.elem)(&quote!(0)).writes()
    }

    /// The same elements, visited forwards, the reversal folded into the positions.
    fn forwards(self) -> Seq {
        if !self.backward {
            return self;
        }
        let Seq { len, elem, stages, .. } = self;
        let n = len.clone();
        Seq {
            len,
            elem: Rc::new(move |p| {
                let p = operand(p);
                elem(&quote!(#n - 1 - #p))
            }),
            backward: false,
            stages,
            range: None,
        }
    }
}

impl Lower<'_> {
    /// `for pat in chain { body }` as a loop over an integer range; `None` after an error.
    pub(in crate::lower) fn desugar_for(&mut self, f: &ExprForLoop) -> Option<ExprForLoop> {
        let seq = self.seq(&f.expr)?;
        let index = self.loop_index(&f.pat, &f.expr);
        let (pat, stmts) = (&f.pat, &f.body.stmts);
        let mut refused = None;
        let lp = self.emit_loop(seq, &index, |e| super::places::bind(pat, e, stmts, &mut refused));
        if let Some((at, message)) = refused {
            self.cx.error_spanned(at, message);
            return None;
        }
        let label = &f.label;
        parse(self.cx, &f.expr, quote!(#label #lp))
    }

    /// A chain ending in `sum`, `product`, `fold` or `for_each`, as the block or loop it means;
    /// `None` after an error.
    pub(in crate::lower) fn desugar_chain(&mut self, e: &Expr) -> Option<Expr> {
        let Expr::MethodCall(m) = peel(e) else { return None };
        let name = m.method.to_string();
        let args: Vec<&Expr> = m.args.iter().collect();
        let tokens = match (name.as_str(), args.as_slice()) {
            (symbol::SUM | symbol::PRODUCT, []) => {
                if let Some(t) = &m.turbofish
                    && !t
                        .args
                        .iter()
                        .all(|a| matches!(a, syn::GenericArgument::Type(ty) if self.scalar.is(ty)))
                {
                    self.cx.error_spanned(t, format!("`#[grad]` rewrites `{name}` over `{}` values only, the function's scalar type", self.scalar.text()));
                    return None;
                }
                let seq = self.seq(&m.receiver)?;
                self.reads_only(&seq, &m.method)?;
                let (init, op) = match name.as_str() {
                    symbol::SUM => (quote!(-0.0), quote!(+=)),
                    _ => (quote!(1.0), quote!(*=)),
                };
                let acc = self.names.fresh(&name);
                let index = self.reduction_index(&m.receiver);
                let lp = self.emit_loop(seq, &index, |x| quote!(#acc #op #x;));
                quote!({ let mut #acc = #init; #lp #acc })
            }
            (symbol::FOLD, [init, f]) => {
                let seq = self.seq(&m.receiver)?;
                self.reads_only(&seq, &m.method)?;
                let acc = self.names.fresh(symbol::ACC);
                let index = self.names.fresh(symbol::INDEX_NAMES[0]);
                let lp = self.emit_loop(seq, &index, |x| {
                    let step = call(f, &[acc.to_token_stream(), x.into_token_stream()]);
                    quote!(#acc = #step;)
                });
                quote!({ let mut #acc = #init; #lp #acc })
            }
            // `reduce(f).unwrap()`: a fold whose accumulator is the first element, told by a
            // flag so that a `filter` before it keeps its meaning. An empty sequence, where
            // `unwrap` panics in `f`, gives 0 in the derivatives.
            _ if unwrapped_reduce(e).is_some() => {
                let (r, f) = unwrapped_reduce(e)?;
                let seq = self.seq(&r.receiver)?;
                self.reads_only(&seq, &r.method)?;
                let acc = self.names.fresh(symbol::ACC);
                let first = self.names.fresh(symbol::FIRST);
                let index = self.names.fresh(symbol::INDEX_NAMES[0]);
                let lp = self.emit_loop(seq, &index, |x| {
                    let x = x.into_token_stream();
                    let step = call(f, &[acc.to_token_stream(), x.clone()]);
                    quote!(if #first { #acc = #x; #first = false; } else { #acc = #step; })
                });
                quote!({ let mut #acc = 0.0; let mut #first = true; #lp #acc })
            }
            (symbol::FOR_EACH, [f]) => {
                let seq = self.seq(&m.receiver)?;
                let index = self.names.fresh(symbol::INDEX_NAMES[0]);
                let body = match peel(f) {
                    Expr::Closure(c) if c.inputs.len() == 1 => {
                        let (pat, body) = (&c.inputs[0], &c.body);
                        Some((pat.clone(), body.clone()))
                    }
                    _ => None,
                };
                let Some((pat, body)) = body else {
                    self.cx.error_spanned(f, "`#[grad]` supports `for_each` with a closure of one parameter written in place, such as `.for_each(|v| s += v)`");
                    return None;
                };
                let stmts = [syn::Stmt::Expr(*body, Some(Default::default()))];
                let mut refused = None;
                let lp = self
                    .emit_loop(seq, &index, |x| super::places::bind(&pat, x, &stmts, &mut refused));
                if let Some((at, message)) = refused {
                    self.cx.error_spanned(at, message);
                    return None;
                }
                lp
            }
            // A float method on what a consumer gives (`.sum::<f64>().sqrt()`): the method on
            // the block the consumer means.
            _ if !symbol::ITER_METHODS.contains(&name.as_str()) && reduces(&m.receiver) => {
                let inner = self.desugar_chain(&m.receiver)?;
                let mut outer = m.clone();
                outer.receiver = Box::new(parse(self.cx, &m.receiver, quote!((#inner)))?);
                return Some(Expr::MethodCall(outer));
            }
            _ => {
                // Named at the iterator method that has no rewrite, not at a method applied to
                // what it gives (`max_by` in `.max_by(..).unwrap()`).
                let (at, name) = outermost_iter_method(m);
                let hint = match name.as_str() {
                    "max_by" | "min_by" => {
                        "; for a largest or smallest value, fold: `.fold(f64::NEG_INFINITY, f64::max)`, or reduce: `.reduce(f64::max).unwrap()`"
                    }
                    "reduce" => {
                        "; `reduce(f)` is rewritten when its `Option` is unwrapped at once: `.reduce(f64::max).unwrap()`"
                    }
                    _ => "",
                };
                self.cx.error_spanned(
                    at,
                    format!("`#[grad]` does not support the iterator method `{name}` here; it rewrites chains of `iter`, `iter_mut`, `copied`, `enumerate`, `zip`, `rev`, `skip`, `take`, `step_by`, `windows`, `chunks`, `chunks_exact`, `map` and `filter` that end in `sum`, `product`, `fold`, `reduce(..).unwrap()` or `for_each`, and `for` loops over them (an iterator that allocates, such as `collect`, has no place in a `#[grad]` function){hint}"),
                );
                return None;
            }
        };
        parse(self.cx, e, tokens)
    }

    /// The loop's index: the name the pattern gives the position (`i` in `for (i, v) in
    /// x.iter().enumerate()`) when it is one and the chain does not read that name, a fresh name
    /// otherwise.
    fn loop_index(&mut self, pat: &Pat, chain: &Expr) -> proc_macro2::Ident {
        let enumerated =
            matches!(peel(chain), Expr::MethodCall(m) if m.method == symbol::ENUMERATE);
        if enumerated
            && let Pat::Tuple(t) = pat
            && let Some(Pat::Ident(pi)) = t.elems.first()
            && pi.by_ref.is_none()
            && pi.mutability.is_none()
            && pi.subpat.is_none()
            && !mentions(chain.to_token_stream(), &symbol::unraw(&pi.ident))
        {
            return pi.ident.clone();
        }
        self.names.fresh(symbol::INDEX_NAMES[0])
    }

    /// The index of the loop a reduction becomes: the name its first closure gives the position
    /// (`i` in `(0..n).map(|i| ..)` or in `x.iter().enumerate().map(|(i, v)| ..)`) when it has
    /// one and what precedes the closure does not read that name, a fresh name otherwise.
    fn reduction_index(&mut self, chain: &Expr) -> proc_macro2::Ident {
        // The innermost `map` or `filter`, and what it applies to.
        let mut at = peel(chain);
        let mut first = None;
        while let Expr::MethodCall(m) = at {
            if (m.method == symbol::MAP || m.method == symbol::FILTER) && m.args.len() == 1 {
                first = Some((&m.args[0], &*m.receiver));
            }
            at = peel(&m.receiver);
        }
        let Some((f, head)) = first else { return self.names.fresh(symbol::INDEX_NAMES[0]) };
        let param = match peel(f) {
            Expr::Closure(c) if c.inputs.len() == 1 => strip_ref(&c.inputs[0]),
            _ => return self.names.fresh(symbol::INDEX_NAMES[0]),
        };
        let position = match (peel(head), param) {
            (Expr::Range(_), Pat::Ident(pi)) => Some(pi),
            (Expr::MethodCall(m), Pat::Tuple(t)) if m.method == symbol::ENUMERATE => {
                match t.elems.first().map(strip_ref) {
                    Some(Pat::Ident(pi)) => Some(pi),
                    _ => None,
                }
            }
            _ => None,
        };
        match position {
            Some(pi)
                if pi.by_ref.is_none()
                    && pi.subpat.is_none()
                    && !mentions(head.to_token_stream(), &symbol::unraw(&pi.ident)) =>
            {
                pi.ident.clone()
            }
            _ => self.names.fresh(symbol::INDEX_NAMES[0]),
        }
    }

    /// `for index in 0..len { stages, then tail(element) }`, backwards if the sequence is.
    fn emit_loop(
        &mut self,
        seq: Seq,
        index: &proc_macro2::Ident,
        tail: impl FnOnce(Tree) -> TokenStream,
    ) -> TokenStream {
        let len = &seq.len;
        let (range, elem) = match &seq.range {
            // The integers of a range: the loop runs over the range itself.
            Some(r) => (r.clone(), Tree::Expr(index.to_token_stream())),
            None => (quote!(0..#len), (seq.elem)(&index.to_token_stream())),
        };
        let range = match seq.backward {
            true => quote!((#range).rev()),
            false => range,
        };
        let inner = self.stages(&seq.stages, elem, tail);
        quote!(for #index in #range { #inner })
    }

    /// The stages applied to `elem`, then `tail`: a `filter` binds the element and tests it.
    fn stages(
        &mut self,
        stages: &[Stage],
        elem: Tree,
        tail: impl FnOnce(Tree) -> TokenStream,
    ) -> TokenStream {
        match stages.split_first() {
            None => tail(elem),
            Some((Stage::Map(f), rest)) => {
                let mapped = call(f, &[elem.into_token_stream()]);
                self.stages(rest, Tree::Expr(mapped), tail)
            }
            Some((Stage::Filter(g), rest)) => {
                let t = self.names.fresh(symbol::ELEM);
                let test = call(g, &[quote!(&#t)]);
                let inner = self.stages(rest, Tree::Expr(t.to_token_stream()), tail);
                quote!(let #t = #elem; if #test { #inner })
            }
        }
    }

    /// The sequence an iterable expression is.
    fn seq(&mut self, e: &Expr) -> Option<Seq> {
        match peel(e) {
            Expr::MethodCall(m) => self.adaptor(m),
            Expr::Range(r) => self.range_seq(r),
            Expr::Reference(_) if self.view(e).is_some() => {
                let v = self.view(e)?;
                let (base, start) = (v.base, v.start);
                Some(Seq {
                    len: v.len,
                    elem: Rc::new(move |p| Tree::Expr(quote!(&#base[#start + #p]))),
                    backward: false,
                    stages: Vec::new(),
                    range: None,
                })
            }
            Expr::Reference(r) if r.mutability.is_none() => self.seq(&r.expr),
            Expr::Reference(r) => Some(Self::places(&r.expr)),
            other => Some(self.source(other)),
        }
    }

    /// The elements of an array or a slice `e`, by reference. An array literal's length is
    /// its count (`[a, b, c].iter()` runs over `0..3`), which a loop bound can read.
    fn source(&mut self, e: &Expr) -> Seq {
        let len = match peel(e) {
            Expr::Array(a) => {
                Some(proc_macro2::Literal::usize_unsuffixed(a.elems.len()).to_token_stream())
            }
            Expr::Repeat(r) => Some(atom(&r.len)),
            _ => None,
        };
        let e = atom(e);
        let at = e.clone();
        Seq {
            len: len.unwrap_or_else(|| quote!(#e.len())),
            elem: Rc::new(move |p| Tree::Expr(quote!(&#at[#p]))),
            backward: false,
            stages: Vec::new(),
            range: None,
        }
    }

    /// The elements of an array `e`, written through: `for v in y.iter_mut()`, `for v in &mut y`.
    fn places(e: &Expr) -> Seq {
        let e = atom(e);
        let at = e.clone();
        Seq {
            len: quote!(#e.len()),
            elem: Rc::new(move |p| Tree::Place(quote!(#at[#p]))),
            backward: false,
            stages: Vec::new(),
            range: None,
        }
    }

    /// `Some` if the elements of `seq` are not written through; `None` after reporting `at`,
    /// a `map`, `filter` or consumer applied to those of `iter_mut`.
    fn reads_only(&mut self, seq: &Seq, at: &syn::Ident) -> Option<()> {
        if !seq.writes() {
            return Some(());
        }
        self.cx.error_spanned(
            at,
            format!("`#[grad]` rewrites `iter_mut` in a `for` loop or a `for_each` only, not followed by `{at}`; write each element in the loop's body, as in `for v in y.iter_mut() {{ *v = v.sin(); }}`"),
        );
        None
    }

    /// The integers of `lo..hi` or `lo..=hi`.
    fn range_seq(&mut self, r: &syn::ExprRange) -> Option<Seq> {
        let (Some(lo), Some(hi)) = (&r.start, &r.end) else {
            self.cx.error_spanned(
                r,
                "`#[grad]` iterates over ranges with both bounds only, such as `0..n`",
            );
            return None;
        };
        let end = match r.limits {
            syn::RangeLimits::Closed(_) => quote!((#hi + 1)),
            syn::RangeLimits::HalfOpen(_) => atom(hi),
        };
        let (len, elem): (TokenStream, Elem) = if is_zero(lo) {
            (end, Rc::new(|p| Tree::Expr(p.clone())))
        } else {
            let lo_tokens = atom(lo);
            let lo2 = lo_tokens.clone();
            let len = quote!(#end.saturating_sub(#lo_tokens));
            (len, Rc::new(move |p| Tree::Expr(quote!(#lo2 + #p))))
        };
        let range = quote!(#lo..#hi);
        let range = match r.limits {
            syn::RangeLimits::Closed(_) => quote!(#lo..=#hi),
            syn::RangeLimits::HalfOpen(_) => range,
        };
        Some(Seq { len, elem, backward: false, stages: Vec::new(), range: Some(range) })
    }

    /// A sequence whose positions an adaptor is about to use: visited forwards, its `map`s folded
    /// into its elements; `None` after reporting a `filter` before `at`.
    fn positional(&mut self, seq: Seq, at: &syn::Ident) -> Option<Seq> {
        let mut seq = seq.forwards();
        seq.range = None;
        if seq.stages.iter().any(|s| matches!(s, Stage::Filter(_))) {
            self.cx.error_spanned(
                at,
                format!("`#[grad]` does not support `{at}` after `filter`: positions are not known once elements are filtered; filter later in the chain, or test the condition in the loop body"),
            );
            return None;
        }
        let maps: Vec<Expr> = seq
            .stages
            .drain(..)
            .filter_map(|s| match s {
                Stage::Map(f) => Some(f),
                Stage::Filter(_) => None,
            })
            .collect();
        if maps.is_empty() {
            return Some(seq);
        }
        let elem = seq.elem;
        seq.elem = Rc::new(move |p| {
            let mut x = elem(p).into_token_stream();
            for f in &maps {
                x = call(f, &[x]);
            }
            Tree::Expr(x)
        });
        Some(seq)
    }

    /// `receiver.method(args)`, an adaptor of a chain.
    fn adaptor(&mut self, m: &ExprMethodCall) -> Option<Seq> {
        let name = m.method.to_string();
        let args: Vec<&Expr> = m.args.iter().collect();
        let at = &m.method;
        match (name.as_str(), args.as_slice()) {
            (n, []) if symbol::ITER_BY_REF.contains(&n) => self.seq(&m.receiver),
            (n, []) if symbol::ITER_BY_VALUE.contains(&n) => {
                let mut seq = self.seq(&m.receiver)?;
                self.reads_only(&seq, at)?;
                if seq.stages.is_empty() {
                    let elem = seq.elem;
                    seq.elem = Rc::new(move |p| match elem(p) {
                        Tree::Expr(x) => Tree::Expr(quote!(*#x)),
                        other => other,
                    });
                }
                Some(seq)
            }
            (symbol::REV, []) => {
                let mut seq = self.seq(&m.receiver)?;
                seq.backward = !seq.backward;
                Some(seq)
            }
            (symbol::ITER_MUT, []) => Some(Self::places(&m.receiver)),
            (symbol::MAP, [f]) => {
                let mut seq = self.seq(&m.receiver)?;
                self.reads_only(&seq, at)?;
                seq.stages.push(Stage::Map((*f).clone()));
                Some(seq)
            }
            (symbol::FILTER, [g]) => {
                let mut seq = self.seq(&m.receiver)?;
                self.reads_only(&seq, at)?;
                seq.stages.push(Stage::Filter((*g).clone()));
                Some(seq)
            }
            (symbol::ENUMERATE, []) => {
                let seq = self.seq(&m.receiver)?;
                let Seq { len, elem, .. } = self.positional(seq, at)?;
                Some(Seq {
                    len,
                    elem: Rc::new(move |p| Tree::Tuple(vec![Tree::Expr(p.clone()), elem(p)])),
                    backward: false,
                    stages: Vec::new(),
                    range: None,
                })
            }
            (symbol::ZIP, [other]) => {
                let a = self.seq(&m.receiver)?;
                let a = self.positional(a, at)?;
                let b = self.seq(other)?;
                let b = self.positional(b, at)?;
                let (ea, eb) = (a.elem, b.elem);
                Some(Seq {
                    len: shorter(a.len, b.len),
                    elem: Rc::new(move |p| Tree::Tuple(vec![ea(p), eb(p)])),
                    backward: false,
                    stages: Vec::new(),
                    range: None,
                })
            }
            (symbol::WINDOWS | symbol::CHUNKS | symbol::CHUNKS_EXACT, [k]) => {
                let x = atom(&m.receiver);
                let less = match super::int_literal(k) {
                    Some(v) => proc_macro2::Literal::u64_unsuffixed(v.saturating_sub(1))
                        .into_token_stream(),
                    None => quote!(#k - 1),
                };
                let k = atom(k);
                let n = quote!(#x.len());
                let (len, elem): (TokenStream, Elem) = match name.as_str() {
                    symbol::WINDOWS => (
                        quote!(#n.saturating_sub(#less)),
                        Rc::new(move |p| Tree::Expr(quote!(&#x[#p..#p + #k]))),
                    ),
                    symbol::CHUNKS_EXACT => (
                        quote!(#n / #k),
                        Rc::new(move |p| {
                            let p = operand(p);
                            Tree::Expr(quote!(&#x[#p * #k..#p * #k + #k]))
                        }),
                    ),
                    _ => (
                        quote!(#n.div_ceil(#k)),
                        Rc::new(move |p| {
                            let p = operand(p);
                            Tree::Expr(quote!(&#x[#p * #k..(#p * #k + #k).min(#n)]))
                        }),
                    ),
                };
                Some(Seq { len, elem, backward: false, stages: Vec::new(), range: None })
            }
            (symbol::SKIP | symbol::TAKE | symbol::STEP_BY, [k]) => {
                let seq = self.seq(&m.receiver)?;
                let mut seq = self.positional(seq, at)?;
                let k = atom(k);
                let len = &seq.len;
                let elem = seq.elem;
                match name.as_str() {
                    symbol::SKIP => {
                        seq.len = quote!(#len.saturating_sub(#k));
                        seq.elem = Rc::new(move |p| {
                            let p = operand(p);
                            elem(&quote!(#p + #k))
                        });
                    }
                    symbol::TAKE => {
                        seq.len = quote!(#len.min(#k));
                        seq.elem = elem;
                    }
                    _ => {
                        seq.len = quote!(#len.div_ceil(#k));
                        seq.elem = Rc::new(move |p| {
                            let p = operand(p);
                            elem(&quote!(#p * #k))
                        });
                    }
                }
                Some(seq)
            }
            _ => {
                self.cx.error_spanned(
                    at,
                    format!("`#[grad]` does not support the iterator adaptor `{name}`; it rewrites `iter`, `iter_mut`, `into_iter`, `copied`, `cloned`, `enumerate`, `zip`, `rev`, `skip`, `take`, `step_by`, `map` and `filter`"),
                );
                None
            }
        }
    }

    /// Whether `e` is an array, by what lowering knows of it.
    pub(in crate::lower) fn is_array(&self, e: &Expr) -> bool {
        self.kind(e) == Kind::Array
    }
}
