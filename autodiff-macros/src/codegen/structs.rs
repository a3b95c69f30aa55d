//! Struct parameters at the boundary of a generated function: the fields the IR reads are bound
//! from the struct first (`let m_w: &[f64; _] = &m.w;`), a direction is one struct
//! (`m_dot: &Model`, its fields bound likewise after `Differentiable::tangent` keeps only the
//! differentiated ones), and a gradient is a value of the struct's type, written field by field
//! into its zero (`let mut m_bar = Differentiable::zero_like(m); m_bar.w = m_w_bar;`), with the
//! fields that are not differentiated cleared. A field passed whole is passed as itself
//! (`g(&m.inner)`), and its gradient, laid flat, added at its place
//! (`add_flat_at(&mut m_bar, field_at::<Model>("inner"), &m_inner_bar)`). `f_hessian` and `f_jacobian` number a struct's
//! scalars through `Differentiable`.

use std::collections::HashSet;

use proc_macro2::{Ident, TokenStream};
use quote::{ToTokens, quote, quote_spanned};

use super::Context;
use super::names::Namer;
use crate::ir::{Func, Int, Ty, Var};
use crate::lower::{FieldInput, Param};
use crate::symbol;

/// What one differentiated parameter is among the inputs of the IR.
pub(super) enum Component<'p> {
    /// A parameter that is one input: the `k`-th of `f.active`.
    Input(usize),
    /// A struct: its field inputs, each the `k`-th of `f.active`.
    Struct(&'p Param, Vec<(&'p FieldInput, usize)>),
}

