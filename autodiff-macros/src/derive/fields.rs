//! The fields of a struct deriving `Differentiable`: which are differentiated (by their written
//! type and `#[no_grad]`), and the code of each operation over them.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Fields, Member, Type};

use crate::aggregate::{TypeKind, kind};
use crate::ctxt::Ctxt;
use crate::symbol;

/// One field of the struct.
pub(super) struct Field {
    /// Its name, or its position in a tuple struct.
    member: Member,
    /// Its type, as written.
    ty: Type,
    /// Whether its scalars are differentiated.
    differentiated: bool,
}

/// The fields of a struct, each classified; refused ones reported in `cx`.
pub(super) fn of(cx: &mut Ctxt, fields: &Fields) -> Vec<Field> {
    let mut out = Vec::new();
    for (k, f) in fields.iter().enumerate() {
        let member = match &f.ident {
            Some(id) => Member::Named(id.clone()),
            None => Member::Unnamed(syn::Index { index: k as u32, span: f.ty.span() }),
        };
        let no_grad = no_grad(cx, &f.attrs);
        let differentiated = match kind(&f.ty) {
            _ if no_grad => false,
            TypeKind::Real | TypeKind::Struct => true,
            TypeKind::Constant => false,
            TypeKind::OtherFloat => {
                refuse(cx, &f.ty);
                false
            }
        };
        out.push(Field { member, ty: f.ty.clone(), differentiated });
    }
    out
}

/// Whether `attrs` hold `#[no_grad]` (reported if it is given arguments).
fn no_grad(cx: &mut Ctxt, attrs: &[syn::Attribute]) -> bool {
    let mut found = false;
    for a in attrs.iter().filter(|a| a.path().is_ident(symbol::NO_GRAD)) {
        if !matches!(a.meta, syn::Meta::Path(_)) {
            cx.error_spanned(a, format!("`#[{}]` takes no arguments", symbol::NO_GRAD));
        }
        found = true;
    }
    found
}

/// Reports a field of a float type other than `f64`, or a tuple holding floats or structs.
fn refuse(cx: &mut Ctxt, ty: &Type) {
    let text = ty.to_token_stream().to_string().replace(" ;", ";").replace("& ", "&");
    let instead = match ty {
        Type::Tuple(_) => "use an array `[f64; N]` or a struct deriving it, or ",
        _ => "",
    };
    cx.error_spanned(
        ty,
        format!(
            "`#[derive({})]` differentiates fields of type `f64`, arrays of `f64` and structs that derive it, not `{text}`; {instead}mark the field `#[{}]` to keep it out of the derivatives",
            symbol::DIFFERENTIABLE,
            symbol::NO_GRAD
        ),
    );
}

