//! A call of another function, `g`, `g_grad`, `g_jvp`, `g_hvp`, `g_vjp`, `g_fwd` or `g_rev`
//! (whose residuals pass through untyped: rustc knows their type), with its results
//! destructured. The callee's derivative functions have one partial and one direction per
//! differentiated parameter (an `f64`, an array of `f64` or a struct): a value's partial is bound
//! and its tangent passed; a constant's partial is `_` and its direction zero; other constants
//! pass through. A struct value of the caller's body is written back into a literal from its
//! fields (and its partial destructured into theirs); a struct parameter passed whole is passed
//! as it is (its partial laid flat with `flat`). A method is called by method syntax, its
//! receiver first. The cotangent of a callee's value (and its tangent) has the callee's return
//! type: one value, or a tuple of its parts.

use std::collections::HashMap;

use proc_macro2::TokenStream;
use quote::quote;

use super::body::{Renderer, located_at};
use crate::ir::{Arg, Call, CallKind, GroupField, GroupShape, Operand, Prec, Ret, Var, Zero};
use crate::symbol;

/// A differentiated parameter of the callee, as the call fills it.
enum Slot<'c> {
    /// The `k`-th argument value of the call: its partial is `outs[1 + k]`.
    Value(usize),
    /// A constant: no partial kept, a zero direction.
    Fixed(Zero),
    /// A struct value of the caller's: a partial per field that is a value.
    Group(&'c GroupShape, HashMap<usize, usize>),
}

/// How a struct parameter passed whole to a call is written: its name (or its direction's); or
/// a field of one passed whole, `m.w` (or `m_dot.w`).
#[derive(Clone)]
pub struct Whole {
    /// The parameter, or the direction.
    pub tokens: TokenStream,
    /// Whether the tokens are a reference (`m: &Model`, or a direction) or the struct itself.
    pub reference: bool,
    /// Whether the parameter takes the struct by value (then it is cloned where a call takes it
    /// by value: the generated code reads it again).
    pub owned: bool,
}

