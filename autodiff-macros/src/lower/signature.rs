//! Lowering of the signature: which parameters are differentiated, which pass through, and the
//! function-level constructs that are not supported.

use proc_macro2::TokenTree;
use quote::ToTokens;
use syn::{FnArg, Pat, ReturnType, Safety, Signature, Type};

use super::{Binding, Lower, Param};
use crate::args::Args;
use crate::ir::{Name, Operand};
use crate::symbol;

/// How a parameter's type is treated.
enum Kind {
    /// `f64`: differentiable.
    F64,
    /// Looks differentiable but is not supported (`f32`, arrays or tuples of floats by value).
    Float,
    /// Anything else: passed through as a constant.
    Other,
}

fn is_named(ty: &Type, names: &[&str]) -> bool {
    match ty {
        Type::Path(p) if p.qself.is_none() => {
            p.path.get_ident().is_some_and(|id| names.iter().any(|n| id == n))
        }
        Type::Paren(p) => is_named(&p.elem, names),
        Type::Group(g) => is_named(&g.elem, names),
        _ => false,
    }
}

/// Whether `ty` is `f64`, written as such or as `std::primitive::f64` / `core::primitive::f64`.
pub(super) fn is_f64(ty: &Type) -> bool {
    match ty {
        Type::Path(p) if p.qself.is_none() => names_f64(p.path.segments.iter()),
        Type::Paren(p) => is_f64(&p.elem),
        Type::Group(g) => is_f64(&g.elem),
        _ => false,
    }
}

/// Whether the path `segments` names the type `f64`: `f64`, `std::primitive::f64` or
/// `core::primitive::f64`, without generic arguments.
pub(super) fn names_f64<'a>(segments: impl Iterator<Item = &'a syn::PathSegment>) -> bool {
    let mut names = Vec::new();
    for s in segments {
        if !s.arguments.is_none() {
            return false;
        }
        names.push(s.ident.to_string());
    }
    match names.as_slice() {
        [f] => f == symbol::F64,
        [root, primitive, f] => {
            matches!(root.as_str(), "std" | "core") && primitive == "primitive" && f == symbol::F64
        }
        _ => false,
    }
}

/// `ty` as a person writes it, for messages: `Vec<f64>` rather than the tokens' `Vec < f64 >`.
fn type_text(ty: &Type) -> String {
    let spaced = ty.to_token_stream().to_string();
    [(" <", "<"), ("< ", "<"), (" >", ">"), (" ::", "::"), (":: ", "::"), ("& ", "&"), (" ,", ",")]
        .iter()
        .fold(spaced, |text, (from, to)| text.replace(from, to))
}

fn mentions_float(ty: &Type) -> bool {
    fn walk(tokens: proc_macro2::TokenStream) -> bool {
        tokens.into_iter().any(|t| match t {
            TokenTree::Ident(id) => {
                id == symbol::F64 || symbol::OTHER_FLOATS.iter().any(|f| id == f)
            }
            TokenTree::Group(g) => walk(g.stream()),
            _ => false,
        })
    }
    walk(ty.to_token_stream())
}

fn kind(ty: &Type) -> Kind {
    match ty {
        _ if is_f64(ty) => Kind::F64,
        _ if is_named(ty, symbol::OTHER_FLOATS) => Kind::Float,
        Type::Array(_) | Type::Tuple(_) if mentions_float(ty) => Kind::Float,
        _ => Kind::Other,
    }
}

/// Whether the type has `&mut` anywhere.
fn has_mut_ref(ty: &Type) -> bool {
    fn walk(tokens: proc_macro2::TokenStream) -> bool {
        let mut after_amp = false;
        for t in tokens {
            match t {
                TokenTree::Ident(id) if after_amp && id == "mut" => return true,
                TokenTree::Group(g) if walk(g.stream()) => return true,
                TokenTree::Punct(p) => after_amp = p.as_char() == '&',
                _ => after_amp = false,
            }
        }
        false
    }
    walk(ty.to_token_stream())
}

