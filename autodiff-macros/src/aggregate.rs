//! What a type written in a signature or in a struct's field is, as far as its tokens tell: an
//! `f64` or an array of them, a struct of the user's (which must derive `Differentiable`), a
//! float type that is refused, or a constant (integers, `bool`, the standard library's types,
//! references to data, tuples without floats).
//!
//! A macro sees tokens, not types: a path that is not a primitive or a type of the standard
//! library is taken for a struct of the user's (an alias of `f64` included, which the trait's
//! error then reports).

use syn::{GenericArgument, PathArguments, Type};

use crate::symbol;

/// What a written type is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TypeKind {
    /// `f64`, or an array of `f64` (nested).
    Real,
    /// A struct of the user's (a path that is not a known type), or an array of them.
    Struct,
    /// A float type other than `f64` (`f32`), an array of them, or a tuple holding floats.
    OtherFloat,
    /// Anything else: not differentiated.
    Constant,
}

/// The kind of `ty`, references and parentheses included (`&Model` is a struct).
pub fn kind(ty: &Type) -> TypeKind {
    match ty {
        Type::Paren(p) => kind(&p.elem),
        Type::Group(g) => kind(&g.elem),
        Type::Reference(r) if r.mutability.is_none() => match kind(&r.elem) {
            // A reference to a reference, or to a slice of structs, is data.
            TypeKind::Struct if matches!(*r.elem, Type::Reference(_)) => TypeKind::Constant,
            other => other,
        },
        Type::Array(a) => match kind(&a.elem) {
            TypeKind::Real => TypeKind::Real,
            TypeKind::Struct => TypeKind::Struct,
            TypeKind::OtherFloat => TypeKind::OtherFloat,
            TypeKind::Constant => TypeKind::Constant,
        },
        Type::Tuple(t) => match t.elems.iter().any(|e| kind(e) != TypeKind::Constant) {
            true => TypeKind::OtherFloat,
            false => TypeKind::Constant,
        },
        Type::Path(p) if p.qself.is_none() => path_kind(&p.path),
        _ => TypeKind::Constant,
    }
}

/// The kind of a type written as a path.
fn path_kind(path: &syn::Path) -> TypeKind {
    let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
    let Some(last) = segments.last() else { return TypeKind::Constant };
    if segments.len() == 1 && path.segments[0].arguments.is_none() {
        if last == symbol::F64 {
            return TypeKind::Real;
        }
        if symbol::OTHER_FLOATS.contains(&last.as_str()) {
            return TypeKind::OtherFloat;
        }
    }
    let std = segments.first().is_some_and(|f| symbol::STD_ROOTS.contains(&f.as_str()));
    if std && segments.iter().any(|s| s == "primitive") && last == symbol::F64 {
        return TypeKind::Real;
    }
    let known = symbol::INT_TYPES.contains(&last.as_str())
        || symbol::CONSTANT_TYPES.contains(&last.as_str());
    match std || known || has_type_arguments(path) {
        true => TypeKind::Constant,
        false => TypeKind::Struct,
    }
}

/// Whether the path's last segment has type arguments (`Wrapper<f64>`): a container of data, as
/// far as the tokens tell (`Model<N>`, with a const argument, is a struct).
fn has_type_arguments(path: &syn::Path) -> bool {
    let Some(last) = path.segments.last() else { return false };
    let PathArguments::AngleBracketed(a) = &last.arguments else {
        return !last.arguments.is_none();
    };
    a.args.iter().any(|g| match g {
        GenericArgument::Type(Type::Path(p)) => {
            // A single name may be a const generic parameter (`Model<N>`): an integer, not a
            // type. Primitive types are types.
            p.path.get_ident().is_none_or(|id| {
                let id = id.to_string();
                id == symbol::F64
                    || symbol::INT_TYPES.contains(&id.as_str())
                    || symbol::OTHER_FLOATS.contains(&id.as_str())
                    || symbol::CONSTANT_TYPES.contains(&id.as_str())
                    || id.chars().any(|c| c.is_lowercase())
            })
        }
        GenericArgument::Type(_) => true,
        _ => false,
    })
}

/// The struct's type without references: `Model` for `&Model`, `Self` for `&Self`.
pub fn owned(ty: &Type) -> &Type {
    match ty {
        Type::Reference(r) => owned(&r.elem),
        Type::Paren(p) => owned(&p.elem),
        Type::Group(g) => owned(&g.elem),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::{TypeKind, kind};

    fn of(text: &str) -> TypeKind {
        kind(&syn::parse_str(text).expect("a type"))
    }

    #[test]
    fn written_types_are_sorted_by_their_tokens() {
        for t in ["f64", "[f64; 3]", "&[[f64; K]; N]", "std::primitive::f64"] {
            assert_eq!(of(t), TypeKind::Real, "{t}");
        }
        for t in ["Model", "&Model", "Self", "&Self", "geometry::Quat", "Model<N>", "[Quat; 2]"] {
            assert_eq!(of(t), TypeKind::Struct, "{t}");
        }
        for t in ["f32", "[f32; 2]", "(f64, f64)", "(usize, Quat)"] {
            assert_eq!(of(t), TypeKind::OtherFloat, "{t}");
        }
        for t in [
            "usize",
            "bool",
            "&[f64]",
            "Vec<f64>",
            "&Vec<f64>",
            "Option<Model>",
            "String",
            "&str",
            "std::time::Duration",
            "Wrapper<f64>",
            "&&Model",
            "(usize, usize)",
            "fn(f64) -> f64",
        ] {
            assert_eq!(of(t), TypeKind::Constant, "{t}");
        }
    }
}
