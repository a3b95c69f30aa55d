//! Arrays of structs (`ps: &[P; N]`, `ps: [P; N]`), read as a struct of arrays: before the body
//! is scanned, each read of an element's field, `ps[i].x`, is rewritten `ps.x[i]`, a read of
//! the field `x` of every element, an array `[f64; N]` (`ps[i].w[j]` is `ps.w[i][j]`, the field
//! `w` of every element an array of one dimension more; that second step is
//! `element_fields.rs`). Both steps find the array by its name, and a binding of that name (a
//! `let`, a closure's or a loop's pattern, a `match` arm) shadows it in its scope (`scope.rs`,
//! bug 70). The parameter is then a struct parameter whose fields are those arrays (see
//! `mod.rs`), and codegen reads them from the elements and writes a gradient back into an array
//! of the struct (`gather`, `scatter` in `autodiff_runtime::__private`).
//!
//! An element is named only by its index: a loop over the elements (`for p in ps.iter()`,
//! `for (i, p) in ps.iter().enumerate()`, `ps.iter().zip(&xs)`, and the closures of `map`,
//! `filter` (its pattern then binding the index through `&`), `fold` and `for_each` over
//! them) runs over the indices instead, `(0..N)`, and its pattern binds the index, each read
//! of the element's name in its scope rewritten `ps[p]`; so does a local bound to an element
//! (`let p = &ps[i];` is `let p = i;`). The rest is the iterator sugar's and lowering's. An
//! element named like its array (`for ps in ps.iter()`) has its index named apart (`ps_i`); one
//! read where a binding shadows its array is refused (`ps[p]` would read the local).
//!
//! What this does not know: an element read whole (a method called on it, `ps[i].energy(k)`, an
//! argument of a call, a copy `let mut q = ps[i];`), the array read whole (`g(ps)`), a field
//! read where an integer goes, and an element matched by another pattern than a name or a
//! struct pattern of names (`for &P { x, v, .. } in ps.iter()`, whose fields are bound by
//! `let`s at the start of the loop's body): each is reported with what to write instead. Arrays of
//! arrays of structs (`[[P; K]; N]`) are not recognised (constants, as before).

use proc_macro2::{Ident, Span, TokenStream};
use quote::{ToTokens, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::visit_mut::VisitMut;
use syn::{Block, Expr, FnArg, Member, Pat, Signature, Stmt, Type};

use super::scope::{self, Scoped, Shadows};
use crate::ctxt::Ctxt;
use crate::symbol;

/// A differentiated array of structs among the parameters.
#[derive(Clone)]
pub(in crate::lower) struct Elements {
    /// The parameter's name.
    pub name: String,
    /// The array's length, as its type writes it.
    pub len: Expr,
}

/// The element type and the length of `ty` when it is an array of structs of the user's
/// (`[P; N]`, `&[P; N]`), `type_params` naming the function's type parameters (no struct).
pub(in crate::lower) fn elements_of<'a>(
    ty: &'a Type,
    type_params: &[String],
) -> Option<(&'a Type, &'a Expr)> {
    let inner = match ty {
        Type::Reference(r) if r.mutability.is_none() => &*r.elem,
        Type::Paren(p) => return elements_of(&p.elem, type_params),
        Type::Group(g) => return elements_of(&g.elem, type_params),
        other => other,
    };
    let Type::Array(a) = inner else { return None };
    let Type::Path(p) = &*a.elem else { return None };
    let param = p.path.get_ident().is_some_and(|id| type_params.contains(&symbol::unraw(id)));
    let strukt = crate::aggregate::kind(&a.elem) == crate::aggregate::TypeKind::Struct;
    (strukt && !param).then_some((&*a.elem, &a.len))
}

/// Whether `ty` is a slice of structs of the user's (`&[P]`), which is not differentiated.
pub(in crate::lower) fn slice_of_structs(ty: &Type, type_params: &[String]) -> bool {
    let Type::Reference(r) = ty else { return false };
    let Type::Slice(s) = &*r.elem else { return false };
    let Type::Path(p) = &*s.elem else { return false };
    let param = p.path.get_ident().is_some_and(|id| type_params.contains(&symbol::unraw(id)));
    crate::aggregate::kind(&s.elem) == crate::aggregate::TypeKind::Struct && !param
}

