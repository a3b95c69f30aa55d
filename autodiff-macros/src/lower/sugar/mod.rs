//! Sugar: idiomatic forms rewritten, syn to syn, into the subset that lowering reads, each idiom
//! in its own file (`match` into `if` chains, iterator chains into `for` loops over integer
//! ranges, early exits into flags, a `loop` whose body begins with its exit test into a `while`
//! loop, labelled exits into flags of their loop, a `loop`'s value into a variable,
//! destructuring assignments into a `let` and one assignment per place, the elements of
//! `iter_mut` into the places they are). The IR never learns of them: what they become is
//! lowered as if the user had written it, with the user's spans on the user's tokens.

mod build;
pub(super) mod destructure;
pub(super) mod exits;
mod iter;
mod labels;
pub(super) mod leading;
mod matches;
mod places;
mod values;

pub(super) use iter::is_plain_range;

use std::collections::HashSet;

use proc_macro2::{Ident, Span, TokenStream, TokenTree};
use quote::ToTokens;

/// The names of a function, and fresh ones for the variables the sugar introduces.
#[derive(Clone, Default)]
pub(super) struct Names {
    taken: HashSet<String>,
}

impl Names {
    /// Every identifier written in `tokens` is taken.
    pub(super) fn of(tokens: impl ToTokens) -> Self {
        let mut taken = HashSet::new();
        collect(tokens.to_token_stream(), &mut taken);
        Names { taken }
    }

    /// A name no identifier of the function has: `hint`, or `hint_1`, `hint_2`, ...
    pub(super) fn fresh(&mut self, hint: &str) -> Ident {
        let mut name = hint.to_owned();
        let mut n = 0;
        while self.taken.contains(&name) {
            n += 1;
            name = format!("{hint}_{n}");
        }
        self.taken.insert(name.clone());
        Ident::new(&name, Span::call_site())
    }
}

/// The names `e` may read: its identifiers but for methods and fields.
pub(super) fn names_in(e: &impl ToTokens) -> HashSet<String> {
    let mut names = HashSet::new();
    collect(e.to_token_stream(), &mut names);
    names
}

/// The identifiers in `tokens`, but for those after a `.` (methods and fields, which a local
/// variable does not shadow).
fn collect(tokens: TokenStream, out: &mut HashSet<String>) {
    let mut after_dot = false;
    for t in tokens {
        match &t {
            TokenTree::Ident(id) if !after_dot => {
                out.insert(crate::symbol::unraw(id));
            }
            TokenTree::Group(g) => collect(g.stream(), out),
            _ => {}
        }
        after_dot = matches!(&t, TokenTree::Punct(p) if p.as_char() == '.');
    }
}

/// The value of an integer literal.
pub(super) fn int_literal(e: &syn::Expr) -> Option<u64> {
    match super::value::peel(e) {
        syn::Expr::Lit(l) => match &l.lit {
            syn::Lit::Int(i) => i.base10_parse().ok(),
            _ => None,
        },
        _ => None,
    }
}

/// Parses tokens the sugar built from the user's syntax and its own fixed shapes; `None` (and an
/// error at `at`) only if a rewrite is wrong, a bug in the macro.
pub(super) fn parse<T: syn::parse::Parse>(
    cx: &mut crate::ctxt::Ctxt,
    at: &dyn ToTokens,
    tokens: TokenStream,
) -> Option<T> {
    match syn::parse2(tokens) {
        Ok(t) => Some(t),
        Err(e) => {
            cx.error_spanned(
                at,
                format!("internal error in `#[grad]`: a rewrite of this expression does not parse ({e}); please report this with the function that caused it"),
            );
            None
        }
    }
}

/// The zero of the function's return type (`0.0`, `(0.0, 0.0)`, `[[0.0; K]; M]`): the value an
/// early `return`'s variable starts from. `None` for an array whose type lowering does not know,
/// and for a struct.
pub(super) fn zero_of(returns: &super::signature::Returns) -> Option<TokenStream> {
    use super::Output;
    match returns.output {
        Output::Scalar => Some(quote::quote!(0.0)),
        Output::Tuple(n) => {
            let zeros = std::iter::repeat_n(quote::quote!(0.0), n);
            Some(quote::quote!((#(#zeros),*)))
        }
        Output::Array => build::zeros(returns.array.as_ref()?),
        // A struct's fields are not known to the macro.
        Output::Record => None,
    }
}
