//! Lowering of statements: `let` (of values, integers and constants), reassignment and compound
//! assignment of variables and elements (renamed into single assignment; integer counters
//! rebound to their closed forms by `counter`), blocks, and the function's final value.

use std::rc::Rc;

use syn::{BinOp, Block, Expr, Local, Pat, Stmt};

use super::assigned::target_root;
use super::expr::{SUBSET, describe, iterator_chain};
use super::int::IntCtx;
use super::konst::Mode;
use super::passed::ConstTy;
use super::signature::Returns;
use super::types::is_int;
use super::value::{self, Value};
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
        Expr::Match(m) => m.arms.iter().all(|a| gives_no_value(&a.body) || is_unit_block(&a.body)),
        Expr::Binary(b) => compound(&b.op).is_some() || is_other_compound(&b.op),
        Expr::If(i) => i.else_branch.is_none(),
        _ => false,
    }
}

/// Whether `e` is a block that ends in a statement (`{ s += 1.0; }`) or is empty.
fn is_unit_block(e: &Expr) -> bool {
    match e {
        Expr::Block(b) => match b.block.stmts.last() {
            None => true,
            Some(Stmt::Expr(tail, None)) => gives_no_value(tail),
            Some(_) => true,
        },
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

impl Lower<'_> {
    /// Lowers the function body; returns its outputs.
    pub(super) fn body(&mut self, block: &Block, returns: &Returns) -> Vec<Operand> {
        let zero = super::sugar::zero_of(returns);
        // A final `loop` giving the function's value: a variable assigned before its `break`s.
        let looped = self.loop_value_tail(block, zero.clone());
        let block = looped.as_ref().unwrap_or(block);
        let tailed = super::sugar::exits::tail_returns(block);
        let block = tailed.as_ref().unwrap_or(block);
        let rewritten = zero.and_then(|z| self.early_returns(block, z));
        let block = rewritten.as_ref().unwrap_or(block);
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
                other => {
                    self.top_let =
                        matches!(other, Stmt::Local(_)) && matches!(returns.output, Output::Record);
                    self.statement_before(other, &block.stmts[i + 1..]);
                }
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

    /// The value `e` of a function returning a struct, a struct value of the body: its fields.
    fn record_value(&mut self, e: &Expr) -> Vec<Operand> {
        match self.value(e) {
            Value::Record(shape, parts) => {
                let mut ops = Vec::new();
                let record = self.record_output(e, &shape, parts, &mut ops);
                self.record = Some(record);
                ops
            }
            Value::Int(None) => vec![Operand::Lit(0.0)],
            _ => {
                self.cx.error_spanned(
                    e,
                    "`#[grad]` needs a function returning a struct to end with a value of the struct: a literal (`Quat { w, x, y, z }`), a variable bound to one, or a struct returned by a call (`q.mul(&p)`, or a variable bound to one with its type)",
                );
                vec![Operand::Lit(0.0)]
            }
        }
    }

    /// The function's value `e`, checked against its return type.
    fn output(&mut self, e: &Expr, returns: &Returns) -> Vec<Operand> {
        match returns.output {
            Output::Scalar => vec![self.scalar_output(e)],
            Output::Tuple(n) => {
                let want = super::returned::Returned::Tuple(returns.parts.clone());
                if let Some(Value::Tuple(parts)) = self.typed_call(e, &want) {
                    return parts.into_iter().map(|p| self.single(e, p)).collect();
                }
                let elems = match e {
                    Expr::Tuple(t) if t.elems.len() == n => t.elems.iter().collect::<Vec<_>>(),
                    _ => {
                        self.cx.error_spanned(
                            e,
                            format!("`#[grad]` needs a function returning a tuple to end with a tuple of {n} values, such as `(a, b)`"),
                        );
                        return vec![Operand::Lit(0.0); n];
                    }
                };
                let parts = returns.parts.iter();
                elems.into_iter().zip(parts).map(|(x, want)| self.output_part(x, want)).collect()
            }
            Output::Record => match self.flat_output(e, returns.record.as_ref()) {
                Some(op) => vec![op],
                None => self.record_value(e),
            },
            Output::Array => {
                if let Some(want) = &returns.array
                    && self.is_flat_field(value::peel(e))
                {
                    return vec![self.flat_whole(e, Some(want))];
                }
                if let Some(want) = returns.array.clone().map(super::returned::Returned::Array)
                    && let Some(v) = self.typed_call(e, &want)
                {
                    return vec![self.single(e, v)];
                }
                let outer = std::mem::replace(&mut self.expected, returns.array.clone());
                let v = self.expr(e);
                self.expected = outer;
                let (ty, want) = (self.b.ty(v), returns.array.clone().unwrap_or(Ty::F64));
                if v.var().is_some() && !same_shape(&ty, &want) {
                    self.cx.error_spanned(
                        e,
                        format!(
                            "the function returns `{}`, but this value is of type `{}`",
                            self.ty_text(&want),
                            self.ty_text(&ty)
                        ),
                    );
                }
                vec![v]
            }
        }
    }

    /// A scalar the function returns: of its scalar type, not of the other float type.
    fn scalar_output(&mut self, e: &Expr) -> Operand {
        let v = self.real(e);
        if self.b.ty(v) == Ty::Other {
            let s = self.scalar.text();
            self.cx.error_spanned(
                e,
                format!("the function returns `{s}`, but this value is of type `{}`; cast it, as in `(...) as {s}`", self.ty_text(&Ty::Other)),
            );
        }
        v
    }

    /// One part of a tuple the function returns, checked against its type `want`.
    fn output_part(&mut self, e: &Expr, want: &Ty) -> Operand {
        if *want == Ty::F64 {
            return self.scalar_output(e);
        }
        let outer = self.expected.replace(want.clone());
        let v = self.expr(e);
        self.expected = outer;
        let ty = self.b.ty(v);
        if v.var().is_some() && !same_shape(&ty, want) {
            self.cx.error_spanned(
                e,
                format!(
                    "the function returns `{}` here, but this value is of type `{}`",
                    self.ty_text(want),
                    self.ty_text(&ty)
                ),
            );
        }
        v
    }

    /// One statement that is not the block's value.
    pub(super) fn statement(&mut self, stmt: &Stmt) {
        match stmt {
            Stmt::Local(local) => self.local(local, &[]),
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
    pub(super) fn block_value(&mut self, block: &Block) -> Option<Value> {
        if let Some(looped) = self.loop_value_tail(block, None) {
            return self.block_value(&looped);
        }
        let n = block.stmts.len();
        for (i, stmt) in block.stmts.iter().enumerate() {
            match stmt {
                Stmt::Expr(e, None) if i + 1 == n && !gives_no_value(e) => {
                    return Some(self.value(e));
                }
                other => self.statement_before(other, &block.stmts[i + 1..]),
            }
        }
        None
    }

    /// The statements of `block`, for their effects (a loop's body, a branch used as a
    /// statement).
    pub(super) fn block_effects(&mut self, block: &Block) {
        for (i, stmt) in block.stmts.iter().enumerate() {
            self.statement_before(stmt, &block.stmts[i + 1..]);
        }
    }

    /// One statement, followed by `rest` in its block (where a `let mut` may be seen to be an
    /// integer counter).
    pub(super) fn statement_before(&mut self, stmt: &Stmt, rest: &[Stmt]) {
        match stmt {
            Stmt::Local(local) => self.local(local, rest),
            other => self.statement(other),
        }
    }

    /// `let x = e;`, `let mut y = [0.0; N];`, `let j: usize = (i + 1) % N;`, `let _ = e;`,
    /// `let (a, b) = (x + y, x - y);`, followed by `rest` in its block.
    fn local(&mut self, local: &Local, rest: &[Stmt]) {
        let top = std::mem::take(&mut self.top_let);
        if self.let_loop(local, rest) {
            return;
        }
        let (pat, ty) = match &local.pat {
            Pat::Type(pt) => (&*pt.pat, Some(&*pt.ty)),
            other => (other, None),
        };
        let simple = match pat {
            Pat::Ident(pi) if pi.by_ref.is_none() && pi.subpat.is_none() => {
                Some((Some(symbol::unraw(&pi.ident)), pi.mutability.is_some()))
            }
            Pat::Wild(_) => Some((None, false)),
            _ => None,
        };
        let Some(init) = &local.init else {
            match simple {
                Some((Some(name), _)) => match self.deferred_zero(&name, ty, rest) {
                    // `let r;` assigned in a loop: it starts from a zero (Rust has checked
                    // that it is assigned before it is read).
                    Some(zero) => {
                        let ty = ty.map(|t| quote::quote!(: #t));
                        let id = match pat {
                            Pat::Ident(pi) => pi.ident.clone(),
                            _ => proc_macro2::Ident::new(&name, proc_macro2::Span::call_site()),
                        };
                        let tokens = quote::quote!(let mut #id #ty = #zero;);
                        match syn::parse2::<Stmt>(tokens) {
                            Ok(Stmt::Local(l)) => self.local(&l, rest),
                            _ => self.declare(&name, None, Aliases::default(), 0),
                        }
                    }
                    None => self.declare(&name, None, Aliases::default(), 0),
                },
                Some((None, _)) => {}
                None => {
                    self.cx.error_spanned(pat, "`#[grad]` needs a value to bind this pattern to; write `let (a, b) = ...;`");
                    self.poison(pat);
                }
            }
            return;
        };
        if let Some((else_token, _)) = &init.diverge {
            self.cx.error_spanned(else_token, "`#[grad]` does not support `let ... else`");
        }
        if self.let_call(&local.pat, (pat, ty), &init.expr, (rest, top)) {
            self.flat_field_uses(pat, rest);
            return;
        }
        // A struct parameter copied whole (`let mut s = p;`) is refused at `p`, and `s` poisoned,
        // so that its uses report nothing more.
        let whole = matches!(super::value::peel(&init.expr), Expr::Path(p)
        if p.path.get_ident().is_some_and(|id| {
            matches!(self.lookup(&symbol::unraw(id)), Some(Binding::Struct(_)))
        }));
        if simple.is_none() || whole {
            let v = self.value(&init.expr);
            return self.bind(&local.pat, v);
        }
        let Some((name, mutable)) = simple else { return };
        let annotated = ty.map(|ty| self.annotation(ty));
        let kind = match annotated {
            Some(Some(Kind::Int)) => Kind::Int,
            Some(Some(Kind::Bool)) => Kind::Bool,
            Some(Some(_)) => Kind::Real,
            Some(None) => Kind::Unknown,
            None => self.kind(&init.expr),
        };
        // `let mut idx = K;` (a `const` from outside, its type unseen) followed by `idx += 1`,
        // which Rust allows only on an integer: a counter.
        let kind = match (kind, &name) {
            (Kind::Unknown, Some(name))
                if mutable && super::assigned::stepped_by_integer(rest, name) =>
            {
                Kind::Int
            }
            _ => kind,
        };
        match kind {
            Kind::Int => {
                let k = self.int_konst(&init.expr, IntCtx::Let);
                match (name, k) {
                    (Some(name), Some(k)) if mutable => self.declare_counter(&name, &k),
                    (Some(name), Some(k)) => {
                        self.bind_name(&name, Binding::Int(Rc::new(k)));
                    }
                    (Some(name), None) => {
                        self.bind_name(&name, Binding::Poison);
                    }
                    (None, _) => {}
                }
            }
            // A `bool` variable (a flag of the rewrite of early exits, or the user's): its
            // condition, evaluated here.
            Kind::Bool => match name {
                Some(name) => self.declare_flag(&name, &init.expr),
                None => {
                    let _ = self.condition_or_literal(&init.expr);
                }
            },
            _ => {
                let expected = ty
                    .and_then(|t| self.scalar.array(super::pattern::strip_refs(t), &self.generics));
                let flat = expected.clone().filter(|_| self.is_flat_field(value::peel(&init.expr)));
                let outer = std::mem::replace(&mut self.expected, expected);
                let since = self.mark();
                let mut v = match flat {
                    // An array field of a struct returned by a call, read as the `let` types it.
                    Some(want) => {
                        let op = self.flat_whole(&init.expr, Some(&want));
                        Value::Real { op, aliases: Aliases::default(), since }
                    }
                    None => self.value(&init.expr),
                };
                self.expected = outer;
                // A constant typed as an array (`let mut x: [f64; 2] = INIT;`) is one.
                if let (Some(ty), Some(Some(Kind::Array)), Value::Real { op: Operand::Ext(_), .. }) =
                    (ty, &annotated, &v)
                    && let Some(want) = self.scalar.array(ty, &self.generics)
                {
                    match self.constant_array(&init.expr, &want) {
                        Some(array) => {
                            v = Value::Real { op: array, aliases: Aliases::default(), since }
                        }
                        None => return self.poison(pat),
                    }
                }
                if let (Some(ty), Some(Some(_)), Value::Real { op, .. }) = (ty, &annotated, &v) {
                    self.check_annotation(ty, &init.expr, *op);
                }
                // A type written on the `let` says what a constant is (for a call's arguments).
                let v = match (v, ty) {
                    (Value::Real { op, mut aliases, since }, Some(t))
                        if aliases.alias.is_some() =>
                    {
                        aliases.ty = ConstTy::of(t, &self.scalar);
                        Value::Real { op, aliases, since }
                    }
                    (v, _) => v,
                };
                if let Some(name) = name {
                    self.bind_value(&name, v, mutable);
                }
            }
        }
    }

    /// What an immutable `let` of `init` stands for where it is read as a constant: `init`
    /// itself if it is a constant expression, and as an integer too if it may be one.
    pub(super) fn aliases(&mut self, init: &Expr, kind: Kind) -> Aliases {
        let alias = self.probe(|l| l.konst(init, Mode::Real)).ok().map(Rc::new);
        let int_alias = match (kind, &alias) {
            // A call on constants may give an integer (`let n = n_params(D);`).
            (Kind::Unknown, Some(_)) | (Kind::Real, Some(_))
                if kind == Kind::Unknown || matches!(super::value::peel(init), Expr::Call(_)) =>
            {
                self.probe(|l| l.konst(init, Mode::Int)).ok().map(Rc::new)
            }
            _ => None,
        };
        let ty = match &alias {
            None => ConstTy::Unknown,
            Some(_) => self.const_ty(init),
        };
        Aliases { alias, int_alias, ty }
    }

    /// The kind a `let`'s type annotation gives, or `None` after reporting an unsupported type.
    fn annotation(&mut self, ty: &syn::Type) -> Option<Kind> {
        let ty = super::pattern::strip_refs(ty);
        if self.scalar.is(ty) {
            Some(Kind::Real)
        } else if is_int(ty) {
            Some(Kind::Int)
        } else if super::types::is_bool(ty) {
            Some(Kind::Bool)
        } else if self.scalar.array(ty, &self.generics).is_some() {
            Some(Kind::Array)
        } else if crate::aggregate::kind(ty) == crate::aggregate::TypeKind::Struct {
            self.cx.error_spanned(
                ty,
                "`#[grad]` binds a value with a struct's type from a call of a function returning the struct with a differentiated argument (`let r: Quat = q.mul(&p);`), and struct values without a type from struct literals (`let q = Quat { .. };`); write the call or the struct literal here",
            );
            None
        } else if let Some(other) = self.scalar.other().filter(|_| self.scalar.is_other(ty)) {
            let s = self.scalar.text();
            self.cx.error_spanned(
                ty,
                format!("`#[grad]` binds values of `{other}` in an `{s}` function without a type annotation: write `let w = x as {other};`, and a literal with its suffix, `0.0_{other}`"),
            );
            None
        } else {
            let s = self.scalar.text();
            self.cx.error_spanned(
                ty,
                format!("`#[grad]` supports only `{s}` (the function's scalar type), arrays of `{s}` and integer bindings in the body"),
            );
            None
        }
    }

    fn check_annotation(&mut self, ty: &syn::Type, init: &Expr, value: Operand) {
        let ty = super::pattern::strip_refs(ty);
        let want = self.scalar.array(ty, &self.generics).unwrap_or(Ty::F64);
        let got = self.b.ty(value);
        if value.var().is_some() && !same_shape(&want, &got) {
            if got == Ty::F64 && self.vector_call(Some(value), super::call::Use::Indexed) {
                return;
            }
            self.cx.error_spanned(
                init,
                format!(
                    "this value is of type `{}`, not `{}`",
                    self.ty_text(&got),
                    self.ty_text(&want)
                ),
            );
        }
    }

    /// A statement evaluated for its effect: an assignment, a loop, a branch, a block, or an
    /// error.
    fn effect(&mut self, e: &Expr) {
        match e {
            Expr::Assign(a) if super::sugar::destructure::destructures(&a.left) => {
                if let Some(plain) = self.desugar_destructure(a) {
                    self.effect(&plain);
                }
            }
            Expr::Assign(a) => match self.assign_loop(&a.left, &a.right) {
                // `x = loop { .. };`: `x` assigned before each `break`.
                Some(lp) => self.effect(&lp),
                None => self.assign(e, &a.left, None, &a.right),
            },
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
            Expr::While(w) => self.while_loop(w),
            Expr::Loop(l) => self.loop_loop(l),
            Expr::If(i) => {
                self.branch(i, false);
            }
            Expr::Block(b) if b.label.is_none() => self.scoped(|l| l.block_effects(&b.block)),
            Expr::Match(m) => {
                if let Some(chain) = self.desugar_match(m) {
                    self.effect(&chain);
                }
            }
            Expr::Call(c) if self.is_closure(&c.func) => {
                let _ = self.call_closure(c);
            }
            Expr::Call(c) if self.is_poisoned(&c.func) => {}
            Expr::Call(c) if self.writes_into_args(c) => {}
            // The early `return`s the rewrite did not reach (a `return` with a label-less loop
            // around it is rewritten; one in a closure is not).
            Expr::Return(_) => self.cx.error_spanned(
                e,
                "`#[grad]` does not support `return` here; write it as a statement of the function's body, of a loop's, or of an `if` there",
            ),
            Expr::MethodCall(_) if iterator_chain(e).is_some() => {
                if let Some(Some(plain)) = self.desugar_method(e) {
                    self.effect(&plain);
                }
            }
            _ => self.statement_without_effect(e),
        }
    }

    /// `target = rhs` or `target op= rhs`, for a variable or an element of an array variable.
    fn assign(&mut self, e: &Expr, target: &Expr, op: Option<Prim>, rhs: &Expr) {
        let (base, _) = super::arrays::index_chain(target);
        if matches!(super::value::peel(base), Expr::Field(_)) {
            return self.assign_field(e, target, op, rhs);
        }
        let root = target_root(target).map(symbol::unraw);
        let binding = root.as_deref().and_then(|n| self.lookup(n)).cloned();
        let (name, slot) = match (root, binding) {
            (Some(_), Some(b @ (Binding::Tuple(_) | Binding::Record(..))))
                if op.is_none() && matches!(super::value::peel(target), Expr::Path(_)) =>
            {
                let v = match &b {
                    Binding::Tuple(parts) => {
                        self.tuple_type(parts).and_then(|want| self.typed_call(rhs, &want))
                    }
                    _ if self.assign_record_call(rhs, &b) => return,
                    _ => None,
                };
                let v = v.unwrap_or_else(|| self.value(rhs));
                return self.assign_parts(rhs, &b, v);
            }
            // A `bool` variable, or one declared without a value and assigned a condition.
            (Some(_), Some(Binding::Slot(s)))
                if op.is_none()
                    && (self.is_flag_slot(s)
                        || (self.slots[s].value.is_none() && self.kind(rhs) == Kind::Bool)) =>
            {
                return self.assign_flag(s, rhs);
            }
            (Some(name), Some(Binding::Slot(s))) => (name, s),
            (_, Some(Binding::Poison)) => return,
            (Some(name), Some(Binding::Int(_))) => return self.assign_int(e, &name, rhs),
            (Some(_), Some(Binding::Counter(c))) => return self.assign_counter(e, c, op, rhs),
            _ => {
                self.cx.error_spanned(
                    target,
                    "`#[grad]` supports assignments only to local variables holding `f64` values or arrays, and to their elements",
                );
                return;
            }
        };
        self.assign_slot(e, target, (&name, slot), op, rhs);
    }

    /// `q.w = rhs`, `q.v[i] op= rhs`, `q.inner = rhs` for a struct value `q` of the body.
    fn assign_field(&mut self, e: &Expr, target: &Expr, op: Option<Prim>, rhs: &Expr) {
        let root = target_root(target).map(symbol::unraw);
        if matches!(root.and_then(|r| self.lookup(&r)), Some(Binding::Poison)) {
            return; // reported where the variable was bound
        }
        let (base, indices) = super::arrays::index_chain(target);
        match self.tuple_component(base) {
            Some(Binding::Slot(s)) => {
                let name = self.slots[s].name.clone();
                self.assign_slot(e, target, (&name, s), op, rhs);
            }
            Some(b @ Binding::Record(..)) if indices.is_empty() && op.is_none() => {
                let v = self.value(rhs);
                self.assign_parts(rhs, &b, v);
            }
            Some(Binding::Poison) => {}
            _ if self.field_kind(base).is_some() => self.cx.error_spanned(
                target,
                "`#[grad]` does not assign to a field of a parameter: the function must be pure; copy the value into a variable (`let mut w = m.w;`)",
            ),
            _ => self.cx.error_spanned(
                target,
                "`#[grad]` supports assignments to fields of struct values of the body (`q.w = ...` for `let mut q = Quat { .. };`) holding `f64` values or arrays",
            ),
        }
    }

    /// `target = rhs` or `target op= rhs` for the user variable `name` in `slot` (or an element
    /// of it).
    fn assign_slot(
        &mut self,
        e: &Expr,
        target: &Expr,
        (name, slot): (&str, usize),
        op: Option<Prim>,
        rhs: &Expr,
    ) {
        let (_, indices) = super::arrays::index_chain(target);
        if !indices.is_empty() {
            return self.assign_element(target, slot, &indices, op, rhs);
        }
        let current = self.slots[slot].value;
        let since = self.mark();
        let value = match (op, current) {
            (None, _) => self.assigned_value(rhs, slot),
            (Some(prim), Some(current)) if self.b.ty(current).is_float() => {
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
            let literal = current.is_some_and(|c| c.var().is_none());
            let hint = match same_shape(&old, &new) {
                false if self.loop_values.contains(name) => format!(
                    "; write the type of the `loop`'s value on the `let`, as in `let {name}: {} = loop {{ … }};`",
                    self.ty_text(&new)
                ),
                true => "; write the lengths the same way".to_owned(),
                false if literal && old.is_float() && new.is_float() => format!(
                    "; give the literal the type of what is assigned later, as in `0.0_{}`",
                    self.ty_text(&new)
                ),
                false => String::new(),
            };
            self.cx.error_spanned(
                rhs,
                format!(
                    "`{name}` holds a value of type `{}`; this assigns a value of type `{}`{hint}",
                    self.ty_text(&old),
                    self.ty_text(&new)
                ),
            );
            return;
        }
        self.name_value(name, value, since);
        self.slots[slot].value = Some(value);
    }

    /// The value `rhs` assigned to the variable `slot`: a call returns an array of its type, or
    /// the struct it holds laid flat.
    fn assigned_value(&mut self, rhs: &Expr, slot: usize) -> Operand {
        if let Some(ty) = self.slots[slot].strukt.clone() {
            let want = super::returned::Returned::Struct(Box::new((*ty).clone()));
            return match self.typed_call(rhs, &want) {
                Some(v) => self.single(rhs, v),
                None => {
                    self.flat_struct_expected(rhs, &ty);
                    Operand::Lit(0.0)
                }
            };
        }
        let ty = self.slots[slot].value.map(|c| self.b.ty(c));
        // An array field of a struct returned by a call, read as the variable's type.
        if let Some(ty @ Ty::Array(_)) = &ty
            && self.is_flat_field(value::peel(rhs))
        {
            return self.flat_whole(rhs, Some(ty));
        }
        if let Some(ty @ Ty::Array(_)) = ty
            && let Some(v) = self.typed_call(rhs, &super::returned::Returned::Array(ty))
        {
            return self.single(rhs, v);
        }
        self.expr(rhs)
    }

    /// What a call assigned to a tuple of the given parts returns: a tuple of their types,
    /// when each is an `f64` or an array that holds a value.
    fn tuple_type(&self, parts: &[Binding]) -> Option<super::returned::Returned> {
        let ty = |b: &Binding| match b {
            Binding::Slot(s) => self.slots[*s].value.map(|v| self.b.ty(v)),
            _ => None,
        };
        let tys = parts.iter().map(ty).collect::<Option<Vec<Ty>>>()?;
        Some(super::returned::Returned::Tuple(tys))
    }

    /// A part of a struct value of the body assigned `v`, a field of a call's value.
    pub(super) fn assign_record_part(&mut self, rhs: &Expr, part: &Binding, v: Operand) {
        self.assign_parts(rhs, part, Value::real(v));
    }

    /// `t = rhs` for a tuple `t`: each part of the value to the slot of that part.
    fn assign_parts(&mut self, rhs: &Expr, b: &Binding, v: Value) {
        match (b, v) {
            (Binding::Slot(s), Value::Real { op, since, .. }) => {
                let (old, new) = (self.slots[*s].value.map(|o| self.b.ty(o)), self.b.ty(op));
                if old.is_some_and(|o| op.var().is_some() && o != new) {
                    self.cx.error_spanned(rhs, "this assigns a part of a different type to the tuple");
                    return;
                }
                let name = self.slots[*s].name.clone();
                self.name_value(&name, op, since);
                self.slots[*s].value = Some(op);
            }
            (Binding::Tuple(parts), Value::Tuple(values)) if parts.len() == values.len() => {
                for (p, v) in parts.iter().zip(values) {
                    self.assign_parts(rhs, p, v);
                }
            }
            (Binding::Record(shape, parts), Value::Record(other, values)) if **shape == *other => {
                for (p, v) in parts.iter().zip(values) {
                    self.assign_parts(rhs, p, v);
                }
            }
            (_, Value::Int(None)) | (Binding::Poison, _) => {}
            (Binding::Record(shape, _), _) => {
                let ty = quote::ToTokens::to_token_stream(&shape.path).to_string().replace(' ', "");
                let fields = shape.members.iter().map(super::structs::record::member_text);
                let fields: Vec<String> = fields.map(|m| format!("{m}: r.{m}")).collect();
                let fields = fields.join(", ");
                self.cx.error_spanned(
                    rhs,
                    format!("`#[grad]` holds a variable made from a struct literal as its fields, and assigns to it only a struct literal or another struct value of the body (`{ty} {{ .. }}`), not the value of a call; start the variable from a call instead (`let mut s = p.step(..);`, then `s = s.step(..);`), or bind the call's value to a new variable `r` and assign its fields (`s = {ty} {{ {fields} }};`)"),
                );
            }
            _ => self.cx.error_spanned(
                rhs,
                "`#[grad]` supports assigning to a tuple variable only a tuple of `f64` values or arrays of the same shape",
            ),
        }
    }

    /// An assignment to an integer variable not declared `mut` (a loop variable, an integer
    /// `let`): refused, saying why.
    fn assign_int(&mut self, e: &Expr, name: &str, rhs: &Expr) {
        let is_loop_variable =
            matches!(self.lookup(name), Some(Binding::Int(k)) if k.index.is_some());
        let message = if is_loop_variable {
            format!(
                "`#[grad]` does not support assigning to the loop variable `{name}`; a loop runs over its whole range, one value of `{name}` per iteration"
            )
        } else if self.kind(rhs) == Kind::Real {
            format!(
                "`#[grad]` cannot assign an `f64` value to the integer variable `{name}`; declare an `f64` variable instead, such as `let mut {name} = 0.0;`"
            )
        } else {
            format!(
                "`#[grad]` does not support assigning to the integer variable `{name}`, which is not a counter: a counter is declared with `let mut {name} = ...;` (then `{name} += 1` is read as its closed form); or compute each value from the loop variables, as in `let {name} = 2 * i + 1;`"
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
                "`#[grad]` supports only `let` bindings, assignments, loops and `if` as statements; this statement has no effect",
            );
        }
    }
}
