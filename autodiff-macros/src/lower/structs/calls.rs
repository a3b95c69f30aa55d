//! Structs passed to calls, and method calls on structs (`self.energy(q)`, `q.norm2()`,
//! `a.dot(&b)`): the callee's derivative functions take one partial and one direction per
//! struct parameter, as they do per `f64` or array parameter, and are called by method syntax
//! for a method, so that rustc finds them through the receiver's type (which the macro does not
//! know). An argument that is a struct value of the body passes its fields, as arguments of the
//! call that codegen writes back into a literal (see [`Group`]); a differentiated struct
//! parameter passed whole is one more input of the IR, the struct's differentiated scalars laid
//! flat (`[f64; <Model as Differentiable>::LEN]`), which codegen passes as the struct itself; a
//! constant struct gets a zero direction, `Differentiable::zero_like`.
//!
//! What this does not know: the callee's signature. A method that takes `self` by value and one
//! that takes `&self` are called alike (their receiver's direction is `&Self` either way).

use std::rc::Rc;

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};
use syn::{Expr, ExprMethodCall};

use super::super::konst::Konst;
use super::super::returned::Returned;
use super::super::value::Value;
use super::super::{Binding, Lower};
use super::Record;
use crate::ir::{
    Arg, Callee, Elem, Group, GroupField, GroupShape, Int, Name, Operand, Prec, Ret, Ty, Var, Zero,
};
use crate::symbol;

/// The arguments of a call, and the struct values of the body among them.
type CallArgs = (Vec<Arg>, Vec<Group>);

/// What an argument of a call is, when it is a struct.
enum StructArg {
    /// A struct value of the body, with the bindings of its fields.
    Record(Rc<Record>, Vec<Binding>),
    /// The differentiated struct parameter `k`, whole.
    Whole(usize),
    /// A field of a differentiated struct parameter read only whole, held laid flat in the
    /// input `v`.
    WholeField(Var),
    /// A struct returned by a call, held laid flat in the variable `s`, of type `ty`.
    Flat(usize, Rc<syn::Type>),
}

/// `e` without a leading `&`, and whether it had one.
fn unref(e: &Expr) -> (&Expr, bool) {
    match super::super::value::peel(e) {
        Expr::Reference(r) if r.mutability.is_none() => (&r.expr, true),
        other => (other, false),
    }
}

/// A struct held laid flat in `op`, of type `ty`, pushed as the argument at `at` (lent when
/// `by_ref`), with the group that passes it as the struct.
fn push_flat(
    (op, ty): (Operand, &syn::Type),
    (at, by_ref): (usize, bool),
    args: &mut Vec<Arg>,
    groups: &mut Vec<Group>,
) {
    args.push(Arg::Value { op, by_ref });
    let field = (TokenStream::new(), GroupField::Arg(args.len() - 1));
    let shape = GroupShape { path: ty.to_token_stream(), fields: vec![field], flat: true };
    groups.push(Group { at, by_ref, shape });
}

