//! Calls of functions returning arrays or tuples. A macro sees tokens, not types: what a callee
//! returns is read from where its value goes, as a person writing the call states it anyway:
//! the type written in the `let` (`let h: [f64; 4] = layer(&w, &b, &x);`), the pattern that binds
//! it (`let (s, c) = polar(r, t);`, each part an `f64` unless typed; `let [a, b] = pair(x);`), the
//! function's return type when the call is its value, or the type of the variable it is assigned
//! to (`s = rhs(s, k);`). Anywhere else a call's value is one `f64`, and one then indexed or read
//! as a tuple is reported at the call (see `call.rs`). The types written become the IR types of
//! the call's results, and the generated code writes them at the call, so that rustc checks them
//! against the callee's.

use syn::{Expr, ExprCall, Pat, Stmt, Type};

use super::value::{Value, peel};
use super::{Aliases, Lower};
use crate::ir::{Operand, Ret, Ty, TypeTokens};

/// What a call returns, as the tokens tell.
#[derive(Clone)]
pub(super) enum Returned {
    /// One array of `f64`.
    Array(Ty),
    /// A tuple of `f64`s and arrays of `f64`.
    Tuple(Vec<Ty>),
    /// A struct deriving `Differentiable`, of this type: held laid flat.
    Struct(Box<Type>),
}

