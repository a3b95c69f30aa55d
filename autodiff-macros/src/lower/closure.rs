//! Closures: `let sq = |t: f64| t * t;` is inlined where it is called, `sq(x)` lowering as
//! `{ let t = x; t * t }` would, but with the names the closure saw where it was written (so a
//! name shadowed between the closure and its call still means what the closure captured). A
//! closure written as an argument (`.map(|v| v * v)`) is inlined where the adaptor calls it.
//!
//! What lowering does not know: a closure that assigns to a variable it captures (an `FnMut`) is
//! refused, and a closure can only be called, not passed to another function or returned.

use std::collections::{HashMap, HashSet};

use proc_macro2::TokenTree;
use quote::ToTokens;
use syn::{Expr, ExprCall, ExprClosure};

use super::value::{Value, peel};
use super::{Binding, Bound, Lower, Slot, assigned};
use crate::ir::Operand;
use crate::symbol;

/// A closure, as written, with the names in scope where it was written.
pub(super) struct Closure {
    /// The closure's syntax.
    pub expr: ExprClosure,
    /// The names in scope where it was written; the variables it reads are pinned to the values
    /// they had there.
    pub env: HashMap<String, Bound>,
}

/// Every identifier in `tokens`.
fn idents(tokens: proc_macro2::TokenStream, out: &mut HashSet<String>) {
    for t in tokens {
        match t {
            TokenTree::Ident(id) => {
                out.insert(symbol::unraw(&id));
            }
            TokenTree::Group(g) => idents(g.stream(), out),
            _ => {}
        }
    }
}

impl Lower<'_> {
    /// The closure `c`, checked, with what it captures pinned; `None` after an error.
    pub(super) fn closure(&mut self, c: &ExprClosure) -> Option<Closure> {
        if let Some(a) = &c.asyncness {
            self.cx.error_spanned(a, "`#[grad]` does not support `async` closures");
            return None;
        }
        let captured_writes: Vec<String> = assigned::in_closure(c)
            .into_iter()
            .filter(|name| self.lookup(name).is_some())
            .collect();
        if let Some(name) = captured_writes.first() {
            self.cx.error_spanned(
                c,
                format!("`#[grad]` does not support closures that assign to a variable they capture (`{name}`); return the new value from the closure and assign it where the closure is called"),
            );
            return None;
        }
        let mut names = HashSet::new();
        idents(c.body.to_token_stream(), &mut names);
        let mut env = self.env.clone();
        for name in names {
            let Some(bound) = env.get_mut(&name) else { continue };
            if let Binding::Counter(c) = bound.binding {
                // A counter's value where the closure is written (the one it can capture).
                let mut pinned = self.counters[c].pinned();
                if let Some(s) = self.held_slot(c) {
                    pinned.state = super::counter::State::Held(self.pin_slot(s));
                }
                self.counters.push(pinned);
                bound.binding = Binding::Counter(self.counters.len() - 1);
                continue;
            }
            let Binding::Slot(s) = bound.binding else { continue };
            bound.binding = Binding::Slot(self.pin_slot(s));
        }
        Some(Closure { expr: c.clone(), env })
    }

    /// A copy of slot `s` holding what it holds now: a new slot.
    fn pin_slot(&mut self, s: usize) -> usize {
        let old = &self.slots[s];
        let pinned = Slot {
            name: old.name.clone(),
            value: old.value,
            alias: old.alias.clone(),
            int_alias: old.int_alias.clone(),
            ty: old.ty.clone(),
            strukt: old.strukt.clone(),
            field_depths: old.field_depths.clone(),
        };
        self.slots.push(pinned);
        self.slots.len() - 1
    }

    /// Whether `func`, the callee of a call, is a name whose definition was refused (a call of it
    /// reports nothing more).
    pub(super) fn is_poisoned(&self, func: &Expr) -> bool {
        let Expr::Path(p) = peel(func) else { return false };
        p.path
            .get_ident()
            .and_then(|id| self.lookup(&symbol::unraw(id)))
            .is_some_and(|b| matches!(b, Binding::Poison))
    }

    /// Whether `func`, the callee of a call, is a closure: written in place, or a name bound to
    /// one.
    pub(super) fn is_closure(&self, func: &Expr) -> bool {
        match peel(func) {
            Expr::Closure(_) => true,
            Expr::Path(p) => p
                .path
                .get_ident()
                .and_then(|id| self.lookup(&symbol::unraw(id)))
                .is_some_and(|b| matches!(b, Binding::Closure(_))),
            _ => false,
        }
    }

    /// `f(args)` for a closure `f`: its body's value, with its parameters bound to the
    /// arguments.
    pub(super) fn call_closure(&mut self, c: &ExprCall) -> Value {
        self.inline_closure(c, Value::real(Operand::Lit(0.0)), |l, body| l.value(body))
    }

    /// `f(args)` for a closure `f`, its body lowered by `lower` with the closure's parameters
    /// bound to the arguments and the names it saw where it was written (`placeholder` after an
    /// error).
    pub(super) fn inline_closure<R>(
        &mut self,
        c: &ExprCall,
        placeholder: R,
        lower: impl FnOnce(&mut Self, &Expr) -> R,
    ) -> R {
        let closure = match peel(&c.func) {
            Expr::Closure(lit) => match self.closure(lit) {
                Some(k) => std::rc::Rc::new(k),
                None => return placeholder,
            },
            Expr::Path(p) => {
                match p.path.get_ident().and_then(|id| self.lookup(&symbol::unraw(id))) {
                    Some(Binding::Closure(k)) => std::rc::Rc::clone(k),
                    _ => return placeholder,
                }
            }
            _ => return placeholder,
        };
        let params = &closure.expr.inputs;
        if params.len() != c.args.len() {
            self.cx.error_spanned(
                c,
                format!(
                    "this closure takes {} argument(s), but {} are passed",
                    params.len(),
                    c.args.len()
                ),
            );
            return placeholder;
        }
        let args: Vec<Value> = c.args.iter().map(|a| self.value(a)).collect();
        let saved = std::mem::replace(&mut self.env, closure.env.clone());
        for (pat, v) in params.iter().zip(args) {
            self.bind(pat, v);
        }
        let result = lower(self, &closure.expr.body);
        self.env = saved;
        result
    }
}
