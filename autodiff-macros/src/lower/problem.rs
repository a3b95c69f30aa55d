//! `#[grad(argmin)]`: what the argmin problem of a function is made of (its one differentiated
//! parameter, as argmin's `Vec<f64>` reaches it, and the constant parameters it holds as fields),
//! or the spanned refusals of the functions that cannot be one.

use proc_macro2::{Span, TokenStream};
use quote::ToTokens;
use syn::{GenericParam, ItemFn, Type};

use super::{Lowered, Output};
use crate::ctxt::Ctxt;
use crate::ir::Scalar;
use crate::symbol;

/// The argmin problem of a function: the parameter argmin optimises and the ones it holds.
pub struct Problem {
    /// The index, among the function's parameters, of the one differentiated parameter.
    pub wrt: usize,
    /// How argmin's `Vec<f64>` becomes that parameter.
    pub shape: Shape,
    /// The constant parameters, in order: each becomes a field of the problem.
    pub constants: Vec<Constant>,
}

/// The differentiated parameter's type, as the adapter passes argmin's `Vec<f64>` to it.
pub enum Shape {
    /// `&[f64]` or `&Vec<f64>`: the vector itself; the gradient goes into a vector of its length.
    Slice,
    /// `[f64; LEN]` or `&[f64; LEN]`: the vector copied into an array, its length checked.
    Array {
        /// The array's length, as written.
        len: TokenStream,
        /// Whether the function takes the array by reference.
        by_ref: bool,
    },
}

/// A constant parameter, held by the problem.
pub struct Constant {
    /// Its index among the function's parameters.
    pub index: usize,
    /// Whether its type is a reference, which the problem holds for a lifetime of its own.
    pub by_ref: bool,
}

/// The problem of `item`, or `None` with every reason it cannot be one recorded in `cx` (`None`
/// too if `cx` already holds errors).
pub fn problem(cx: &mut Ctxt, item: &ItemFn, lowered: &Lowered, at: Span) -> Option<Problem> {
    let name = &item.sig.ident;
    let opt = symbol::OPT_ARGMIN;
    if lowered.output != Output::Scalar || lowered.scalar.kind != Scalar::F64 {
        cx.error_at(
            at,
            format!("`{opt}` needs a function returning one `f64`: argmin minimises a cost of type `f64` over a `Vec<f64>`"),
        );
    }
    for g in &item.sig.generics.params {
        if !matches!(g, GenericParam::Const(_)) {
            cx.error_spanned(
                g,
                format!("`{opt}` takes a function whose generic parameters are const generics (`const N: usize`): the problem type of `{name}` has the same ones; elided lifetimes are fine"),
            );
        }
    }
    for input in &item.sig.inputs {
        if let syn::FnArg::Typed(p) = input
            && !matches!(&*p.pat, syn::Pat::Ident(_) | syn::Pat::Wild(_))
        {
            cx.error_spanned(
                &p.pat,
                format!("`{opt}` names the problem's fields after the parameters: write a name here, and destructure in the body"),
            );
        }
    }
    let f = &lowered.func;
    let active: Vec<usize> = (lowered.params.iter().enumerate())
        .filter(|(_, p)| p.input.is_some_and(|v| f.active.contains(&v)))
        .map(|(i, _)| i)
        .collect();
    let shape = match active.as_slice() {
        [i] => shape(cx, &lowered.params[*i].ty, opt),
        [] => {
            cx.error_at(at, format!("`{opt}` needs one differentiated parameter, which argmin optimises; `{name}` has none"));
            None
        }
        [_, second, ..] => {
            cx.error_spanned(
                &lowered.params[*second].ident,
                format!("`{opt}` optimises one differentiated parameter, a slice `&[f64]` or an array `[f64; N]`; `{name}` has {}: take them in one array, or leave the others out of `wrt(...)`, which makes them fields of the problem", active.len()),
            );
            None
        }
    };
    let constants = lowered.params.iter().enumerate().filter(|(i, _)| !active.contains(i));
    let constants: Vec<Constant> = constants.filter_map(|(i, p)| constant(cx, i, p, opt)).collect();
    match (shape, cx.is_ok()) {
        (Some(shape), true) => Some(Problem { wrt: active[0], shape, constants }),
        _ => None,
    }
}

/// The shape of the differentiated parameter, or a refusal for a scalar or a nested array.
fn shape(cx: &mut Ctxt, ty: &Type, opt: &str) -> Option<Shape> {
    let (inner, by_ref) = match ty {
        Type::Reference(r) => (&*r.elem, true),
        other => (other, false),
    };
    let f64 = |t: &Type| t.to_token_stream().to_string() == symbol::F64;
    match inner {
        Type::Array(a) if f64(&a.elem) => {
            Some(Shape::Array { len: a.len.to_token_stream(), by_ref })
        }
        Type::Slice(s) if by_ref && f64(&s.elem) => Some(Shape::Slice),
        Type::Path(p) if by_ref && is_vec_of_f64(p) => Some(Shape::Slice),
        _ => {
            cx.error_spanned(
                ty,
                format!("`{opt}` optimises a slice `&[f64]` (or `&Vec<f64>`) or an array `[f64; N]` (or `&[f64; N]`), which argmin's `Vec<f64>` becomes; this parameter is not one"),
            );
            None
        }
    }
}

/// Whether `p` is `Vec<f64>`.
fn is_vec_of_f64(p: &syn::TypePath) -> bool {
    let text = p.to_token_stream().to_string().replace(' ', "");
    text == "Vec<f64>" || text == "std::vec::Vec<f64>" || text == "::std::vec::Vec<f64>"
}

/// A constant parameter as a field: named, and holding no `&mut` and no reference below its top.
fn constant(cx: &mut Ctxt, index: usize, p: &super::Param, opt: &str) -> Option<Constant> {
    if p.ident == symbol::WILD {
        cx.error_spanned(
            &p.ident,
            format!("`{opt}` makes each constant parameter a field of the problem, named as the parameter; name this one"),
        );
        return None;
    }
    let (below, by_ref) = match &p.ty {
        Type::Reference(r) if r.mutability.is_some() => {
            cx.error_spanned(
                &p.ty,
                format!("`{opt}` holds the constant parameters in the problem, which argmin borrows shared: take `&` here, not `&mut`"),
            );
            return None;
        }
        Type::Reference(r) => (r.elem.to_token_stream(), r.lifetime.is_none()),
        other => (other.to_token_stream(), false),
    };
    let text = below.to_string();
    if text.contains('&') || text.contains('\'') {
        cx.error_spanned(
            &p.ty,
            format!("`{opt}` holds this parameter in a field, which can name one reference, at the top of its type (`data: &[f64]`, `data: &Data`), and no other lifetime"),
        );
        return None;
    }
    Some(Constant { index, by_ref })
}
