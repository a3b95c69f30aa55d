//! Loops whose length is decided while they run: `while c { … }`, `loop { … }` with `break` (one
//! whose body begins with its exit test read as the `while` loop it is, `sugar::leading`), and
//! `for` loops with `break` (or `return`), each one [`While`] region. Their early exits are
//! first rewritten into flags (`sugar::exits`); what reaches here is a body that runs whole in
//! every iteration, its exit test at its end, and for `while` the condition, tested before the
//! first iteration and again after each. The flags are `bool` variables, as the user's own are:
//! slots holding a boolean of the IR. The integer counters the body updates are held as numbers,
//! or, stepped once per iteration of a `while` or a `loop`, read from the iteration's index in
//! the body (`counter/held.rs`).

use std::rc::Rc;

use proc_macro2::Span;
use syn::{Expr, ExprForLoop, ExprLoop, ExprWhile, Pat};

use super::konst::Konst;
use super::sugar::exits::LoopBody;
use super::{Aliases, Binding, Lower, assigned};
use crate::ir::{Carry, Cond, LoopInfo, Name, Operand, Ty, Var, While};
use crate::symbol;

/// A loop of unknown length, as lowering reads it.
struct Parts<'a> {
    /// A `for` loop's range and pattern.
    range: Option<(&'a Expr, &'a Pat)>,
    /// A `while` loop's condition.
    test: Option<&'a Expr>,
    /// The body, exits rewritten.
    body: &'a LoopBody,
    /// The loop's keyword.
    span: Span,
    /// Differentiated at its fixed point (its label is named by `implicit(...)`).
    implicit: bool,
}

