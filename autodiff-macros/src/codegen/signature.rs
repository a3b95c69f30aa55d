//! The signature of a generated function: the user's parameters (with `mut` dropped and unused
//! ones prefixed with `_`), then the direction parameters, and the return type.

use std::collections::{HashMap, HashSet};

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use super::names::Namer;
use crate::ir::{Elem, Ty};
use crate::lower::Param;
use crate::symbol;

/// A type of the IR as Rust, its scalars of type `scalar`: `f64`, `bool`, `[[f32; K]; M]`.
pub fn ty(t: &Ty, scalar: &TokenStream) -> TokenStream {
    match t {
        Ty::F64 => scalar.clone(),
        Ty::Other => super::scalar::other_ty(scalar),
        Ty::Bool => quote!(bool),
        // Only rustc knows a call's residuals' type: it infers it.
        Ty::Residuals => quote!(_),
        Ty::Array(s) => {
            let mut out = match s.elem {
                Elem::F64 => scalar.clone(),
                Elem::Other => super::scalar::other_ty(scalar),
                Elem::Bool => quote!(bool),
                Elem::Residuals => quote!(_),
            };
            for d in s.dims.iter().rev() {
                let n = d.render_const(&|_| quote!(_));
                out = quote!([#out; #n]);
            }
            out
        }
    }
}

/// The user's parameters as the generated functions take them; `used` holds the names the body
/// reads (others get a fresh name with a leading underscore, so the generated code has no unused
/// variables), `renamed` those the body names apart.
pub fn user_params(
    namer: &mut Namer,
    params: &[Param],
    used: &HashSet<String>,
    renamed: &HashMap<String, Ident>,
) -> Vec<TokenStream> {
    params
        .iter()
        .map(|p| {
            let ty = &p.ty;
            let name = symbol::unraw(&p.ident);
            let ident =
                if used.contains(&name) || name.starts_with('_') || name == symbol::SELF_VALUE {
                    renamed.get(&name).cloned().unwrap_or_else(|| p.ident.clone())
                } else {
                    let fresh = namer.fresh(&format!("_{name}"), false);
                    Ident::new(&fresh, p.ident.span())
                };
            match receiver(&ident, ty) {
                Some(r) => r,
                None => quote!(#ident: #ty),
            }
        })
        .collect()
}

/// The receiver `self: &Self` as it is written, `&self` (and `self`, `&'a self`, `&mut self`),
/// which clippy asks for; `None` for other parameters (and `self: Box<Self>`, kept).
fn receiver(ident: &Ident, ty: &syn::Type) -> Option<TokenStream> {
    if symbol::unraw(ident) != symbol::SELF_VALUE {
        return None;
    }
    let is_self = |t: &syn::Type| matches!(t, syn::Type::Path(p) if p.qself.is_none() && p.path.is_ident(symbol::SELF_TYPE));
    match ty {
        t if is_self(t) => Some(quote!(#ident)),
        syn::Type::Reference(r) if is_self(&r.elem) => {
            let (and, lifetime, mutability) = (&r.and_token, &r.lifetime, &r.mutability);
            Some(quote!(#and #lifetime #mutability #ident))
        }
        _ => None,
    }
}

/// `name: type` for each added (direction) parameter.
pub fn extra_params(extra: &[(TokenStream, TokenStream)]) -> Vec<TokenStream> {
    extra.iter().map(|(id, ty)| quote!(#id: #ty)).collect()
}

/// The identifier of a generated function: `f_grad`, `f_hvp`, ... with the user's span.
pub fn fn_ident(base: &Ident, suffix: &str) -> Ident {
    format_ident!("{}_{}", base, suffix)
}
