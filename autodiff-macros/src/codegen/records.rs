//! A function returning a struct (a vector function whose outputs are the struct's fields): its
//! value rebuilt as the struct (`Quat { w: t0, x: t1, .. }`), the tangent of `f_jvp` written
//! field by field into the value's zero, and the cotangent `out_bar` of `f_vjp` read field by
//! field once `Differentiable::tangent` keeps only its differentiated fields.

use proc_macro2::{Ident, TokenStream};
use quote::{ToTokens, quote, quote_spanned};
use syn::spanned::Spanned;

use super::Context;
use super::names::Namer;
use crate::ir::{Func, Ty, Var};
use crate::lower::{FieldOut, RecordOut};
use crate::symbol;

/// `::autodiff_runtime::Differentiable`.
fn trait_path() -> TokenStream {
    let name = Ident::new(symbol::DIFFERENTIABLE, proc_macro2::Span::call_site());
    quote!(::autodiff_runtime::#name)
}

/// The struct literal of `record` with the fields that are outputs taken from `values`.
pub(super) fn literal(record: &RecordOut, values: &[TokenStream]) -> TokenStream {
    let path = &record.path;
    if let Some(k) = record.flat {
        let v = values.get(k).cloned().unwrap_or_else(|| quote!([]));
        return super::call::rebuilt(&path.to_token_stream(), v);
    }
    let fields = record.fields.iter().map(|(m, out)| {
        let v = match out {
            FieldOut::Output(k) => values.get(*k).cloned().unwrap_or_else(|| quote!(0.0)),
            FieldOut::Flat(k) => {
                let v = values.get(*k).cloned().unwrap_or_else(|| quote!([]));
                quote_spanned!(m.span()=> ::autodiff_runtime::__private::shaped(&#v))
            }
            FieldOut::Const(t) => t.clone(),
            FieldOut::Record(inner) => literal(inner, values),
        };
        quote!(#m: #v)
    });
    quote!(#path { #(#fields),* })
}

/// Each output's path of fields in `record`, in order of the outputs.
fn paths(record: &RecordOut) -> Vec<Vec<syn::Member>> {
    flat_paths(record).into_iter().map(|(p, _)| p).collect()
}

/// Each output's path of fields in `record`, in order of the outputs, and whether it holds the
/// field's scalars laid flat ([`FieldOut::Flat`]).
fn flat_paths(record: &RecordOut) -> Vec<(Vec<syn::Member>, bool)> {
    fn walk(
        r: &RecordOut,
        prefix: &mut Vec<syn::Member>,
        out: &mut Vec<(usize, (Vec<syn::Member>, bool))>,
    ) {
        for (m, f) in &r.fields {
            prefix.push(m.clone());
            match f {
                FieldOut::Output(k) => out.push((*k, (prefix.clone(), false))),
                FieldOut::Flat(k) => out.push((*k, (prefix.clone(), true))),
                FieldOut::Record(inner) => walk(inner, prefix, out),
                FieldOut::Const(_) => {}
            }
            prefix.pop();
        }
    }
    let mut out = Vec::new();
    walk(record, &mut Vec::new(), &mut out);
    out.sort_by_key(|(k, _)| *k);
    out.into_iter().map(|(_, p)| p).collect()
}

/// Names the cotangent inputs of `f`, the `f_vjp` of a function returning `record`, after the
/// fields they belong to (`w_bar`, `inner_c_bar`).
pub fn name_cotangents(f: &mut Func, record: &RecordOut) {
    let inputs: Vec<Var> = f.inputs[f.user_inputs..].to_vec();
    name_after_fields(f, record, &inputs, symbol::SUFFIX_BAR);
}

/// Names the cotangent inputs of `f`, the `f_hvp` of a function returning `record`, and their
/// tangents (the last inputs) after the fields they belong to (`w_bar`, `w_bar_dot`).
pub fn name_hvp_cotangents(f: &mut Func, record: &RecordOut) {
    let inputs: Vec<Var> = f.inputs[f.user_inputs..].to_vec();
    let k = match record.flat {
        Some(_) => 1,
        None => paths(record).len(),
    };
    let k = k.min(inputs.len());
    name_after_fields(f, record, &inputs[..k], symbol::SUFFIX_BAR);
    let dot = format!("{}_{}", symbol::SUFFIX_BAR, symbol::SUFFIX_DOT);
    name_after_fields(f, record, &inputs[inputs.len() - k..], &dot);
}

/// Names `inputs`, one per output of `record`, after their fields with `suffix`.
fn name_after_fields(f: &mut Func, record: &RecordOut, inputs: &[Var], suffix: &str) {
    if record.flat.is_some() {
        let name = format!("{}_{}_{suffix}", symbol::OUT, symbol::FLAT);
        for v in inputs.iter().take(1) {
            f.names[v.index()] = crate::ir::Name::user(&name);
        }
        return;
    }
    for (path, v) in paths(record).iter().zip(inputs) {
        let text: Vec<String> = path.iter().map(|m| m.to_token_stream().to_string()).collect();
        let name = format!("{}_{suffix}", text.join("_"));
        f.names[v.index()] = crate::ir::Name::user(&name);
    }
}

impl Context<'_> {
    /// The function's return type.
    pub(super) fn return_type(&self) -> TokenStream {
        match &self.item.sig.output {
            syn::ReturnType::Type(_, t) => t.to_token_stream(),
            syn::ReturnType::Default => quote!(()),
        }
    }

    /// The value and the tangent of `f_jvp` for a returned struct: statements binding both, and
    /// their names.
    pub(super) fn record_jvp(
        &self,
        namer: &mut Namer,
        record: &RecordOut,
        values: &[TokenStream],
        dots: &[TokenStream],
    ) -> (TokenStream, Ident, Ident) {
        let (value, dot) = (
            namer.local(symbol::OUT),
            namer.local(&format!("{}_{}", symbol::OUT, symbol::SUFFIX_DOT)),
        );
        let (lit, tr) = (literal(record, values), trait_path());
        if record.flat.is_some() {
            let (path, d) = (&record.path, dots.first().cloned().unwrap_or_else(|| quote!([])));
            let out = quote! {
                let #value = #lit;
                let #dot = ::autodiff_runtime::__private::unflat::<#path>(&#d);
            };
            return (out, value, dot);
        }
        let mut out = quote! {
            let #value = #lit;
            let mut #dot = #tr::zero_like(&#value);
        };
        for ((path, flat), d) in flat_paths(record).iter().zip(dots) {
            let d = match flat {
                true => quote!(::autodiff_runtime::__private::shaped(&#d)),
                false => d.clone(),
            };
            out.extend(quote!(#dot #(.#path)* = #d;));
        }
        out.extend(quote!(#tr::clear_constants(&mut #dot);));
        (out, value, dot)
    }

    /// The cotangent parameter of `f_vjp` for a returned struct (or its tangent, for a vector
    /// `f_hvp`), named `name`, and the bindings of its fields to the inputs `cotangents` of `f`
    /// (one per output) that are read.
    pub(super) fn record_cotangent(
        &self,
        namer: &mut Namer,
        (f, cotangents, name): (&Func, &[Var], &str),
        record: &RecordOut,
        idents: &[Option<Ident>],
        read: &std::collections::HashSet<Var>,
    ) -> (Ident, TokenStream) {
        let used = cotangents.iter().any(|v| read.contains(v));
        let out_bar = match used {
            true => namer.local(name),
            false => namer.local(&format!("_{name}")),
        };
        if !used {
            return (out_bar, TokenStream::new());
        }
        let tr = trait_path();
        if record.flat.is_some() {
            let v = cotangents[0];
            let (id, ty) = (&idents[v.index()], super::signature::ty(f.ty(v), &self.scalar.ty));
            let flat = quote!(let #id: #ty = ::autodiff_runtime::__private::flat(&#out_bar););
            return (out_bar, flat);
        }
        let mut out = quote!(let #out_bar = #tr::tangent(&#out_bar););
        for ((path, flat), v) in flat_paths(record).iter().zip(cotangents) {
            if !read.contains(v) {
                continue;
            }
            let id = &idents[v.index()];
            let ty = match f.ty(*v) {
                Ty::Array(_) => super::signature::ty(f.ty(*v), &self.scalar.ty),
                _ => quote!(f64),
            };
            let value = match flat {
                true => quote!(::autodiff_runtime::__private::flat(&#out_bar #(.#path)*)),
                false => quote!(#out_bar #(.#path)*),
            };
            out.extend(quote!(let #id: #ty = #value;));
        }
        (out_bar, out)
    }
}