impl Lower<'_> {
    /// Checks the signature, creates an IR input per `f64` parameter, and binds every parameter.
    pub(super) fn signature(&mut self, sig: &Signature, args: &Args) -> Vec<Param> {
        self.function_kind(sig);
        let wrt = args.wrt.as_deref();
        let mut params = Vec::new();
        for arg in &sig.inputs {
            let FnArg::Typed(pt) = arg else {
                self.cx.error_spanned(
                    arg,
                    "`#[grad]` does not support methods taking `self`; use a free function",
                );
                continue;
            };
            for attr in &pt.attrs {
                // The generated signatures copy the parameter without it: refused rather than
                // dropped, so that `f` and `f_grad` always take the same parameters.
                self.cx.error_spanned(attr, "`#[grad]` does not support attributes on parameters");
            }
            let Pat::Ident(pi) = &*pt.pat else {
                self.cx.error_spanned(
                    &pt.pat,
                    "`#[grad]` needs every parameter to be a plain name, such as `x: f64`",
                );
                continue;
            };
            if pi.by_ref.is_some() || pi.subpat.is_some() {
                self.cx
                    .error_spanned(&pt.pat, "`#[grad]` needs every parameter to be a plain name");
                continue;
            }
            let ident = pi.ident.clone();
            let listed =
                wrt.and_then(|w| w.iter().find(|id| symbol::unraw(id) == symbol::unraw(&ident)));
            let input = self.param(&ident, &pt.ty, wrt.is_none() || listed.is_some(), listed);
            params.push(Param { ident, ty: (*pt.ty).clone(), input });
        }
        for id in wrt.unwrap_or_default() {
            if !params.iter().any(|p| symbol::unraw(&p.ident) == symbol::unraw(id)) {
                self.cx.error_spanned(
                    id,
                    format!("`wrt` names `{id}`, which is not a parameter of `{}`", sig.ident),
                );
            }
        }
        if self.cx.is_ok() && self.b.func().active.is_empty() {
            self.cx.error_spanned(
                &sig.ident,
                format!("`{}` has no `f64` parameter to differentiate", sig.ident),
            );
        }
        self.b.func_mut().user_inputs = self.b.func().inputs.len();
        params
    }

    /// Classifies one parameter; returns its IR input if it is an `f64`.
    fn param(
        &mut self,
        ident: &proc_macro2::Ident,
        ty: &Type,
        differentiate: bool,
        listed: Option<&proc_macro2::Ident>,
    ) -> Option<crate::ir::Var> {
        if has_mut_ref(ty) {
            self.cx.error_spanned(
                ty,
                "`#[grad]` does not support `&mut` parameters: the function must be pure; pass values or shared references",
            );
            return None;
        }
        if let Type::ImplTrait(_) = ty {
            self.cx.error_spanned(
                ty,
                "`#[grad]` does not support generic functions (`impl Trait` parameters); write the function for `f64` and concrete types",
            );
            return None;
        }
        match kind(ty) {
            Kind::F64 => {
                let v = self.b.input(Name::user(&symbol::unraw(ident)), crate::ir::Ty::F64);
                self.versions.insert(symbol::unraw(ident), 1);
                if differentiate {
                    self.b.func_mut().active.push(v);
                }
                self.env.insert(symbol::unraw(ident), Binding::Value(Operand::Var(v)));
                Some(v)
            }
            Kind::Float | Kind::Other if listed.is_some() => {
                let at = listed.unwrap_or(ident);
                let ty = type_text(ty);
                self.cx.error_spanned(
                    at,
                    format!("`wrt` names `{ident}`, of type `{ty}`, but only `f64` parameters can be differentiated"),
                );
                None
            }
            Kind::Float if differentiate => {
                let text = type_text(ty);
                self.cx.error_spanned(
                    ty,
                    format!(
                        "`#[grad]` differentiates only `f64` scalars, not `{text}`; to pass `{ident}` through as a constant, list the differentiated parameters with `wrt(...)`"
                    ),
                );
                None
            }
            Kind::Float | Kind::Other => {
                self.env.insert(symbol::unraw(ident), Binding::Passive);
                None
            }
        }
    }

    /// Reports the function-level constructs that are not supported.
    fn function_kind(&mut self, sig: &Signature) {
        let what = "`#[grad]` differentiates plain functions of `f64` values";
        if let Some(t) = &sig.constness {
            self.cx.error_spanned(t, format!("`#[grad]` does not support `const fn`; {what}"));
        }
        if let Some(t) = &sig.asyncness {
            self.cx.error_spanned(t, format!("`#[grad]` does not support `async fn`; {what}"));
        }
        if let Safety::Unsafe(t) = &sig.safety {
            self.cx.error_spanned(t, format!("`#[grad]` does not support `unsafe fn`; {what}"));
        }
        if !sig.generics.params.is_empty() {
            self.cx.error_spanned(
                &sig.generics,
                "`#[grad]` does not support generic functions; write the function for `f64`",
            );
        }
        if let Some(w) = &sig.generics.where_clause {
            // Spanned by the clause itself: `Generics` prints without its `where` clause.
            self.cx.error_spanned(
                w,
                "`#[grad]` does not support `where` clauses; write the function for `f64`",
            );
        }
        if let Some(v) = &sig.variadic {
            self.cx.error_spanned(v, "`#[grad]` does not support variadic functions");
        }
        match &sig.output {
            ReturnType::Type(_, ty) if is_f64(ty) => {}
            ReturnType::Type(_, ty) => self.cx.error_spanned(
                ty,
                format!(
                    "`#[grad]` functions must return `f64`, not `{}`: only scalar functions are differentiated",
                    type_text(ty)
                ),
            ),
            ReturnType::Default => self.cx.error_spanned(
                &sig.ident,
                "`#[grad]` functions must return `f64`; add `-> f64`",
            ),
        }
    }
}
