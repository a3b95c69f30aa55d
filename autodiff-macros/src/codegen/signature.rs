//! The signature of a generated function: the user's parameters (with `mut` dropped and unused
//! ones prefixed with `_`), then the direction parameters, and the return type.

use std::collections::HashSet;

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use super::names::Namer;
use crate::lower::Param;
use crate::symbol;

/// The return type of a tuple of output groups: one group of one is a bare `f64`.
pub fn return_type(groups: &[usize]) -> TokenStream {
    let parts = groups.iter().map(|n| match n {
        1 => quote!(f64),
        n => {
            let fs = (0..*n).map(|_| quote!(f64));
            quote!((#(#fs),*))
        }
    });
    quote!((#(#parts),*))
}

/// The user's parameters as the generated functions take them; `used` holds the names the body
/// reads (others get a fresh name with a leading underscore, so the generated code has no unused
/// variables).
pub fn user_params(
    namer: &mut Namer,
    params: &[Param],
    used: &HashSet<String>,
) -> Vec<TokenStream> {
    params
        .iter()
        .map(|p| {
            let ty = &p.ty;
            let name = symbol::unraw(&p.ident);
            let ident = if used.contains(&name) || name.starts_with('_') {
                p.ident.clone()
            } else {
                let fresh = namer.fresh(&format!("_{name}"), false);
                Ident::new(&fresh, p.ident.span())
            };
            quote!(#ident: #ty)
        })
        .collect()
}

/// `name: f64` for each added (direction) parameter.
pub fn extra_params(idents: &[Ident]) -> Vec<TokenStream> {
    idents.iter().map(|id| quote!(#id: f64)).collect()
}

/// The identifier of a generated function: `f_grad`, `f_hvp`, ... with the user's span.
pub fn fn_ident(base: &Ident, suffix: &str) -> Ident {
    format_ident!("{}_{}", base, suffix)
}