impl Whole {
    /// As an argument passed by reference or by value, or as a method's receiver.
    fn pass(&self, by_ref: bool, receiver: bool) -> TokenStream {
        let t = &self.tokens;
        let cloned = match self.reference {
            true => quote!(::core::clone::Clone::clone(#t)),
            false => quote!(::core::clone::Clone::clone(&#t)),
        };
        match (receiver, by_ref, self.reference, self.owned) {
            (true, _, _, true) => cloned,
            // A field passed by value (`m.w`, `m_dot.w`): copied.
            (true, _, _, false) | (false, true, true, _) | (false, false, _, false) => t.clone(),
            (false, true, false, _) => quote!(&#t),
            (false, false, _, true) => cloned,
        }
    }
}

/// The number of arguments of the call that a struct argument of this shape is.
fn leaves(shape: &GroupShape) -> usize {
    shape
        .fields
        .iter()
        .map(|(_, f)| match f {
            GroupField::Arg(_) => 1,
            GroupField::Nested(inner) => leaves(inner),
        })
        .sum()
}

/// The literal of a struct argument, its fields' tokens taken from `items`.
fn literal(shape: &GroupShape, items: &[TokenStream]) -> TokenStream {
    let path = &shape.path;
    let fields = shape.fields.iter().map(|(m, f)| {
        let v = match f {
            GroupField::Arg(k) => items.get(*k).cloned().unwrap_or_else(|| quote!(0.0)),
            GroupField::Nested(inner) => literal(inner, items),
        };
        quote!(#m: #v)
    });
    quote!(#path { #(#fields),* })
}

/// The name of the function a call calls: `g`, `g_grad`, `g_jvp`, `g_hvp`, `g_vjp`, `g_fwd` or
/// `g_rev`, with the
/// span of the call.
pub(super) fn called_name(c: &Call) -> proc_macro2::Ident {
    let suffix = match c.kind {
        CallKind::Value => None,
        CallKind::Grad => Some(symbol::FN_GRAD),
        CallKind::Jvp => Some(symbol::FN_JVP),
        CallKind::Hvp | CallKind::VjpJvp => Some(symbol::FN_HVP),
        CallKind::Vjp => Some(symbol::FN_VJP),
        CallKind::Fwd => Some(symbol::FN_FWD),
        CallKind::Rev => Some(symbol::FN_REV),
    };
    let base = &c.callee.name;
    match suffix {
        None => base.clone(),
        Some(s) => quote::format_ident!("{}_{}", base, s, span = base.span()),
    }
}

impl Renderer<'_> {
    /// The tokens of an argument value, and of its direction.
    fn pass(&self, op: Operand, by_ref: bool, receiver: bool) -> TokenStream {
        if let Some(w) = op.var().and_then(|v| self.wholes.get(&v)) {
            return w.pass(by_ref, receiver);
        }
        // A field's scalars laid flat: rebuilt in the type of the parameter.
        if !receiver && self.f.operand_ty(op).is_flat_field() {
            let t = self.operand(op).tokens;
            let amp = by_ref.then(|| quote!(&));
            return quote!(#amp ::autodiff_runtime::__private::shaped(&#t));
        }
        let bound_by_ref = op.var().is_some_and(|v| self.by_ref.contains(&v));
        match by_ref {
            // Bound by reference already (a `&[f64; N]` parameter): passed as it is.
            true if bound_by_ref => self.operand(op).tokens,
            true => {
                let t = self.operand(op).at_least(Prec::Unary);
                quote!(&#t)
            }
            // An array input bound by reference (a `&[f64; N]` parameter, a struct's array
            // field, or their directions), passed by value: copied.
            false if bound_by_ref => {
                let t = self.operand(op).at_least(Prec::Unary);
                quote!(*#t)
            }
            false => self.operand(op).tokens,
        }
    }

    /// A call of `g` or one of its derivative functions, its results destructured (`_` for
    /// those not read and for the partials of constants).
    pub(super) fn call(&self, c: &Call) -> TokenStream {
        let name = called_name(c);
        let (args, dirs, slots) = self.arguments(c);
        let dirs = match c.kind {
            CallKind::Value | CallKind::Grad | CallKind::Fwd => Vec::new(),
            CallKind::Jvp | CallKind::Hvp => dirs,
            CallKind::Vjp => vec![self.cotangent(c, c.bars())],
            CallKind::Rev => {
                let r = c.residuals().map(|r| self.operand(r).tokens);
                r.into_iter().chain([self.cotangent(c, c.bars())]).collect()
            }
            CallKind::VjpJvp => {
                let mut all = vec![self.cotangent(c, c.bars())];
                all.extend(dirs);
                all.push(self.cotangent(c, c.bar_dots()));
                all
            }
        };
        let (pattern, ascribed, flats) = self.destructure(c, &slots);
        // The call is located at the callee's name in the user's call (keeping the hygiene of
        // what it passes), so that rustc's errors about it (a derivative function not generated,
        // or taking other parameters than the call passes) point there.
        let at = c.callee.name.span();
        let mut args = args.into_iter().map(|t| located_at(t, at));
        let dirs = dirs.into_iter().map(|t| located_at(t, at));
        let prefix = &c.callee.prefix;
        let call = match c.callee.method {
            true => {
                let recv = args.next().unwrap_or_default();
                quote!(#recv.#name(#(#args,)* #(#dirs),*))
            }
            false => quote!(#prefix #name(#(#args,)* #(#dirs),*)),
        };
        let call = located_at(call, at);
        let ascribed = located_at(ascribed, at);
        quote!(let #pattern #ascribed = #call; #flats)
    }

    /// The tokens of the callee's arguments and directions (one per parameter of the callee),
    /// and its differentiated parameters.
    fn arguments<'c>(&self, c: &'c Call) -> (Vec<TokenStream>, Vec<TokenStream>, Vec<Slot<'c>>) {
        // Each argument of the IR's call: its tokens, its direction's, and what it fills.
        let (mut items, mut dirs) = (Vec::new(), Vec::new());
        let mut values = 0;
        for (k, a) in c.args.iter().enumerate() {
            let receiver = c.callee.method && k == 0 && !c.groups.iter().any(|g| g.at == 0);
            match a {
                Arg::Value { op, by_ref } => {
                    items.push(self.pass(*op, *by_ref, receiver));
                    let d = c.arg_dirs().get(values).copied().unwrap_or(Operand::Lit(0.0));
                    // A receiver's direction is `&Self`.
                    dirs.push(self.pass(d, *by_ref || receiver, false));
                    values += 1;
                }
                Arg::Fixed { ext, zero } => {
                    let t = self.operand(Operand::Ext(*ext)).tokens;
                    dirs.push(zero_tokens(*zero, &t, self.scalar));
                    items.push(t);
                }
                Arg::Const(e) => {
                    let t = self.operand(Operand::Ext(*e)).tokens;
                    dirs.push(t.clone());
                    items.push(t);
                }
            }
        }
        // The callee's parameters: a struct argument is several of the IR's.
        let value_index: Vec<Option<usize>> = c
            .args
            .iter()
            .scan(0, |n, a| {
                Some(match a {
                    Arg::Value { .. } => {
                        *n += 1;
                        Some(*n - 1)
                    }
                    _ => None,
                })
            })
            .collect();
        let (mut args, mut ds, mut slots) = (Vec::new(), Vec::new(), Vec::new());
        let (mut k, mut at) = (0, 0);
        while k < c.args.len() {
            if let Some(g) = c.groups.iter().find(|g| g.at == at && g.shape.flat) {
                // A struct held laid flat, passed as the struct (a receiver auto-referenced).
                let receiver = c.callee.method && at == 0;
                let j = value_index[k].unwrap_or(0);
                let (op, dir) = match &c.args[k] {
                    Arg::Value { op, .. } => (*op, c.arg_dirs().get(j).copied()),
                    _ => (Operand::Lit(0.0), None),
                };
                let dir = dir.unwrap_or(Operand::Lit(0.0));
                let ty = &g.shape.path;
                let value = self.operand(op).tokens;
                let value = rebuilt(ty, value);
                let dir = unflat(ty, self.operand(dir).tokens);
                let amp = (g.by_ref && !receiver).then(|| quote!(&));
                let dir_amp = (g.by_ref || receiver).then(|| quote!(&));
                args.push(quote!(#amp #value));
                ds.push(quote!(#dir_amp #dir));
                slots.push(Slot::Value(j));
                k += 1;
            } else if let Some(g) = c.groups.iter().find(|g| g.at == at) {
                let (lit, dir) = (literal(&g.shape, &items), literal(&g.shape, &dirs));
                let amp = if g.by_ref { quote!(&) } else { TokenStream::new() };
                let receiver = c.callee.method && at == 0;
                let dir_amp = if g.by_ref || receiver { quote!(&) } else { TokenStream::new() };
                args.push(quote!(#amp #lit));
                ds.push(quote!(#dir_amp #dir));
                let n = leaves(&g.shape);
                let owned: HashMap<usize, usize> =
                    (k..k + n).filter_map(|i| Some((i, value_index[i]?))).collect();
                slots.push(Slot::Group(&g.shape, owned));
                k += n;
            } else {
                args.push(items[k].clone());
                match &c.args[k] {
                    Arg::Value { .. } => {
                        ds.push(dirs[k].clone());
                        slots.push(Slot::Value(value_index[k].unwrap_or(0)));
                    }
                    Arg::Fixed { zero, .. } => {
                        ds.push(dirs[k].clone());
                        slots.push(Slot::Fixed(*zero));
                    }
                    Arg::Const(_) => {}
                }
                k += 1;
            }
            at += 1;
        }
        (args, ds, slots)
    }

    /// The cotangent (or its tangent) of a callee's value, as its return type has it: one
    /// operand, a tuple of them, or the struct whose scalars an operand holds laid flat.
    fn cotangent(&self, c: &Call, parts: &[Operand]) -> TokenStream {
        let parts: Vec<TokenStream> = parts.iter().map(|p| self.operand(*p).tokens).collect();
        match (c.ret, &c.returns) {
            (Ret::Tuple(_), _) => quote!((#(#parts),*)),
            (Ret::Struct, Some(ty)) => unflat(&ty.0, quote!(#(#parts)*)),
            (Ret::Scalar | Ret::Array | Ret::Struct, _) => quote!(#(#parts)*),
        }
    }

    /// The pattern of a call's results, their type, and the statements that lay the partials of
    /// whole struct parameters flat. The callee's value as it returns it; one partial per
    /// differentiated parameter (a bare one for one, a tuple for several), each a value's own
    /// type, `f64` or `_` (for an array or a struct) for a constant's and a struct's. The written
    /// types make a callee that returns or differentiates otherwise than the call says a type
    /// error at the call.
    fn destructure(&self, c: &Call, slots: &[Slot]) -> (TokenStream, TokenStream, TokenStream) {
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
        let value_ty = match (&c.returns, c.ret) {
            (Some(ty), Ret::Struct) => ty.0.clone(),
            _ => {
                let parts = c.outs[..k].iter().map(|o| super::signature::ty(self.f.ty(*o), scalar));
                match tuple {
                    true => quote!((#(#parts),*)),
                    false => quote!(#(#parts)*),
                }
            }
        };
        let partials = |from: usize| {
            group(
                slots
                    .iter()
                    .map(|s| match s {
                        Slot::Value(j) => pat(&c.outs[from + j]),
                        Slot::Fixed(_) => quote!(_),
                        Slot::Group(shape, owned) => struct_pattern(shape, &|i| {
                            owned.get(&i).map_or(quote!(_), |j| pat(&c.outs[from + j]))
                        }),
                    })
                    .collect(),
            )
        };
        let types = group(
            slots
                .iter()
                .map(|s| match s {
                    Slot::Value(j) if self.whole_partial(c, *j) => quote!(_),
                    Slot::Value(j) => {
                        super::signature::ty(&self.f.operand_ty(values[*j].0), scalar)
                    }
                    Slot::Fixed(Zero::Scalar) => scalar.clone(),
                    Slot::Fixed(_) | Slot::Group(..) => quote!(_),
                })
                .collect(),
        );
        let mut flats = TokenStream::new();
        let mut flat = |from: usize| {
            for s in slots {
                let Slot::Value(j) = s else { continue };
                let v = c.outs[from + j];
                if !self.whole_partial(c, *j) || !self.read.contains(&v) {
                    continue;
                }
                let id = self.ident(v);
                let ty = super::signature::ty(self.f.ty(v), &self.scalar.ty);
                flats.extend(quote!(let #id: #ty = ::autodiff_runtime::__private::flat(&#id);));
            }
        };
        // A returned struct (and its tangent) laid flat.
        let struct_values = |at: &[usize], flats: &mut TokenStream| {
            if c.ret != Ret::Struct {
                return;
            }
            for v in at.iter().map(|j| c.outs[*j]).filter(|v| self.read.contains(v)) {
                let id = self.ident(v);
                let ty = super::signature::ty(self.f.ty(v), &self.scalar.ty);
                flats.extend(quote!(let #id: #ty = ::autodiff_runtime::__private::flat(&#id);));
            }
        };
        let (parts, tys): (Vec<TokenStream>, Vec<TokenStream>) = match c.kind {
            // A scalar callee's value needs no type: rustc infers it from its use.
            CallKind::Value if !tuple && c.ret.is_scalar() => {
                return (vals(0), TokenStream::new(), flats);
            }
            CallKind::Value => {
                struct_values(&[0], &mut flats);
                return (vals(0), quote!(: #value_ty), flats);
            }
            // The residuals' type is the callee's: rustc infers it.
            CallKind::Fwd => {
                struct_values(&[0], &mut flats);
                let r = pat(&c.outs[k]);
                (vec![vals(0), r], vec![value_ty, quote!(_)])
            }
            CallKind::Rev => {
                flat(0);
                return (partials(0), quote!(: #types), flats);
            }
            CallKind::Jvp => {
                struct_values(&[0, k], &mut flats);
                (vec![vals(0), vals(k)], vec![value_ty.clone(), value_ty])
            }
            CallKind::Grad | CallKind::Vjp => {
                flat(k);
                struct_values(&[0], &mut flats);
                (vec![vals(0), partials(k)], vec![value_ty, types])
            }
            CallKind::Hvp => {
                flat(1);
                flat(1 + m);
                (vec![vals(0), partials(1), partials(1 + m)], vec![value_ty, types.clone(), types])
            }
            CallKind::VjpJvp => {
                flat(k);
                flat(2 * k + m);
                struct_values(&[0, k + m], &mut flats);
                (
                    vec![vals(0), partials(k), vals(k + m), partials(2 * k + m)],
                    vec![value_ty.clone(), types.clone(), value_ty, types],
                )
            }
        };
        (quote!((#(#parts),*)), quote!(: (#(#tys),*)), flats)
    }

    /// Whether the `k`-th argument value of `c` is a struct parameter passed whole (its partial
    /// is the struct, laid flat after the call).
    fn whole_partial(&self, c: &Call, k: usize) -> bool {
        let whole = c.values().get(k).and_then(|(op, _)| op.var());
        let flat = c.values().get(k).is_some_and(|(op, _)| self.f.operand_ty(*op).is_flat_field());
        whole.is_some_and(|v| self.wholes.contains_key(&v)) || flat_value(c, k) || flat
    }
}

/// Whether the `k`-th argument value of `c` is a struct held laid flat (passed as the struct).
fn flat_value(c: &Call, k: usize) -> bool {
    let mut values = 0;
    for (at, a) in c.args.iter().enumerate() {
        if let Arg::Value { .. } = a {
            if values == k {
                return c.groups.iter().any(|g| g.shape.flat && arg_of(c, g.at) == Some(at));
            }
            values += 1;
        }
    }
    false
}

/// The index in `c.args` of the `at`-th argument of the user's call (a struct value of the
/// body is several of `c.args`).
fn arg_of(c: &Call, at: usize) -> Option<usize> {
    let mut k = 0;
    for user in 0..at {
        k += match c.groups.iter().find(|g| g.at == user) {
            Some(g) => leaves(&g.shape),
            None => 1,
        };
    }
    (k < c.args.len()).then_some(k)
}

/// The struct of type `ty` rebuilt whole from the scalars `flat` holds (rustc checks that it
/// can be, in a `const` block).
pub(super) fn rebuilt(ty: &TokenStream, flat: TokenStream) -> TokenStream {
    let p = quote!(::autodiff_runtime::__private);
    quote!(#p::rebuilt::<#ty>(&#flat, const { #p::rebuildable::<#ty>() }))
}

/// The struct of type `ty` whose differentiated scalars `flat` holds.
fn unflat(ty: &TokenStream, flat: TokenStream) -> TokenStream {
    quote!(::autodiff_runtime::__private::unflat::<#ty>(&#flat))
}

/// The pattern of a struct value's partial: each field that is a value bound (`pattern(i)` for
/// the `i`-th argument of the call), the others `_`.
fn struct_pattern(shape: &GroupShape, pattern: &dyn Fn(usize) -> TokenStream) -> TokenStream {
    let path = &shape.path;
    let fields = shape.fields.iter().map(|(m, f)| {
        let p = match f {
            GroupField::Arg(k) => pattern(*k),
            GroupField::Nested(inner) => struct_pattern(inner, pattern),
        };
        quote!(#m: #p)
    });
    quote!(#path { #(#fields),* })
}

/// The zero direction of a constant argument `arg`, of the scalar type `scalar` (for an array
/// of a type parameter, the runtime's `zeros`, generic over the scalar).
fn zero_tokens(zero: Zero, arg: &TokenStream, scalar: &super::scalar::Tokens) -> TokenStream {
    let inferred = match scalar.typed_literals() {
        true => {
            let t = &scalar.ty;
            quote!(::autodiff_runtime::__private::zeros::<#t, _>())
        }
        false => quote!(::autodiff_runtime::__private::zero()),
    };
    let like = quote!({
        use ::autodiff_runtime::__private::ZeroLike as _;
        (#arg).zero_like_of()
    });
    match zero {
        Zero::Scalar => scalar.zero(),
        Zero::Inferred { by_ref: false } => inferred,
        Zero::Inferred { by_ref: true } => quote!(&#inferred),
        Zero::Like { by_ref: false } => like,
        Zero::Like { by_ref: true } => quote!(&#like),
    }
}
