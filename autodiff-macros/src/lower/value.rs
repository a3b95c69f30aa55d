//! What an expression gives before a pattern binds it: one value of the IR, an integer, a
//! closure, or a tuple of those (`(a + b, a - b)`, an `if` or a block ending in a tuple, a
//! closure's result, `x.sin_cos()`). Tuples never reach the IR: their components do.

use std::rc::Rc;

use syn::{Expr, Member};

use super::closure::Closure;
use super::int::IntCtx;
use super::konst::Konst;
use super::method::sin_cos_receiver;
use super::{Aliases, Binding, Kind, Lower};
use crate::ir::{Operand, Prim};

/// The value of an expression, not yet bound.
pub(super) enum Value {
    /// A value of the IR (an `f64` or an array), with what an immutable binding of it may stand
    /// for as a constant, and the first variable its expression defined (for naming).
    Real { op: Operand, aliases: Aliases, since: usize },
    /// An integer expression (`None` after an error was reported).
    Int(Option<Rc<Konst>>),
    /// A closure.
    Closure(Rc<Closure>),
    /// A view of elements: `&x[i..i + 2]`.
    View(Rc<super::view::View>),
    /// A tuple.
    Tuple(Vec<Value>),
    /// A struct value: its fields, in the record's order.
    Record(Rc<super::structs::Record>, Vec<Value>),
}

impl Value {
    /// A value of the IR with no constant expression behind it.
    pub(super) fn real(op: Operand) -> Self {
        Value::Real { op, aliases: Aliases::default(), since: usize::MAX }
    }

    /// Records, for the parts that do not know it, that their expression defined variables from
    /// `since` on (so that a binding names the temporary that holds the value).
    fn defined_since(&mut self, from: usize) {
        match self {
            Value::Real { since, .. } if *since == usize::MAX => *since = from,
            Value::Tuple(parts) | Value::Record(_, parts) => {
                parts.iter_mut().for_each(|p| p.defined_since(from));
            }
            _ => {}
        }
    }
}

/// `e` without parentheses and invisible groups.
pub(super) fn peel(e: &Expr) -> &Expr {
    match e {
        Expr::Paren(p) => peel(&p.expr),
        Expr::Group(g) => peel(&g.expr),
        other => other,
    }
}

