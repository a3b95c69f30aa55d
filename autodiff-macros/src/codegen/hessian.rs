//! The dense Hessian: the Hessian-vector kernel run once per unit direction, in a loop, so its
//! code does not grow with the square of the number of parameters.

use proc_macro2::{Ident, Literal, TokenStream};
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use super::names::Namer;
use crate::lower::Param;
use crate::symbol;

/// The body of `f_hessian` for `n` differentiated parameters, calling `hvp` with the user's
/// parameters `args` followed by the unit direction; `hvp` may be deprecated, as `f` is.
pub fn body(
    namer: &mut Namer,
    (hvp, deprecated): (&Ident, bool),
    args: &[Ident],
    n: usize,
) -> TokenStream {
    let [h, row, i, v, hv] = symbol::HESSIAN_LOCALS.map(|want| namer.local(want));
    let size = Literal::usize_unsuffixed(n);
    let allow = deprecated.then(|| quote!(#[allow(deprecated)]));
    let dirs = (0..n).map(|k| {
        let k = Literal::usize_unsuffixed(k);
        quote!(#v[#k])
    });
    let column = if n == 1 {
        quote!([#hv])
    } else {
        let parts = (0..n).map(Literal::usize_unsuffixed).map(|k| quote!(#hv.#k));
        quote!([#(#parts),*])
    };
    quote! {
        let mut #h = [[0.0; #size]; #size];
        for (#i, #row) in #h.iter_mut().enumerate() {
            let mut #v = [0.0; #size];
            #v[#i] = 1.0;
            #allow
            let (_, _, #hv) = #hvp(#(#args,)* #(#dirs),*);
            *#row = #column;
        }
        #h
    }
}

/// Checks that the constant parameters are `Copy`, each at its type: the loop passes them to
/// `f_hvp` once per direction, and without the check a `Vec` parameter would be reported as a
/// moved value at the attribute.
pub fn copy_checks(namer: &mut Namer, constants: &[&Param]) -> TokenStream {
    if constants.is_empty() {
        return TokenStream::new();
    }
    let check = namer.local(symbol::HESSIAN_COPY_CHECK);
    let calls = constants.iter().map(|p| {
        let (ident, ty) = (&p.ident, &p.ty);
        quote_spanned!(ty.span()=> #check::<#ty>(&#ident);)
    });
    quote! {
        fn #check<T: ::core::marker::Copy>(_: &T) {}
        #(#calls)*
    }
}
