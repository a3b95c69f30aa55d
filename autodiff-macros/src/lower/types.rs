//! Reading types as written: arrays (their lengths as integer expressions), integer types, and
//! the text of a type for messages. The scalar type itself is `scalar.rs`'s.

use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;
use syn::{Expr, Lit, Type};

use crate::ir::{Elem, Int, Ty};
use crate::symbol;

/// Whether `ty` is one of the primitive integer types (`usize`, `i32`, ...).
pub(super) fn is_int(ty: &Type) -> bool {
    match ty {
        Type::Path(p) if p.qself.is_none() => {
            p.path.get_ident().is_some_and(|id| symbol::INT_TYPES.iter().any(|t| id == t))
        }
        Type::Paren(p) => is_int(&p.elem),
        Type::Group(g) => is_int(&g.elem),
        _ => false,
    }
}

/// Whether `ty` is `bool`.
pub(super) fn is_bool(ty: &Type) -> bool {
    match peel(ty) {
        Type::Path(p) if p.qself.is_none() => p.path.is_ident(symbol::BOOL),
        _ => false,
    }
}

/// `ty` without parentheses and invisible groups.
fn peel(ty: &Type) -> &Type {
    match ty {
        Type::Paren(p) => peel(&p.elem),
        Type::Group(g) => peel(&g.elem),
        other => other,
    }
}

/// An array type and its element type: `[[f64; K]; M]` gives the lengths `[M, K]` and `f64`.
pub(super) fn array_dims<'a>(ty: &'a Type, generics: &[String]) -> Option<(Vec<Int>, &'a Type)> {
    let Type::Array(a) = peel(ty) else { return None };
    let mut dims = vec![length(&a.len, generics)];
    let mut elem = &*a.elem;
    while let Type::Array(inner) = peel(elem) {
        dims.push(length(&inner.len, generics));
        elem = &inner.elem;
    }
    Some((dims, elem))
}

/// The length of an array type as an integer expression: a literal, a `const`, or a const
/// generic parameter of the function.
pub(super) fn length(e: &Expr, generics: &[String]) -> Int {
    match e {
        Expr::Lit(l) => match &l.lit {
            Lit::Int(i) => i.base10_parse::<u64>().map(Int::lit).unwrap_or_else(|_| atom(e)),
            _ => atom(e),
        },
        Expr::Path(p) => {
            let mut int = Int::tokens(e.to_token_stream(), true);
            int.generic =
                p.path.get_ident().is_some_and(|id| generics.contains(&symbol::unraw(id)));
            // A name's linear form, as an integer expression reading it has (so that `x.len()`
            // and `N` are the same length to the transforms).
            int.linear = p.path.get_ident().map(|id| crate::ir::Linear::name(symbol::unraw(id)));
            int
        }
        Expr::Paren(p) => length(&p.expr, generics),
        Expr::Group(g) => length(&g.expr, generics),
        Expr::Block(_) => atom(e),
        _ => Int::tokens(e.to_token_stream(), false),
    }
}

fn atom(e: &Expr) -> Int {
    Int::tokens(e.to_token_stream(), true)
}

/// `ty` as a person writes it, for messages: `Vec<f64>` rather than the tokens' `Vec < f64 >`.
pub(super) fn type_text(ty: &Type) -> String {
    let spaced = ty.to_token_stream().to_string();
    [(" <", "<"), ("< ", "<"), (" >", ">"), (" ::", "::"), (":: ", "::"), ("& ", "&"), (" ,", ",")]
        .iter()
        .fold(spaced, |text, (from, to)| text.replace(from, to))
        .replace(" ;", ";")
        .replace("[ ", "[")
        .replace(" ]", "]")
}

/// The other primitive float type's name: `f64` for `f32`, `f32` for `f64`.
pub(super) fn other_float(scalar: &str) -> &'static str {
    if scalar == symbol::F32 { symbol::F64 } else { symbol::F32 }
}

/// The text of an IR type, for messages, with `scalar` the function's scalar type: `f64`,
/// `[f64; 3]`, `[[f32; K]; M]`.
pub(super) fn ty_text(ty: &Ty, scalar: &str) -> String {
    match ty {
        Ty::F64 => scalar.to_owned(),
        Ty::Other => other_float(scalar).to_owned(),
        Ty::Bool => "bool".to_owned(),
        Ty::Residuals => "_".to_owned(),
        Ty::Array(s) => {
            let elem = match s.elem {
                Elem::F64 => scalar,
                Elem::Other => other_float(scalar),
                Elem::Bool => "bool",
                Elem::Residuals => "_",
            };
            s.dims.iter().rev().fold(elem.to_owned(), |inner, d| format!("[{inner}; {d}]"))
        }
    }
}

/// Whether the type is a `Vec` of `scalar` values, possibly behind a reference: the type users
/// reach for first.
pub(super) fn is_vec_of(ty: &Type, scalar: &str) -> bool {
    let tokens = ty.to_token_stream();
    mentions(tokens.clone(), &|id| id == symbol::VEC) && mentions(tokens, &|id| id == scalar)
}

/// Whether the type is a `Vec` of floats, of `scalar` or of another float type (`Vec<f32>` in an
/// `f64` function), possibly behind a reference.
pub(super) fn is_vec_of_floats(ty: &Type, scalar: &str) -> bool {
    is_vec_of(ty, scalar) || symbol::FLOATS.iter().any(|f| is_vec_of(ty, f))
}

/// Whether `tokens` have an identifier that `hit` accepts, in groups too.
pub(super) fn mentions(tokens: TokenStream, hit: &dyn Fn(&proc_macro2::Ident) -> bool) -> bool {
    tokens.into_iter().any(|t| match t {
        TokenTree::Ident(id) => hit(&id),
        TokenTree::Group(g) => mentions(g.stream(), hit),
        _ => false,
    })
}

/// Whether the type has `&mut` anywhere.
pub(super) fn has_mut_ref(ty: &Type) -> bool {
    fn walk(tokens: TokenStream) -> bool {
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
