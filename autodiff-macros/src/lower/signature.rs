//! Lowering of the signature: which parameters are differentiated (`f64` values and arrays of
//! them), which pass through as constants, what the function returns, and the function-level
//! constructs that are not supported.

use syn::{FnArg, GenericParam, Pat, ReturnType, Safety, Signature, Type};

use super::passed::ConstTy;
use super::types::{
    f64_array, has_mut_ref, is_f64, is_int, is_other_float, is_vec_of_f64, mentions_float,
    type_text,
};
use super::{Binding, Kind, Lower, Output, Param};
use crate::args::Args;
use crate::ir::{Name, Operand, Ty, Var};
use crate::symbol;

const MUT_REF: &str = "`#[grad]` does not support `&mut` parameters: the function must be pure; pass values or shared references";
const IMPL_TRAIT: &str = "`#[grad]` does not support generic functions (`impl Trait` parameters); write the function for `f64` and concrete types";

/// What the function returns, as lowering checks the body's value against it.
#[derive(Clone)]
pub(super) struct Returns {
    /// The kind of output.
    pub output: Output,
    /// The type of an array output.
    pub array: Option<Ty>,
    /// The types of a tuple output's parts: `f64`s and arrays of `f64`.
    pub parts: Vec<Ty>,
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
    /// `f64`, or an array of `f64` (by value or by reference): differentiable.
    Real(Ty, bool),
    /// Looks differentiable but is not supported (`f32`, arrays of `f32`, tuples of floats).
    Float,
    /// Anything else: passed through as a constant of the given kind.
    Other(Kind),
}

