//! Lowering of the signature: which parameters are differentiated (`f64` values and arrays of
//! them), which pass through as constants, what the function returns, and the function-level
//! constructs that are not supported.

use syn::{FnArg, GenericParam, Pat, ReturnType, Safety, Signature, Type};

use super::passed::ConstTy;
use super::types::{has_mut_ref, is_int, is_vec_of, is_vec_of_floats, type_text};
use super::{Binding, Kind, Lower, Output, Param, ScalarTy};
use crate::args::Args;
use crate::ir::{Elem, Int, Linear, Name, Operand, Scalar, Ty, Var};
use crate::symbol;

const MUT_REF: &str = "`#[grad]` does not support `&mut` parameters: the function must be pure; pass values or shared references";
const IMPL_TRAIT: &str = "`#[grad]` does not support `impl Trait` parameters; write the function for `f64`, `f32` or a type parameter `T: Float`, and concrete types";

/// What the function returns, as lowering checks the body's value against it.
#[derive(Clone)]
pub(super) struct Returns {
    /// The kind of output.
    pub output: Output,
    /// The type of an array output.
    pub array: Option<Ty>,
    /// The types of a tuple output's parts: `f64`s and arrays of `f64`.
    pub parts: Vec<Ty>,
    /// The type of a struct output.
    pub record: Option<Type>,
}

impl Returns {
    pub(super) fn kind(&self) -> Output {
        self.output
    }
}

/// What `wrt` says of one parameter.
struct Choice<'a> {
    /// Whether it is differentiated.
    differentiate: bool,
    /// Where `wrt` names it, if it does.
    listed: Option<&'a proc_macro2::Ident>,
    /// For a struct: the fields `wrt` names (`None` for all of them).
    selected: Option<Vec<Vec<syn::Member>>>,
}

/// The type of a method's receiver, as `self: T` writes it: `Self`, `&Self`, `&mut Self`.
fn receiver_type(r: &syn::Receiver) -> Type {
    let span = r.self_token.span;
    let path = syn::Path::from(proc_macro2::Ident::new(symbol::SELF_TYPE, span));
    let owned = Type::Path(syn::TypePath { attrs: Vec::new(), qself: None, path });
    match &r.kind {
        syn::ReceiverKind::Reference(and_token, lifetime, mutability) => {
            Type::Reference(syn::TypeReference {
                attrs: Vec::new(),
                and_token: *and_token,
                lifetime: lifetime.clone(),
                mutability: *mutability,
                elem: Box::new(owned),
            })
        }
        syn::ReceiverKind::Typed(_, ty) => (**ty).clone(),
        _ => owned,
    }
}

/// Whether `ty` is a struct of the user's, by value or by reference (`&Model`, `Self`).
fn is_struct(ty: &Type) -> bool {
    crate::aggregate::kind(ty) == crate::aggregate::TypeKind::Struct
        && matches!(crate::aggregate::owned(ty), Type::Path(_))
}

/// How a parameter's type is treated.
enum ParamTy {
    /// The scalar type, or an array of it (by value or by reference): differentiable.
    Real(Ty, bool),
    /// A slice of scalars or of arrays of them, by reference (`&[S]`, `&[[S; K]]`, `&Vec<S>`),
    /// with the lengths of its elements: constant data unless `wrt(...)` names it.
    Slice(Vec<Int>),
    /// Looks differentiable but is not supported (another float type than the function's
    /// scalar, arrays of one, tuples of floats).
    Float,
    /// Anything else: passed through as a constant of the given kind.
    Other(Kind),
}

fn classify(ty: &Type, scalar: &ScalarTy, generics: &[String]) -> ParamTy {
    if scalar.is(ty) {
        return ParamTy::Real(Ty::F64, false);
    }
    if let Some(t) = scalar.array(ty, generics) {
        return ParamTy::Real(t, false);
    }
    if let Type::Reference(r) = ty
        && r.mutability.is_none()
        && let Some(t) = scalar.array(&r.elem, generics)
    {
        return ParamTy::Real(t, true);
    }
    if let Some(dims) = scalar.slice(ty, generics) {
        return ParamTy::Slice(dims);
    }
    match ty {
        _ if scalar.is_other_float(ty) => ParamTy::Float,
        Type::Array(_) | Type::Tuple(_) if scalar.mentioned_in(ty) => ParamTy::Float,
        _ if holds_ints(ty) => ParamTy::Other(Kind::Int),
        _ if scalar.mentioned_in(ty) => ParamTy::Other(Kind::Real),
        _ => ParamTy::Other(Kind::Unknown),
    }
}

