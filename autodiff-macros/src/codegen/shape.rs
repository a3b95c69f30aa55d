//! `f_shape`, the dimensions of an array-returning function's value (`[4]` for `-> [f64; 4]`,
//! `[2, 3]` for `-> [[f64; 3]; 2]`): the constant a caller's `#[grad]` writes the type of an
//! untyped `let h = f(..);` with (`[f64; f_shape[0]]`), since a macro sees the call's tokens,
//! not the callee's signature. Written only when the dimensions do not read a generic
//! parameter of `f` (a constant item cannot).

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};

use super::{Context, attrs, signature};
use crate::symbol;

impl Context<'_> {
    /// `const f_shape: [usize; R] = [d0, …];` for a function returning an array of its scalar
    /// type of `R` dimensions none of which reads one of its generic parameters; nothing
    /// otherwise.
    pub fn shape(&self) -> TokenStream {
        let syn::ReturnType::Type(_, ty) = &self.item.sig.output else { return TokenStream::new() };
        let mut dims = Vec::new();
        let mut at = &**ty;
        while let syn::Type::Array(a) = at {
            dims.push(a.len.to_token_stream());
            at = &a.elem;
        }
        let generic = |d: &TokenStream| {
            let params = &self.item.sig.generics.params;
            params.iter().any(|p| match p {
                syn::GenericParam::Const(c) => super::body::mentions(d, &c.ident),
                _ => false,
            })
        };
        if dims.is_empty() || dims.iter().any(generic) || !self.scalar_elem(at) {
            return TokenStream::new();
        }
        let vis = &self.item.vis;
        let f = &self.item.sig.ident;
        let ident = signature::fn_ident(f, symbol::FN_SHAPE);
        let rank = proc_macro2::Literal::usize_unsuffixed(dims.len());
        let doc = format!(
            " The dimensions of `{f}`'s value, outermost first: what a caller's `#[grad]` writes the type of `let h = {f}(..);` with, when the `let` does not."
        );
        let inherited = self.item.attrs.iter().filter_map(attrs::inherited);
        quote! {
            #[doc = #doc]
            #(#inherited)*
            #[allow(dead_code, non_upper_case_globals)]
            #vis const #ident: [usize; #rank] = [#(#dims),*];
        }
    }

    /// `type f_value = S;` for a free function returning the struct `S` (not in an `impl`,
    /// where an associated type is not stable Rust; not generic): the type a caller's `#[grad]`
    /// binds `let r = f(..);` with where the body reads `r` as a struct.
    pub fn value_alias(&self) -> TokenStream {
        let syn::ReturnType::Type(_, ty) = &self.item.sig.output else { return TokenStream::new() };
        if self.record.is_none() || self.in_impl() || !self.item.sig.generics.params.is_empty() {
            return TokenStream::new();
        }
        let vis = &self.item.vis;
        let f = &self.item.sig.ident;
        let ident = signature::fn_ident(f, symbol::FN_VALUE);
        let doc = format!(
            " The type of `{f}`'s value: what a caller's `#[grad]` binds `let r = {f}(..);` with, when the `let` does not say and the body reads `r` as a struct."
        );
        let inherited = self.item.attrs.iter().filter_map(attrs::inherited);
        quote! {
            #[doc = #doc]
            #(#inherited)*
            #[allow(dead_code, non_camel_case_types)]
            #vis type #ident = #ty;
        }
    }

    /// Whether `ty`, the element type of the returned array, is the function's scalar type.
    fn scalar_elem(&self, ty: &syn::Type) -> bool {
        ty.to_token_stream().to_string() == self.scalar.ty.to_string()
    }
}
