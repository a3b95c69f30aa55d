//! The function's one scalar type: `f64`, `f32`, or a type parameter bounded by `Float`
//! (`fn f<T: Float>(x: T) -> T`), decided from the signature, and the types and paths that name
//! it. It is a property of the whole function, not of each value: lowering reads it where it
//! would read `f64` (parameters, `let` types, literals, casts, `f32::sin(x)` or `T::sin(x)`), and
//! the IR's `f64` means it.
//!
//! What it does not know: a type alias of the scalar (`type Real = f64;`) is another type, and a
//! generic scalar is recognised by its `Float` bound only (not `Real`, `RealField`, ...).

use proc_macro2::Ident;
use quote::ToTokens;
use syn::{GenericParam, Signature, Type, TypeParamBound, WherePredicate};

use super::types::{array_dims, mentions};
use crate::ir::{Elem, Scalar, Ty};
use crate::symbol;

/// The scalar type of the function being lowered.
#[derive(Clone, Debug)]
pub struct ScalarTy {
    /// `f64`, `f32` or generic.
    pub kind: Scalar,
    /// The type parameter, for a generic scalar.
    pub param: Option<Ident>,
    /// Whether the body casts to the other primitive float type (`as f64` in an `f32`
    /// function, `as f32` in an `f64` one): literals then keep the value written, and take
    /// the type of where they are used.
    pub mixed: bool,
}

impl Default for ScalarTy {
    fn default() -> Self {
        ScalarTy { kind: Scalar::F64, param: None, mixed: false }
    }
}

impl ScalarTy {
    /// The scalar type of `sig`: its type parameter bounded by `Float` if it has one, else `f32`
    /// when the return type is made of `f32`s, else `f64`. Also returns the type parameters
    /// bounded by `Float` after the first, which are refused.
    pub fn of(sig: &Signature) -> (ScalarTy, Vec<Ident>) {
        let mut floats: Vec<Ident> = Vec::new();
        for p in &sig.generics.params {
            if let GenericParam::Type(t) = p
                && float_bounded(sig, t)
            {
                floats.push(t.ident.clone());
            }
        }
        if let Some((first, rest)) = floats.split_first() {
            let s = ScalarTy { kind: Scalar::Generic, param: Some(first.clone()), mixed: false };
            return (s, rest.to_vec());
        }
        let f32 = ScalarTy { kind: Scalar::F32, param: None, mixed: false };
        let kind = match &sig.output {
            syn::ReturnType::Type(_, ty) if f32.made_of(ty) => Scalar::F32,
            _ => Scalar::F64,
        };
        (ScalarTy { kind, param: None, mixed: false }, Vec::new())
    }

