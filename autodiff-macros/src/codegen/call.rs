//! A call of another function, `g`, `g_grad`, `g_jvp` or `g_hvp`, with its results destructured.
//! The callee's derivative functions have one partial and one direction per differentiated
//! parameter (an `f64` or an array of `f64`): a value's partial is bound and its tangent passed;
//! a constant's partial is `_` and its direction zero; other constants pass through.

use proc_macro2::TokenStream;
use quote::quote;

use super::body::{Renderer, located_at};
use crate::ir::{Arg, Call, CallKind, Operand, Prec, Var, Zero};

/// A differentiated parameter of the callee, as the call fills it.
enum Slot {
    /// The `k`-th argument value of the call: its partial is `outs[1 + k]`.
    Value(usize),
    /// A constant: no partial kept, a zero direction.
    Fixed(Zero),
}

impl Renderer<'_> {
    /// A call of `g`, `g_grad`, `g_jvp` or `g_hvp`, its results destructured (`_` for those not
    /// read and for the partials of constants).
    pub(super) fn call(&self, c: &Call) -> TokenStream {
        let suffix = match c.kind {
            CallKind::Value => None,
            CallKind::Grad => Some(crate::symbol::FN_GRAD),
            CallKind::Jvp => Some(crate::symbol::FN_JVP),
            CallKind::Hvp => Some(crate::symbol::FN_HVP),
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
        let (mut args, mut dirs, mut slots) = (Vec::new(), Vec::new(), Vec::new());
        for a in &c.args {
            match a {
                Arg::Value { op, by_ref } => {
                    let k = slots.iter().filter(|s| matches!(s, Slot::Value(_))).count();
                    args.push(pass(*op, *by_ref));
                    if let Some(d) = c.dirs.get(k) {
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
        if !matches!(c.kind, CallKind::Jvp | CallKind::Hvp) {
            dirs.clear();
        }
        let (pattern, ascribed) = self.destructure(c, &slots);
        // The call is located at the callee's name in the user's call (keeping the hygiene of
        // what it passes), so that rustc's errors about it (a derivative function not generated,
        // or taking other parameters than the call passes) point there.
        let at = base.span();
        let args = args.into_iter().map(|t| located_at(t, at));
        let dirs = dirs.into_iter().map(|t| located_at(t, at));
        let prefix = &c.callee.prefix;
        let call = located_at(quote!(#prefix #name(#(#args,)* #(#dirs),*)), at);
        let ascribed = located_at(ascribed, at);
        quote!(let #pattern #ascribed = #call;)
    }

    /// The pattern of a call's results, and their type: one partial per differentiated
    /// parameter (a bare one for one, a tuple for several), each a value's own type, `f64` or
    /// `_` (for an array) for a constant's. The written type makes a callee that differentiates
    /// other parameters than the call fills a type error at the call.
    fn destructure(&self, c: &Call, slots: &[Slot]) -> (TokenStream, TokenStream) {
        let pat = |v: &Var| match self.read.contains(v) {
            true => self.ident(*v),
            false => quote!(_),
        };
        let group = |items: Vec<TokenStream>| match items.as_slice() {
            [one] => one.clone(),
            many => quote!((#(#many),*)),
        };
        let m = c.values().len();
        let scalar = &self.scalar.ty;
        let partials = |from: usize| {
            group(
                slots
                    .iter()
                    .map(|s| match s {
                        Slot::Value(k) => pat(&c.outs[from + k]),
                        Slot::Fixed(_) => quote!(_),
                    })
                    .collect(),
            )
        };
        let types = || {
            group(
                slots
                    .iter()
                    .map(|s| match s {
                        Slot::Value(k) => super::signature::ty(self.f.ty(c.outs[1 + k]), scalar),
                        Slot::Fixed(Zero::Scalar) => scalar.clone(),
                        Slot::Fixed(Zero::Inferred { .. }) => quote!(_),
                    })
                    .collect(),
            )
        };
        match c.kind {
            CallKind::Value => (pat(&c.outs[0]), TokenStream::new()),
            CallKind::Jvp => {
                let (y, d) = (pat(&c.outs[0]), pat(&c.outs[1]));
                (quote!((#y, #d)), quote!(: (#scalar, #scalar)))
            }
            CallKind::Grad => {
                let (y, g, t) = (pat(&c.outs[0]), partials(1), types());
                (quote!((#y, #g)), quote!(: (#scalar, #t)))
            }
            CallKind::Hvp => {
                let (y, g, h, t) = (pat(&c.outs[0]), partials(1), partials(1 + m), types());
                (quote!((#y, #g, #h)), quote!(: (#scalar, #t, #t)))
            }
        }
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