/// `::autodiff_runtime::Differentiable`, spanned at `span`.
fn trait_path_at(span: proc_macro2::Span) -> TokenStream {
    let name = Ident::new(symbol::DIFFERENTIABLE, span);
    quote_spanned!(span=> ::autodiff_runtime::#name)
}

/// `<Model as ::autodiff_runtime::Differentiable>` for the struct parameter `p`, spanned at its
/// type: rustc reports a struct that does not derive the trait there.
fn qualified(p: &Param) -> TokenStream {
    let span = type_span(p);
    let tr = trait_path_at(span);
    let owned = p.strukt.as_ref().map(|s| s.owned.to_token_stream());
    quote_spanned!(span=> <#owned as #tr>)
}

/// The function that does `op` (`zero_like`, `tangent`, `clear_constants`) on the struct
/// parameter `p`: `<Model as Differentiable>::zero_like`, and for an array of structs
/// `zero_elements::<P, _>` (`tangent_elements`, `clear_elements`), spanned at the element's
/// type, where a struct that does not derive `Differentiable` is reported.
fn op(p: &Param, op: &str) -> TokenStream {
    let Some((elem, _)) = elements(p) else {
        let (tr, op) = (qualified(p), Ident::new(op, proc_macro2::Span::call_site()));
        return quote!(#tr::#op);
    };
    use syn::spanned::Spanned;
    let span = elem.span();
    let name = match op {
        "zero_like" => "zero_elements",
        "tangent" => "tangent_elements",
        _ => "clear_elements",
    };
    let f = Ident::new(name, span);
    quote_spanned!(span=> ::autodiff_runtime::__private::#f::<#elem, _>)
}

/// The element type and the length of the array of structs `p`, if it is one.
pub(super) fn elements(p: &Param) -> Option<(&syn::Type, &syn::Expr)> {
    let s = p.strukt.as_ref().filter(|s| s.array)?;
    match &s.owned {
        syn::Type::Array(a) => Some((&a.elem, &a.len)),
        _ => None,
    }
}

/// Whether the struct parameter `p` is an array of structs.
pub(super) fn is_array(p: &Param) -> bool {
    p.strukt.as_ref().is_some_and(|s| s.array)
}

/// `gather(from, |e| e.a.b)`: the field `path` of every element of the array of structs `from`.
fn gather(from: &TokenStream, path: &[syn::Member]) -> TokenStream {
    let e = Ident::new("e", proc_macro2::Span::mixed_site());
    quote!(::autodiff_runtime::__private::gather(#from, |#e| #e #(.#path)*))
}

/// The span of struct parameter `p`'s type (`Model` in `m: &Model`, `self` for a receiver): where
/// the code asking the struct for its derivatives is spanned, so that a struct that does not
/// derive `Differentiable` is reported there, once.
fn type_span(p: &Param) -> proc_macro2::Span {
    use syn::spanned::Spanned;
    p.strukt.as_ref().map_or_else(|| p.ident.span(), |s| s.owned.span())
}

/// The span of a field's first read.
fn span_of(at: &TokenStream) -> proc_macro2::Span {
    at.clone().into_iter().next().map_or(proc_macro2::Span::call_site(), |t| t.span())
}

/// Whether the direction of the struct parameter `p` is a reference: when `p` is one, and for a
/// receiver `self` taken by value too, whose direction is `&Self` (a caller calls a method by
/// method syntax, not knowing how it takes `self`, and passes `&Self` either way).
pub(super) fn direction_by_ref(p: &Param) -> bool {
    p.by_ref || (p.strukt.is_some() && symbol::unraw(&p.ident) == symbol::SELF_VALUE)
}

/// `&p` for a struct taken by value, `p` for one taken by reference: a `&Struct` either way.
fn borrowed(p: &Param, id: &TokenStream) -> TokenStream {
    match p.by_ref {
        true => id.clone(),
        false => quote!(&#id),
    }
}

/// The type a field input is bound with: `f64`, or a reference to an array whose lengths rustc
/// infers (`&[[f64; _]; _]`).
fn field_type(ty: &Ty) -> TokenStream {
    match ty {
        Ty::Array(_) => {
            let t = super::signature::ty(ty, &quote!(f64));
            quote!(&#t)
        }
        _ => quote!(f64),
    }
}

impl Context<'_> {
    /// The differentiated parameters, in order, as inputs of `f`.
    pub(super) fn components(&self, f: &Func) -> Vec<Component<'_>> {
        let at = |v: Var| f.active.iter().position(|a| *a == v);
        self.params
            .iter()
            .filter_map(|p| match (&p.strukt, p.input.and_then(at)) {
                (Some(s), _) => {
                    let fields = s.fields.iter().filter_map(|x| Some((x, at(x.input)?))).collect();
                    Some(Component::Struct(p, fields))
                }
                (None, Some(k)) => Some(Component::Input(k)),
                (None, None) => None,
            })
            .collect()
    }

    /// The field inputs of struct parameters that `f` reads, bound from their structs; with
    /// `dirs`, the directions of those fields too, from the struct directions named there (one
    /// per struct parameter), the directions among the inputs of `f` starting at the `at`-th
    /// added one.
    pub(super) fn field_reads(
        &self,
        f: &Func,
        idents: &[Option<Ident>],
        read: &HashSet<Var>,
        dirs: &[(Ident, bool)],
        at: usize,
    ) -> TokenStream {
        let mut out = TokenStream::new();
        let mut structs = 0;
        for comp in self.components(f) {
            let Component::Struct(p, fields) = comp else { continue };
            let direction = dirs.get(structs);
            structs += 1;
            // Structs and fields passed whole are laid flat where they are read otherwise than
            // by a call.
            let mut flat_reads = HashSet::new();
            read_outside_calls(&f.body, &mut flat_reads);
            // A field copied whole into the returned struct is one of its outputs.
            flat_reads.extend(f.outputs.iter().filter_map(|o| o.var()));
            // Every field input, differentiated or not (left out by `wrt`).
            let all = p.strukt.as_ref().map_or(&[][..], |s| &s.fields[..]);
            for field in all {
                if field.flat {
                    if flat_reads.contains(&field.input) {
                        let id = &idents[field.input.index()];
                        let (from, root) = (borrowed(p, &p.ident.to_token_stream()), &p.ident);
                        let from = (&from, &quote!(#root));
                        out.extend(self.flat_field(f, p, field, &id.to_token_stream(), from));
                    }
                    continue;
                }
                if !read.contains(&field.input) {
                    continue;
                }
                let (id, ty) = (&idents[field.input.index()], field_type(f.ty(field.input)));
                let at = &field.at;
                // Passed whole or a row of it: rustc checks its dimensions, from the field's
                // type alone (a statement of its own, no type expected of it).
                if let Ty::Array(a) = f.ty(field.input)
                    && field.guessed
                    && (1..=3).contains(&a.dims.len())
                {
                    let d = a.dims.len();
                    let p = quote!(::autodiff_runtime::__private);
                    out.extend(quote_spanned!(span_of(at)=> #p::array_field::<_, #d>(&#at);));
                }
                let value = match f.ty(field.input) {
                    Ty::Array(_) => quote!(&#at),
                    // Read as an `f64` by guess: rustc says what to write if it is an array.
                    _ if field.guessed => quote!(::autodiff_runtime::__private::scalar_field(#at)),
                    _ => at.clone(),
                };
                out.extend(quote_spanned!(span_of(at)=> let #id: #ty = #value;));
            }
            let whole = whole_of(f, p);
            if let Some(v) = whole.map(|k| f.active[k]).filter(|v| flat_reads.contains(v)) {
                let (id, ty) = (&idents[v.index()], super::signature::ty(f.ty(v), &self.scalar.ty));
                let lent = borrowed(p, &p.ident.to_token_stream());
                out.extend(quote!(let #id: #ty = ::autodiff_runtime::__private::flat(#lent);));
            }
            let Some((dir, used)) = direction else { continue };
            if !used {
                continue;
            }
            let (span, tangent) = (type_span(p), op(p, "tangent"));
            let lent = match direction_by_ref(p) {
                true => dir.to_token_stream(),
                false => quote!(&#dir),
            };
            out.extend(quote_spanned!(span=> let #dir = &#tangent(#lent);));
            for (field, k) in &fields {
                let Some(v) = f.inputs.get(f.user_inputs + at + k) else { continue };
                if !read.contains(v) {
                    continue;
                }
                if field.flat {
                    if flat_reads.contains(v) {
                        let id = idents[v.index()].to_token_stream();
                        let from = (&quote!(#dir), &quote!(#dir));
                        out.extend(self.flat_field(f, p, field, &id, from));
                    }
                    continue;
                }
                let (id, ty) = (&idents[v.index()], field_type(f.ty(*v)));
                let path = &field.path;
                let value = match f.ty(*v) {
                    _ if is_array(p) => {
                        let g = gather(&quote!(#dir), path);
                        quote!(&#g)
                    }
                    Ty::Array(_) => quote!(&#dir #(.#path)*),
                    _ => quote!(#dir #(.#path)*),
                };
                out.extend(quote!(let #id: #ty = #value;));
            }
            let dot = whole.and_then(|k| f.inputs.get(f.user_inputs + at + k));
            if let Some(v) = dot.filter(|v| flat_reads.contains(v)) {
                let (id, ty) =
                    (&idents[v.index()], super::signature::ty(f.ty(*v), &self.scalar.ty));
                out.extend(quote!(let #id: #ty = ::autodiff_runtime::__private::flat(#dir);));
            }
        }
        out
    }

    /// Whether `f` reads a direction of a field of the struct parameter `p` (`fields` its
    /// field inputs), or its direction as a whole (the directions starting at the `at`-th added
    /// input).
    pub(super) fn reads_direction(
        f: &Func,
        p: &Param,
        fields: &[(&FieldInput, usize)],
        read: &HashSet<Var>,
        at: usize,
    ) -> bool {
        let direction =
            |k: usize| f.inputs.get(f.user_inputs + at + k).is_some_and(|v| read.contains(v));
        fields.iter().any(|(_, k)| direction(*k)) || whole_of(f, p).is_some_and(direction)
    }

    /// The inputs of `f` that struct parameters passed whole are, with how a call passes them;
    /// with `dirs` (the struct directions, one per struct parameter, from the `at`-th added
    /// input), their directions too.
    pub(super) fn wholes(
        &self,
        f: &Func,
        dirs: &[(Ident, bool)],
        at: usize,
    ) -> std::collections::HashMap<Var, super::call::Whole> {
        let mut out = std::collections::HashMap::new();
        let structs = self.params.iter().filter(|p| p.strukt.is_some());
        for (n, p) in structs.enumerate() {
            // Fields passed whole: the field itself, and its direction's.
            let fields = p.strukt.as_ref().map_or(&[][..], |s| &s.fields[..]);
            for field in fields.iter().filter(|x| x.flat) {
                let path = &field.path;
                let (id, span) = (&p.ident, span_of(&field.at));
                let tokens = quote_spanned!(span=> #id #(.#path)*);
                out.insert(
                    field.input,
                    super::call::Whole { tokens, reference: false, owned: false },
                );
                let Some(k) = f.active.iter().position(|a| *a == field.input) else { continue };
                if let (Some((d, true)), Some(v)) =
                    (dirs.get(n), f.inputs.get(f.user_inputs + at + k))
                {
                    let tokens = quote!(#d #(.#path)*);
                    out.insert(*v, super::call::Whole { tokens, reference: false, owned: false });
                }
            }
            let Some(k) = whole_of(f, p) else { continue };
            let (tokens, owned) = (p.ident.to_token_stream(), !p.by_ref);
            out.insert(f.active[k], super::call::Whole { tokens, reference: p.by_ref, owned });
            if let (Some((d, true)), Some(v)) = (dirs.get(n), f.inputs.get(f.user_inputs + at + k))
            {
                let tokens = d.to_token_stream();
                out.insert(*v, super::call::Whole { tokens, reference: true, owned });
            }
        }
        out
    }

    /// The gradient (or H·v, `suffix` `bar_dot`) of one struct parameter, written field by field
    /// from `values` (one rendered output per differentiated input of `f`): the statements, and
    /// the local holding it.
    pub(super) fn assemble_struct(
        &self,
        namer: &mut Namer,
        (f, p): (&Func, &Param),
        fields: &[(&FieldInput, usize)],
        values: &[TokenStream],
        suffix: &str,
    ) -> (TokenStream, Ident) {
        let id = namer.local(&format!("{}_{suffix}", symbol::unraw(&p.ident)));
        let span = type_span(p);
        let (zero, clear) = (op(p, "zero_like"), op(p, "clear_constants"));
        let param = p.ident.to_token_stream();
        let lent = borrowed(p, &param);
        let mut out = quote_spanned!(span=> let mut #id = #zero(#lent););
        for (field, k) in fields.iter().filter(|(x, _)| !x.flat) {
            let path = &field.path;
            let value = &values[*k];
            if is_array(p) {
                let e = Ident::new("e", proc_macro2::Span::mixed_site());
                let p = quote!(::autodiff_runtime::__private);
                out.extend(quote!(#p::scatter(&mut #id, &#value, |#e| &mut #e #(.#path)*);));
                continue;
            }
            out.extend(quote!(#id #(.#path)* = #value;));
        }
        // Fields passed whole, added after the fields of theirs written above.
        for (field, k) in fields.iter().filter(|(x, _)| x.flat) {
            let value = &values[*k];
            let at = self.field_at(p, field);
            let len = self.field_len(p, field);
            let p = quote!(::autodiff_runtime::__private);
            // A field whose rows are passed to calls holds all its scalars, which a gradient
            // holds only if it is differentiated.
            out.extend(match field.rows {
                true => quote!(#p::add_field_flat(&mut #id, #at, #len, &#value);),
                false => quote!(#p::add_flat_at(&mut #id, #at, &#value);),
            });
        }
        if let Some(k) = whole_of(f, p) {
            let value = &values[k];
            out.extend(quote!(::autodiff_runtime::__private::add_flat(&mut #id, &#value);));
        }
        out.extend(quote_spanned!(span=> #clear(&mut #id);));
        (out, id)
    }

    /// `field_at::<Model>("w")`: the number of the first scalar of the field passed whole
    /// `field`, among those of the struct parameter `p`.
    fn field_at(&self, p: &Param, field: &FieldInput) -> TokenStream {
        let owned = p.strukt.as_ref().map(|s| s.owned.to_token_stream());
        let names: Vec<String> =
            field.path.iter().map(|m| m.to_token_stream().to_string()).collect();
        let p = quote!(::autodiff_runtime::__private);
        match &names[..] {
            [name] => quote!(#p::field_at::<#owned>(#name)),
            _ => quote!(#p::field_path_at::<#owned>(&[#(#names),*])),
        }
    }

    /// `field_len::<Model>("w")`: how many differentiated scalars the field `field` of the
    /// struct parameter `p` holds.
    fn field_len(&self, p: &Param, field: &FieldInput) -> TokenStream {
        let owned = p.strukt.as_ref().map(|s| s.owned.to_token_stream());
        let names: Vec<String> =
            field.path.iter().map(|m| m.to_token_stream().to_string()).collect();
        let p = quote!(::autodiff_runtime::__private);
        match &names[..] {
            [name] => quote!(#p::field_len::<#owned>(#name)),
            _ => quote!(#p::field_path_len::<#owned>(&[#(#names),*])),
        }
    }

    /// `let id: [f64; N] = flat_at(from, field_at::<Model>("w"));`: the scalars of the field
    /// passed whole `field` of the struct `from` (the parameter `p`, or its direction, `root`
    /// its name), where they are read otherwise than by a call; all the field's scalars,
    /// `flat(&m.w)`, for a field whose rows are passed to calls.
    fn flat_field(
        &self,
        f: &Func,
        p: &Param,
        field: &FieldInput,
        id: &TokenStream,
        (from, root): (&TokenStream, &TokenStream),
    ) -> TokenStream {
        let ty = super::signature::ty(f.ty(field.input), &self.scalar.ty);
        if field.rows {
            let path = &field.path;
            return quote!(let #id: #ty = ::autodiff_runtime::__private::flat(&#root #(.#path)*););
        }
        let at = self.field_at(p, field);
        quote!(let #id: #ty = ::autodiff_runtime::__private::flat_at(#from, #at);)
    }

    /// The type of one component of a gradient.
    pub(super) fn component_type(&self, f: &Func, c: &Component) -> TokenStream {
        match c {
            Component::Input(k) => super::signature::ty(f.ty(f.active[*k]), &self.scalar.ty),
            Component::Struct(p, _) => {
                p.strukt.as_ref().map_or_else(|| quote!(()), |s| s.owned.to_token_stream())
            }
        }
    }

    /// The number of differentiated scalars of one component: a struct's, through
    /// `Differentiable::LEN`.
    pub(super) fn component_size(&self, f: &Func, c: &Component) -> Int {
        match c {
            Component::Input(k) => super::flat_size(f.ty(f.active[*k])),
            Component::Struct(p, _) => {
                let owned = p.strukt.as_ref().map(|s| s.owned.to_token_stream());
                let tr = trait_path_at(type_span(p));
                let mut n = match elements(p) {
                    Some((elem, len)) => {
                        let f = quote!(::autodiff_runtime::__private::elements_len);
                        Int::tokens(quote!(#f::<#elem>(#len)), true)
                    }
                    None => Int::tokens(quote!(<#owned as #tr>::LEN), true),
                };
                n.generic = mentions(&owned.unwrap_or_default(), &self.generics());
                n
            }
        }
    }

    /// The names of the function's const generic parameters.
    fn generics(&self) -> Vec<String> {
        self.item
            .sig
            .generics
            .params
            .iter()
            .filter_map(|g| match g {
                syn::GenericParam::Const(c) => Some(symbol::unraw(&c.ident)),
                _ => None,
            })
            .collect()
    }

    /// Whether the function is in an `impl` (it has a receiver or names `Self`): the generated
    /// functions that call the others then name them `Self::f_hvp`.
    pub(super) fn in_impl(&self) -> bool {
        self.item.sig.receiver().is_some()
            || mentions(&self.item.to_token_stream(), &[symbol::SELF_TYPE.to_owned()])
    }

    /// What the generated functions that call the others (`f_hessian`, `f_jacobian`) write
    /// before their names: `Self::` in an `impl`.
    pub(super) fn impl_prefix(&self) -> TokenStream {
        match self.in_impl() {
            true => {
                let s = Ident::new(symbol::SELF_TYPE, self.item.sig.ident.span());
                quote!(#s::)
            }
            false => TokenStream::new(),
        }
    }
}

/// The variables that `block` reads other than as arguments and directions of calls (a struct
/// passed whole is passed as the struct; its scalars laid flat are read elsewhere only by the
/// forward mode of a call's value, `ẏ = ∂y/∂m · ṁ`).
fn read_outside_calls(block: &crate::ir::Block, out: &mut HashSet<Var>) {
    use crate::ir::Stmt;
    for s in block {
        match s {
            Stmt::Call(_) => {}
            Stmt::For(l) => {
                out.extend(l.carried.iter().filter_map(|c| c.init.var()));
                out.extend(l.yields.iter().filter_map(|y| y.var()));
                read_outside_calls(&l.body, out);
            }
            Stmt::If(b) => {
                out.extend(b.then_yields.iter().chain(&b.else_yields).filter_map(|y| y.var()));
                read_outside_calls(&b.then, out);
                read_outside_calls(&b.otherwise, out);
            }
            Stmt::Checkpoint(c) => {
                out.extend(c.state.iter().filter_map(|o| o.var()));
                out.extend(c.adjoint.iter().filter_map(|a| a.init.var()));
                out.extend(c.step_yields.iter().chain(&c.back_yields).filter_map(|y| y.var()));
                read_outside_calls(&c.step, out);
                read_outside_calls(&c.back, out);
            }
            other => out.extend(crate::ir::reads(other).into_iter().filter_map(|o| o.var())),
        }
    }
}

/// The position in `f.active` of the struct parameter `p` passed whole, if it is.
pub(super) fn whole_of(f: &Func, p: &Param) -> Option<usize> {
    let v = p.strukt.as_ref()?.whole?;
    f.active.iter().position(|a| *a == v)
}

/// Whether `tokens` name any of `names`.
fn mentions(tokens: &TokenStream, names: &[String]) -> bool {
    tokens.clone().into_iter().any(|t| match t {
        proc_macro2::TokenTree::Ident(id) => names.contains(&symbol::unraw(&id)),
        proc_macro2::TokenTree::Group(g) => mentions(&g.stream(), names),
        _ => false,
    })
}
