//! Struct parameters (`m: &Model`, `m: Model`, `&self`, `self`): flattened at the function's
//! boundary. Each field path the body reads as a value (`m.b`, `m.w[i]`, `self.inner.c`) is one
//! input of the IR, an `f64` or an array, created before the body is lowered (see `scan.rs`);
//! fields read only as integers are constants, kept as the user's tokens. A field read only whole
//! (passed to calls, a method's receiver) is one input laid flat,
//! `[f64; field_len::<Model>("w")]` (`field_path_len::<Model>(&["a", "w"])` deeper), whatever
//! its type; left out of `wrt`, it is a constant of those calls instead. A field read only by
//! rows passed to calls (`g(m.x[i])`, and maybe whole) is one input laid flat too, all its
//! scalars (`[f64; field_value_len(|s: &Model| &s.x)]`, differentiated or not), each row copied
//! out of it at its call (see `rows.rs`). A copy of a field (`let w = m.w;`) is read as the field
//! (see `copies.rs`). Codegen reads the inputs from the struct, and writes the gradient back
//! into a value of the struct's type. An array of structs (`ps: &[P; N]`) is one too, read as a
//! struct of arrays: its body is rewritten first (`ps[i].x` as `ps.x[i]`, see `arrays.rs`), and
//! each field read is one input `[f64; N]` (of more dimensions for an array field), gathered
//! from the elements and its gradient scattered back into a `[P; N]`.
//!
//! What this does not know: the struct's definition. A field's type comes from its uses (an
//! array's lengths are read at run time, `m.w.len()`, and written `_` in types), and whether a
//! field is `#[no_grad]` is left to the generated code, which asks the struct (through
//! `Differentiable`) to clear such fields of a gradient and of a direction.

pub(super) mod arrays;
mod calls;
mod copies;
mod element_fields;
mod flat;
mod infer;
pub(super) mod record;
mod rows;
mod scan;
mod scope;
mod whole;

pub(super) use copies::inline_copies;
pub(super) use flat::ident_of;
pub(super) use infer::{
    call_span, in_scope, is_name, known_method, lends, read_as_struct, respanned, suffixed,
};
pub(super) use record::Record;
pub(super) use scan::field_path;
pub(super) use whole::FieldDepth;

use proc_macro2::{Ident, TokenStream};
use quote::{ToTokens, quote, quote_spanned};
use syn::{Expr, Member, Type};

use super::{Binding, Kind, Lower};
use crate::ir::{Elem, Int, Name, Operand, Ty, Var};
use crate::symbol;

/// A differentiated struct parameter, as lowering knows it.
pub(super) struct StructState {
    /// The parameter's name (`self` for the receiver).
    pub name: String,
    /// The fields to differentiate: `None` for all, else the paths `wrt(m.w, ...)` lists.
    pub selected: Option<Vec<Vec<Member>>>,
    /// The field inputs made so far.
    pub fields: Vec<super::FieldInput>,
    /// The struct's type, without references (`Model`, `Self`).
    pub owned: Type,
    /// The whole struct as one input, its scalars laid flat (made when it is passed whole to a
    /// call).
    pub whole: Option<Var>,
    /// The fields read only whole and left out of `wrt`: constants of the calls they are passed
    /// to.
    pub constant_wholes: Vec<Vec<Member>>,
    /// For an array of structs (`ps: &[P; N]`): what its field inputs need.
    pub array: Option<ArrayState>,
}

/// An array of structs as lowering knows it (see `arrays.rs`).
#[derive(Clone)]
pub(super) struct ArrayState {
    /// The element's type.
    pub elem: Type,
    /// The array's length.
    pub len: Int,
    /// Whether it is taken by reference.
    pub by_ref: bool,
}

/// Whether `tokens` name any of `names`.
pub(super) fn mentions_any(tokens: &TokenStream, names: &[String]) -> bool {
    tokens.clone().into_iter().any(|t| match t {
        proc_macro2::TokenTree::Ident(id) => names.contains(&symbol::unraw(&id)),
        proc_macro2::TokenTree::Group(g) => mentions_any(&g.stream(), names),
        _ => false,
    })
}

/// The text of a field path, `inner.c`, for names and messages.
pub(super) fn path_text(path: &[Member]) -> String {
    let parts: Vec<String> = path.iter().map(|m| m.to_token_stream().to_string()).collect();
    parts.join(".")
}

/// Whether `path` starts with `prefix`.
fn starts_with(path: &[Member], prefix: &[Member]) -> bool {
    path.len() >= prefix.len() && path.iter().zip(prefix).all(|(a, b)| a == b)
}