/// The arrays of structs of `sig` that are differentiated (`wrt` absent, or naming them or
/// fields of theirs).
pub(in crate::lower) fn differentiated(sig: &Signature, args: &crate::args::Args) -> Vec<Elements> {
    let type_params: Vec<String> =
        sig.generics.type_params().map(|t| symbol::unraw(&t.ident)).collect();
    let mut out = Vec::new();
    for arg in &sig.inputs {
        let FnArg::Typed(pt) = arg else { continue };
        let Pat::Ident(pi) = &*pt.pat else { continue };
        let Some((_, len)) = elements_of(&pt.ty, &type_params) else { continue };
        let name = symbol::unraw(&pi.ident);
        let listed =
            args.wrt.as_deref().is_none_or(|w| w.iter().any(|id| symbol::unraw(id) == name));
        let fields = args.wrt_fields.iter().any(|f| symbol::unraw(&f.root) == name);
        if listed || fields {
            out.push(Elements { name, len: len.clone() });
        }
    }
    out
}

/// `body` with every element of the arrays `arrays` named by its index and every read of an
/// element's field rewritten as a read of the array that field is (`ps[i].x` is `ps.x[i]`);
/// what stays refused is reported in `cx`.
pub(in crate::lower) fn rewrite(
    cx: &mut Ctxt,
    names: &mut crate::lower::sugar::Names,
    arrays: &[Elements],
    body: &Block,
) -> Block {
    let mut out = body.clone();
    if arrays.is_empty() {
        return out;
    }
    let shadows = Shadows::new(arrays.iter().map(|a| a.name.clone()).collect());
    let mut indexed = Indexed { arrays, names, errors: Vec::new(), shadows: shadows.clone() };
    indexed.visit_block_mut(&mut out);
    let mut fields = super::element_fields::Fields { arrays, errors: indexed.errors, shadows };
    fields.visit_block_mut(&mut out);
    for (at, message) in fields.errors {
        cx.error_spanned(&at, message);
    }
    out
}

/// What a position of a sequence holds: an element of an array of structs (its index, once
/// rewritten), something else, or a pair (`enumerate`, `zip`).
#[derive(Clone)]
enum Shape {
    Element(usize),
    Other,
    Pair(Box<Shape>, Box<Shape>),
}

impl Shape {
    fn has_element(&self) -> bool {
        match self {
            Shape::Element(_) => true,
            Shape::Other => false,
            Shape::Pair(a, b) => a.has_element() || b.has_element(),
        }
    }
}

pub(super) fn peel(e: &Expr) -> &Expr {
    match e {
        Expr::Paren(p) => peel(&p.expr),
        Expr::Group(g) => peel(&g.expr),
        other => other,
    }
}

/// The one name `e` is, if it is a name.
pub(super) fn name_of(e: &Expr) -> Option<String> {
    match peel(e) {
        Expr::Path(p) if p.qself.is_none() && p.attrs.is_empty() => {
            p.path.get_ident().map(symbol::unraw)
        }
        _ => None,
    }
}

/// `name` as an expression, spanned at `span`.
pub(super) fn path_expr(name: &str, span: Span) -> Expr {
    let id = Ident::new(name, span);
    syn::parse_quote_spanned!(span=> #id)
}

/// The first step: elements named by their indices.
struct Indexed<'a> {
    arrays: &'a [Elements],
    /// The function's names, and fresh ones for the index of an element destructured.
    names: &'a mut crate::lower::sugar::Names,
    errors: Vec<(TokenStream, String)>,
    /// The arrays' names shadowed here by the body's bindings.
    shadows: Shadows,
}

/// What a pattern over elements binds: the names given to elements (each with its array, and
/// the index's own name when the element's would shadow an array), and the `let`s of the fields
/// of elements destructured (`Particle { x, v, .. }`), for the start of the scope.
#[derive(Default)]
struct Bound {
    names: Vec<(String, usize, Option<Ident>)>,
    lets: Vec<Stmt>,
}

