//! Arrays built from closures: `x.map(f)` and `std::array::from_fn(f)`, rewritten into the loop
//! that fills the array:
//!
//! ```text
//! let y: [f64; N] = std::array::from_fn(|i| x[i] * w[i]);
//! ```
//! becomes
//! ```text
//! let y: [f64; N] = { let mut out = [0.0; N]; for i in 0..N { out[i] = (|i| x[i] * w[i])(i); } out };
//! ```
//! The array's type comes from the mapped array (`x.map`), or for `from_fn` from where the value
//! goes: a `let` with a type, the function's return type, or `from_fn::<f64, N, _>`. `x.map`
//! builds arrays of `f64` (a closure returning arrays needs `from_fn` with the type written).

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};
use syn::{Expr, ExprCall, ExprMethodCall, GenericArgument, PathArguments};

use super::parse;
use crate::ir::{Elem, Ty};
use crate::lower::Lower;
use crate::lower::value::peel;
use crate::symbol;

/// `[0.0; n]` for the array type `ty` (nested arrays nested).
pub(super) fn zeros(ty: &Ty) -> Option<TokenStream> {
    let s = ty.shape().filter(|s| s.elem == Elem::F64)?;
    let mut out = quote!(0.0);
    for d in s.dims.iter().rev() {
        let d = d.render(&|_| quote!(_));
        out = quote!([#out; #d]);
    }
    Some(out)
}

impl Lower<'_> {
    /// `x.map(f)` for an array `x`: the array of `f(x[i])`.
    pub(in crate::lower) fn desugar_array_map(&mut self, m: &ExprMethodCall) -> Option<Expr> {
        let recv = self.array_ty(&m.receiver)?;
        let len = recv.shape()?.dims.first()?.render(&|_| quote!(_));
        let x = &m.receiver;
        let f = &m.args[0];
        let (out, i) = (self.names.fresh("out"), self.names.fresh(symbol::INDEX_NAMES[0]));
        let elem = super::iter::call(f, &[quote!((#x)[#i])]);
        let tokens =
            quote!({ let mut #out = [0.0; #len]; for #i in 0..#len { #out[#i] = #elem; } #out });
        parse(self.cx, m, tokens)
    }

    /// Whether `c` calls `from_fn` (`std::array::from_fn`, `core::array::from_fn`,
    /// `array::from_fn`, or imported).
    pub(in crate::lower) fn is_from_fn(c: &ExprCall) -> bool {
        let Expr::Path(p) = peel(&c.func) else { return false };
        p.path.segments.last().is_some_and(|s| s.ident == symbol::FROM_FN) && c.args.len() == 1
    }

    /// `from_fn(f)`: the array of `f(i)`, its type taken from where the value goes.
    pub(in crate::lower) fn desugar_from_fn(&mut self, c: &ExprCall) -> Option<Expr> {
        let ty = self.built_type(c)?;
        let fill = zeros(&ty)?;
        let len = ty.shape()?.dims.first()?.render(&|_| quote!(_));
        let f = &c.args[0];
        let (out, i) = (self.names.fresh("out"), self.names.fresh(symbol::INDEX_NAMES[0]));
        let elem = super::iter::call(f, &[i.to_token_stream()]);
        let tokens = quote!({ let mut #out = #fill; for #i in 0..#len { #out[#i] = #elem; } #out });
        parse(self.cx, c, tokens)
    }

    /// The array type `from_fn` builds: from its turbofish, or where its value goes.
    fn built_type(&mut self, c: &ExprCall) -> Option<Ty> {
        if let Expr::Path(p) = peel(&c.func)
            && let Some(seg) = p.path.segments.last()
            && let PathArguments::AngleBracketed(a) = &seg.arguments
            && let [GenericArgument::Type(elem), n, ..] =
                a.args.iter().collect::<Vec<_>>().as_slice()
        {
            let n: TokenStream = match n {
                GenericArgument::Const(n) => n.to_token_stream(),
                other => other.to_token_stream(),
            };
            let ty: syn::Type = syn::parse2(quote!([#elem; #n])).ok()?;
            if let Some(t) = self.scalar.array(&ty, &self.generics) {
                return Some(t);
            }
        }
        match self.expected.clone() {
            Some(t) => Some(t),
            None => {
                self.cx.error_spanned(
                    c,
                    "`#[grad]` needs the type of the array `from_fn` builds: bind it with a type, as in `let y: [f64; N] = std::array::from_fn(|i| ...);`",
                );
                None
            }
        }
    }
}
