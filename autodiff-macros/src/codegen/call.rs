//! A call of another function, `g`, `g_grad`, `g_jvp`, `g_hvp` or `g_vjp`, with its results
//! destructured. The callee's derivative functions have one partial and one direction per
//! differentiated parameter (an `f64` or an array of `f64`): a value's partial is bound and its
//! tangent passed; a constant's partial is `_` and its direction zero; other constants pass
//! through. The cotangent of a callee's value (and its tangent) has the callee's return type: one
//! value, or a tuple of its parts.

use proc_macro2::TokenStream;
use quote::quote;

use super::body::{Renderer, located_at};
use crate::ir::{Arg, Call, CallKind, Operand, Prec, Ret, Var, Zero};
use crate::symbol;

/// A differentiated parameter of the callee, as the call fills it.
enum Slot {
    /// The `k`-th argument value of the call.
    Value(usize),
    /// A constant: no partial kept, a zero direction.
    Fixed(Zero),
}

impl Renderer<'_> {
    /// A call of `g` or one of its derivative functions, its results destructured (`_` for
    /// those not read and for the partials of constants).
    pub(super) fn call(&self, c: &Call) -> TokenStream {
        let suffix = match c.kind {
            CallKind::Value => None,
            CallKind::Grad => Some(symbol::FN_GRAD),
            CallKind::Jvp => Some(symbol::FN_JVP),
            CallKind::Hvp | CallKind::VjpJvp => Some(symbol::FN_HVP),
            CallKind::Vjp => Some(symbol::FN_VJP),
        };
        let base = &c.callee.name;
        let name = match suffix {
            None => base.clone(),
            Some(s) => quote::format_ident!("{}_{}", base, s, span = base.span()),
        };
        let pass = |op: Operand, r: bool| match r {
            true => {
                let t = self.operand(op).at_least(Prec::Unary);
                quote!(&#t)
            }
            false => self.operand(op).tokens,
        };
        let arg_dirs = c.arg_dirs();
        let (mut args, mut dirs, mut slots) = (Vec::new(), Vec::new(), Vec::new());
        for a in &c.args {
            match a {
                Arg::Value { op, by_ref } => {
                    let k = slots.iter().filter(|s| matches!(s, Slot::Value(_))).count();
                    args.push(pass(*op, *by_ref));
                    if let Some(d) = arg_dirs.get(k) {
                        dirs.push(pass(*d, *by_ref));
                    }
                    slots.push(Slot::Value(k));
                }
                Arg::Fixed { ext, zero } => {
                    args.push(self.operand(Operand::Ext(*ext)).tokens);
                    dirs.push(zero_tokens(*zero, self.scalar));
                    slots.push(Slot::Fixed(*zero));
                }
                Arg::Const(e) => args.push(self.operand(Operand::Ext(*e)).tokens),
            }
        }
        let after = match c.kind {
            CallKind::Value | CallKind::Grad => Vec::new(),
            CallKind::Jvp | CallKind::Hvp => dirs,
            CallKind::Vjp => vec![self.cotangent(c.ret, c.bars())],
            CallKind::VjpJvp => {
                let mut all = vec![self.cotangent(c.ret, c.bars())];
                all.extend(dirs);
                all.push(self.cotangent(c.ret, c.bar_dots()));
                all
            }
        };
        let (pattern, ascribed) = self.destructure(c, &slots);
        // The call is located at the callee's name in the user's call (keeping the hygiene of
        // what it passes), so that rustc's errors about it (a derivative function not generated,
        // or taking other parameters than the call passes) point there.
        let at = base.span();
        let args = args.into_iter().chain(after).map(|t| located_at(t, at));
        let prefix = &c.callee.prefix;
        let call = located_at(quote!(#prefix #name(#(#args),*)), at);
        let ascribed = located_at(ascribed, at);
        quote!(let #pattern #ascribed = #call;)
    }

    /// The cotangent (or its tangent) of a callee's value, as its return type has it: one
    /// operand, or a tuple of them.
    fn cotangent(&self, ret: Ret, parts: &[Operand]) -> TokenStream {
        let parts: Vec<TokenStream> = parts.iter().map(|p| self.operand(*p).tokens).collect();
        match ret {
            Ret::Tuple(_) => quote!((#(#parts),*)),
            Ret::Scalar | Ret::Array => quote!(#(#parts)*),
        }
    }

    /// The pattern of a call's results, and their type: the callee's value as it returns it;
    /// one partial per differentiated parameter (a bare one for one, a tuple for several), each
    /// a value's own type, `f64` or `_` (for an array) for a constant's. The written types make
    /// a callee that returns or differentiates otherwise than the call says a type error at the
    /// call.
    fn destructure(&self, c: &Call, slots: &[Slot]) -> (TokenStream, TokenStream) {
        let pat = |v: &Var| match self.read.contains(v) {
            true => self.ident(*v),
            false => quote!(_),
        };
        let group = |items: Vec<TokenStream>| match items.as_slice() {
            [one] => one.clone(),
            many => quote!((#(#many),*)),
        };
        let (k, values) = (c.value_count(), c.values());
        let scalar = &self.scalar.ty;
        let m = values.len();
        let tuple = matches!(c.ret, Ret::Tuple(_));
        let vals = |from: usize| {
            let parts: Vec<TokenStream> = c.outs[from..from + k].iter().map(pat).collect();
            match tuple {
                true => quote!((#(#parts),*)),
                false => quote!(#(#parts)*),
            }
        };
        let value_ty = {
            let parts = c.outs[..k].iter().map(|o| super::signature::ty(self.f.ty(*o), scalar));
            match tuple {
                true => quote!((#(#parts),*)),
                false => quote!(#(#parts)*),
            }
        };
        let partials = |from: usize| {
            group(
                slots
                    .iter()
                    .map(|s| match s {
                        Slot::Value(j) => pat(&c.outs[from + j]),
                        Slot::Fixed(_) => quote!(_),
                    })
                    .collect(),
            )
        };
        let types = group(
            slots
                .iter()
                .map(|s| match s {
                    Slot::Value(j) => {
                        super::signature::ty(&self.f.operand_ty(values[*j].0), scalar)
                    }
                    Slot::Fixed(Zero::Scalar) => scalar.clone(),
                    Slot::Fixed(Zero::Inferred { .. }) => quote!(_),
                })
                .collect(),
        );
        let (parts, tys): (Vec<TokenStream>, Vec<TokenStream>) = match c.kind {
            // A scalar callee's value needs no type: rustc infers it from its use.
            CallKind::Value if !tuple && c.ret.is_scalar() => return (vals(0), TokenStream::new()),
            CallKind::Value => return (vals(0), quote!(: #value_ty)),
            CallKind::Jvp => (vec![vals(0), vals(k)], vec![value_ty.clone(), value_ty]),
            CallKind::Grad | CallKind::Vjp => (vec![vals(0), partials(k)], vec![value_ty, types]),
            CallKind::Hvp => {
                (vec![vals(0), partials(1), partials(1 + m)], vec![value_ty, types.clone(), types])
            }
            CallKind::VjpJvp => (
                vec![vals(0), partials(k), vals(k + m), partials(2 * k + m)],
                vec![value_ty.clone(), types.clone(), value_ty, types],
            ),
        };
        (quote!((#(#parts),*)), quote!(: (#(#tys),*)))
    }
}

/// The zero direction of a constant argument, of the scalar type `scalar` (for an array of a
/// type parameter, the runtime's `zeros`, generic over the scalar).
fn zero_tokens(zero: Zero, scalar: &super::scalar::Tokens) -> TokenStream {
    let inferred = match scalar.typed_literals() {
        true => {
            let t = &scalar.ty;
            quote!(::autodiff_runtime::__private::zeros::<#t, _>())
        }
        false => quote!(::autodiff_runtime::__private::zero()),
    };
    match zero {
        Zero::Scalar => scalar.zero(),
        Zero::Inferred { by_ref: false } => inferred,
        Zero::Inferred { by_ref: true } => quote!(&#inferred),
    }
}