impl Indexed<'_> {
    /// The array of structs `e` names, if it names one (and no binding shadows it here).
    fn array(&self, e: &Expr) -> Option<usize> {
        let name = name_of(e)?;
        (!self.shadows.hides(&name)).then(|| self.arrays.iter().position(|a| a.name == name))?
    }

    /// Names each read of the element `name` of the array `k` in what `visit` visits by its
    /// index, `ps[name]` (`ps[index]` when the index is named apart).
    fn subst(
        &mut self,
        (name, k, index): (String, usize, Option<Ident>),
        visit: impl FnOnce(&mut Subst),
    ) {
        let array = self.arrays[k].name.clone();
        let shadows = Shadows::new(vec![name.clone(), array.clone()]);
        let mut s = Subst { name, array, index, shadows, errors: Vec::new() };
        visit(&mut s);
        self.errors.extend(s.errors);
    }

    /// A fresh name for the index of an element named `element`, when that name is an array of
    /// structs' (`for ps in ps.iter()`), which the index would shadow where the element is read.
    fn index_apart(&mut self, element: &Ident) -> Option<Ident> {
        let name = symbol::unraw(element);
        self.arrays.iter().any(|a| a.name == name).then(|| {
            let index = self.names.fresh(&format!("{name}_i"));
            Ident::new(&index.to_string(), element.span())
        })
    }

    /// The element `ps[E]` that `e` is (`&ps[E]` too), as the array and the index.
    fn element<'e>(&self, e: &'e Expr) -> Option<(usize, &'e Expr)> {
        match peel(e) {
            Expr::Reference(r) if r.mutability.is_none() => self.element(&r.expr),
            Expr::Index(i) => Some((self.array(&i.expr)?, &*i.index)),
            _ => None,
        }
    }

    /// `e` as a sequence of positions whose elements of arrays of structs are their indices:
    /// `ps.iter().enumerate()` is `(0..N).enumerate()`, its second part an element of `ps`.
    /// `None` when no position holds such an element.
    fn seq(&mut self, e: &Expr) -> Option<(Expr, Shape)> {
        if let Some(k) = self.array(e) {
            let (len, span) = (&self.arrays[k].len, e.span());
            return Some((syn::parse_quote_spanned!(span=> (0..#len)), Shape::Element(k)));
        }
        let m = match peel(e) {
            Expr::Reference(r) if r.mutability.is_none() => return self.seq(&r.expr),
            Expr::MethodCall(m) => m,
            _ => return None,
        };
        let Some((receiver, shape)) = self.seq(&m.receiver) else { return self.zipped(m) };
        let name = m.method.to_string();
        let mut out = m.clone();
        out.receiver = Box::new(receiver);
        let by_ref = symbol::ITER_BY_REF.contains(&name.as_str());
        let by_value = symbol::ITER_BY_VALUE.contains(&name.as_str());
        let shape = match (name.as_str(), m.args.len()) {
            // `(0..N).iter()` is no range: the positions are the sequence.
            (_, 0) if by_ref || by_value => return Some((*out.receiver, shape)),
            (symbol::REV, 0) | (symbol::SKIP | symbol::TAKE | symbol::STEP_BY, 1) => shape,
            (symbol::ENUMERATE, 0) => Shape::Pair(Box::new(Shape::Other), Box::new(shape)),
            (symbol::ZIP, 1) => {
                let other = match self.seq(&m.args[0]) {
                    Some((arg, s)) => {
                        out.args[0] = arg;
                        s
                    }
                    None => Shape::Other,
                };
                Shape::Pair(Box::new(shape), Box::new(other))
            }
            (symbol::MAP, 1) => {
                if let Some(f) = out.args.iter_mut().next() {
                    self.closure(f, 0, &shape);
                }
                Shape::Other
            }
            // The test is given a reference to the element: its pattern binds the index
            // through `&`.
            (symbol::FILTER, 1) => {
                if let Some(f) = out.args.iter_mut().next() {
                    self.closure(f, 0, &shape);
                    if let Expr::Closure(c) = f
                        && shape.has_element()
                        && let Some(pat) = c.inputs.iter_mut().next()
                    {
                        let inner = pat.clone();
                        *pat = syn::parse_quote_spanned!(inner.span()=> &#inner);
                    }
                }
                shape
            }
            // Another adaptor: the iterator sugar reports it.
            _ => Shape::Other,
        };
        Some((Expr::MethodCall(out), shape))
    }

    /// A `zip` whose receiver holds no element of an array of structs but whose argument does
    /// (`xs.iter().zip(ps.iter())`).
    fn zipped(&mut self, m: &syn::ExprMethodCall) -> Option<(Expr, Shape)> {
        if m.method != symbol::ZIP || m.args.len() != 1 {
            return None;
        }
        let (arg, shape) = self.seq(&m.args[0])?;
        let mut out = m.clone();
        out.args[0] = arg;
        Some((Expr::MethodCall(out), Shape::Pair(Box::new(Shape::Other), Box::new(shape))))
    }

    /// Names the elements that the `param`-th parameter of the closure `f` receives (as
    /// `shape` says) by their indices, in its pattern and its body.
    fn closure(&mut self, f: &mut Expr, param: usize, shape: &Shape) {
        if !shape.has_element() {
            return;
        }
        let Expr::Closure(c) = f else {
            let what = "`#[grad]` passes the elements of an array of structs to a closure written in place (`.map(|p| p.x * p.v)`), whose body reads their fields; a function given by name would take an element whole".to_owned();
            self.errors.push((f.to_token_stream(), what));
            return;
        };
        let Some(pat) = c.inputs.iter_mut().nth(param) else { return };
        let mut bound = Bound::default();
        self.pattern(pat, shape, &mut bound);
        for named in bound.names {
            self.subst(named, |s| s.visit_expr_mut(&mut c.body));
        }
        if !bound.lets.is_empty() {
            let (lets, body) = (&bound.lets, &c.body);
            *c.body = syn::parse_quote_spanned!(body.span()=> { #(#lets)* #body });
        }
    }

    /// Rewrites `pat`, which binds the values that `shape` describes, so that it binds the
    /// indices of the elements of arrays of structs; collects the names given to them, and the
    /// `let`s of the fields of an element destructured.
    fn pattern(&mut self, pat: &mut Pat, shape: &Shape, bound: &mut Bound) {
        match (shape, &mut *pat) {
            (Shape::Other, _) => {}
            (_, Pat::Paren(p)) => self.pattern(&mut p.pat, shape, bound),
            (_, Pat::Reference(r)) => {
                let inner = (*r.pat).clone();
                *pat = inner;
                self.pattern(pat, shape, bound);
            }
            (_, Pat::Type(t)) => {
                let inner = (*t.pat).clone();
                *pat = inner;
                self.pattern(pat, shape, bound);
            }
            (Shape::Element(k), Pat::Ident(pi)) if pi.subpat.is_none() && pi.by_ref.is_none() => {
                let (name, index) = (symbol::unraw(&pi.ident), self.index_apart(&pi.ident));
                match &index {
                    Some(index) => *pat = syn::parse_quote!(#index),
                    None => pi.mutability = None,
                }
                bound.names.push((name, *k, index));
            }
            (Shape::Element(_), Pat::Wild(_)) => {}
            (Shape::Element(k), Pat::Struct(s)) if destructured(s) => {
                let (array, span) = (&self.arrays[*k].name, s.span());
                let index = self.names.fresh(&format!("{array}_i"));
                let index = Ident::new(&index.to_string(), span);
                let root = path_expr(array, span);
                for f in &s.fields {
                    let (member, fp) = (&f.member, &f.pat);
                    if matches!(**fp, Pat::Wild(_)) {
                        continue;
                    }
                    bound.lets.push(
                        syn::parse_quote_spanned!(fp.span()=> let #fp = #root[#index].#member;),
                    );
                }
                *pat = syn::parse_quote_spanned!(span=> #index);
            }
            (Shape::Pair(a, b), Pat::Tuple(t)) if t.elems.len() == 2 => {
                let mut elems = t.elems.iter_mut();
                if let (Some(x), Some(y)) = (elems.next(), elems.next()) {
                    self.pattern(x, a, bound);
                    self.pattern(y, b, bound);
                }
            }
            (_, other) => {
                let what = "`#[grad]` binds an element of an array of structs to a name (`for p in ps.iter()`, `|(i, p)|`) or destructures its fields into names (`for &P { x, v, .. } in ps.iter()`), and reads its fields through them; write one of those".to_owned();
                self.errors.push((other.to_token_stream(), what));
                // A name in its place, so that nothing more is reported of the pattern.
                *pat = syn::parse_quote_spanned!(pat.span()=> _);
            }
        }
    }
}

/// Whether the struct pattern `s` binds each field it names to a plain name (or `_`).
fn destructured(s: &syn::PatStruct) -> bool {
    s.qself.is_none()
        && s.fields.iter().all(|f| match &*f.pat {
            Pat::Ident(pi) => pi.by_ref.is_none() && pi.subpat.is_none(),
            Pat::Wild(_) => true,
            _ => false,
        })
}

impl Scoped for Indexed<'_> {
    fn shadows(&mut self) -> &mut Shadows {
        &mut self.shadows
    }

    /// `let p = &ps[i];` is `let p = i;`, and `p` is `ps[p]` in the rest of the block.
    fn at_stmt(&mut self, stmts: &mut Vec<Stmt>, k: usize) {
        if let Some(named) = self.element_local(&mut stmts[k]) {
            let mut rest = Block { brace_token: Default::default(), stmts: stmts.split_off(k + 1) };
            self.subst(named, |s| s.visit_block_mut(&mut rest));
            stmts.extend(rest.stmts);
        }
    }
}

impl VisitMut for Indexed<'_> {
    scope::scoped_visits!();

    fn visit_expr_mut(&mut self, e: &mut Expr) {
        match e {
            Expr::ForLoop(f) => {
                if let Some((seq, shape)) = self.seq(&f.expr) {
                    *f.expr = seq;
                    let mut bound = Bound::default();
                    self.pattern(&mut f.pat, &shape, &mut bound);
                    for named in bound.names {
                        self.subst(named, |s| s.visit_block_mut(&mut f.body));
                    }
                    f.body.stmts.splice(0..0, bound.lets);
                }
            }
            Expr::MethodCall(m) => {
                let name = m.method.to_string();
                let consumer = match (name.as_str(), m.args.len()) {
                    (symbol::SUM | symbol::PRODUCT, 0) => Some(None),
                    (symbol::FOLD, 2) => Some(Some((1, 1))),
                    (symbol::FOR_EACH, 1) => Some(Some((0, 0))),
                    _ => None,
                };
                if let Some(closure) = consumer
                    && let Some((seq, shape)) = self.seq(&m.receiver)
                {
                    *m.receiver = seq;
                    if let Some((arg, param)) = closure
                        && let Some(f) = m.args.iter_mut().nth(arg)
                    {
                        self.closure(f, param, &shape);
                    }
                }
            }
            _ => {}
        }
        syn::visit_mut::visit_expr_mut(self, e);
    }
}

impl Indexed<'_> {
    /// `let p = &ps[i];` (or `ps[i]`) as `let p = i;`: the name of the element, its array, and
    /// the index's name when it is named apart (`let ps = &ps[0];` is `let ps_i = 0;`).
    fn element_local(&mut self, stmt: &mut Stmt) -> Option<(String, usize, Option<Ident>)> {
        let Stmt::Local(l) = stmt else { return None };
        let init = l.init.as_ref().filter(|i| i.diverge.is_none())?;
        let (k, index) = self.element(&init.expr)?;
        let index = index.clone();
        let at = l.to_token_stream();
        let pat = match &l.pat {
            Pat::Type(t) => &*t.pat,
            other => other,
        };
        let Pat::Ident(pi) = pat else { return None };
        let (name, apart) = (symbol::unraw(&pi.ident), self.index_apart(&pi.ident));
        let ps = &self.arrays[k].name;
        if pi.mutability.is_some() || pi.by_ref.is_some() || pi.subpat.is_some() {
            let what = format!(
                "`#[grad]` reads the elements of the array of structs `{ps}` through their fields (`{ps}[i].x`) and does not copy one into a variable to change it; compute with the fields in variables of their own (`let mut x = {ps}[i].x;`)"
            );
            // Read on as the element, so that nothing more is reported of it.
            self.errors.push((at, what));
        }
        let ident = apart.clone().unwrap_or_else(|| pi.ident.clone());
        l.pat = syn::parse_quote!(#ident);
        if let Some(init) = &mut l.init {
            *init.expr = index;
        }
        Some((name, k, apart))
    }
}

/// Replaces each read of the name `name` in its scope by the element of `array` it indexes,
/// `array[name]` (`array[index]` when the index is named apart); stops where the name is bound
/// again, and refuses a read where `array` is.
struct Subst {
    name: String,
    array: String,
    index: Option<Ident>,
    /// `name` and `array`, shadowed here or not.
    shadows: Shadows,
    errors: Vec<(TokenStream, String)>,
}

impl Scoped for Subst {
    fn shadows(&mut self) -> &mut Shadows {
        &mut self.shadows
    }
}

impl VisitMut for Subst {
    scope::scoped_visits!();

    fn visit_macro_mut(&mut self, _: &mut syn::Macro) {}

    fn visit_expr_mut(&mut self, e: &mut Expr) {
        let read = name_of(e).is_some_and(|n| n == self.name) && !matches!(e, Expr::Paren(_));
        if read && !self.shadows.hides(&self.name) {
            let (name, ps) = (&self.name, &self.array);
            if self.shadows.hides(ps) {
                let what = format!(
                    "`#[grad]` reads the element `{name}` of the array of structs `{ps}` as `{ps}[i]`, and `{ps}` means something else here; rename the variable that shadows it"
                );
                self.errors.push((e.to_token_stream(), what));
                return;
            }
            let span = e.span();
            let array = path_expr(&self.array, span);
            *e = match &self.index {
                Some(index) => syn::parse_quote_spanned!(span=> #array[#index]),
                None => syn::parse_quote_spanned!(span=> #array[#e]),
            };
            return;
        }
        syn::visit_mut::visit_expr_mut(self, e);
    }
}

/// `::autodiff_runtime::__private::gather(ps, |e| e.a.b)` (`&ps` for an array taken by value),
/// spanned at `at`: the field `a.b` of every element, an array.
pub(in crate::lower) fn gather(name: &str, by_ref: bool, path: &[Member], at: Span) -> TokenStream {
    let ps = Ident::new(name, at);
    let e = Ident::new("e", Span::mixed_site());
    let lent = if by_ref { quote!(#ps) } else { quote!(&#ps) };
    quote_spanned!(at=> ::autodiff_runtime::__private::gather(#lent, |#e| #e #(.#path)*))
}

#[cfg(test)]
mod tests {
    use quote::quote;

    /// `f`'s body rewritten for its array of structs `ps` (of length 2), and the errors.
    fn rewritten(f: proc_macro2::TokenStream) -> (String, Vec<String>) {
        let item: syn::ItemFn = syn::parse2(f).expect("a function");
        let mut cx = crate::ctxt::Ctxt::new();
        let mut names = crate::lower::sugar::Names::of(&item);
        let arrays = [super::Elements { name: "ps".into(), len: syn::parse_quote!(2) }];
        let block = super::rewrite(&mut cx, &mut names, &arrays, &item.block);
        let errors = cx.errors().iter().map(ToString::to_string).collect();
        (quote!(#block).to_string(), errors)
    }

    #[test]
    fn a_binding_of_the_arrays_name_shadows_it_in_its_scope() {
        let (got, errors) = rewritten(quote!(
            fn f(ps: &[P; 2], xs: [f64; 2]) -> f64 {
                let mut s = ps[0].a;
                {
                    let ps = [1.0, 2.0];
                    s += ps[0];
                }
                s += xs.iter().map(|ps| ps * ps[1].a).sum::<f64>();
                for ps in 0..2 {
                    s += xs[ps];
                }
                s += match 1 {
                    0 => ps[1].a,
                    ps => xs[ps],
                };
                let ps = ps[1].a;
                s + ps
            }
        ));
        let want = quote!({
            let mut s = ps.a[0];
            {
                let ps = [1.0, 2.0];
                s += ps[0];
            }
            s += xs.iter().map(|ps| ps * ps[1].a).sum::<f64>();
            for ps in 0..2 {
                s += xs[ps];
            }
            s += match 1 {
                0 => ps.a[1],
                ps => xs[ps],
            };
            let ps = ps.a[1];
            s + ps
        });
        assert_eq!(errors, Vec::<String>::new());
        assert_eq!(got, want.to_string());
    }

    #[test]
    fn an_element_read_where_its_array_is_shadowed_is_refused() {
        let (_, errors) = rewritten(quote!(
            fn f(ps: &[P; 2]) -> f64 {
                let mut s = 0.0;
                for p in ps.iter() {
                    let ps = 2.0;
                    s += p.a * ps;
                }
                s
            }
        ));
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(errors[0].contains("means something else here"), "{}", errors[0]);
    }

    #[test]
    fn an_element_named_like_its_array_has_its_index_named_apart() {
        let (got, errors) = rewritten(quote!(
            fn f(ps: &[P; 2]) -> f64 {
                let mut s = 0.0;
                for ps in ps.iter() {
                    s += ps.a;
                }
                let ps = &ps[1];
                s + ps.a
            }
        ));
        let want = quote!({
            let mut s = 0.0;
            for ps_i in (0..2) {
                s += ps.a[ps_i];
            }
            let ps_i_1 = 1;
            s + ps.a[ps_i_1]
        });
        assert_eq!(errors, Vec::<String>::new());
        assert_eq!(got, want.to_string());
    }
}
