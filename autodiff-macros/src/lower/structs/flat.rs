//! Structs returned by calls (`let r: Quat = q.mul(&p);`), held laid flat: one array of the
//! IR, the struct's differentiated scalars in `Differentiable`'s order, whose length only rustc
//! knows (`<Quat as Differentiable>::LEN`). A field read `r.w` is an element of it, at the index
//! the struct's `Differentiable::FIELDS` gives (a constant rustc evaluates); `r` passed to a call
//! is passed as the struct (see [`crate::ir::GroupShape::flat`]). The callee's derivative
//! functions take and return the struct, and codegen converts at the call.
//!
//! A field of a nested struct (`r.inner.c`) is at the place the struct's `Differentiable::TREE`
//! gives; an array field read whole or by rows (`let y = r.w;`, `r.m[i]`) is copied out of the
//! flat array into an array of its shape (`whole.rs`).
//!
//! What this does not know: the struct's fields. A read of a field that is not differentiated
//! (or not there) is a compile error that rustc reports at the read, from `field`; a write to a
//! field (`r.w = ...`) is refused here.

use std::rc::Rc;

use quote::{ToTokens, quote};
use syn::{Expr, ExprMethodCall, Pat, Type};

use super::super::{Binding, Lower};
use crate::ir::{Elem, Int, Operand, Ty};
use crate::symbol;

/// The name a pattern binds, when it is one name (`r`, `mut r`, `r: Quat`).
pub(in crate::lower) fn ident_of(pat: &Pat) -> Option<String> {
    match pat {
        Pat::Ident(pi) if pi.subpat.is_none() && pi.by_ref.is_none() => {
            Some(symbol::unraw(&pi.ident))
        }
        Pat::Type(t) => ident_of(&t.pat),
        Pat::Paren(p) => ident_of(&p.pat),
        _ => None,
    }
}

