//! `#[derive(Differentiable)]`: implements `autodiff_runtime::Differentiable` (which
//! `f_hessian` and `f_jacobian` number a struct's scalars with) for a struct, from its fields: `f64`, arrays of them and structs deriving it are differentiated, in declaration
//! order; a field marked `#[no_grad]`, and a field of another type (an integer, a `bool`, a `Vec`
//! of data, a reference), is a constant, which a zero or a gradient leaves at its `Default`.
//! Float types other than `f64`, and tuples holding floats, are refused at the field.

mod fields;

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Data, DeriveInput};

use crate::ctxt::Ctxt;
use fields::Field;

/// Expands `#[derive(Differentiable)]` on `input`: the impls, or the errors found.
pub fn derive(input: TokenStream) -> TokenStream {
    let input = match syn::parse2::<DeriveInput>(input) {
        Ok(input) => input,
        Err(e) => return e.to_compile_error(),
    };
    let mut cx = Ctxt::new();
    let fields = match &input.data {
        Data::Struct(s) => fields::of(&mut cx, &s.fields),
        Data::Enum(e) => {
            cx.error_spanned(e.enum_token, not_a_struct("an enum"));
            Vec::new()
        }
        Data::Union(u) => {
            cx.error_spanned(u.union_token, not_a_struct("a union"));
            Vec::new()
        }
    };
    if !cx.is_ok() {
        return cx.into_compile_errors();
    }
    impls(&input, &fields)
}

fn not_a_struct(what: &str) -> String {
    format!(
        "`#[derive({})]` applies to structs, not to {what}: `#[grad]` differentiates the `f64` fields of a struct",
        crate::symbol::DIFFERENTIABLE
    )
}

/// The impl of `Differentiable` for the struct `input` with `fields`.
fn impls(input: &DeriveInput, fields: &[Field]) -> TokenStream {
    let name = &input.ident;
    let (impl_generics, ty_generics, _) = input.generics.split_for_impl();
    let bounds = fields::bounds(&input.generics, fields);
    let len = fields::len(fields);
    let zero = fields.iter().map(Field::zero);
    let zero_of_type = fields.iter().map(Field::zero_of_type);
    let table = fields::table(fields);
    let tree = fields::tree(fields);
    let all = fields::all_differentiated(fields);
    let tangent = fields.iter().map(Field::tangent);
    let clear = fields.iter().map(Field::clear);
    let get = fields::get(fields);
    let set = fields::set(fields);
    let rt = quote!(::autodiff_runtime);
    quote! {
        #[automatically_derived]
        impl #impl_generics #rt::Differentiable for #name #ty_generics #bounds {
            const LEN: usize = #len;

            const FIELDS: &'static [(&'static str, usize)] = #table;

            const TREE: &'static [::autodiff_runtime::__private::FieldTree] = #tree;

            const ALL_DIFFERENTIATED: bool = #all;

            fn zero_like(&self) -> Self {
                Self { #(#zero,)* }
            }

            fn zero() -> Self {
                Self { #(#zero_of_type,)* }
            }

            fn get(&self, k: usize) -> f64 {
                #get
            }

            fn set(&mut self, k: usize, value: f64) {
                #set
            }

            fn tangent(&self) -> Self {
                Self { #(#tangent,)* }
            }

            fn clear_constants(&mut self) {
                #(#clear)*
            }
        }
    }
}