/// The lengths of a differentiated slice `name` whose elements have lengths `elems`: its own,
/// `name.len()`, known at run time, and then its elements'.
fn slice_dims(name: &str, elems: Vec<Int>) -> Vec<Int> {
    let id = proc_macro2::Ident::new(name, proc_macro2::Span::call_site());
    let mut len = Int::tokens(quote::quote!(#id.len()), true);
    // A name of its own for the transforms (so that `0..x.len()` is `x`'s length to them), and
    // the parameter it reads (so that storage sized by it is known to be sized at run time).
    len.linear = Some(Linear::name(format!("{name}.len()")));
    len.params = vec![name.to_owned()];
    let mut dims = vec![len];
    dims.extend(elems);
    dims
}

/// Whether `ty` is an integer, or a reference, slice or array of integers (`&[usize]`).
fn holds_ints(ty: &Type) -> bool {
    match ty {
        Type::Reference(r) => holds_ints(&r.elem),
        Type::Slice(s) => holds_ints(&s.elem),
        Type::Array(a) => holds_ints(&a.elem),
        Type::Paren(p) => holds_ints(&p.elem),
        Type::Group(g) => holds_ints(&g.elem),
        other => is_int(other),
    }
}

impl Lower<'_> {
    /// Checks the signature, creates an IR input per differentiable parameter (per field read
    /// in `body`, for a struct), and binds every parameter.
    pub(super) fn signature(
        &mut self,
        sig: &Signature,
        body: &syn::Block,
        args: &Args,
    ) -> (Vec<Param>, Returns) {
        self.function_kind(sig);
        self.b.func_mut().scalar = self.scalar.kind;
        self.scalar.mixed = self.scalar.casts_to_other(quote::ToTokens::to_token_stream(body));
        self.b.func_mut().mixed = self.scalar.mixed;
        let returns = self.returns(sig);
        let wrt = args.wrt.as_deref();
        let mut params = Vec::new();
        let mut receiver;
        for arg in &sig.inputs {
            let (ident, ty, attrs) = match arg {
                FnArg::Receiver(r) => {
                    let id = proc_macro2::Ident::new(symbol::SELF_VALUE, r.self_token.span);
                    receiver = receiver_type(r);
                    (id, &receiver, &r.attrs)
                }
                FnArg::Typed(pt) => {
                    let id = match &*pt.pat {
                        Pat::Ident(pi) => pi.ident.clone(),
                        Pat::Wild(w) => {
                            self.param_attrs(&pt.attrs);
                            params.push(self.unnamed(w, &pt.ty));
                            continue;
                        }
                        other => {
                            self.cx.error_spanned(
                                other,
                                "`#[grad]` needs every parameter to be a plain name, such as `x: f64`, or `_`",
                            );
                            continue;
                        }
                    };
                    (id, &*pt.ty, &pt.attrs)
                }
            };
            self.param_attrs(attrs);
            let name = symbol::unraw(&ident);
            let listed = wrt.and_then(|w| w.iter().find(|id| symbol::unraw(id) == name));
            let fields: Vec<Vec<syn::Member>> = args
                .wrt_fields
                .iter()
                .filter(|f| symbol::unraw(&f.root) == name)
                .map(|f| f.path.clone())
                .collect();
            let differentiate = wrt.is_none() || listed.is_some() || !fields.is_empty();
            let selected = match wrt.is_none() || listed.is_some() {
                true => None,
                false => Some(fields),
            };
            let choice = Choice { differentiate, listed, selected };
            let (input, by_ref, strukt) = self.param(&ident, ty, choice);
            params.push(Param { ident, ty: ty.clone(), input, by_ref, strukt });
        }
        self.check_wrt(sig, args, &params);
        self.generic_arrays(args, &params);
        self.struct_inputs(body);
        let structs = params.iter().any(|p| p.strukt.is_some());
        if self.cx.is_ok() && self.b.func().active.is_empty() && !structs {
            self.nothing_to_differentiate(sig, &params);
        }
        self.b.func_mut().user_inputs = self.b.func().inputs.len();
        (params, returns)
    }

    /// Refuses `hessian` and `jacobian` for an array of structs of a const generic length: they
    /// number its scalars in arrays of `<[P; N] as Tangent>::LEN`, a length stable Rust does not
    /// compute from a generic parameter.
    fn generic_arrays(&mut self, args: &Args, params: &[Param]) {
        if !args.hessian && args.jacobian.is_none() {
            return;
        }
        for p in params.iter().filter(|p| p.strukt.as_ref().is_some_and(|s| s.array)) {
            let tokens = quote::ToTokens::to_token_stream(&p.ty);
            if super::structs::mentions_any(&tokens, &self.generics) {
                let (ty, id) = (type_text(&p.ty), &p.ident);
                self.cx.error_spanned(
                    &p.ty,
                    format!("`#[grad(hessian)]` and `#[grad(jacobian)]` number the scalars of `{id}: {ty}` in arrays of `<[P; N] as Tangent>::LEN` of them, a length stable Rust does not compute from a const generic parameter (`generic_const_exprs`); use `hvp` (one H·v per direction), or an array of a length written as a constant"),
                );
            }
        }
    }

    /// Refuses attributes on a parameter: the generated signatures copy the parameter without
    /// them, so that `f` and `f_grad` always take the same parameters.
    fn param_attrs(&mut self, attrs: &[syn::Attribute]) {
        for attr in attrs {
            self.cx.error_spanned(attr, "`#[grad]` does not support attributes on parameters");
        }
    }

    /// Reports what `wrt` names that is not a parameter, or a field of one that is not a
    /// differentiated struct.
    fn check_wrt(&mut self, sig: &Signature, args: &Args, params: &[Param]) {
        let param = |id: &proc_macro2::Ident| {
            params.iter().find(|p| symbol::unraw(&p.ident) == symbol::unraw(id))
        };
        for id in args.wrt.as_deref().unwrap_or_default() {
            if param(id).is_none() {
                self.cx.error_spanned(
                    id,
                    format!("`wrt` names `{id}`, which is not a parameter of `{}`", sig.ident),
                );
            }
        }
        for f in &args.wrt_fields {
            let text = f.tokens.to_string().replace(' ', "");
            let root = &f.root;
            match param(root) {
                None => self.cx.error_spanned(
                    &f.tokens,
                    format!("`wrt` names `{text}`, but `{root}` is not a parameter of `{}`", sig.ident),
                ),
                Some(p) if p.strukt.is_none() => self.cx.error_spanned(
                    &f.tokens,
                    format!("`wrt` names `{text}`, a field of `{root}`, which is not a struct parameter; name `{root}` itself"),
                ),
                Some(_) => {}
            }
        }
    }

    /// Reports a function without a differentiated parameter, saying what to use instead of a
    /// `Vec<f64>` taken by reference when there is one (one taken by value is refused already).
    fn nothing_to_differentiate(&mut self, sig: &Signature, params: &[Param]) {
        let name = &sig.ident;
        let s = self.scalar.text();
        if let Some(p) = params.iter().find(|p| self.scalar.slice(&p.ty, &self.generics).is_some())
        {
            let (ty, id) = (type_text(&p.ty), &p.ident);
            return self.cx.error_spanned(
                &p.ty,
                format!("`{name}` has no `{s}` parameter to differentiate: a slice such as `{ty}` is constant data unless `wrt(...)` names it; write `#[grad(wrt({id}))]` to differentiate `{id}`"),
            );
        }
        match params.iter().find(|p| is_vec_of(&p.ty, &s)) {
            Some(p) => self.cx.error_spanned(
                &p.ty,
                format!(
                    "`{name}` has no `{s}` parameter to differentiate: `#[grad]` does not differentiate `{}`; take `{}` as an array `[{s}; N]` to differentiate it, or as `&[{s}]` to pass it as constant data",
                    type_text(&p.ty),
                    p.ident
                ),
            ),
            None => match params.iter().find(|p| generic_data(&p.ty)) {
                // `p: &P<f64>`: a type with type arguments is data, as far as the tokens tell.
                Some(p) => self.cx.error_spanned(
                    &p.ty,
                    format!(
                        "`{name}` has no `{s}` parameter to differentiate: `#[grad]` takes `{}`, a type with type arguments, for constant data (a macro sees no types: `Vec<{s}>` is one too), not for a struct to differentiate; write the struct over `{s}` without a type parameter (a const generic one, `Model<N>`, is supported)",
                        type_text(&p.ty),
                    ),
                ),
                None => self.cx.error_spanned(
                    name,
                    format!("`{name}` has no `{s}` parameter to differentiate"),
                ),
            },
        }
    }

    /// A parameter `_: T`: never read, so a constant passed through, whatever its type (`&mut`
    /// and `impl Trait` aside, as for a named one). The generated functions that pass it on name
    /// it (see `codegen`).
    fn unnamed(&mut self, w: &syn::PatWild, ty: &Type) -> Param {
        if has_mut_ref(ty) {
            self.cx.error_spanned(ty, MUT_REF);
        } else if let Type::ImplTrait(_) = ty {
            self.cx.error_spanned(ty, IMPL_TRAIT);
        }
        let ident = proc_macro2::Ident::new(symbol::WILD, w.underscore_token.span);
        Param {
            ident,
            ty: ty.clone(),
            input: None,
            by_ref: matches!(ty, Type::Reference(_)),
            strukt: None,
        }
    }

    /// Classifies one parameter; returns its IR input if it is differentiable, and whether it is
    /// taken by reference.
    fn param(
        &mut self,
        ident: &proc_macro2::Ident,
        ty: &Type,
        choice: Choice,
    ) -> (Option<Var>, bool, Option<super::StructParam>) {
        let Choice { differentiate, listed, selected } = choice;
        let name = symbol::unraw(ident);
        self.param_tys.insert(name.clone(), ConstTy::of(ty, &self.scalar));
        let s = self.scalar.text();
        if has_mut_ref(ty) {
            self.cx.error_spanned(ty, MUT_REF);
            self.bind_name(&name, Binding::Poison);
            return (None, false, None);
        }
        if let Type::ImplTrait(_) = ty {
            self.cx.error_spanned(ty, IMPL_TRAIT);
            self.bind_name(&name, Binding::Poison);
            return (None, false, None);
        }
        // A `Vec` of floats taken by value looks like the function's numbers (of another float
        // type, it would silently be a constant): refused unless `wrt(...)` leaves it out.
        if differentiate && is_vec_of_floats(ty, &s) && !matches!(ty, Type::Reference(_)) {
            let text = type_text(ty);
            let message = if is_vec_of(ty, &s) {
                format!(
                    "`#[grad]` does not differentiate `{text}` taken by value; take `{ident}` as a slice `&[{s}]` (constant data, or differentiated when `wrt(...)` names it, its gradient written into a buffer) or as an array `[{s}; N]`"
                )
            } else {
                let elem = text.trim_start_matches("Vec<").trim_end_matches('>');
                format!(
                    "`#[grad]` does not differentiate `{text}` taken by value, and this function computes in `{s}`; take `{ident}` as a slice `&[{elem}]` to pass it as constant data, or as `&[{s}]` named in `wrt(...)` or `[{s}; N]` to differentiate it"
                )
            };
            self.cx.error_spanned(ty, message);
            self.bind_name(&name, Binding::Poison);
            return (None, false, None);
        }
        let by_ref = matches!(ty, Type::Reference(_));
        let owned = crate::aggregate::owned(ty);
        let type_param = matches!(owned, Type::Path(p) if p.path.get_ident()
            .is_some_and(|id| self.type_params.contains(&symbol::unraw(id))));
        if differentiate
            && let Some(elements) = super::structs::arrays::elements_of(ty, &self.type_params)
        {
            if self.scalar.kind != Scalar::F64 {
                self.cx.error_spanned(
                    ty,
                    format!("`#[grad]` differentiates arrays of structs in functions that compute in `f64`, and this one computes in `{s}`; write the function over `f64`, or leave `{ident}` out of `wrt(...)` to pass it through as a constant"),
                );
                self.bind_name(&name, Binding::Poison);
                return (None, false, None);
            }
            let p = self.struct_array_param(ident, ty, selected, elements);
            return (None, by_ref, Some(p));
        }
        if is_struct(ty) && !type_param {
            if !differentiate {
                self.param_structs.insert(name.clone(), owned.clone());
                self.bind_name(&name, Binding::Param(Kind::Unknown));
                return (None, by_ref, None);
            }
            if self.scalar.kind != Scalar::F64 {
                self.cx.error_spanned(
                    ty,
                    format!("`#[grad]` differentiates structs in functions that compute in `f64`, and this one computes in `{s}`; write the function over `f64`, or leave `{ident}` out of `wrt(...)` to pass it through as a constant"),
                );
                self.bind_name(&name, Binding::Poison);
                return (None, false, None);
            }
            return (None, by_ref, Some(self.struct_param(ident, ty, selected)));
        }
        let class = match classify(ty, &self.scalar, &self.generics) {
            ParamTy::Slice(dims) if listed.is_some() => {
                ParamTy::Real(Ty::array(Elem::F64, slice_dims(&name, dims)), true)
            }
            ParamTy::Slice(_) => ParamTy::Other(Kind::Real),
            other => other,
        };
        let (input, by_ref) = match class {
            // An `f64` or an array of them is an input even when not differentiated: it is read
            // as a value (copied into a variable and updated, `let mut x = x0; x[0] *= a;`).
            ParamTy::Real(t, by_ref) => {
                let v = self.b.input(Name::user(&name), t);
                if differentiate {
                    self.b.func_mut().active.push(v);
                }
                self.versions.insert(name.clone(), 1);
                self.slots.push(super::Slot {
                    name: name.clone(),
                    value: Some(Operand::Var(v)),
                    alias: None,
                    int_alias: None,
                    ty: ConstTy::of(ty, &self.scalar),
                    strukt: None,
                    field_depths: std::rc::Rc::default(),
                });
                self.bind_name(&name, Binding::Slot(self.slots.len() - 1));
                (Some(v), by_ref)
            }
            ParamTy::Other(_)
                if listed.is_some()
                    && super::structs::arrays::slice_of_structs(ty, &self.type_params) =>
            {
                let at = listed.unwrap_or(ident);
                let ty = type_text(ty);
                self.cx.error_spanned(
                    at,
                    format!("`wrt` names `{ident}`, a slice of structs `{ty}`, which `#[grad]` does not differentiate (its elements' fields would be arrays of a length known only at run time, held without the heap); take an array of structs `&[P; N]` (its gradient a `[P; N]`), or the fields as slices `&[f64]`"),
                );
                self.bind_name(&name, Binding::Poison);
                (None, false)
            }
            ParamTy::Float | ParamTy::Other(_) | ParamTy::Slice(_) if listed.is_some() => {
                let at = listed.unwrap_or(ident);
                let ty = type_text(ty);
                self.cx.error_spanned(
                    at,
                    format!("`wrt` names `{ident}`, of type `{ty}`, but only `{s}` parameters, arrays of `{s}` and slices `&[{s}]` can be differentiated (`{s}` is the function's scalar type)"),
                );
                self.bind_name(&name, Binding::Poison);
                (None, false)
            }
            ParamTy::Float if differentiate => {
                let text = type_text(ty);
                self.cx.error_spanned(
                    ty,
                    format!(
                        "`#[grad]` differentiates values of the function's scalar type, here `{s}`, and arrays of them, not `{text}`; to pass `{ident}` through as a constant, list the differentiated parameters with `wrt(...)`{}",
                        self.scalar_hint()
                    ),
                );
                self.bind_name(&name, Binding::Poison);
                (None, false)
            }
            ParamTy::Float | ParamTy::Slice(_) => {
                self.bind_name(&name, Binding::Param(Kind::Real));
                (None, false)
            }
            ParamTy::Other(kind) => {
                self.bind_name(&name, Binding::Param(kind));
                (None, by_ref)
            }
        };
        (input, by_ref, None)
    }

    /// Reports the function-level constructs that are not supported, records the const generic
    /// parameters, and decides the function's scalar type.
    fn function_kind(&mut self, sig: &Signature) {
        let what = "`#[grad]` differentiates plain functions of float values";
        if let Some(t) = &sig.constness {
            self.cx.error_spanned(t, format!("`#[grad]` does not support `const fn`; {what}"));
        }
        if let Some(t) = &sig.asyncness {
            self.cx.error_spanned(t, format!("`#[grad]` does not support `async fn`; {what}"));
        }
        if let Safety::Unsafe(t) = &sig.safety {
            self.cx.error_spanned(t, format!("`#[grad]` does not support `unsafe fn`; {what}"));
        }
        let (scalar, more) = ScalarTy::of(sig);
        self.scalar = scalar;
        for extra in more {
            self.cx.error_spanned(
                &extra,
                format!("`#[grad]` functions have one scalar type, here `{}`: a second type parameter bounded by `Float` is not supported; write every float of the function as `{}`", self.scalar.text(), self.scalar.text()),
            );
        }
        let own = self.scalar.param.clone();
        self.type_params = sig.generics.type_params().map(|t| symbol::unraw(&t.ident)).collect();
        for param in &sig.generics.params {
            match param {
                GenericParam::Const(c) => self.generics.push(symbol::unraw(&c.ident)),
                GenericParam::Lifetime(l) => self.cx.error_spanned(
                    l,
                    format!("`#[grad]` does not support lifetime parameters; write references without a named lifetime, such as `&[{}]`", self.scalar.text()),
                ),
                GenericParam::Type(t) if own.as_ref() == Some(&t.ident) => {}
                GenericParam::Type(t) if super::scalar::float_bounded(sig, t) => {}
                other => self.cx.error_spanned(
                    other,
                    "`#[grad]` does not support type parameters other than the function's scalar type; write the function for `f64`, `f32` or a type parameter `T: Float` (const generic parameters such as `const N: usize` are supported)",
                ),
            }
        }
        if let Some(w) = &sig.generics.where_clause {
            for p in &w.predicates {
                let on_scalar = match p {
                    syn::WherePredicate::Type(t) => own.as_ref().is_some_and(|own| {
                        matches!(&t.bounded_ty, Type::Path(tp) if tp.qself.is_none() && tp.path.is_ident(own))
                    }),
                    _ => false,
                };
                if !on_scalar {
                    // Spanned by the predicate: `Generics` prints without its `where` clause.
                    self.cx.error_spanned(
                        p,
                        "`#[grad]` supports `where` clauses only on the function's scalar type parameter, such as `where T: Float`",
                    );
                }
            }
        }
        if let Some(v) = &sig.variadic {
            self.cx.error_spanned(v, "`#[grad]` does not support variadic functions");
        }
    }

    /// How the function's scalar type is decided, for messages about another float type.
    fn scalar_hint(&self) -> &'static str {
        match self.scalar.kind {
            crate::ir::Scalar::Generic => "",
            _ => {
                " (the scalar type is `f64` unless the function returns `f32`s or has a type parameter `T: Float`)"
            }
        }
    }

    /// What the function returns: the scalar type, an array of it, or a tuple of scalars.
    fn returns(&mut self, sig: &Signature) -> Returns {
        let scalar =
            Returns { output: Output::Scalar, array: None, parts: Vec::new(), record: None };
        let s = self.scalar.text();
        let ty = match &sig.output {
            ReturnType::Type(_, ty) => ty,
            ReturnType::Default => {
                self.cx.error_spanned(
                    &sig.ident,
                    format!("`#[grad]` functions must return `{s}`, an array `[{s}; N]` or a tuple of those (`({s}, {s})`, `({s}, [{s}; N])`); add `-> {s}`"),
                );
                return scalar;
            }
        };
        if self.scalar.is(ty) {
            return scalar;
        }
        if let Some(t) = self.scalar.array(ty, &self.generics) {
            return Returns {
                output: Output::Array,
                array: Some(t),
                parts: Vec::new(),
                record: None,
            };
        }
        let part = |t: &Type| match self.scalar.is(t) {
            true => Some(Ty::F64),
            false => self.scalar.array(t, &self.generics),
        };
        if let Type::Tuple(t) = &**ty
            && t.elems.len() >= 2
            && let Some(parts) = t.elems.iter().map(part).collect::<Option<Vec<Ty>>>()
        {
            return Returns {
                output: Output::Tuple(t.elems.len()),
                array: None,
                parts,
                record: None,
            };
        }
        if matches!(&**ty, Type::Path(_)) && is_struct(ty) && self.scalar.kind == Scalar::F64 {
            let record = Some((**ty).clone());
            return Returns { output: Output::Record, array: None, parts: Vec::new(), record };
        }
        self.cx.error_spanned(
            ty,
            format!(
                "`#[grad]` functions must return `{s}`, an array `[{s}; N]` or a tuple of those (`({s}, {s})`, `({s}, [{s}; N])`), not `{}`{}",
                type_text(ty),
                if self.scalar.mentions_other_float(ty) { self.scalar_hint() } else { "" }
            ),
        );
        scalar
    }
}

/// Whether `ty` (through references) is a user's type with type arguments (`P<f64>`), which
/// `#[grad]` takes for data.
fn generic_data(ty: &Type) -> bool {
    let Type::Path(p) = crate::aggregate::owned(ty) else { return false };
    let last = p.path.segments.last();
    let args = last.is_some_and(|s| matches!(s.arguments, syn::PathArguments::AngleBracketed(_)));
    args && crate::aggregate::kind(ty) == crate::aggregate::TypeKind::Constant
        && !is_vec_of(ty, crate::symbol::F64)
        && last
            .is_some_and(|s| !crate::symbol::CONSTANT_TYPES.contains(&s.ident.to_string().as_str()))
}