impl Lower<'_> {
    /// The struct the argument `e` is, if it is one of the body's values or a differentiated
    /// struct parameter (`q`, `&q`, `self`, `&m`, `q.inner` for a struct value `q`).
    fn struct_arg(&self, e: &Expr) -> Option<(StructArg, bool)> {
        let (inner, by_ref) = unref(e);
        if let Some((s, ty)) = self.flat_struct(inner) {
            return Some((StructArg::Flat(s, ty), by_ref));
        }
        if let Some(v) = self.flat_field_input(inner) {
            return Some((StructArg::WholeField(v), by_ref));
        }
        let binding = match inner {
            Expr::Path(p) => self.lookup(&symbol::unraw(p.path.get_ident()?))?.clone(),
            Expr::Field(_) => self.tuple_component(inner)?,
            _ => return None,
        };
        match binding {
            Binding::Record(shape, parts) => Some((StructArg::Record(shape, parts), by_ref)),
            Binding::Struct(k) => Some((StructArg::Whole(k), by_ref)),
            _ => None,
        }
    }

    /// Whether `e` is a struct: a struct value of the body, a struct parameter (whole, or a
    /// field of one that the body does not read as a value), or a constant of a struct type.
    pub(in crate::lower) fn is_struct_expr(&mut self, e: &Expr) -> bool {
        let (inner, _) = unref(e);
        if self.struct_arg(inner).is_some() {
            return true;
        }
        if let Some(Binding::Struct(_)) =
            super::field_path(inner).and_then(|(root, _)| self.lookup(&root).cloned())
        {
            return self.field_input(inner).is_none();
        }
        matches!(self.const_ty(inner).owned(), super::super::passed::ConstTy::Struct)
    }

    /// The input of the IR that the differentiated struct parameter `k` is as a whole: its
    /// scalars laid flat (made on first use).
    fn whole_input(&mut self, k: usize) -> Var {
        if let Some(v) = self.structs[k].whole {
            return v;
        }
        let owned = self.structs[k].owned.to_token_stream();
        let tr = syn::Ident::new(symbol::DIFFERENTIABLE, proc_macro2::Span::call_site());
        let mut len = Int::tokens(quote!(<#owned as ::autodiff_runtime::#tr>::LEN), true);
        len.generic = super::mentions_any(&owned, &self.generics);
        let name = format!("{}_{}", self.structs[k].name, symbol::FLAT);
        let v = self.b.input(Name::user(&name), Ty::array(Elem::F64, vec![len]));
        self.b.func_mut().active.push(v);
        self.structs[k].whole = Some(v);
        v
    }

    /// `recv.method(args)` for a method of the user's struct (`recv` a struct): a call of
    /// `method`, by method syntax, with the receiver first.
    pub(in crate::lower) fn user_method(&mut self, m: &ExprMethodCall) -> Operand {
        match self.method_parts(m) {
            Ok((callee, args)) => self.emit_method_call(callee, args, m.to_token_stream()),
            Err(op) => op,
        }
    }

    /// `recv.method(args)` whose value is typed `ret` (`tys` its parts) where it is bound (see
    /// `returned.rs`): its results; `None` after reporting it.
    pub(in crate::lower) fn typed_method(
        &mut self,
        m: &ExprMethodCall,
        ret: (Ret, Option<crate::ir::TypeTokens>),
        tys: &[Ty],
    ) -> Option<Vec<Var>> {
        let (callee, args) = self.method_parts(m).ok()?;
        Some(self.emit_call(callee, ret, args, tys))
    }

    /// The receiver and arguments of `recv.method(args)`, in order.
    pub(in crate::lower) fn method_exprs(m: &ExprMethodCall) -> Vec<&Expr> {
        std::iter::once(&*m.receiver).chain(m.args.iter()).collect()
    }

    /// The callee and arguments of `recv.method(args)`; or its value when it is a constant (all
    /// its arguments are), or after reporting it.
    fn method_parts(&mut self, m: &ExprMethodCall) -> Result<(Callee, CallArgs), Operand> {
        if let Some(t) = &m.turbofish {
            self.cx
                .error_spanned(t, "`#[grad]` supports calls of methods without generic arguments");
            return Err(Operand::Lit(0.0));
        }
        let exprs = Self::method_exprs(m);
        // Every argument constant: the call is a constant.
        let consts: Option<Vec<Konst>> = exprs.iter().map(|a| self.call_arg_konst(a)).collect();
        if let Some(parts) = consts {
            let (recv, args) = (&parts[0].tokens, parts[1..].iter().map(|k| &k.tokens));
            let (dot, method) = (&m.dot_token, &m.method);
            let refs: Vec<&Konst> = parts.iter().collect();
            let k = Konst::combine(quote!(#recv #dot #method(#(#args),*)), Prec::Atom, &refs);
            return Err(self.ext(k));
        }
        let args = self.call_arguments(&exprs, true);
        let name = proc_macro2::Ident::new(&m.method.to_string(), m.method.span());
        let callee = Callee { prefix: proc_macro2::TokenStream::new(), name, method: true };
        Ok((callee, args))
    }

    /// Emits the call of the method `callee` with `args`, returning its value (one `f64`).
    fn emit_method_call(
        &mut self,
        callee: Callee,
        args: (Vec<Arg>, Vec<Group>),
        tokens: proc_macro2::TokenStream,
    ) -> Operand {
        let out = self.emit_call(callee, (Ret::Scalar, None), args, &[Ty::F64])[0];
        self.calls.insert(out, tokens);
        Operand::Var(out)
    }

    /// The arguments of a call with at least one value (the receiver first, for a method):
    /// struct values of the body as their fields, with the groups that rebuild them; a
    /// differentiated struct parameter as its flat input; a constant struct receiver with a zero
    /// direction; others as [`Lower::call_arg`] reads them.
    pub(in crate::lower) fn call_arguments(
        &mut self,
        exprs: &[&Expr],
        method: bool,
    ) -> (Vec<Arg>, Vec<Group>) {
        let (mut args, mut groups) = (Vec::new(), Vec::new());
        for (at, e) in exprs.iter().enumerate() {
            if let Some((op, ty, by_ref)) = self.inferred_call_arg(e, method && at == 0) {
                push_flat((op, &ty), (at, by_ref), &mut args, &mut groups);
                continue;
            }
            if let Some((op, by_ref)) = self.row_arg(e) {
                args.push(Arg::Value { op, by_ref });
                continue;
            }
            match self.struct_arg(e) {
                Some((StructArg::Record(shape, parts), by_ref)) => {
                    let shape = self.group_shape(e, &shape, &parts, &mut args);
                    groups.push(Group { at, by_ref, shape });
                }
                Some((StructArg::Whole(k), by_ref)) => {
                    let owned = self.structs[k].owned.to_token_stream();
                    if super::mentions_any(&owned, &self.generics) {
                        self.generic_flat_struct(e, &owned);
                    }
                    let op = Operand::Var(self.whole_input(k));
                    args.push(Arg::Value { op, by_ref });
                }
                Some((StructArg::WholeField(v), by_ref)) => {
                    args.push(Arg::Value { op: Operand::Var(v), by_ref });
                }
                Some((StructArg::Flat(s, ty), by_ref)) => {
                    let op = self.slots[s].value.unwrap_or(Operand::Lit(0.0));
                    push_flat((op, &ty), (at, by_ref), &mut args, &mut groups);
                }
                // A field read only whole and left out of `wrt`: a zero direction built from it.
                None if method && at == 0 || self.is_constant_whole(unref(e).0) => {
                    match self.call_arg_konst(e) {
                        Some(k) => {
                            let ext = self.ext_id(k);
                            let by_ref = unref(e).1 || (method && at == 0);
                            args.push(Arg::Fixed { ext, zero: Zero::Like { by_ref } });
                        }
                        None => args.push(self.call_arg(e)),
                    }
                }
                None if method && at == 0 => match self.call_arg_konst(e) {
                    // A receiver's direction is `&Self`, whether `self` is a reference or not.
                    Some(k) => {
                        let ext = self.ext_id(k);
                        args.push(Arg::Fixed { ext, zero: Zero::Like { by_ref: true } });
                    }
                    None => args.push(self.call_arg(e)),
                },
                None => args.push(self.call_arg(e)),
            }
        }
        (args, groups)
    }

    /// The argument `e`, the value of a call read as a struct (the receiver of a method, or
    /// lent with `&`) whose type the call tells (see `infer.rs`): lowered, with its type and
    /// whether it is lent; `None` for another argument, or a call of constants only (a
    /// constant, passed as constants are).
    fn inferred_call_arg(
        &mut self,
        e: &Expr,
        receiver: bool,
    ) -> Option<(Operand, syn::Type, bool)> {
        let (inner, by_ref) = unref(e);
        if !(by_ref || receiver)
            || !self.is_inferred_struct_call(inner)
            || (!receiver && self.is_free_struct_call(inner))
        {
            return None;
        }
        let ty = self.inferred_struct(inner)?;
        let want = Returned::Struct(Box::new(ty.clone()));
        let op = match self.typed_call(inner, &want)? {
            Value::Real { op, .. } => op,
            _ => Operand::Lit(0.0),
        };
        Some((op, ty, by_ref))
    }

    /// The fields of the struct value `parts` (of `shape`) pushed as arguments, and the shape
    /// that writes them back into a literal.
    fn group_shape(
        &mut self,
        e: &Expr,
        shape: &Record,
        parts: &[Binding],
        args: &mut Vec<Arg>,
    ) -> GroupShape {
        let mut fields = Vec::new();
        for (m, b) in shape.members.iter().zip(parts) {
            let field = match b {
                Binding::Record(inner, inner_parts) => {
                    GroupField::Nested(self.group_shape(e, inner, inner_parts, args))
                }
                Binding::Slot(s) => {
                    let op = self.slots[*s].value.unwrap_or(Operand::Lit(0.0));
                    args.push(Arg::Value { op, by_ref: false });
                    GroupField::Arg(args.len() - 1)
                }
                Binding::Int(k) => {
                    let ext = self.ext_id((**k).clone());
                    args.push(Arg::Const(ext));
                    GroupField::Arg(args.len() - 1)
                }
                _ => {
                    self.cx.error_spanned(
                        e,
                        "`#[grad]` passes to a call struct values whose fields are `f64` values, arrays, integers or structs",
                    );
                    args.push(Arg::Value { op: Operand::Lit(0.0), by_ref: false });
                    GroupField::Arg(args.len() - 1)
                }
            };
            fields.push((m.to_token_stream(), field));
        }
        GroupShape { path: shape.path.to_token_stream(), fields, flat: false }
    }

    /// Reports an operator applied to a struct (`a * b` for `impl Mul for Quat`).
    pub(in crate::lower) fn operator_on_struct(&mut self, b: &syn::ExprBinary) -> bool {
        let (l, r) = (self.is_struct_expr(&b.left), self.is_struct_expr(&b.right));
        if !(l || r) {
            return false;
        }
        let op = b.op.to_token_stream();
        self.cx.error_spanned(
            b,
            format!("`#[grad]` does not apply `{op}` to structs: a macro sees tokens, not types, so it cannot find the operator's `impl` to differentiate it; call the method instead, as in `a.mul(&b)`"),
        );
        true
    }
}
