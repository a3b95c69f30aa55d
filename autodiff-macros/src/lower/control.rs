//! Loops and branches: `for` over an integer range, and `if` / `else if` / `else`, each a region
//! that carries (or yields) the user variables it assigns. Integer counters are not carried:
//! `counter` gives them their closed forms around the loop's body.

use std::rc::Rc;

use syn::{Expr, ExprForLoop, ExprIf, Pat, RangeLimits};

use super::expr::{chain_root, iterator_chain};
use super::int::IntCtx;
use super::konst::Konst;
use super::value::Value;
use super::{Binding, Lower, assigned};
use crate::ir::{Branch, Carry, Int, Loop, LoopInfo, Operand, Range, Ty};
use crate::symbol;

/// The bounds of a `for` loop's range, as constants.
pub(super) struct Bounds {
    /// The first bound (`None` if refused).
    pub lo: Option<Konst>,
    /// The second bound (`None` if refused).
    pub hi: Option<Konst>,
    /// `a..=b`.
    pub inclusive: bool,
    /// `(a..b).rev()`.
    pub rev: bool,
}

/// The expression at the root of a chain of method calls (`0..4` in `(0..4).step_by(2)`).
fn range_root(e: &Expr) -> Option<&Expr> {
    match peel(e) {
        Expr::MethodCall(m) => range_root(&m.receiver),
        other => Some(other),
    }
}

/// `e` without parentheses and invisible groups.
fn peel(e: &Expr) -> &Expr {
    match e {
        Expr::Paren(p) => peel(&p.expr),
        Expr::Group(g) => peel(&g.expr),
        other => other,
    }
}

