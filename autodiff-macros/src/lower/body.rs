//! Lowering of statements: `let` (of values, integers and constants), reassignment and compound
//! assignment of variables and elements (renamed into single assignment), blocks, and the
//! function's final value.

use std::rc::Rc;

use syn::{BinOp, Block, Expr, Local, Pat, Stmt};

use super::assigned::target_root;
use super::expr::{SUBSET, chain_root, describe, iterator_chain};
use super::int::IntCtx;
use super::konst::Mode;
use super::method::sin_cos_receiver;
use super::passed::ConstTy;
use super::signature::Returns;
use super::types::{f64_array, is_f64, is_int, ty_text};
use super::{Aliases, Binding, Kind, Lower, Output};
use crate::ir::{Operand, Prim, Ty};
use crate::symbol;

/// Whether two types are the same up to how lengths are written (`[f64; 3]` and `[f64; N]`
/// match unless both lengths are known and differ).
fn same_shape(a: &Ty, b: &Ty) -> bool {
    match (a, b) {
        (Ty::Array(x), Ty::Array(y)) => {
            x.elem == y.elem
                && x.dims.len() == y.dims.len()
                && x.dims.iter().zip(&y.dims).all(|(p, q)| match (p.value, q.value) {
                    (Some(m), Some(n)) => m == n,
                    _ => true,
                })
        }
        _ => a == b,
    }
}

/// Whether an expression in tail position gives no value (an assignment, a loop, an `if`
/// without `else`).
fn gives_no_value(e: &Expr) -> bool {
    match e {
        Expr::Assign(_) | Expr::ForLoop(_) | Expr::While(_) | Expr::Loop(_) => true,
        Expr::Binary(b) => compound(&b.op).is_some() || is_other_compound(&b.op),
        Expr::If(i) => i.else_branch.is_none(),
        _ => false,
    }
}

fn compound(op: &BinOp) -> Option<Prim> {
    Some(match op {
        BinOp::AddAssign(_) => Prim::Add,
        BinOp::SubAssign(_) => Prim::Sub,
        BinOp::MulAssign(_) => Prim::Mul,
        BinOp::DivAssign(_) => Prim::Div,
        _ => return None,
    })
}

fn is_other_compound(op: &BinOp) -> bool {
    matches!(
        op,
        BinOp::RemAssign(_)
            | BinOp::BitXorAssign(_)
            | BinOp::BitAndAssign(_)
            | BinOp::BitOrAssign(_)
            | BinOp::ShlAssign(_)
            | BinOp::ShrAssign(_)
    )
}

/// The two names of `(s, c)`, `(mut s, c)` or `(_, c)` (`None` for `_`), if the pattern is one.
fn pair_names(t: &syn::PatTuple) -> Option<[Option<String>; 2]> {
    let name = |p: &Pat| match p {
        Pat::Ident(pi) if pi.by_ref.is_none() && pi.subpat.is_none() => {
            Some(Some(symbol::unraw(&pi.ident)))
        }
        Pat::Wild(_) => Some(None),
        _ => None,
    };
    match t.elems.iter().collect::<Vec<_>>().as_slice() {
        [a, b] => Some([name(a)?, name(b)?]),
        _ => None,
    }
}

/// Whether `ty` is `(f64, f64)`.
fn is_f64_pair(ty: &syn::Type) -> bool {
    match ty {
        syn::Type::Tuple(t) => t.elems.len() == 2 && t.elems.iter().all(is_f64),
        syn::Type::Paren(p) => is_f64_pair(&p.elem),
        syn::Type::Group(g) => is_f64_pair(&g.elem),
        _ => false,
    }
}