impl Lower<'_> {
    /// What `ty` says a call returns: an array, or a tuple of `f64`s and arrays; `None` for
    /// `f64` (a scalar callee) or a type `#[grad]` does not take from a call.
    pub(super) fn returned_of_type(&self, ty: &Type) -> Option<Returned> {
        let ty = super::pattern::strip_refs(ty);
        if let Some(a) = self.scalar.array(ty, &self.generics) {
            return Some(Returned::Array(a));
        }
        if !matches!(ty, Type::Array(_))
            && crate::aggregate::kind(ty) == crate::aggregate::TypeKind::Struct
        {
            return Some(Returned::Struct(Box::new(ty.clone())));
        }
        let Type::Tuple(t) = ty else { return None };
        let parts = t.elems.iter().map(|e| self.part_of_type(e)).collect::<Option<Vec<Ty>>>()?;
        (!parts.is_empty()).then_some(Returned::Tuple(parts))
    }

    /// One part of a returned tuple: an `f64` or an array of them.
    fn part_of_type(&self, ty: &Type) -> Option<Ty> {
        match self.scalar.is(ty) {
            true => Some(Ty::F64),
            false => self.scalar.array(ty, &self.generics),
        }
    }

    /// What a pattern says a call returns: `(a, b)` a tuple (each part an `f64`, or its type
    /// if written: `(s, v): (f64, [f64; 3])` is read from the type), `[a, b]` an array of as
    /// many `f64`s; `None` for a name, or a pattern that does not tell (`..`, nesting).
    fn returned_of_pattern(&self, pat: &Pat) -> Option<Returned> {
        match pat {
            Pat::Tuple(t) => {
                let parts = t.elems.iter().map(|p| self.part_of_pattern(p));
                let parts = parts.collect::<Option<Vec<Ty>>>()?;
                (!parts.is_empty()).then_some(Returned::Tuple(parts))
            }
            Pat::Slice(s) => Some(Returned::Array(self.slice_type(s)?)),
            Pat::Paren(p) => self.returned_of_pattern(&p.pat),
            _ => None,
        }
    }

    /// One part of a tuple pattern: a name or `_` is an `f64`, `[a, b]` an array, a typed part
    /// its type.
    fn part_of_pattern(&self, pat: &Pat) -> Option<Ty> {
        match pat {
            Pat::Ident(pi) if pi.subpat.is_none() => Some(Ty::F64),
            Pat::Wild(_) => Some(Ty::F64),
            Pat::Type(t) => self.part_of_type(&t.ty),
            Pat::Slice(s) => self.slice_type(s),
            Pat::Paren(p) => self.part_of_pattern(&p.pat),
            _ => None,
        }
    }

    /// `[a, b, c]`: an array of three `f64`s (without `..`, whose length the pattern does not
    /// tell).
    fn slice_type(&self, s: &syn::PatSlice) -> Option<Ty> {
        let simple = |p: &Pat| matches!(p, Pat::Ident(_) | Pat::Wild(_));
        s.elems.iter().all(simple).then(|| {
            Ty::array(crate::ir::Elem::F64, vec![crate::ir::Int::lit(s.elems.len() as u64)])
        })
    }

    /// `let pat: ty = init;` when `init` is a call of a user's function with a value among its
    /// arguments and the type or the pattern tells what it returns: lowered and bound; whether
    /// it was. A tuple or array pattern that does not tell is reported.
    pub(super) fn let_call(
        &mut self,
        whole: &Pat,
        (pat, ty): (&Pat, Option<&Type>),
        init: &Expr,
        (rest, top): (&[Stmt], bool),
    ) -> bool {
        // A method on the value of a call whose type the tokens do not tell, bound with a
        // struct type or read as a struct.
        let untyped = match (ty, peel(init)) {
            (Some(t), _) => self.receiver_is_call(init, t),
            (None, Expr::MethodCall(m))
                if super::structs::ident_of(pat)
                    .is_some_and(|n| super::structs::read_as_struct(&n, rest, top, true)) =>
            {
                self.untyped_receiver(m, None)
            }
            _ => false,
        };
        if untyped {
            self.poison(pat);
            return true;
        }
        if self.call_of_user_fn(init).is_none() && self.method_of_user(init).is_none() {
            return false;
        }
        let want = match ty {
            Some(t) => self.returned_of_type(t),
            None => self
                .returned_of_pattern(pat)
                .or_else(|| self.inferred(pat, init, rest, top))
                .or_else(|| self.indexed_call(pat, init, rest)),
        };
        let Some(want) = want else {
            if ty.is_none() && matches!(pat, Pat::Tuple(_) | Pat::Slice(_)) {
                self.cx.error_spanned(
                    pat,
                    "`#[grad]` cannot tell from this pattern what the call returns (a macro sees tokens, not types); write the type, as in `let (a, v): (f64, [f64; 3]) = g(x);`",
                );
                self.poison(pat);
                return true;
            }
            return false;
        };
        match self.typed_call(init, &want) {
            Some(v) => {
                self.bind(whole, v);
                if let (Returned::Struct(ty), Some(name)) = (&want, super::structs::ident_of(pat)) {
                    self.mark_flat_struct(&name, ty);
                }
                true
            }
            // A call returning a struct whose arguments are all constants: a constant, read
            // through its fields as any constant.
            None => false,
        }
    }

    /// What `let name = init;` without a type returns when `rest`, the scope of `name`, reads
    /// it as a struct and the call tells the struct's type (see `structs/infer.rs`); `top` when
    /// the `let` is in the body of a function returning a struct.
    fn inferred(&self, pat: &Pat, init: &Expr, rest: &[Stmt], top: bool) -> Option<Returned> {
        let name = super::structs::ident_of(pat)?;
        let ty = self.inferred_struct(init)?;
        // A free function's value lent with `&` may be an array (see `call_shape.rs`).
        let lent = !self.is_free_struct_call(init);
        super::structs::read_as_struct(&name, rest, top, lent)
            .then(|| Returned::Struct(Box::new(ty)))
    }

    /// `init` as a call of a user's function (a path, not a closure, an `f64` method or
    /// `from_fn`).
    pub(super) fn call_of_user_fn<'e>(
        &self,
        init: &'e Expr,
    ) -> Option<(&'e ExprCall, &'e syn::ExprPath)> {
        let Expr::Call(c) = peel(init) else { return None };
        let Expr::Path(p) = peel(&c.func) else { return None };
        let n = p.path.segments.len();
        let f64_method = n >= 2 && self.scalar.owns_methods(p.path.segments.iter().take(n - 1));
        if f64_method
            || self.is_closure(&c.func)
            || self.is_poisoned(&c.func)
            || Self::is_from_fn(c)
        {
            return None;
        }
        Some((c, p))
    }

    /// `init` as a call of a method of the user's (`q.rotate(v)`, on a struct value of the body
    /// or a struct parameter).
    pub(super) fn method_of_user<'e>(&mut self, init: &'e Expr) -> Option<&'e syn::ExprMethodCall> {
        let Expr::MethodCall(m) = peel(init) else { return None };
        let name = m.method.to_string();
        let known =
            crate::symbol::method_prim(&name).is_some() || m.method == crate::symbol::SIN_COS;
        let on_struct =
            self.is_struct_expr(&m.receiver) || self.is_inferred_struct_call(&m.receiver);
        (!known && on_struct).then_some(m)
    }

    /// The value of `e`, a call of a user's function (or method) returning `want`; `None` if `e`
    /// is not one, or returns a struct and reads only constants (a constant, lowered as any
    /// other).
    pub(super) fn typed_call(&mut self, e: &Expr, want: &Returned) -> Option<Value> {
        let (ret, tys) = match want {
            Returned::Array(t) => ((Ret::Array, None), vec![t.clone()]),
            Returned::Tuple(ts) => ((Ret::Tuple(ts.len()), None), ts.clone()),
            Returned::Struct(t) => {
                let tokens = TypeTokens(quote::ToTokens::to_token_stream(t));
                let call = matches!(peel(e), Expr::Call(_) | Expr::MethodCall(_));
                if call && super::structs::mentions_any(&tokens.0, &self.generics) {
                    self.generic_flat_struct(t, &tokens.0);
                }
                ((Ret::Struct, Some(tokens)), vec![self.flat_ty(t)])
            }
        };
        let since = self.mark();
        // A call returning an array or a tuple is one even when its arguments are all constants
        // (an inactive call, not differentiated): a constant would not be known to be an array.
        let array = matches!(want, Returned::Array(_) | Returned::Tuple(_));
        let outs = match self.method_of_user(e) {
            Some(m) => {
                let exprs = Self::method_exprs(m);
                if !array && exprs.iter().all(|a| self.call_arg_konst(a).is_some()) {
                    return None;
                }
                match self.typed_method(m, ret, &tys) {
                    Some(outs) => outs,
                    None => return Some(Value::Int(None)),
                }
            }
            None => {
                let (c, p) = self.call_of_user_fn(e)?;
                if !array && c.args.iter().all(|a| self.call_arg_konst(a).is_some()) {
                    return None;
                }
                let Some(callee) = self.callee(c, p) else { return Some(Value::Int(None)) };
                let args = self.call_args(c);
                self.emit_call(callee, ret, args, &tys)
            }
        };
        let part = |v| Value::Real { op: Operand::Var(v), aliases: Aliases::default(), since };
        Some(match want {
            Returned::Array(_) | Returned::Struct(_) => part(outs[0]),
            Returned::Tuple(_) => Value::Tuple(outs.into_iter().map(part).collect()),
        })
    }
}