    /// The other primitive float type's name (`f64` for `f32`), for a primitive scalar.
    pub fn other(&self) -> Option<&'static str> {
        match self.kind {
            Scalar::F32 => Some(symbol::F64),
            Scalar::F64 => Some(symbol::F32),
            Scalar::Generic => None,
        }
    }

    /// Whether `ty` is the other primitive float type (see [`ScalarTy::other`]).
    pub fn is_other(&self, ty: &Type) -> bool {
        let other = self.other();
        match ty {
            Type::Path(p) if p.qself.is_none() => {
                p.path.get_ident().is_some_and(|id| other.is_some_and(|o| id == o))
            }
            Type::Paren(p) => self.is_other(&p.elem),
            Type::Group(g) => self.is_other(&g.elem),
            _ => false,
        }
    }

    /// Whether `tokens` (a function's body) cast to the other primitive float type: `as f64`
    /// in an `f32` function.
    pub fn casts_to_other(&self, tokens: proc_macro2::TokenStream) -> bool {
        let Some(other) = self.other() else { return false };
        let mut after_as = false;
        tokens.into_iter().any(|t| match t {
            proc_macro2::TokenTree::Group(g) => {
                after_as = false;
                self.casts_to_other(g.stream())
            }
            proc_macro2::TokenTree::Ident(id) => {
                let cast = after_as && id == other;
                after_as = id == "as";
                cast
            }
            _ => {
                after_as = false;
                false
            }
        })
    }

    /// The type's name as code writes it: `f64`, `f32`, `T`.
    pub fn text(&self) -> String {
        match (&self.param, self.kind) {
            (Some(p), _) => p.to_string(),
            (None, Scalar::F32) => symbol::F32.to_owned(),
            (None, _) => symbol::F64.to_owned(),
        }
    }

    /// Whether `ty` is the scalar type (for a primitive, written as such or as
    /// `std::primitive::f32` / `core::primitive::f32`).
    pub fn is(&self, ty: &Type) -> bool {
        match ty {
            Type::Path(p) if p.qself.is_none() => self.names(p.path.segments.iter()),
            Type::Paren(p) => self.is(&p.elem),
            Type::Group(g) => self.is(&g.elem),
            _ => false,
        }
    }

    /// Whether the path `segments` names the scalar type, without generic arguments.
    pub fn names<'a>(&self, segments: impl Iterator<Item = &'a syn::PathSegment>) -> bool {
        let mut names = Vec::new();
        for s in segments {
            if !s.arguments.is_none() {
                return false;
            }
            names.push(s.ident.to_string());
        }
        let own = self.text();
        match (names.as_slice(), &self.param) {
            ([f], _) => *f == own,
            ([root, primitive, f], None) => {
                matches!(root.as_str(), "std" | "core") && primitive == "primitive" && *f == own
            }
            _ => false,
        }
    }

    /// Whether the path `segments` names what owns the scalar's methods, as in `f32::sin(x)`:
    /// the scalar type, or for a generic scalar also its bound (`Float::sin(x)`).
    pub fn owns_methods<'a>(
        &self,
        segments: impl Iterator<Item = &'a syn::PathSegment> + Clone,
    ) -> bool {
        self.names(segments.clone())
            || (self.kind == Scalar::Generic
                && segments
                    .last()
                    .is_some_and(|s| s.ident == symbol::FLOAT && s.arguments.is_none()))
    }

    /// The type `ty` as an IR array of scalars, if it is one.
    pub fn array(&self, ty: &Type, generics: &[String]) -> Option<Ty> {
        let (dims, elem) = array_dims(ty, generics)?;
        self.is(elem).then(|| Ty::array(Elem::F64, dims))
    }

    /// For a slice of scalars or of arrays of them taken by reference (`&[S]`, `&[[S; K]]`,
    /// `&Vec<S>`): the lengths of its elements (none for scalars).
    pub fn slice(&self, ty: &Type, generics: &[String]) -> Option<Vec<crate::ir::Int>> {
        let Type::Reference(r) = ty else { return None };
        if r.mutability.is_some() {
            return None;
        }
        let elem = match &*r.elem {
            Type::Slice(s) => &*s.elem,
            Type::Path(p) if p.qself.is_none() => {
                let last = p.path.segments.last()?;
                let syn::PathArguments::AngleBracketed(a) = &last.arguments else { return None };
                match (last.ident == symbol::VEC, a.args.first(), a.args.len()) {
                    (true, Some(syn::GenericArgument::Type(t)), 1) => t,
                    _ => return None,
                }
            }
            _ => return None,
        };
        if self.is(elem) {
            return Some(Vec::new());
        }
        let (dims, inner) = array_dims(elem, generics)?;
        self.is(inner).then_some(dims)
    }

    /// Whether `ty` is the scalar, an array of it or a tuple of those.
    fn made_of(&self, ty: &Type) -> bool {
        let part = |t: &Type| self.is(t) || self.array(t, &[]).is_some();
        match ty {
            Type::Tuple(t) => !t.elems.is_empty() && t.elems.iter().all(part),
            _ => part(ty),
        }
    }

    /// Whether `ty` names a float type other than the scalar (`f64` in an `f32` function, `f32`
    /// or `f64` in a generic one, `f16`, ...).
    pub fn is_other_float(&self, ty: &Type) -> bool {
        match ty {
            Type::Path(p) if p.qself.is_none() => p.path.get_ident().is_some_and(|id| {
                let own = self.text();
                id != &own && symbol::FLOATS.iter().any(|f| id == f)
            }),
            Type::Paren(p) => self.is_other_float(&p.elem),
            Type::Group(g) => self.is_other_float(&g.elem),
            _ => false,
        }
    }

    /// Whether the type's tokens mention a float type other than the scalar anywhere
    /// (`Option<(f32, f32)>` in an `f64` function).
    pub fn mentions_other_float(&self, ty: &Type) -> bool {
        let own = self.text();
        mentions(ty.to_token_stream(), &|id| *id != own && symbol::FLOATS.iter().any(|f| id == f))
    }

    /// Whether the type's tokens mention a float type anywhere, the scalar included (`[f32; 3]`,
    /// `&[T]`, `(f64, f64)`).
    pub fn mentioned_in(&self, ty: &Type) -> bool {
        let own = self.text();
        mentions(ty.to_token_stream(), &|id| *id == own || symbol::FLOATS.iter().any(|f| id == f))
    }

    /// Whether a literal with this suffix is of the scalar type (unsuffixed literals are).
    pub fn suffix_fits(&self, suffix: &str) -> bool {
        if self.mixed && matches!(suffix, "f32" | "f64") {
            // A literal of either type, used where its type is.
            return true;
        }
        match self.kind {
            Scalar::F32 => matches!(suffix, "" | "f32"),
            Scalar::F64 | Scalar::Generic => matches!(suffix, "" | "f64"),
        }
    }
}

/// Whether the type parameter `t` of `sig` is bounded by `Float`, in its list or in the `where`
/// clause.
pub(super) fn float_bounded(sig: &Signature, t: &syn::TypeParam) -> bool {
    t.bounds.iter().any(is_float_bound) || where_bound(sig, &t.ident)
}

/// Whether `b` is a `Float` bound: `Float`, `num_traits::Float`, `autodiff_runtime::Float`.
fn is_float_bound(b: &TypeParamBound) -> bool {
    match b {
        TypeParamBound::Trait(t) => {
            t.path.segments.last().is_some_and(|s| s.ident == symbol::FLOAT)
        }
        _ => false,
    }
}

/// Whether the `where` clause of `sig` bounds `param` by `Float`.
fn where_bound(sig: &Signature, param: &Ident) -> bool {
    let Some(w) = &sig.generics.where_clause else { return false };
    w.predicates.iter().any(|p| match p {
        WherePredicate::Type(t) => {
            matches!(&t.bounded_ty, Type::Path(tp) if tp.qself.is_none() && tp.path.is_ident(param))
                && t.bounds.iter().any(is_float_bound)
        }
        _ => false,
    })
}