impl Lower<'_> {
    /// Binds the differentiated struct parameter `ident` (of type `ty`), its fields restricted
    /// to `selected` when `wrt` lists fields of it.
    pub(super) fn struct_param(
        &mut self,
        ident: &Ident,
        ty: &Type,
        selected: Option<Vec<Vec<Member>>>,
    ) -> super::StructParam {
        let name = symbol::unraw(ident);
        let owned = crate::aggregate::owned(ty).clone();
        let state = StructState {
            name: name.clone(),
            selected,
            fields: Vec::new(),
            owned: owned.clone(),
            whole: None,
            constant_wholes: Vec::new(),
            array: None,
        };
        self.structs.push(state);
        self.bind_name(&name, Binding::Struct(self.structs.len() - 1));
        super::StructParam { owned, fields: Vec::new(), whole: None, array: false }
    }

    /// Binds the differentiated array of structs `ident` (of type `ty`, `[elem; len]` or a
    /// reference to one), read as a struct of arrays (see `arrays.rs`).
    pub(super) fn struct_array_param(
        &mut self,
        ident: &Ident,
        ty: &Type,
        selected: Option<Vec<Vec<Member>>>,
        (elem, len): (&Type, &Expr),
    ) -> super::StructParam {
        let mut p = self.struct_param(ident, ty, selected);
        let len = super::types::length(len, &self.generics);
        let by_ref = matches!(ty, Type::Reference(_));
        if let Some(s) = self.structs.last_mut() {
            s.array = Some(ArrayState { elem: elem.clone(), len, by_ref });
        }
        p.array = true;
        p
    }

    /// The input of the field `u` of the elements of the array of structs `k` (`ps[i].x`,
    /// rewritten `ps.x[i]`): an array `[f64; N]`, of as many more dimensions as the body indexes
    /// the field with, each the field's own (`field_row_dim(|e: &P| &e.w, 0)`).
    fn element_field(&mut self, k: usize, u: scan::FieldUse, wanted: bool, a: &ArrayState) {
        let (root, text) = (&u.root, path_text(&u.path));
        if !u.value {
            return self.cx.error_spanned(
                &u.first,
                format!("`#[grad]` reads the fields of the elements of the array of structs `{root}` as `f64` values and arrays of them, and `{root}[i].{text}` is read here where an integer goes (an index, a bound, a cast); read it from a constant parameter instead, or leave `{root}` out of `wrt(...)`"),
            );
        }
        let elem = &a.elem;
        let generic = mentions_any(&elem.to_token_stream(), &self.generics)
            || mentions_any(&elem.to_token_stream(), &self.type_params);
        if generic && u.depth > 1 {
            return self.cx.error_spanned(
                &u.first,
                format!("`#[grad]` holds the array field `{text}` of the elements of `{root}` as an array whose lengths it asks the struct for (`field_row_dim`), and stable Rust does not compute such a length from a generic parameter (`generic_const_exprs`); take an array of a struct over concrete lengths, or pass the field as an array parameter"),
            );
        }
        let path = &u.path;
        let mut dims = vec![a.len.clone()];
        for d in 0..u.depth.saturating_sub(1) {
            let p = quote!(::autodiff_runtime::__private);
            let len = quote!(#p::field_row_dim(|e: &#elem| &e #(.#path)*, #d));
            dims.push(Int::tokens(len, true));
        }
        let name = format!("{root}_{}", text.replace('.', "_"));
        let input = self.b.input(Name::user(&name), Ty::array(Elem::F64, dims));
        if wanted {
            self.b.func_mut().active.push(input);
        }
        let span =
            u.first.clone().into_iter().next().map_or(proc_macro2::Span::call_site(), |t| t.span());
        let at = arrays::gather(root, a.by_ref, path, span);
        let field =
            super::FieldInput { path: u.path, input, at, guessed: false, flat: false, rows: false };
        self.structs[k].fields.push(field);
    }

    /// Makes an input of the IR for each field of a differentiated struct parameter that `body`
    /// reads as a value (differentiated unless `wrt` lists other fields of it).
    pub(super) fn struct_inputs(&mut self, body: &syn::Block) {
        if self.structs.is_empty() {
            return;
        }
        let roots: Vec<String> = self.structs.iter().map(|s| s.name.clone()).collect();
        for u in scan::uses(body, &roots) {
            let Some(k) = self.structs.iter().position(|s| s.name == u.root) else { continue };
            let wanted = match &self.structs[k].selected {
                None => true,
                Some(paths) => paths.iter().any(|p| starts_with(&u.path, p)),
            };
            // A field read only whole and left out of `wrt`: a constant of the calls (a zero
            // direction built from it, `Tangent::zero_like`), not an input.
            if let Some(a) = self.structs[k].array.clone() {
                self.element_field(k, u, wanted, &a);
                continue;
            }
            if u.only_whole() && !wanted {
                self.structs[k].constant_wholes.push(u.path);
                continue;
            }
            if !u.value {
                continue;
            }
            let base = self.field_tokens(&u.root, &u.path, &u.first);
            // Read only whole and differentiated: laid flat (but not for a generic struct,
            // whose length stable Rust does not take in a type).
            let owned = self.structs[k].owned.to_token_stream();
            let generic =
                mentions_any(&owned, &self.generics) || mentions_any(&owned, &self.type_params);
            // Read only by rows passed to calls (and maybe whole): laid flat too, differentiated
            // or not, a row copied out at each call (see `rows.rs`); a generic struct's is read
            // as its uses tell, as an `f64` for one index.
            let rows = u.rows_only() && !generic;
            let flat = (u.only_whole() && wanted && !generic) || rows;
            if u.only_whole() && wanted && generic {
                self.generic_whole_field(&owned, &u.path, &u.first);
            }
            let ty = match u.depth {
                _ if rows => self.rows_field_ty(k, &u.path, &u.first),
                _ if flat => self.flat_field_ty(k, &u.path, &u.first),
                0 => Ty::F64,
                d => {
                    let dim = |k| field_len(&base, k, &u.root, (&owned, &u.path));
                    Ty::array(Elem::F64, (0..d).map(dim).collect())
                }
            };
            let text = path_text(&u.path).replace('.', "_");
            let input = self.b.input(Name::user(&format!("{}_{text}", u.root)), ty);
            // A field left out of `wrt` is an input too, not differentiated: a constant value
            // of its type.
            if wanted {
                self.b.func_mut().active.push(input);
            }
            // Passed whole (itself, or a row) and typed from the body's other reads.
            let guessed = u.passed && !flat;
            let field = super::FieldInput { path: u.path, input, at: u.first, guessed, flat, rows };
            self.structs[k].fields.push(field);
        }
    }

    /// The IR type of the field `path` of the struct parameter `k` laid flat:
    /// `[f64; field_len::<Model>("w")]` (`field_path_len::<Model>(&["a", "w"])` for a field of
    /// a nested struct), a length rustc evaluates.
    fn flat_field_ty(&self, k: usize, path: &[Member], at: &TokenStream) -> Ty {
        let owned = self.structs[k].owned.to_token_stream();
        let len = flat_len(&owned, path, at);
        let mut len = Int::tokens(len, true);
        len.generic = mentions_any(&owned, &self.generics);
        len.flat = true;
        Ty::array(Elem::F64, vec![len])
    }

    /// The input laid flat that the field read `e` is, when it is one.
    pub(super) fn flat_field_input(&self, e: &Expr) -> Option<Var> {
        let (k, path) = self.struct_field(e)?;
        self.structs[k].fields.iter().find(|f| f.path == path && f.flat).map(|f| f.input)
    }

    /// The struct parameter and field path of the field held laid flat that `e` reads, with its
    /// input.
    fn flat_field_of(&self, e: &Expr) -> Option<(usize, Vec<Member>, Var)> {
        let (k, path) = self.struct_field(e)?;
        let f = self.structs[k].fields.iter().find(|f| f.path == path && f.flat)?;
        let input = f.input;
        Some((k, path, input))
    }

    /// Whether the field read `e` is read only whole and left out of `wrt`.
    pub(super) fn is_constant_whole(&self, e: &Expr) -> bool {
        self.struct_field(e)
            .is_some_and(|(k, path)| self.structs[k].constant_wholes.contains(&path))
    }

    /// The tokens of the field `root.path`, with the spans of its first use `at`.
    fn field_tokens(&self, root: &str, path: &[Member], at: &TokenStream) -> TokenStream {
        let span =
            at.clone().into_iter().next().map_or(proc_macro2::Span::call_site(), |t| t.span());
        let root = Ident::new(root, span);
        quote!(#root #(. #path)*)
    }

    /// The differentiated struct parameter and field path that `e` reads, if it reads one.
    fn struct_field(&self, e: &Expr) -> Option<(usize, Vec<Member>)> {
        let (root, path) = field_path(e)?;
        match self.lookup(&root)? {
            Binding::Struct(k) => Some((*k, path)),
            _ => None,
        }
    }

    /// The input of the IR that the field read `e` is, if it is one (a field read only as an
    /// integer is a constant: `None`; a field left out of `wrt` is an input that is not
    /// differentiated).
    pub(super) fn field_input(&self, e: &Expr) -> Option<Var> {
        let (k, path) = self.struct_field(e)?;
        self.structs[k].fields.iter().find(|f| f.path == path).map(|f| f.input)
    }

    /// The value of the field read `e`, when it is an input of the IR.
    pub(super) fn field_value(&self, e: &Expr) -> Option<Operand> {
        self.field_input(e).map(Operand::Var)
    }

    /// What the field read `e` is, if `e` reads a field of a differentiated struct parameter.
    pub(super) fn field_kind(&self, e: &Expr) -> Option<Kind> {
        self.struct_field(e)?;
        Some(match self.field_input(e) {
            Some(v) if self.b.func().ty(v) == &Ty::F64 => Kind::Real,
            Some(_) => Kind::Array,
            None => Kind::Int,
        })
    }

    /// The type of the field read `e` indexed `depth` times, if it is an array.
    pub(super) fn field_array_ty(&self, e: &Expr, depth: usize) -> Option<Ty> {
        let v = self.field_input(e)?;
        self.b.func().ty(v).indexed(depth).filter(|t| matches!(t, Ty::Array(_)))
    }

    /// Reports the field `path` of a generic struct parameter (`m: &Model<N>`), read only whole,
    /// which would be held as its scalars laid flat, a length stable Rust does not compute from
    /// a generic parameter.
    fn generic_whole_field(&mut self, owned: &TokenStream, path: &[Member], at: &TokenStream) {
        let (ty, field) = (owned.to_string().replace(' ', ""), path_text(path));
        self.cx.error_spanned(
            at,
            format!("`#[grad]` holds a field read only whole (passed to a call, copied into the returned struct) as its scalars laid flat, `[f64; field_len::<{ty}>(\"{field}\")]`, and stable Rust does not compute such a length from a generic parameter: index the field, or bind it with its type first (`let w: [f64; N] = m.{field};`)"),
        );
    }

    /// Reports `e`, a generic struct (`Model<N>`) held as its scalars laid flat, a length stable
    /// Rust does not compute from a generic parameter (`<Model<N> as Differentiable>::LEN`).
    pub(super) fn generic_flat_struct(&mut self, e: &dyn ToTokens, ty: &TokenStream) {
        let ty = ty.to_string().replace(' ', "");
        self.cx.error_spanned(
            e,
            format!("`#[grad]` holds a struct passed whole to a call, or returned by one, as its scalars laid flat, `[f64; <{ty} as Differentiable>::LEN]`, and stable Rust does not compute such a length from a generic parameter (`generic_const_exprs`): pass the fields the callee needs, or call it from a function over a concrete type (`Model<3>`)"),
        );
    }

    /// Reports the struct parameter `name` read as a whole, where a value is needed.
    pub(super) fn whole_struct(&mut self, e: &Expr, name: &str) {
        self.cx.error_spanned(
            e,
            format!("`{name}` is a struct: `#[grad]` reads a struct parameter through its fields, as in `{name}.x`, and its methods, and does not copy it whole (a macro sees no types: if `{name}`'s type is an alias of `f64`, write `f64`); to start a variable from it, write a struct literal of its fields, as in `let mut s = Model {{ w: {name}.w, b: {name}.b }};`, or the value of a method called on it"),
        );
    }
}

/// The number of differentiated scalars of the field `path` of `owned`, in a `const`:
/// `field_len::<Model>("w")`, or `field_path_len::<Model>(&["a", "w"])` for a field of a nested
/// struct.
/// struct, spanned at the field's first read `at` (where rustc reports a `TREE` left empty).
fn flat_len(owned: &TokenStream, path: &[Member], at: &TokenStream) -> TokenStream {
    let span = at.clone().into_iter().next().map_or(proc_macro2::Span::call_site(), |t| t.span());
    let p = quote!(::autodiff_runtime::__private);
    let names: Vec<String> = path.iter().map(|m| m.to_token_stream().to_string()).collect();
    match &names[..] {
        [name] => quote!(#p::field_len::<#owned>(#name)),
        _ => quote_spanned!(span=> #p::field_path_len::<#owned>(&[#(#names),*])),
    }
}

/// The length of dimension `k` of the array field `base`, read at run time: `m.w.len()`, and
/// `len_at(&m.w, 1)` for the next; in a `const` block, `field_dim::<Model>(&["w"], k)`, from the
/// struct `owned` and the field's `path`.
fn field_len(
    base: &TokenStream,
    k: usize,
    root: &str,
    (owned, path): (&TokenStream, &[Member]),
) -> Int {
    let tokens = match k {
        0 => quote!(#base.len()),
        _ => quote!(::autodiff_runtime::__private::len_at(&#base, #k)),
    };
    let names: Vec<String> = path.iter().map(|m| m.to_token_stream().to_string()).collect();
    let konst = quote!(::autodiff_runtime::__private::field_dim::<#owned>(&[#(#names),*], #k));
    let mut len = Int::inferred(tokens, vec![root.to_owned()], konst);
    len.witness = Some((base.clone(), k));
    len
}
