//! Calls of other functions, `g(a, b)`: differentiated through `g`'s derivative functions
//! (`g_grad`, `g_jvp`, `g_hvp`), whether `#[grad]` wrote them or the user did, which have one
//! partial and one direction per parameter of `g` that is an `f64` or an array of `f64`. Each
//! argument is a value of the IR, a constant filling such a parameter (its type read by
//! `passed.rs`), or a constant passed through. A call that reads no differentiated value is a
//! constant, and needs none of them. Lowering does not know `g`'s signature: it trusts that `g`
//! differentiates every `f64` and array parameter (rustc checks it at the call).

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};
use syn::{Expr, ExprCall, ExprPath};

use super::konst::Konst;
use super::passed::{ConstTy, Role};
use super::{Binding, Lower};
use crate::ir::{
    Arg, Call, CallKind, Callee, Group, Name, Operand, Prec, Ret, Stmt, Ty, TypeTokens, Var,
};
use crate::symbol;

impl Lower<'_> {
    /// `g(args)` for a function `g` named by `p`, taken to return one `f64` (see `returned.rs`
    /// for calls whose value the tokens type otherwise).
    pub(super) fn user_call(&mut self, c: &ExprCall, p: &ExprPath) -> Operand {
        let Some(callee) = self.callee(c, p) else { return Operand::Lit(0.0) };
        if let Some(k) = self.constant_call(c) {
            return k;
        }
        let (args, groups) = self.call_args(c);
        let out = self.emit_call(callee, (Ret::Scalar, None), (args, groups), &[Ty::F64])[0];
        self.calls.insert(out, c.to_token_stream());
        Operand::Var(out)
    }

    /// The function a call names: `g`, `module::g`, `Self::g`, with the span of the call;
    /// `None` after reporting generic arguments.
    pub(super) fn callee(&mut self, c: &ExprCall, p: &ExprPath) -> Option<Callee> {
        if p.qself.is_some() || p.path.segments.iter().any(|s| !s.arguments.is_none()) {
            self.cx.error_spanned(
                &c.func,
                "`#[grad]` supports calls of functions named by a plain path (`g`, `module::g`, `Self::g`), without generic arguments",
            );
            return None;
        }
        let segments = &p.path.segments;
        let last = segments.last()?;
        let prefix: TokenStream = {
            let leading = &p.path.leading_colon;
            let rest = segments.iter().take(segments.len() - 1).map(|s| &s.ident);
            quote!(#leading #(#rest ::)*)
        };
        let name = proc_macro2::Ident::new(
            &last.ident.to_string(),
            c.func.to_token_stream().into_iter().next().map_or(last.ident.span(), |t| t.span()),
        );
        Some(Callee { prefix, name, method: false })
    }

    /// The call as one constant, when every argument is constant: it needs no derivatives.
    pub(super) fn constant_call(&mut self, c: &ExprCall) -> Option<Operand> {
        let parts: Vec<Konst> =
            c.args.iter().map(|a| self.call_arg_konst(a)).collect::<Option<_>>()?;
        let (func, args) = (&c.func, parts.iter().map(|k| &k.tokens));
        let refs: Vec<&Konst> = parts.iter().collect();
        let k = Konst::combine(quote!(#func(#(#args),*)), Prec::Atom, &refs);
        Some(self.ext(k))
    }

    /// Emits `outs = g(args)` for a callee returning `ret` (with the struct's type, for a
    /// struct), one result per type of `tys`; `args` with the struct values of the body among
    /// them.
    pub(super) fn emit_call(
        &mut self,
        callee: Callee,
        (ret, returns): (Ret, Option<TypeTokens>),
        (args, groups): (Vec<Arg>, Vec<Group>),
        tys: &[Ty],
    ) -> Vec<Var> {
        let outs: Vec<Var> = tys.iter().map(|t| self.b.fresh(Name::temp(), t.clone())).collect();
        let dirs = Vec::new();
        let (kind, out) = (CallKind::Value, outs.clone());
        let call = Call { callee, kind, ret, args, dirs, outs: out, groups, returns };
        self.b.emit(Stmt::Call(Box::new(call)));
        outs
    }

    /// The call whose value `e` is: a call of a user's function, or a variable bound to the
    /// value of one and not reassigned since.
    pub(super) fn call_value(&self, e: &Expr) -> Option<Operand> {
        let Expr::Path(p) = e else { return None };
        let name = symbol::unraw(p.path.get_ident()?);
        let Some(Binding::Slot(s)) = self.lookup(&name) else { return None };
        self.slots[*s].value.filter(|v| v.var().is_some_and(|v| self.calls.contains_key(&v)))
    }

    /// Reports at the call that the value `v` of a call, taken to be one `f64`, is used as an
    /// array or a tuple (`how`), once per call; whether `v` is the value of a call.
    pub(super) fn vector_call(&mut self, v: Option<Operand>, how: Use) -> bool {
        let Some(v) = v.and_then(|v| v.var()) else { return false };
        let Some(call) = self.calls.get(&v).cloned() else { return false };
        if self.reported_calls.insert(v) {
            self.untyped_call(call, how);
        }
        true
    }

    /// Reports that the value of the call `call` is used as `how` says, where `#[grad]` took it
    /// to be one `f64`.
    pub(super) fn untyped_call(&mut self, call: TokenStream, how: Use) {
        let text =
            syn::parse2::<Expr>(call.clone()).map_or_else(|_| call.to_string(), |e| expr_text(&e));
        if let Use::Member = how {
            self.cx.error_spanned(
                call,
                format!("the value of this call is read as a struct, and `#[grad]` cannot tell its type (a macro sees tokens, not types): it takes a method's value to be of its receiver's struct type (`q.mul(&p)` for `q: &Quat`), that of `Type::f(..)` to be a `Type` and that of a free function `g(..)` to be a `g_value` (which `#[grad]` writes next to a free function returning a struct), and the value of another call to be one `f64`; bind it with the struct's type, as in `let r: Quat = {text};`"),
            );
            return;
        }
        let (what, example) = match how {
            Use::Member => return,
            Use::Indexed => {
                self.cx.error_spanned(
                    call,
                    format!("the value of this call is indexed, and `#[grad]` cannot tell its type (a macro sees tokens, not types): it reads the lengths of an array returned by a function named by its path, or by a method of a struct value whose type it knows, from the callee's `_shape` constant, and this call is neither; bind it with its type, as in `let y: [f64; N] = {text};`"),
                );
                return;
            }
            Use::Field => (
                "read as a tuple",
                format!("`let (a, b) = {text};` or `let t: (f64, f64) = {text};`"),
            ),
        };
        self.cx.error_spanned(
            call,
            format!("the value of this call is {what}, but `#[grad]` takes the value of a call to be one `f64` unless its type is written where it is bound (a macro sees tokens, not types); bind it with its type, as in {example}"),
        );
    }

    /// The arguments of a call with at least one value (see [`Lower::call_arguments`]: struct
    /// values of the body among them), each `&mut y` reported.
    pub(super) fn call_args(&mut self, c: &ExprCall) -> (Vec<Arg>, Vec<Group>) {
        let mut exprs = Vec::new();
        for a in &c.args {
            match a {
                Expr::Reference(r) if r.mutability.is_some() => self.writes_into(c, r),
                other => exprs.push(other),
            }
        }
        self.call_arguments(&exprs, false)
    }

    /// Whether `op` is an array of the other float type.
    fn is_other_array(&self, op: Operand) -> bool {
        self.b.ty(op).shape().is_some_and(|s| s.elem == crate::ir::Elem::Other)
    }

    /// Reports an argument of the other float type (`g(x as f64)` in an `f32` function).
    fn other_arg(&mut self, a: &Expr) {
        let (s, other) = (self.scalar.text(), self.scalar.other().unwrap_or_default());
        self.cx.error_spanned(
            a,
            format!("`#[grad]` passes to a called function values of the function's scalar type `{s}`, not `{other}`; cast the argument (`g(w as {s})`), or compute the call's piece in this function"),
        );
    }

    /// One argument of a call with at least one value: a value, a constant filling a
    /// differentiated parameter, or a constant passed through.
    pub(super) fn call_arg(&mut self, a: &Expr) -> Arg {
        let (inner, by_ref) = match a {
            Expr::Reference(r) if r.mutability.is_none() => (&*r.expr, true),
            other => (other, false),
        };
        match self.call_arg_konst(a) {
            Some(k) => {
                let role = self.const_ty(a).role();
                let ext = self.ext_id(k);
                match role {
                    Role::Fixed(zero) => Arg::Fixed { ext, zero },
                    Role::Through => Arg::Const(ext),
                    Role::Unknown => {
                        self.unknown_constant(a);
                        Arg::Const(ext)
                    }
                }
            }
            None => {
                let op = self.expr(inner);
                if self.b.ty(op).run_time_length() {
                    self.cx.error_spanned(a, "`#[grad]` does not pass a differentiated slice to a called function: its partials would need a buffer of its length; pass its elements (`g(x[i])`), or read the slice in this function");
                }
                if self.b.ty(op) == Ty::Other || self.is_other_array(op) {
                    self.other_arg(a);
                }
                if by_ref && !matches!(self.b.ty(op), Ty::Array(_)) {
                    match op.var().is_some_and(|v| self.calls.contains_key(&v)) {
                        true => self.call_passed_by_ref(a, inner),
                        false => self.cx.error_spanned(a, "`#[grad]` passes arrays by reference to a called function, not `f64` values; write the value itself"),
                    }
                }
                // A `&[f64; N]` parameter passed as it is (`g(y)`) passes a reference, as
                // `g(&a)` does; `g(*y)` passes the array.
                let is_ref = matches!(self.const_ty(inner), ConstTy::Ref(_));
                let by_ref = by_ref || (is_ref && matches!(self.b.ty(op), Ty::Array(_)));
                Arg::Value { op, by_ref }
            }
        }
    }

    /// Reports each `&mut y` among the arguments of `c`, a call as a statement; whether there
    /// was one.
    pub(super) fn writes_into_args(&mut self, c: &ExprCall) -> bool {
        let mut found = false;
        for a in &c.args {
            if let Expr::Reference(r) = a
                && r.mutability.is_some()
            {
                self.writes_into(c, r);
                found = true;
            }
        }
        found
    }

    /// Reports `g(…, &mut y)`: a call that writes into an array of the caller's.
    fn writes_into(&mut self, c: &ExprCall, r: &syn::ExprReference) {
        let func = expr_text(&c.func);
        let others: Vec<String> = c
            .args
            .iter()
            .filter(|a| !matches!(a, Expr::Reference(m) if m.mutability.is_some()))
            .map(expr_text)
            .collect();
        let target = expr_text(&r.expr);
        let call = format!("{func}({})", others.join(", "));
        self.cx.error_spanned(
            r,
            format!("`#[grad]` does not support calls that write into their arguments (`&mut {target}`): the macro cannot tell whether `{func}` reads what it overwrites, and differentiates a call through what it returns; make `{func}` return the array, and bind it: `let {target}: [f64; N] = {call};`"),
        );
    }

    /// Reports a constant argument whose type the macro cannot read: whether it fills one of the
    /// callee's partials and directions depends on whether it is an `f64`.
    fn unknown_constant(&mut self, a: &Expr) {
        let text = expr_text(a);
        let why = "a macro sees tokens, not types, and the derivatives of this call pass one direction for each `f64` or array argument and none for others";
        let local = match a {
            Expr::Path(p) => p.path.get_ident().filter(|id| {
                matches!(self.lookup(&crate::symbol::unraw(id)), Some(Binding::Slot(_)))
            }),
            _ => None,
        };
        let fix = match local {
            Some(id) => format!("write the type in its `let`, such as `let {id}: f64 = ...;`"),
            None => {
                let local = suggested_local(a);
                format!(
                    "bind it to a local of its type first, such as `let {local}: f64 = {text};`"
                )
            }
        };
        self.cx.error_spanned(
            a,
            format!("`#[grad]` cannot tell whether `{text}` is an `f64`: {why}; {fix}"),
        );
    }
}

/// How the value of a call taken to be one `f64` is used, for the message.
#[derive(Clone, Copy)]
pub(super) enum Use {
    /// `y[i]`
    Indexed,
    /// `y.0`
    Field,
    /// `y.w`: a struct's field.
    Member,
}

/// A name for a local holding `a`: its last name in lower case (`k` for `K`, `scale` for
/// `model.scale`).
fn suggested_local(a: &Expr) -> String {
    let name = match a {
        Expr::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
        Expr::Field(f) => match &f.member {
            syn::Member::Named(id) => Some(id.to_string()),
            syn::Member::Unnamed(_) => None,
        },
        Expr::MethodCall(m) => Some(m.method.to_string()),
        Expr::Reference(r) => return suggested_local(&r.expr),
        Expr::Paren(p) => return suggested_local(&p.expr),
        _ => None,
    };
    let name = name.map(|n| n.trim_start_matches("r#").to_lowercase());
    match name {
        Some(n) if !n.is_empty() && n != "_" && syn::parse_str::<syn::Ident>(&n).is_ok() => n,
        _ => "c".to_owned(),
    }
}

/// The text of an expression for a message, without the spaces between tokens that do not need
/// them (`model.scale`, `consts::K`, `&data[i]`).
fn expr_text(e: &Expr) -> String {
    let spaced = e.to_token_stream().to_string();
    [
        (" . ", "."),
        (" :: ", "::"),
        (":: ", "::"),
        ("& ", "&"),
        (" [", "["),
        ("[ ", "["),
        (" ]", "]"),
    ]
    .iter()
    .chain(&[(" (", "("), ("( ", "("), (" )", ")"), (" ,", ",")])
    .fold(spaced, |text, (from, to)| text.replace(from, to))
}