impl Lower<'_> {
    /// The user variables declared before a region, among `names`: the slots it carries.
    pub(super) fn outer_slots(&self, names: &[String]) -> Vec<usize> {
        fn add(b: &Binding, slots: &mut Vec<usize>) {
            match b {
                Binding::Slot(s) if !slots.contains(s) => slots.push(*s),
                Binding::Tuple(parts) | Binding::Record(_, parts) => {
                    parts.iter().for_each(|p| add(p, slots));
                }
                _ => {}
            }
        }
        let mut slots = Vec::new();
        for name in names {
            match self.lookup(name) {
                // A counter held as a number is a variable.
                Some(Binding::Counter(c)) => {
                    if let Some(s) = self.held_slot(*c).filter(|s| !slots.contains(s)) {
                        slots.push(s);
                    }
                }
                Some(b) => add(b, &mut slots),
                None => {}
            }
        }
        slots
    }

    /// `for pat in range { body }`.
    pub(super) fn for_loop(&mut self, f: &ExprForLoop) {
        if !super::sugar::is_plain_range(&f.expr) {
            // A loop over a collection or an iterator chain: the loop over positions it means.
            if let Some(plain) = self.desugar_for(f) {
                self.for_loop(&plain);
            }
            return;
        }
        if let Some(label) = &f.label {
            // `break 'a` and `continue 'a` in the loops inside: flags of this loop.
            let mut plain = f.clone();
            plain.label = None;
            plain.body = self.unlabel(label, &f.body);
            return self.for_loop(&plain);
        }
        if super::sugar::exits::of_block(&f.body).any() {
            // `break`, `continue` or `return` in the body: flags in their place; a loop that may
            // end early is a loop of unknown length over its range.
            let body = self.loop_body(&f.body);
            if body.exit.is_some() {
                return self.for_while(f, &body);
            }
            let mut plain = f.clone();
            plain.body.stmts = body.stmts;
            plain.label = None;
            return self.for_loop(&plain);
        }
        let bounds = self.bounds(&f.expr);
        let range = Self::range(bounds.as_ref());
        // After a refused range, the pattern (`(i, x)` for `.enumerate()`) is not reported too.
        let mut ident = match range {
            Some(_) => self.loop_pattern(&f.pat),
            None => None,
        };
        let names = assigned::in_block(&f.body);
        // A counter updated in a branch or an inner loop that may end early is held as a
        // number from here on (the loop carries it).
        self.hold_counters(&assigned::conditional(&f.body));
        // A counter advanced in `for _ in ...` is read through the loop's index: it gets a name.
        if ident.is_none()
            && matches!(&*f.pat, Pat::Wild(_))
            && names.iter().any(|n| {
                matches!(self.lookup(n), Some(Binding::Counter(c)) if self.held_slot(*c).is_none())
            })
        {
            ident = Some(self.names.fresh(symbol::INDEX_NAMES[0]));
        }
        let assigned = self.outer_slots(&names);
        // A variable declared without a value (`let y;`) and assigned in the loop may not be
        // read after it (rustc: possibly uninitialised): it is not carried.
        let (slots, unset): (Vec<usize>, Vec<usize>) =
            assigned.into_iter().partition(|&s| self.slots[s].value.is_some());
        let index = self.b.new_loop(LoopInfo { ident: ident.clone(), span: f.for_token.span });
        let mut carried = Vec::new();
        for &s in &slots {
            let init = self.slots[s].value.unwrap_or(Operand::Lit(0.0));
            let name = self.next_name(&self.slots[s].name.clone());
            let param = self.b.fresh(name, self.b.ty(init));
            carried.push(Carry { param, init });
            self.slots[s].value = Some(Operand::Var(param));
        }
        self.b.begin();
        self.scoped(|l| {
            let var = match &ident {
                Some(id) => {
                    let name = symbol::unraw(id);
                    let mut k = Konst::index(id, index);
                    let serial = l.serial + 1;
                    k.deps.push((name.clone(), Some(serial)));
                    l.bind_name(&name, Binding::Int(Rc::new(k.clone())));
                    Some(k)
                }
                // A refused pattern or range: its names are bound so that reads report nothing
                // more.
                None => {
                    l.poison(&f.pat);
                    None
                }
            };
            let advancing = l.counters_before(f, &names, bounds.as_ref(), var.as_ref());
            l.block_effects(&f.body);
            l.counters_after(f, advancing);
        });
        let body = self.b.end();
        let yields: Vec<Operand> =
            slots.iter().map(|&s| self.slots[s].value.unwrap_or(Operand::Lit(0.0))).collect();
        let outs = self.region_outs(&slots, &carried.iter().map(|c| c.init).collect::<Vec<_>>());
        for s in unset {
            self.slots[s].value = None;
        }
        let range = range.unwrap_or(Range {
            lo: Int::lit(0),
            hi: Int::lit(0),
            inclusive: false,
            rev: false,
        });
        self.b.emit_loop(Loop { index, range, carried, body, yields, outs });
    }

    /// Fresh variables for the values of `slots` after a region (typed like `like`), bound to
    /// the slots.
    pub(super) fn region_outs(&mut self, slots: &[usize], like: &[Operand]) -> Vec<crate::ir::Var> {
        let mut outs = Vec::new();
        for (&s, op) in slots.iter().zip(like) {
            let name = self.next_name(&self.slots[s].name.clone());
            let out = self.b.fresh(name, self.b.ty(*op));
            self.slots[s].value = Some(Operand::Var(out));
            outs.push(out);
        }
        outs
    }

    /// The loop variable: a name, or `_`.
    pub(super) fn loop_pattern(&mut self, pat: &Pat) -> Option<proc_macro2::Ident> {
        match pat {
            Pat::Ident(pi)
                if pi.by_ref.is_none() && pi.subpat.is_none() && pi.mutability.is_none() =>
            {
                // An index that shadows an enclosing loop's is a loop of its own (indices are
                // `LoopId`s); codegen renames it where its body reads the outer one.
                Some(pi.ident.clone())
            }
            Pat::Wild(_) => None,
            other => {
                self.cx.error_spanned(
                    other,
                    "`#[grad]` supports as a loop variable only a name or `_`, as in `for i in 0..N`",
                );
                None
            }
        }
    }

    /// The range of a `for` loop: `a..b`, `a..=b`, `(a..b).rev()`, `(a..=b).rev()`.
    pub(super) fn range(bounds: Option<&Bounds>) -> Option<Range> {
        let b = bounds?;
        let int = |k: &Option<Konst>| k.as_ref().map_or_else(|| Int::lit(0), Konst::to_int);
        Some(Range { lo: int(&b.lo), hi: int(&b.hi), inclusive: b.inclusive, rev: b.rev })
    }

    /// The bounds of a `for` loop's range, as constants (`None` for a bound that was refused).
    pub(super) fn bounds(&mut self, e: &Expr) -> Option<Bounds> {
        let (range, rev) = match peel(e) {
            Expr::MethodCall(m)
                if m.method == symbol::REV
                    && m.args.is_empty()
                    && matches!(peel(&m.receiver), Expr::Range(_)) =>
            {
                (peel(&m.receiver), true)
            }
            other => (other, false),
        };
        let Expr::Range(r) = range else {
            self.not_a_range(e);
            return None;
        };
        let (Some(lo), Some(hi)) = (&r.start, &r.end) else {
            self.cx.error_spanned(
                r,
                "`#[grad]` supports only ranges with both bounds, such as `0..N` or `1..=n`",
            );
            return None;
        };
        let lo = self.int_konst(lo, IntCtx::Bound);
        let hi = self.int_konst(hi, IntCtx::Bound);
        let inclusive = matches!(r.limits, RangeLimits::Closed(_));
        Some(Bounds { lo, hi, inclusive, rev })
    }

    fn not_a_range(&mut self, e: &Expr) {
        if let Expr::MethodCall(m) = peel(e)
            && matches!(range_root(e), Some(Expr::Range(_)))
        {
            let method = &m.method;
            self.cx.error_spanned(
                method,
                format!(
                    "`#[grad]` supports `for` loops over ranges `a..b` and `a..=b`, reversed or not with `.rev()`, not `.{method}(...)`; compute the index from a plain loop variable instead, as in `for k in 0..n {{ let i = 2 * k; ... }}`"
                ),
            );
            return;
        }
        let root = chain_root(e);
        let what = if iterator_chain(e).is_some() { "iterators" } else { "collections" };
        self.cx.error_spanned(
            e,
            format!(
                "`#[grad]` supports `for` loops over integer ranges only, not over {what}; use `for i in 0..{root}.len()` and `{root}[i]`"
            ),
        );
    }

    /// `if cond { ... } else { ... }`: a branch that yields the user variables it assigns, and
    /// its value when `value` is wanted (then returned).
    pub(super) fn branch(&mut self, i: &ExprIf, value: bool) -> Option<Value> {
        let cond = self.cond_var(&i.cond);
        let names = assigned::in_if(i);
        // A counter updated in a branch is held as a number from here on.
        self.hold_counters(&names);
        let slots = self.outer_slots(&names);
        let before: Vec<Option<Operand>> = slots.iter().map(|&s| self.slots[s].value).collect();
        self.b.begin();
        self.branches += 1;
        let then_value = self.scoped(|l| l.branch_block(&i.then_branch, value));
        let then = self.b.end();
        let then_after: Vec<Option<Operand>> = slots.iter().map(|&s| self.slots[s].value).collect();
        for (&s, v) in slots.iter().zip(&before) {
            self.slots[s].value = *v;
        }
        self.b.begin();
        let else_value = match i.else_branch.as_ref().map(|(_, e)| &**e) {
            Some(Expr::If(nested)) => self.branch(nested, value),
            Some(Expr::Block(b)) => self.scoped(|l| l.branch_block(&b.block, value)),
            Some(other) => Some(self.value(other)),
            None => None,
        };
        self.branches -= 1;
        let otherwise = self.b.end();
        let else_after: Vec<Option<Operand>> = slots.iter().map(|&s| self.slots[s].value).collect();
        let (mut then_yields, mut else_yields, mut kept) = (Vec::new(), Vec::new(), Vec::new());
        for ((&s, t), e) in slots.iter().zip(&then_after).zip(&else_after) {
            // A variable declared without a value (`let y;`) and assigned in one branch only
            // may not be read after the `if` (rustc: possibly uninitialised).
            let (Some(t), Some(e)) = (*t, *e) else {
                self.slots[s].value = None;
                continue;
            };
            self.same_type(i, t, e, Some(&self.slots[s].name.clone()));
            then_yields.push(t);
            else_yields.push(e);
            kept.push(s);
        }
        let like: Vec<Operand> = then_yields
            .iter()
            .zip(&else_yields)
            .map(|(t, e)| if t.var().is_none() { *e } else { *t })
            .collect();
        let mut outs = self.region_outs(&kept, &like);
        let mut result = None;
        if value {
            let (shape, t, e) = self.branch_values(i, then_value, else_value);
            let mut fresh = Vec::new();
            for (t, e) in t.into_iter().zip(e) {
                let out = self.b.fresh(crate::ir::Name::temp(), self.b.ty_either(t, e));
                then_yields.push(t);
                else_yields.push(e);
                outs.push(out);
                fresh.push(Operand::Var(out));
            }
            result = Some(shape.rebuild(&mut fresh.into_iter()));
        }
        let branch = Branch { cond, then, then_yields, otherwise, else_yields, outs };
        self.b.emit_if(branch);
        result
    }

    /// The values of the two branches of an `if` used as a value, checked: their shape, and
    /// the operands of each, in the same order.
    fn branch_values(
        &mut self,
        i: &ExprIf,
        then_value: Option<Value>,
        else_value: Option<Value>,
    ) -> (Shape, Vec<Operand>, Vec<Operand>) {
        let placeholder = (Shape::One, vec![Operand::Lit(0.0)], vec![Operand::Lit(0.0)]);
        if i.else_branch.is_none() {
            self.cx.error_spanned(
                i.if_token,
                "this `if` is used as a value, so it needs an `else` branch giving a value too",
            );
            return placeholder;
        }
        let (Some(t), Some(e)) = (then_value, else_value) else {
            self.cx.error_spanned(
                i.if_token,
                "this `if` is used as a value: each branch must end with a value (an expression without `;`)",
            );
            return placeholder;
        };
        let (mut t_ops, mut e_ops) = (Vec::new(), Vec::new());
        let (Some(ts), Some(es)) = (self.flatten(i, t, &mut t_ops), self.flatten(i, e, &mut e_ops))
        else {
            return placeholder;
        };
        if ts != es {
            self.cx.error_spanned(
                i.if_token,
                "`#[grad]` needs both branches of this `if` to give tuples of the same length, or values of the same struct",
            );
            return placeholder;
        }
        for (t, e) in t_ops.iter().zip(&e_ops) {
            self.same_type(i, *t, *e, None);
        }
        (ts, t_ops, e_ops)
    }

    /// The operands of `v`, in order, and its shape; `None` after reporting a part that an `if`
    /// cannot give (an integer, a closure).
    fn flatten(&mut self, i: &ExprIf, v: Value, ops: &mut Vec<Operand>) -> Option<Shape> {
        match v {
            Value::Real { op, .. } => {
                ops.push(op);
                Some(Shape::One)
            }
            Value::Tuple(parts) => {
                let mut shapes = Vec::new();
                for p in parts {
                    shapes.push(self.flatten(i, p, ops)?);
                }
                Some(Shape::Tuple(shapes))
            }
            Value::Record(record, parts) => {
                let mut shapes = Vec::new();
                for p in parts {
                    shapes.push(self.flatten(i, p, ops)?);
                }
                Some(Shape::Record(record, shapes))
            }
            Value::Int(None) => None,
            Value::Int(Some(_)) | Value::Closure(_) | Value::View(_) => {
                self.cx.error_spanned(
                    i.if_token,
                    "`#[grad]` supports an `if` used as a value only when it gives `f64` values or arrays (or tuples of them); compute an integer after the `if`, from what it depends on",
                );
                None
            }
        }
    }

    /// Reports branches that give `what` (a variable, or the value) different types.
    fn same_type(&mut self, i: &ExprIf, t: Operand, e: Operand, what: Option<&str>) {
        let (tt, et) = (self.b.ty(t), self.b.ty(e));
        // A literal or a constant takes the float type of the other side.
        let literal = |op: Operand, ty: &Ty| op.var().is_none() && ty.is_float();
        if tt == et
            || (t.var().is_none() && e.var().is_none())
            || literal(t, &et)
            || literal(e, &tt)
        {
            return;
        }
        let what = match what {
            Some(name) => format!("to leave `{name}` with the same type"),
            None => "to give the same type".to_owned(),
        };
        self.cx.error_spanned(
            i.if_token,
            format!(
                "`#[grad]` needs both branches of this `if` {what}; they give `{}` and `{}`",
                self.ty_text(&tt),
                self.ty_text(&et)
            ),
        );
    }

    /// The block of a branch: its value when `value` is wanted, its effects otherwise.
    fn branch_block(&mut self, block: &syn::Block, value: bool) -> Option<Value> {
        if value {
            self.block_value(block)
        } else {
            self.block_effects(block);
            None
        }
    }
}

/// The shape of a value an `if` gives: one operand, or a tuple or a struct of shapes.
#[derive(PartialEq)]
enum Shape {
    One,
    Tuple(Vec<Shape>),
    Record(Rc<super::structs::Record>, Vec<Shape>),
}

impl Shape {
    /// The value of this shape made of the next operands of `ops`.
    fn rebuild(&self, ops: &mut impl Iterator<Item = Operand>) -> Value {
        match self {
            Shape::One => Value::real(ops.next().unwrap_or(Operand::Lit(0.0))),
            Shape::Tuple(parts) => Value::Tuple(parts.iter().map(|p| p.rebuild(ops)).collect()),
            Shape::Record(r, parts) => {
                Value::Record(Rc::clone(r), parts.iter().map(|p| p.rebuild(ops)).collect())
            }
        }
    }
}