/// `::autodiff_runtime::Differentiable`, as a path in generated code.
fn trait_path() -> proc_macro2::TokenStream {
    let tr = syn::Ident::new(symbol::DIFFERENTIABLE, proc_macro2::Span::call_site());
    quote!(::autodiff_runtime::#tr)
}

impl Lower<'_> {
    /// The IR type of the struct `ty` laid flat: `[f64; <ty as Differentiable>::LEN]`.
    pub(in crate::lower) fn flat_ty(&self, ty: &Type) -> Ty {
        let tr = trait_path();
        let mut len = Int::tokens(quote!(<#ty as #tr>::LEN), true);
        len.generic = super::mentions_any(&ty.to_token_stream(), &self.generics);
        Ty::array(Elem::F64, vec![len])
    }

    /// Marks the variable `name`, just bound to the value of a call returning the struct `ty`,
    /// as holding it laid flat.
    pub(in crate::lower) fn mark_flat_struct(&mut self, name: &str, ty: &Type) {
        if let Some(Binding::Slot(s)) = self.lookup(name).cloned() {
            self.slots[s].strukt = Some(Rc::new(ty.clone()));
        }
    }

    /// The variable holding a struct laid flat that `e` names, with the struct's type.
    pub(in crate::lower) fn flat_struct(&self, e: &Expr) -> Option<(usize, Rc<Type>)> {
        let Expr::Path(p) = super::super::value::peel(e) else { return None };
        let Some(Binding::Slot(s)) = self.lookup(&symbol::unraw(p.path.get_ident()?)) else {
            return None;
        };
        Some((*s, self.slots[*s].strukt.clone()?))
    }

    /// Whether `e` reads a field of a struct held laid flat (`r.w`), or of one of its fields.
    pub(in crate::lower) fn is_flat_field(&self, e: &Expr) -> bool {
        match super::super::value::peel(e) {
            Expr::Field(f) => self.flat_struct(&f.base).is_some() || self.is_flat_field(&f.base),
            _ => false,
        }
    }

    /// The value of the field read `e` of a struct held laid flat, read whole: an `f64`, or an
    /// array as the body indexes it (see `whole.rs`).
    pub(in crate::lower) fn flat_field_read(&mut self, e: &Expr) -> Operand {
        self.flat_whole(e, None)
    }

    /// Reports `init`, bound with the struct type `ty`, when it calls a method on the value of
    /// another call whose type the tokens do not tell (`make(x).mul(&c)`); whether it did.
    pub(in crate::lower) fn receiver_is_call(&mut self, init: &Expr, ty: &Type) -> bool {
        if crate::aggregate::kind(ty) != crate::aggregate::TypeKind::Struct {
            return false;
        }
        // The function's float type parameter is no struct (`let a: T = T::from(1.5).unwrap();`).
        let type_param = matches!(ty, Type::Path(p) if p.path.get_ident()
            .is_some_and(|id| self.type_params.contains(&crate::symbol::unraw(id))));
        if type_param {
            return false;
        }
        let Expr::MethodCall(m) = super::super::value::peel(init) else { return false };
        self.untyped_receiver(m, Some(ty))
    }

    /// Reports `m`, a method called on the value of a call of a user's function whose type
    /// the tokens do not tell (`make(x).mul(q)`), with `ty` the type the value is bound with,
    /// if written; whether it did.
    pub(in crate::lower) fn untyped_receiver(
        &mut self,
        m: &ExprMethodCall,
        ty: Option<&Type>,
    ) -> bool {
        let receiver = super::super::value::peel(&m.receiver);
        if super::known_method(&m.method) {
            return false;
        }
        let user = match receiver {
            Expr::Call(_) => self.call_of_user_fn(receiver).is_some(),
            Expr::MethodCall(_) => self.method_of_user(receiver).is_some(),
            _ => false,
        };
        if !user || self.is_inferred_struct_call(receiver) {
            return false;
        }
        let ty = ty.map_or_else(
            || "Quat".to_owned(),
            |t| t.to_token_stream().to_string().replace(' ', ""),
        );
        let method = &m.method;
        let text = receiver.to_token_stream().to_string().replace(" . ", ".").replace(" (", "(");
        self.cx.error_spanned(
            receiver,
            format!("`#[grad]` cannot tell the type of this call's value, on which `.{method}(..)` is called (a macro sees tokens, not types): it takes the value of a method to be of its receiver's struct type when that is known, that of `Type::f(..)` to be a `Type` and that of a free function `g(..)` to be a `g_value`, and of other calls to be one `f64`; bind it with its type first, as in `let a: {ty} = {text};`, then call `a.{method}(..)`"),
        );
        true
    }

    /// Reports `arg`, the value of a call passed by reference to another call, which
    /// `#[grad]` takes to be one `f64`.
    pub(in crate::lower) fn call_passed_by_ref(&mut self, arg: &Expr, inner: &Expr) {
        let text = inner.to_token_stream().to_string().replace(" . ", ".").replace(" (", "(");
        self.cx.error_spanned(
            arg,
            format!("this lends the value of a call whose type `#[grad]` cannot tell (a macro sees tokens, not types): it takes a method's value to be of its receiver's struct type and that of `Type::f(..)` to be a `Type`, and a free function's value lent with `&` could be a struct or an array; bind it first, as in `let c = {text};` (its fields or elements then tell), or with its type, `let c: Quat = {text};`, and pass `&c`"),
        );
    }

    /// The value `e` of a function returning the struct `ty`, when it is a struct returned by
    /// a call (a variable holding one, or a call with a differentiated argument): the
    /// function's one output, held laid flat, which codegen rebuilds into the struct.
    pub(in crate::lower) fn flat_output(&mut self, e: &Expr, ty: Option<&Type>) -> Option<Operand> {
        let (op, ty) = match (self.flat_struct(e), ty) {
            (Some((s, t)), _) => (self.slots[s].value?, (*t).clone()),
            (None, Some(t)) => {
                let want = super::super::returned::Returned::Struct(Box::new(t.clone()));
                match self.typed_call(e, &want)? {
                    super::super::value::Value::Real { op, .. } => (op, t.clone()),
                    _ => (Operand::Lit(0.0), t.clone()),
                }
            }
            (None, None) => return None,
        };
        let path = match super::super::pattern::strip_refs(&ty) {
            Type::Path(p) => p.path.clone(),
            _ => syn::parse_quote!(Self),
        };
        self.record = Some(super::super::RecordOut { path, fields: Vec::new(), flat: Some(0) });
        Some(op)
    }

    /// Reports `rhs`, assigned to a variable holding the struct `ty` laid flat, which is not a
    /// call returning one.
    pub(in crate::lower) fn flat_struct_expected(&mut self, rhs: &Expr, ty: &Type) {
        let ty = ty.to_token_stream().to_string().replace(' ', "");
        self.cx.error_spanned(
            rhs,
            format!("this variable holds a `{ty}` returned by a call, and `#[grad]` assigns to it only the value of another call returning a `{ty}` (with a differentiated argument); bind other values to a new variable"),
        );
    }
}