impl Lower<'_> {
    /// The value of `e`, a tuple or closure included.
    pub(super) fn value(&mut self, e: &Expr) -> Value {
        let since = self.mark();
        let mut v = self.value_of(e);
        v.defined_since(since);
        v
    }

    /// The value of `e`, its parts not yet told where their expression began.
    fn value_of(&mut self, e: &Expr) -> Value {
        match peel(e) {
            Expr::Tuple(t) => Value::Tuple(t.elems.iter().map(|x| self.value(x)).collect()),
            Expr::Struct(s) => self.struct_literal(s),
            // A reference to a tuple (or to a view or a closure) is what it refers to: `filter`
            // passes its closure `&item`, which `|&(i, v)|` takes apart.
            Expr::Reference(r)
                if r.mutability.is_none()
                    && (self.gives_tuple(&r.expr) || self.named_tuple_or_closure(&r.expr)) =>
            {
                self.value(&r.expr)
            }
            Expr::Reference(_) if self.view(e).is_some() => match self.view(e) {
                Some(v) => Value::View(Rc::new(v)),
                None => Value::real(Operand::Lit(0.0)),
            },
            Expr::Closure(c) => match self.closure(c) {
                Some(c) => Value::Closure(Rc::new(c)),
                // Refused: its name reports nothing more.
                None => Value::Int(None),
            },
            Expr::If(i) => self.branch(i, true).unwrap_or_else(|| Value::real(Operand::Lit(0.0))),
            Expr::Match(m) => match self.desugar_match(m) {
                Some(desugared) => self.value(&desugared),
                None => Value::real(Operand::Lit(0.0)),
            },
            Expr::Block(b) if b.label.is_none() => self
                .scoped(|l| l.block_value(&b.block))
                .unwrap_or_else(|| Value::real(Operand::Lit(0.0))),
            Expr::Call(c) if self.is_closure(&c.func) => self.call_closure(c),
            Expr::MethodCall(_) if self.desugar_method_probe(e) => match self.desugar_method(e) {
                Some(Some(plain)) => self.value(&plain),
                _ => Value::real(Operand::Lit(0.0)),
            },
            Expr::Path(p) if p.path.get_ident().is_some() => match self.named_value(e) {
                Some(v) => v,
                None => self.scalar_value(e),
            },
            Expr::Field(_) => match (self.tuple_component(e), self.missing_field(e)) {
                (Some(b), _) => self.binding_value(e, &b),
                (None, Some(shape)) => {
                    self.no_such_field(e, &shape);
                    Value::Int(None)
                }
                (None, None) => self.field_of_value(e),
            },
            other => match sin_cos_receiver(other, &self.scalar) {
                Some(x) => {
                    let x = self.real(x);
                    let s = self.b.push(Prim::Sin, &[x]);
                    let c = self.b.push(Prim::Cos, &[x]);
                    Value::Tuple(vec![Value::real(s), Value::real(c)])
                }
                None => self.scalar_value(other),
            },
        }
    }

    /// `t.0` for a tuple-valued expression `t` (`x.sin_cos().0`, `f(x).1` for a closure `f`).
    fn field_of_value(&mut self, e: &Expr) -> Value {
        let Expr::Field(f) = peel(e) else { return self.scalar_value(e) };
        let Member::Unnamed(i) = &f.member else { return self.scalar_value(e) };
        if !self.gives_tuple(&f.base) {
            return self.scalar_value(e);
        }
        match self.value(&f.base) {
            Value::Tuple(mut parts) if (i.index as usize) < parts.len() => {
                parts.swap_remove(i.index as usize)
            }
            _ => {
                self.cx.error_spanned(e, "this reads a field of a value that has no such field");
                Value::real(Operand::Lit(0.0))
            }
        }
    }

    /// Whether `e` gives a tuple: a tuple, `x.sin_cos()`, or a closure's call.
    pub(super) fn gives_tuple(&self, e: &Expr) -> bool {
        match peel(e) {
            Expr::Tuple(_) => true,
            Expr::Call(c) if self.is_closure(&c.func) => true,
            other => sin_cos_receiver(other, &self.scalar).is_some(),
        }
    }

    /// The value of an expression that is not a tuple: an integer or a value of the IR.
    fn scalar_value(&mut self, e: &Expr) -> Value {
        let kind = self.kind(e);
        if kind == Kind::Int {
            return Value::Int(self.int_konst(e, IntCtx::Let).map(Rc::new));
        }
        let since = self.mark();
        let op = self.expr(e);
        let aliases = self.aliases(e, kind);
        Value::Real { op, aliases, since }
    }

    /// The value a name bound to a tuple or a closure stands for; `None` for other names.
    fn named_value(&mut self, e: &Expr) -> Option<Value> {
        let Expr::Path(p) = peel(e) else { return None };
        let name = crate::symbol::unraw(p.path.get_ident()?);
        match self.lookup(&name)? {
            b @ (Binding::Tuple(_)
            | Binding::Record(..)
            | Binding::Closure(_)
            | Binding::View(_)
            | Binding::Poison
            | Binding::Struct(_)) => {
                let b = b.clone();
                Some(self.binding_value(e, &b))
            }
            _ => None,
        }
    }

    /// Whether `e` is an iterator chain or an array's `map` (rewritten before it is lowered).
    fn desugar_method_probe(&self, e: &Expr) -> bool {
        let Expr::MethodCall(m) = peel(e) else { return false };
        (m.method == crate::symbol::MAP && m.args.len() == 1 && self.is_array(&m.receiver))
            || super::expr::iterator_chain(e).is_some()
    }

    /// Whether `e` is a name bound to a tuple or a closure.
    pub(super) fn named_tuple_or_closure(&self, e: &Expr) -> bool {
        let Expr::Path(p) = peel(e) else { return false };
        let Some(id) = p.path.get_ident() else { return false };
        matches!(
            self.lookup(&crate::symbol::unraw(id)),
            Some(Binding::Tuple(_) | Binding::Record(..) | Binding::Closure(_) | Binding::View(_))
        )
    }

    /// The value a binding stands for, read at `e`.
    fn binding_value(&mut self, e: &Expr, b: &Binding) -> Value {
        match b {
            Binding::Tuple(parts) => {
                Value::Tuple(parts.iter().map(|p| self.binding_value(e, p)).collect())
            }
            Binding::Record(shape, parts) => Value::Record(
                Rc::clone(shape),
                parts.iter().map(|p| self.binding_value(e, p)).collect(),
            ),
            Binding::Closure(c) => Value::Closure(Rc::clone(c)),
            Binding::View(v) => Value::View(Rc::clone(v)),
            Binding::Int(k) => Value::Int(Some(Rc::clone(k))),
            Binding::Slot(s) => match self.slots[*s].value {
                Some(op) => Value::real(op),
                None => {
                    self.cx.error_spanned(
                        e,
                        "`#[grad]` needs a variable to be assigned before it is read",
                    );
                    Value::real(Operand::Lit(0.0))
                }
            },
            Binding::Poison => Value::Int(None),
            Binding::Struct(k) => {
                let name = self.structs[*k].name.clone();
                self.whole_struct(e, &name);
                Value::Int(None)
            }
            Binding::Counter(_) => Value::Int(self.int_konst(e, IntCtx::Let).map(Rc::new)),
            Binding::Param(_) => Value::real(self.expr(e)),
        }
    }

    /// The binding of `t.0`, `t.1.0` ... for a name `t` bound to a tuple, and of `q.w`,
    /// `q.inner.c` for a name bound to a struct value.
    pub(super) fn tuple_component(&self, e: &Expr) -> Option<Binding> {
        let Expr::Field(f) = peel(e) else { return None };
        let base = match peel(&f.base) {
            Expr::Path(p) => self.lookup(&crate::symbol::unraw(p.path.get_ident()?))?.clone(),
            inner @ Expr::Field(_) => self.tuple_component(inner)?,
            _ => return None,
        };
        match (&base, &f.member) {
            (Binding::Tuple(parts), Member::Unnamed(i)) => parts.get(i.index as usize).cloned(),
            (Binding::Record(..), m) => self.record_field(&base, m),
            _ => None,
        }
    }

    /// `v` as one operand, reporting a tuple, an integer or a closure where one value is needed.
    pub(super) fn single(&mut self, e: &Expr, v: Value) -> Operand {
        let what = match v {
            Value::Real { op, .. } => return op,
            Value::Int(None) => return Operand::Lit(0.0),
            Value::Int(Some(_)) => {
                "an integer here; convert it with `as f64` to use it as an `f64`"
            }
            Value::Closure(_) => {
                "a closure here; a closure can be called, or passed to an iterator adaptor such as `map`"
            }
            Value::View(_) => "a slice of an array here; index it (`w[0]`), or iterate over it",
            Value::Tuple(_) => {
                "a tuple here; bind its parts with a pattern, as in `let (a, b) = ...;`"
            }
            Value::Record(..) => {
                "a struct here; bind it to a variable (`let q = Quat { .. };`) and read its fields"
            }
        };
        self.cx.error_spanned(e, format!("`#[grad]` does not support {what}"));
        Operand::Lit(0.0)
    }
}