impl Lower<'_> {
    /// Lowers the function body; returns its outputs.
    pub(super) fn body(&mut self, block: &Block, returns: &Returns) -> Vec<Operand> {
        let mut value = None;
        let n = block.stmts.len();
        for (i, stmt) in block.stmts.iter().enumerate() {
            let last = i + 1 == n;
            match stmt {
                Stmt::Expr(Expr::Return(r), _) if last => match &r.expr {
                    Some(e) => value = Some(self.output(e, returns)),
                    None => self.cx.error_spanned(r, "`return` needs the function's value"),
                },
                Stmt::Expr(e, None) if last && !gives_no_value(e) => {
                    value = Some(self.output(e, returns));
                }
                other => self.statement(other),
            }
        }
        value.unwrap_or_else(|| {
            if self.cx.is_ok() {
                self.cx.error_at(
                    block.brace_token.span.close(),
                    "the body of a `#[grad]` function must end with its value (an expression without `;`) or a `return`",
                );
            }
            let n = match returns.output {
                Output::Tuple(n) => n,
                _ => 1,
            };
            vec![Operand::Lit(0.0); n]
        })
    }

    /// The function's value `e`, checked against its return type.
    fn output(&mut self, e: &Expr, returns: &Returns) -> Vec<Operand> {
        match returns.output {
            Output::Scalar => vec![self.real(e)],
            Output::Tuple(n) => {
                let elems = match e {
                    Expr::Tuple(t) if t.elems.len() == n => t.elems.iter().collect::<Vec<_>>(),
                    _ => {
                        self.cx.error_spanned(
                            e,
                            format!("`#[grad]` needs a function returning a tuple to end with a tuple of {n} `f64` values, such as `(a, b)`"),
                        );
                        return vec![Operand::Lit(0.0); n];
                    }
                };
                elems.into_iter().map(|x| self.real(x)).collect()
            }
            Output::Array => {
                let v = self.expr(e);
                let (ty, want) = (self.b.ty(v), returns.array.clone().unwrap_or(Ty::F64));
                if v.var().is_some() && !same_shape(&ty, &want) {
                    self.cx.error_spanned(
                        e,
                        format!(
                            "the function returns `{}`, but this value is of type `{}`",
                            ty_text(&want),
                            ty_text(&ty)
                        ),
                    );
                }
                vec![v]
            }
        }
    }

    /// One statement that is not the block's value.
    pub(super) fn statement(&mut self, stmt: &Stmt) {
        match stmt {
            Stmt::Local(local) => self.local(local),
            Stmt::Expr(e, _) => self.effect(e),
            Stmt::Item(item) => self.cx.error_spanned(
                item,
                "`#[grad]` does not support items inside the function body; define them outside the function",
            ),
            Stmt::Macro(m) => self
                .cx
                .error_spanned(m, format!("`#[grad]` does not support macro invocations; {SUBSET}")),
        }
    }

    /// The statements of `block`, its final expression (if it gives one) as its value.
    pub(super) fn block_value(&mut self, block: &Block) -> Option<Operand> {
        let n = block.stmts.len();
        for (i, stmt) in block.stmts.iter().enumerate() {
            match stmt {
                Stmt::Expr(e, None) if i + 1 == n && !gives_no_value(e) => {
                    return Some(self.expr(e));
                }
                other => self.statement(other),
            }
        }
        None
    }

    /// The statements of `block`, for their effects (a loop's body, a branch used as a
    /// statement).
    pub(super) fn block_effects(&mut self, block: &Block) {
        for stmt in &block.stmts {
            self.statement(stmt);
        }
    }

    /// `let x = e;`, `let mut y = [0.0; N];`, `let j: usize = (i + 1) % N;`, `let _ = e;`
    fn local(&mut self, local: &Local) {
        let (pat, ty) = match &local.pat {
            Pat::Type(pt) => (&*pt.pat, Some(&*pt.ty)),
            other => (other, None),
        };
        if let (Pat::Tuple(tuple), Some(init)) = (pat, &local.init)
            && let Some(x) = sin_cos_receiver(&init.expr)
            && let Some(names) = pair_names(tuple)
        {
            return self.sin_cos(local, names, ty, x);
        }
        let annotated = ty.map(|ty| self.annotation(ty));
        let (name, mutable) = match pat {
            Pat::Ident(pi) if pi.by_ref.is_none() && pi.subpat.is_none() => {
                (Some(symbol::unraw(&pi.ident)), pi.mutability.is_some())
            }
            Pat::Wild(_) => (None, false),
            Pat::Tuple(_) if local.init.as_ref().is_some_and(|i| is_user_call(&i.expr)) => {
                let init = local.init.as_ref().map(|i| &i.expr);
                self.cx.error_spanned(
                    init,
                    "`#[grad]` does not support calls of functions returning arrays or tuples yet (this call's result is destructured); it calls functions returning one `f64`",
                );
                return self.poison(pat);
            }
            other => {
                self.cx.error_spanned(
                    other,
                    format!(
                        "`#[grad]` supports only `let name = ...;` bindings, not patterns; the one tuple pattern it supports is `let (s, c) = x.{}();`",
                        symbol::SIN_COS
                    ),
                );
                return self.poison(other);
            }
        };
        let Some(init) = &local.init else {
            if let Some(name) = name {
                self.declare(&name, None, Aliases::default(), 0);
            }
            return;
        };
        if let Some((else_token, _)) = &init.diverge {
            self.cx.error_spanned(else_token, "`#[grad]` does not support `let ... else`");
        }
        let kind = match annotated {
            Some(Some(Kind::Int)) => Kind::Int,
            Some(Some(_)) => Kind::Real,
            Some(None) => Kind::Unknown,
            None => self.kind(&init.expr),
        };
        match kind {
            Kind::Int => {
                let k = self.int_konst(&init.expr, IntCtx::Let);
                if let Some(name) = name {
                    let binding = k.map_or(Binding::Poison, |k| Binding::Int(Rc::new(k)));
                    self.bind_name(&name, binding);
                }
            }
            Kind::Bool => {
                self.cx.error_spanned(
                    &init.expr,
                    "`#[grad]` does not support `bool` variables; write the comparison as the condition of the `if`",
                );
                if let Some(name) = name {
                    self.bind_name(&name, Binding::Poison);
                }
            }
            _ => {
                let since = self.mark();
                let mut value = self.expr(&init.expr);
                // A constant typed as an array (`let mut x: [f64; 2] = INIT;`) is one.
                if let (Some(ty), Some(Some(Kind::Array)), Operand::Ext(_)) =
                    (ty, &annotated, value)
                    && let Some(want) = f64_array(ty, &self.generics)
                {
                    match self.constant_array(&init.expr, &want) {
                        Some(array) => value = array,
                        None => return self.poison(pat),
                    }
                }
                if let (Some(ty), Some(Some(_))) = (ty, &annotated) {
                    self.check_annotation(ty, &init.expr, value);
                }
                let aliases = match mutable {
                    true => Aliases::default(),
                    false => self.aliases(&init.expr, kind, ty),
                };
                if let Some(name) = name {
                    self.declare(&name, Some(value), aliases, since);
                }
            }
        }
    }

    /// `let (s, c) = x.sin_cos();`: `s` and `c` are `x.sin()` and `x.cos()`, which is what
    /// `sin_cos` computes (so the values are the same to the bit); `_` binds nothing.
    fn sin_cos(
        &mut self,
        local: &Local,
        names: [Option<String>; 2],
        ty: Option<&syn::Type>,
        x: &Expr,
    ) {
        if let Some(ty) = ty.filter(|ty| !is_f64_pair(ty)) {
            self.cx
                .error_spanned(ty, format!("the values of `{}` are `(f64, f64)`", symbol::SIN_COS));
        }
        if let Some(Some((else_token, _))) = local.init.as_ref().map(|i| &i.diverge) {
            self.cx.error_spanned(else_token, "`#[grad]` does not support `let ... else`");
        }
        let x = self.real(x);
        for (name, prim) in names.into_iter().zip([Prim::Sin, Prim::Cos]) {
            let Some(name) = name else { continue };
            let since = self.mark();
            let value = self.b.push(prim, &[x]);
            self.declare(&name, Some(value), Aliases::default(), since);
        }
    }

    /// What an immutable `let` of `init` stands for where it is read as a constant: `init`
    /// itself if it is a constant expression, and as an integer too if it may be one.
    fn aliases(&mut self, init: &Expr, kind: Kind, annotation: Option<&syn::Type>) -> Aliases {
        let alias = self.probe(|l| l.konst(init, Mode::Real)).ok().map(Rc::new);
        let int_alias = match (kind, &alias) {
            (Kind::Unknown, Some(_)) => self.probe(|l| l.konst(init, Mode::Int)).ok().map(Rc::new),
            _ => None,
        };
        let ty = match (&alias, annotation) {
            (None, _) => ConstTy::Unknown,
            (Some(_), Some(t)) => ConstTy::of(t),
            (Some(_), None) => self.const_ty(init),
        };
        Aliases { alias, int_alias, ty }
    }

    /// The kind a `let`'s type annotation gives, or `None` after reporting an unsupported type.
    fn annotation(&mut self, ty: &syn::Type) -> Option<Kind> {
        if is_f64(ty) {
            Some(Kind::Real)
        } else if is_int(ty) {
            Some(Kind::Int)
        } else if f64_array(ty, &self.generics).is_some() {
            Some(Kind::Array)
        } else {
            self.cx.error_spanned(
                ty,
                "`#[grad]` supports only `f64`, arrays of `f64` and integer bindings in the body",
            );
            None
        }
    }

    fn check_annotation(&mut self, ty: &syn::Type, init: &Expr, value: Operand) {
        let want = f64_array(ty, &self.generics).unwrap_or(Ty::F64);
        let got = self.b.ty(value);
        if value.var().is_some() && !same_shape(&want, &got) {
            if got == Ty::F64
                && self.vector_call(Some(value), "this call's result is bound as an array")
            {
                return;
            }
            self.cx.error_spanned(
                init,
                format!("this value is of type `{}`, not `{}`", ty_text(&got), ty_text(&want)),
            );
        }
    }

    /// A statement evaluated for its effect: an assignment, a loop, a branch, a block, or an
    /// error.
    fn effect(&mut self, e: &Expr) {
        match e {
            Expr::Assign(a) => self.assign(e, &a.left, None, &a.right),
            Expr::Binary(b) if compound(&b.op).is_some() => {
                self.assign(e, &b.left, compound(&b.op), &b.right);
            }
            Expr::Binary(b) if is_other_compound(&b.op) => {
                let op = quote::ToTokens::to_token_stream(&b.op);
                self.cx.error_spanned(
                    b.op,
                    format!("`#[grad]` does not support `{op}`; it supports `=`, `+=`, `-=`, `*=` and `/=`"),
                );
            }
            Expr::ForLoop(f) => self.for_loop(f),
            Expr::If(i) => {
                self.branch(i, false);
            }
            Expr::Block(b) if b.label.is_none() => self.scoped(|l| l.block_effects(&b.block)),
            Expr::Return(_) => self.cx.error_spanned(
                e,
                "`#[grad]` does not support an early `return`; return only at the end of the function",
            ),
            Expr::MethodCall(_) if iterator_chain(e).is_some() => {
                self.cx.error_spanned(
                    e,
                    format!("`#[grad]` does not support iterator chains; write a `for` loop over an integer range and index: `for i in 0..{0}.len() {{ ... {0}[i] ... }}`", chain_root(e)),
                );
            }
            _ => self.statement_without_effect(e),
        }
    }

    /// `target = rhs` or `target op= rhs`, for a variable or an element of an array variable.
    fn assign(&mut self, e: &Expr, target: &Expr, op: Option<Prim>, rhs: &Expr) {
        let root = target_root(target).map(symbol::unraw);
        let binding = root.as_deref().and_then(|n| self.lookup(n)).cloned();
        let (name, slot) = match (root, binding) {
            (Some(name), Some(Binding::Slot(s))) => (name, s),
            (_, Some(Binding::Poison)) => return,
            (Some(name), Some(Binding::Int(_))) => return self.assign_int(e, &name, rhs),
            _ => {
                self.cx.error_spanned(
                    target,
                    "`#[grad]` supports assignments only to local variables holding `f64` values or arrays, and to their elements",
                );
                return;
            }
        };
        let (_, indices) = super::arrays::index_chain(target);
        if !indices.is_empty() {
            return self.assign_element(target, slot, &indices, op, rhs);
        }
        let current = self.slots[slot].value;
        let since = self.mark();
        let value = match (op, current) {
            (None, _) => self.expr(rhs),
            (Some(prim), Some(current)) if self.b.ty(current) == Ty::F64 => {
                let r = self.real(rhs);
                self.b.push(prim, &[current, r])
            }
            (Some(_), _) => {
                self.cx.error_spanned(
                    e,
                    "`#[grad]` supports `+=`, `-=`, `*=` and `/=` only on `f64` variables; update the elements of an array one by one",
                );
                return;
            }
        };
        let (old, new) = (current.map(|c| self.b.ty(c)), self.b.ty(value));
        // Exactly the same type: the values a loop carries or a branch yields keep one type
        // (`[f64; N]` and `[f64; 3]` are told apart even where `N` is 3).
        if let Some(old) = old.filter(|o| value.var().is_some() && *o != new) {
            let hint = match same_shape(&old, &new) {
                true => "; write the lengths the same way",
                false => "",
            };
            self.cx.error_spanned(
                rhs,
                format!(
                    "`{name}` holds a value of type `{}`; this assigns a value of type `{}`{hint}",
                    ty_text(&old),
                    ty_text(&new)
                ),
            );
            return;
        }
        self.name_value(&name, value, since);
        self.slots[slot].value = Some(value);
    }

    /// An assignment to an integer variable: refused, saying why.
    fn assign_int(&mut self, e: &Expr, name: &str, rhs: &Expr) {
        let message = if self.kind(rhs) == Kind::Real {
            format!(
                "`#[grad]` cannot assign an `f64` value to the integer variable `{name}`; declare an `f64` variable instead, such as `let mut {name} = 0.0;`"
            )
        } else {
            format!(
                "`#[grad]` does not support assigning to the integer variable `{name}`: integer variables must be immutable; compute each value from the loop variables, as in `let {name} = 2 * i + 1;`"
            )
        };
        self.cx.error_spanned(e, message);
    }

    fn statement_without_effect(&mut self, e: &Expr) {
        if let Some(what) = describe(e) {
            self.unsupported(e, what);
        } else {
            self.cx.error_spanned(
                e,
                "`#[grad]` supports only `let` bindings, assignments, `for` loops and `if` as statements; this statement has no effect",
            );
        }
    }
}

/// Whether `e` is a call of a function of the user's (not `f64::sin_cos(x)`).
fn is_user_call(e: &Expr) -> bool {
    matches!(e, Expr::Call(_)) && sin_cos_receiver(e).is_none()
}