impl Lower<'_> {
    /// `while cond { body }`.
    pub(super) fn while_loop(&mut self, w: &ExprWhile) {
        let implicit = self.implicit_label(w.label.as_ref());
        if let Expr::Let(l) = &*w.cond {
            self.cx.error_spanned(
                l.let_token,
                "`#[grad]` does not support `while let`; write `while` with a comparison as the condition",
            );
            return;
        }
        let body = self.labelled_body(w.label.as_ref(), &w.body);
        let body = self.loop_body(&body);
        let parts = Parts {
            range: None,
            test: Some(&w.cond),
            body: &body,
            span: w.while_token.span,
            implicit,
        };
        self.lower_while(parts);
    }

    /// `loop { body }`, which needs a `break` (or a `return`).
    pub(super) fn loop_loop(&mut self, l: &ExprLoop) {
        // `loop { if c { break; } … }` is `while !(c) { … }` (`sugar::leading`).
        if let Some(w) = super::sugar::leading::as_while(l) {
            return self.while_loop(&w);
        }
        let implicit = self.implicit_label(l.label.as_ref());
        let block = self.labelled_body(l.label.as_ref(), &l.body);
        let body = self.loop_body(&block);
        if body.exit.is_none() {
            self.cx.error_spanned(
                l.loop_token,
                "this `loop` never ends: `#[grad]` needs a `break` in it, as in `if done { break; }`",
            );
            // What else is wrong in the body (a `break` with a label, ...).
            self.b.begin();
            self.scoped(|lo| lo.block_effects(&block));
            self.b.end();
            return;
        }
        let span = l.loop_token.span;
        let parts = Parts { range: None, test: None, body: &body, span, implicit };
        self.lower_while(parts);
    }

    /// A `for` loop over a range whose body may end the loop early (`break`, `return`).
    pub(super) fn for_while(&mut self, f: &ExprForLoop, body: &LoopBody) {
        let parts = Parts {
            range: Some((&f.expr, &f.pat)),
            test: None,
            body,
            span: f.for_token.span,
            implicit: false,
        };
        self.lower_while(parts);
    }

    /// Whether the label of a `loop` or `while` loop names it for `implicit(...)`.
    fn implicit_label(&mut self, label: Option<&syn::Label>) -> bool {
        let Some(label) = label else { return false };
        let name = label.name.ident.to_string();
        if self.implicit.iter().any(|l| *l == name) {
            self.implicit_found.insert(name);
            return true;
        }
        false
    }

    /// The body of a loop with the exits naming its label (if it has one) rewritten into flags.
    fn labelled_body(&mut self, label: Option<&syn::Label>, body: &syn::Block) -> syn::Block {
        match label {
            Some(label) => self.unlabel(label, body),
            None => body.clone(),
        }
    }

    /// Reports the labels `implicit(...)` names that no `loop` or `while` loop has.
    pub(super) fn implicit_labels_found(&mut self) {
        for label in self.implicit.clone() {
            if !self.implicit_found.contains(&label.to_string()) {
                self.cx.error_spanned(
                    &label,
                    format!("`implicit('{label})` names no loop: label the `loop` or `while` loop to differentiate at its fixed point, as in `'{label}: loop {{ … }}`"),
                );
            }
        }
    }

    fn lower_while(&mut self, p: Parts) {
        let (range, mut ident) = match p.range {
            Some((e, pat)) => {
                let range = Self::range(self.bounds(e).as_ref());
                let ident = if range.is_some() { self.loop_pattern(pat) } else { None };
                (range, ident)
            }
            None => (None, None),
        };
        let first = match p.test {
            Some(c) => self.condition(c),
            None => Operand::Bool(true),
        };
        let block = syn::Block { brace_token: Default::default(), stmts: p.body.stmts.clone() };
        let names = assigned::in_block(&block);
        // A counter stepped once per iteration of a `while` or a `loop` is a closed form in
        // the iteration's index there (not in a loop differentiated at its fixed point, whose
        // body must not depend on the iteration); any other counter the loop updates has none,
        // and is held as a number.
        let stepped = match self.holds_counters() && p.range.is_none() && !p.implicit {
            true => self.stepped_counters(&p.body.stmts, &names),
            false => Vec::new(),
        };
        let stepped_name = |n: &String| stepped.iter().any(|s| self.slots[s.slot].name == *n);
        let others: Vec<String> = names.iter().filter(|n| !stepped_name(n)).cloned().collect();
        match self.holds_counters() {
            true => self.hold_counters(&others),
            false => self.no_counters(&names, p.span),
        }
        if !stepped.is_empty() && ident.is_none() {
            ident = Some(self.names.fresh(symbol::INDEX_NAMES[0]));
        }
        let assigned = self.outer_slots(&names);
        let (mut slots, unset): (Vec<usize>, Vec<usize>) =
            assigned.into_iter().partition(|&s| self.slots[s].value.is_some());
        slots.extend(stepped.iter().map(|s| s.slot));
        let index = self.b.new_loop(LoopInfo { ident: ident.clone(), span: p.span });
        let k = ident.as_ref().map(|id| Konst::index(id, index));
        let mut carried = Vec::new();
        for &s in &slots {
            let init = self.slots[s].value.unwrap_or(Operand::Lit(0.0));
            let name = self.next_name(&self.slots[s].name.clone());
            let param = self.b.fresh(name, self.b.ty(init));
            carried.push(Carry { param, init });
            self.slots[s].value = Some(Operand::Var(param));
        }
        self.b.begin();
        let exit = self.scoped(|l| {
            if let Some(id) = &ident {
                let name = symbol::unraw(id);
                let mut k = Konst::index(id, index);
                k.deps.push((name.clone(), Some(l.serial + 1)));
                l.bind_name(&name, Binding::Int(Rc::new(k)));
            } else if let Some((_, pat)) = p.range {
                l.poison(pat);
            }
            if let Some(k) = &k {
                l.stepped_top(&stepped, k);
            }
            p.body.stmts.iter().for_each(|s| l.statement(s));
            p.body.exit.as_ref().map(|e| l.condition(e))
        });
        if let Some(k) = &k {
            self.stepped_bottom(&stepped, k, p.span);
        }
        // The condition again, on the values at the end of the iteration (outside the body's
        // scope: its names are the loop's own); what is wrong with it was reported before.
        let again = p.test.map(|c| self.probe(|l| l.condition(c)));
        let stay = exit.map(|e| self.not(e));
        let cond = match (stay, again) {
            (None, None) => Operand::Bool(true),
            (Some(a), None) | (None, Some(a)) => a,
            (Some(a), Some(b)) => self.and(a, b),
        };
        let body = self.b.end();
        let yields: Vec<Operand> =
            slots.iter().map(|&s| self.slots[s].value.unwrap_or(Operand::Lit(0.0))).collect();
        let outs = self.region_outs(&slots, &carried.iter().map(|c| c.init).collect::<Vec<_>>());
        for s in unset {
            self.slots[s].value = None;
        }
        self.stepped_after(&stepped);
        let implicit = p.implicit;
        let w =
            While { index, range, first, carried, body, yields, cond, outs, tape: None, implicit };
        self.b.emit_while(w);
    }

    /// Reports the integer counters among `names` (assigned in a loop of unknown length, whose
    /// closed forms need the trip count of each loop around them), and poisons them: in a
    /// function that cannot hold them as numbers.
    fn no_counters(&mut self, names: &[String], span: Span) {
        for name in names {
            if matches!(self.lookup(name), Some(Binding::Counter(_))) {
                self.cx.error_at(
                    span,
                    format!("`#[grad]` does not support updating the integer counter `{name}` in a loop that may end early (`while`, `loop`, or a `for` loop with `break` or `return`) in a function over `f32` or a generic float: its value there has no closed form, and the function's scalar type cannot hold every count; in a `for` loop over a range without `break`, compute the index from the loop variable, or count in an `f64` variable"),
                );
                self.bind_name(name, Binding::Poison);
            }
        }
    }

    /// A condition as a boolean operand: a flag's value (which may be a literal), or a test.
    fn condition(&mut self, e: &Expr) -> Operand {
        if let Some(flag) = self.flag(e) {
            return flag;
        }
        Operand::Var(self.cond_var(e))
    }

    /// The value of the flag `e` names, if it names one.
    pub(super) fn flag(&self, e: &Expr) -> Option<Operand> {
        let Expr::Path(p) = super::value::peel(e) else { return None };
        let name = symbol::unraw(p.path.get_ident()?);
        match self.lookup(&name) {
            Some(Binding::Slot(s)) => self.slots[*s].value.filter(|v| self.b.ty(*v) == Ty::Bool),
            _ => None,
        }
    }

    /// `!a`.
    fn not(&mut self, a: Operand) -> Operand {
        match a {
            Operand::Bool(b) => Operand::Bool(!b),
            Operand::Var(v) => {
                Operand::Var(self.b.test(Name::temp(), Cond::Not(Box::new(Cond::Var(v)))))
            }
            other => other,
        }
    }

    /// `a && b`.
    fn and(&mut self, a: Operand, b: Operand) -> Operand {
        match (a, b) {
            (Operand::Bool(false), _) | (_, Operand::Bool(false)) => Operand::Bool(false),
            (Operand::Bool(true), x) | (x, Operand::Bool(true)) => x,
            (Operand::Var(x), Operand::Var(y)) => {
                let c = Cond::And(Box::new(Cond::Var(x)), Box::new(Cond::Var(y)));
                Operand::Var(self.b.test(Name::temp(), c))
            }
            (x, _) => x,
        }
    }

    /// `let mut done = false;`, a flag of the rewrite of early exits, or a `bool` variable of
    /// the user's (`let inside = x > 0.0 && x < 1.0;`): the condition evaluated here.
    pub(super) fn declare_flag(&mut self, name: &str, init: &Expr) {
        let value = self.condition_or_literal(init);
        let since = self.mark();
        self.declare(name, Some(value), Aliases::default(), since);
    }

    /// `done = true;`, an assignment to a flag.
    pub(super) fn assign_flag(&mut self, slot: usize, rhs: &Expr) {
        let value = self.condition_or_literal(rhs);
        self.slots[slot].value = Some(value);
    }

    /// A `bool` literal, a flag, or a condition.
    pub(super) fn condition_or_literal(&mut self, e: &Expr) -> Operand {
        match super::value::peel(e) {
            Expr::Lit(l) => match &l.lit {
                syn::Lit::Bool(b) => Operand::Bool(b.value),
                _ => self.condition(e),
            },
            _ => self.condition(e),
        }
    }

    /// Whether the slot holds a flag (a boolean).
    pub(super) fn is_flag_slot(&self, slot: usize) -> bool {
        self.slots[slot].value.is_some_and(|v| self.b.ty(v) == Ty::Bool)
    }

    /// The flag variable `v`'s condition, for `if done`, `!done`, `done || skip`.
    pub(super) fn flag_cond(&mut self, e: &Expr) -> Option<Cond> {
        match self.flag(e)? {
            Operand::Var(v) => Some(Cond::Var(v)),
            Operand::Bool(b) => Some(Cond::Var(self.constant(b))),
            _ => None,
        }
    }

    /// A boolean variable holding `b`: `!x` for a fresh `x` equal to itself is not possible, so
    /// the comparison of a literal with itself.
    fn constant(&mut self, b: bool) -> Var {
        let cmp = if b { crate::ir::Cmp::Eq } else { crate::ir::Cmp::Ne };
        let c = Cond::F64(cmp, Operand::Lit(0.0), Operand::Lit(0.0));
        self.b.test(Name::temp(), c)
    }
}