fn classify(ty: &Type, generics: &[String]) -> ParamTy {
    if is_f64(ty) {
        return ParamTy::Real(Ty::F64, false);
    }
    if let Some(t) = f64_array(ty, generics) {
        return ParamTy::Real(t, false);
    }
    if let Type::Reference(r) = ty
        && r.mutability.is_none()
        && let Some(t) = f64_array(&r.elem, generics)
    {
        return ParamTy::Real(t, true);
    }
    match ty {
        _ if is_other_float(ty) => ParamTy::Float,
        Type::Array(_) | Type::Tuple(_) if mentions_float(ty) => ParamTy::Float,
        _ if holds_ints(ty) => ParamTy::Other(Kind::Int),
        _ if mentions_float(ty) => ParamTy::Other(Kind::Real),
        _ => ParamTy::Other(Kind::Unknown),
    }
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
        self.struct_inputs(body);
        let structs = params.iter().any(|p| p.strukt.is_some());
        if self.cx.is_ok() && self.b.func().active.is_empty() && !structs {
            self.nothing_to_differentiate(sig, &params);
        }
        self.b.func_mut().user_inputs = self.b.func().inputs.len();
        (params, returns)
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
        match params.iter().find(|p| is_vec_of_f64(&p.ty)) {
            Some(p) => self.cx.error_spanned(
                &p.ty,
                format!(
                    "`{name}` has no `f64` parameter to differentiate: `#[grad]` does not differentiate `{}`; take `{}` as an array `[f64; N]` to differentiate it, or as `&[f64]` to pass it as constant data",
                    type_text(&p.ty),
                    p.ident
                ),
            ),
            None => self
                .cx
                .error_spanned(name, format!("`{name}` has no `f64` parameter to differentiate")),
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
        self.param_tys.insert(name.clone(), ConstTy::of(ty));
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
        // A `Vec<f64>` taken by value looks like the function's numbers, but the macro
        // differentiates only what it can size at compile time.
        if differentiate && is_vec_of_f64(ty) && !matches!(ty, Type::Reference(_)) {
            self.cx.error_spanned(
                ty,
                format!(
                    "`#[grad]` does not differentiate `{}`; take `{ident}` as an array `[f64; N]` to differentiate it, or as `&[f64]` to pass it as constant data",
                    type_text(ty)
                ),
            );
            self.bind_name(&name, Binding::Poison);
            return (None, false, None);
        }
        let by_ref = matches!(ty, Type::Reference(_));
        if is_struct(ty) {
            if !differentiate {
                self.bind_name(&name, Binding::Param(Kind::Unknown));
                return (None, by_ref, None);
            }
            return (None, by_ref, Some(self.struct_param(ident, ty, selected)));
        }
        let (input, by_ref) = match classify(ty, &self.generics) {
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
                    ty: ConstTy::of(ty),
                });
                self.bind_name(&name, Binding::Slot(self.slots.len() - 1));
                (Some(v), by_ref)
            }
            ParamTy::Float | ParamTy::Other(_) if listed.is_some() => {
                let at = listed.unwrap_or(ident);
                let ty = type_text(ty);
                self.cx.error_spanned(
                    at,
                    format!("`wrt` names `{ident}`, of type `{ty}`, but only `f64` parameters and arrays of `f64` can be differentiated"),
                );
                self.bind_name(&name, Binding::Poison);
                (None, false)
            }
            ParamTy::Float if differentiate => {
                let text = type_text(ty);
                self.cx.error_spanned(
                    ty,
                    format!(
                        "`#[grad]` differentiates `f64` values and arrays of `f64`, not `{text}`; to pass `{ident}` through as a constant, list the differentiated parameters with `wrt(...)`"
                    ),
                );
                self.bind_name(&name, Binding::Poison);
                (None, false)
            }
            ParamTy::Float => {
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

    /// Reports the function-level constructs that are not supported, and records the const
    /// generic parameters.
    fn function_kind(&mut self, sig: &Signature) {
        let what = "`#[grad]` differentiates plain functions of `f64` values";
        if let Some(t) = &sig.constness {
            self.cx.error_spanned(t, format!("`#[grad]` does not support `const fn`; {what}"));
        }
        if let Some(t) = &sig.asyncness {
            self.cx.error_spanned(t, format!("`#[grad]` does not support `async fn`; {what}"));
        }
        if let Safety::Unsafe(t) = &sig.safety {
            self.cx.error_spanned(t, format!("`#[grad]` does not support `unsafe fn`; {what}"));
        }
        for param in &sig.generics.params {
            match param {
                GenericParam::Const(c) => self.generics.push(symbol::unraw(&c.ident)),
                other => self.cx.error_spanned(
                    other,
                    "`#[grad]` does not support type or lifetime parameters; write the function for `f64` (const generic parameters such as `const N: usize` are supported)",
                ),
            }
        }
        if let Some(w) = &sig.generics.where_clause {
            // Spanned by the clause itself: `Generics` prints without its `where` clause.
            self.cx.error_spanned(
                w,
                "`#[grad]` does not support `where` clauses; write the function for `f64`",
            );
        }
        if let Some(v) = &sig.variadic {
            self.cx.error_spanned(v, "`#[grad]` does not support variadic functions");
        }
    }

    /// What the function returns: `f64`, an array of `f64`, or a tuple of `f64` values.
    fn returns(&mut self, sig: &Signature) -> Returns {
        let scalar = Returns { output: Output::Scalar, array: None, parts: Vec::new() };
        let ty = match &sig.output {
            ReturnType::Type(_, ty) => ty,
            ReturnType::Default => {
                self.cx.error_spanned(
                    &sig.ident,
                    "`#[grad]` functions must return `f64`, an array `[f64; N]` or a tuple `(f64, f64)`; add `-> f64`",
                );
                return scalar;
            }
        };
        if is_f64(ty) {
            return scalar;
        }
        if let Some(t) = f64_array(ty, &self.generics) {
            return Returns { output: Output::Array, array: Some(t), parts: Vec::new() };
        }
        let part = |t: &Type| match is_f64(t) {
            true => Some(Ty::F64),
            false => f64_array(t, &self.generics),
        };
        if let Type::Tuple(t) = &**ty
            && t.elems.len() >= 2
            && let Some(parts) = t.elems.iter().map(part).collect::<Option<Vec<Ty>>>()
        {
            return Returns { output: Output::Tuple(t.elems.len()), array: None, parts };
        }
        if matches!(&**ty, Type::Path(_)) && is_struct(ty) {
            return Returns { output: Output::Record, array: None, parts: Vec::new() };
        }
        self.cx.error_spanned(
            ty,
            format!(
                "`#[grad]` functions must return `f64`, an array `[f64; N]` or a tuple of those (`(f64, f64)`, `(f64, [f64; N])`), not `{}`",
                type_text(ty)
            ),
        );
        scalar
    }
}
