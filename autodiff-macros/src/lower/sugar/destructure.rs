//! Destructuring assignment, `(a, b) = (b, a + b);` or `[y[0], y[1]] = rot(y);`, rewritten as
//! the `let` it means followed by one assignment per place:
//!
//! ```text
//! (a, b) = (b, a * b);
//! ```
//! becomes
//! ```text
//! { let (a_1, b_1) = (b, a * b); a = a_1; b = b_1; }
//! ```
//! As in Rust, the whole right side is evaluated before any place is written. Tuples and arrays
//! nest; `_` discards its part. Each place is then assigned as if written alone, so what a
//! single assignment accepts (a variable, an element, a field) is what a part accepts.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};
use syn::{Expr, ExprAssign};

use super::parse;
use crate::lower::Lower;
use crate::lower::assigned::target_root;
use crate::lower::value::peel;

/// Whether `target` destructures: a tuple or an array of places.
pub(in crate::lower) fn destructures(target: &Expr) -> bool {
    matches!(peel(target), Expr::Tuple(_) | Expr::Array(_))
}

/// The places `target` assigns, outermost first, `_` left out.
pub(in crate::lower) fn places(target: &Expr) -> Vec<&Expr> {
    match peel(target) {
        Expr::Tuple(t) => t.elems.iter().flat_map(places).collect(),
        Expr::Array(a) => a.elems.iter().flat_map(places).collect(),
        Expr::Infer(_) => Vec::new(),
        _ => vec![target],
    }
}

impl Lower<'_> {
    /// `(a, b) = rhs` as `{ let (a_1, b_1) = rhs; a = a_1; b = b_1; }`; `None` after an error.
    pub(in crate::lower) fn desugar_destructure(&mut self, a: &ExprAssign) -> Option<Expr> {
        let mut assigns = Vec::new();
        let pat = self.pattern_of(&a.left, &mut assigns);
        let rhs = &a.right;
        parse(self.cx, a, quote!({ let #pat = #rhs; #(#assigns)* }))
    }

    /// The pattern binding a fresh name for each place of `target`, and the assignments of the
    /// places from those names.
    fn pattern_of(&mut self, target: &Expr, assigns: &mut Vec<TokenStream>) -> TokenStream {
        match peel(target) {
            Expr::Tuple(t) => {
                let parts: Vec<_> = t.elems.iter().map(|e| self.pattern_of(e, assigns)).collect();
                // A tuple of one is `(p,)`, as in the target.
                let comma = (parts.len() == 1).then(|| quote!(,));
                quote!((#(#parts),* #comma))
            }
            Expr::Array(arr) => {
                let parts: Vec<_> = arr.elems.iter().map(|e| self.pattern_of(e, assigns)).collect();
                quote!([#(#parts),*])
            }
            Expr::Infer(_) => quote!(_),
            place => {
                let hint =
                    target_root(place).map_or_else(|| "part".to_owned(), crate::symbol::unraw);
                let name = self.names.fresh(&hint);
                let place = place.to_token_stream();
                assigns.push(quote!(#place = #name;));
                name.to_token_stream()
            }
        }
    }
}