/// `<T as ::autodiff_runtime::__private::Tangent>` for the field type `ty`, spanned there (so
/// that a field whose type does not derive the trait is reported there, once).
fn tangent_trait(ty: &Type) -> TokenStream {
    quote_spanned!(ty.span()=> <#ty as ::autodiff_runtime::__private::Tangent>)
}

impl Field {
    /// `<T as Tangent>::LEN`, the number of scalars of a differentiated field.
    fn len(&self) -> TokenStream {
        let tr = tangent_trait(&self.ty);
        quote_spanned!(self.ty.span()=> #tr::LEN)
    }

    /// `m: value` in `Self { … }`, with `op` for a differentiated field (`zero_like`,
    /// `tangent`) and `Default::default()` for the others.
    fn init(&self, op: &str) -> TokenStream {
        let (m, ty) = (&self.member, &self.ty);
        if self.differentiated {
            let (tr, op) = (tangent_trait(ty), syn::Ident::new(op, ty.span()));
            quote!(#m: #tr::#op(&self.#m))
        } else {
            quote_spanned!(ty.span()=> #m: ::core::default::Default::default())
        }
    }

    /// The field's part of `zero_like`.
    pub(super) fn zero(&self) -> TokenStream {
        self.init("zero_like")
    }

    /// The field's part of `zero`.
    pub(super) fn zero_of_type(&self) -> TokenStream {
        let (m, ty) = (&self.member, &self.ty);
        if self.differentiated {
            let tr = tangent_trait(ty);
            quote!(#m: #tr::zero())
        } else {
            quote_spanned!(ty.span()=> #m: ::core::default::Default::default())
        }
    }

    /// The field's part of `tangent`.
    pub(super) fn tangent(&self) -> TokenStream {
        self.init("tangent")
    }

    /// The field's part of `clear_constants`.
    pub(super) fn clear(&self) -> TokenStream {
        let (m, ty) = (&self.member, &self.ty);
        if self.differentiated {
            let tr = tangent_trait(ty);
            quote!(#tr::clear_constants(&mut self.#m);)
        } else {
            quote_spanned!(ty.span()=> self.#m = ::core::default::Default::default();)
        }
    }
}

/// The number of differentiated scalars: the sum of the fields'.
pub(super) fn len(fields: &[Field]) -> TokenStream {
    let parts: Vec<TokenStream> =
        fields.iter().filter(|f| f.differentiated).map(Field::len).collect();
    match parts.as_slice() {
        [] => quote!(0),
        _ => quote!(#(#parts)+*),
    }
}

/// `ALL_DIFFERENTIATED`: no constant field, and every field's type all differentiated.
pub(super) fn all_differentiated(fields: &[Field]) -> TokenStream {
    if fields.iter().any(|f| !f.differentiated) {
        return quote!(false);
    }
    let parts: Vec<TokenStream> = fields
        .iter()
        .map(|f| {
            let tr = tangent_trait(&f.ty);
            quote!(#tr::ALL_DIFFERENTIATED)
        })
        .collect();
    match parts.as_slice() {
        [] => quote!(true),
        _ => quote!(#(#parts)&&*),
    }
}

/// `FIELDS`: each differentiated field's name with the number of its first scalar.
pub(super) fn table(fields: &[Field]) -> TokenStream {
    let mut at: Vec<TokenStream> = vec![quote!(0)];
    let mut rows = Vec::new();
    for f in fields.iter().filter(|f| f.differentiated) {
        let name = f.member.to_token_stream().to_string();
        rows.push(quote!((#name, #(#at)+*)));
        at.push(f.len());
    }
    quote!(&[#(#rows),*])
}

/// `TREE`: each differentiated field's name, the number of its first scalar, and its own
/// fields (a nested struct's, through `Tangent::TREE`).
pub(super) fn tree(fields: &[Field]) -> TokenStream {
    let mut at: Vec<TokenStream> = vec![quote!(0)];
    let mut rows = Vec::new();
    let p = quote!(::autodiff_runtime::__private);
    for f in fields.iter().filter(|f| f.differentiated) {
        let name = f.member.to_token_stream().to_string();
        let tr = tangent_trait(&f.ty);
        rows.push(
            quote!(#p::FieldTree { name: #name, at: #(#at)+*, fields: #tr::TREE, dims: #tr::DIMS }),
        );
        at.push(f.len());
    }
    quote!(&[#(#rows),*])
}

/// The body of `get`: the field holding scalar `k`, then its own scalar.
pub(super) fn get(fields: &[Field]) -> TokenStream {
    let steps = fields.iter().filter(|f| f.differentiated).map(|f| {
        let (m, len, tr) = (&f.member, f.len(), tangent_trait(&f.ty));
        quote! {
            if k < #len {
                return #tr::get(&self.#m, k);
            }
            let k = k - #len;
        }
    });
    quote! {
        #(#steps)*
        let _ = k;
        f64::NAN
    }
}

/// The body of `set`, as [`get`]'s.
pub(super) fn set(fields: &[Field]) -> TokenStream {
    let steps = fields.iter().filter(|f| f.differentiated).map(|f| {
        let (m, len, tr) = (&f.member, f.len(), tangent_trait(&f.ty));
        quote! {
            if k < #len {
                return #tr::set(&mut self.#m, k, value);
            }
            let k = k - #len;
        }
    });
    quote! {
        #(#steps)*
        let _ = (k, value);
    }
}

/// The `where` clause of the impls: the struct's own, and, for a struct with type parameters,
/// that each differentiated field's type has scalars and each other field's a default.
pub(super) fn bounds(generics: &syn::Generics, fields: &[Field]) -> TokenStream {
    let own = generics.where_clause.as_ref().map(|w| w.predicates.iter().collect::<Vec<_>>());
    let own = own.unwrap_or_default();
    let typed = generics.type_params().next().is_some();
    let added: Vec<TokenStream> = match typed {
        false => Vec::new(),
        true => fields
            .iter()
            .map(|f| {
                let ty = &f.ty;
                match f.differentiated {
                    true => quote!(#ty: ::autodiff_runtime::__private::Tangent),
                    false => quote!(#ty: ::core::default::Default),
                }
            })
            .collect(),
    };
    match (own.is_empty(), added.is_empty()) {
        (true, true) => TokenStream::new(),
        _ => quote!(where #(#own,)* #(#added,)*),
    }
}
