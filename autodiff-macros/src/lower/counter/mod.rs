//! Integer counters, as code ported from C keeps them: `let mut idx = 0;` advanced with
//! `idx += 1` (or `+= k`, `-= k`) and read as an index. An integer that depends only on loop
//! counts is still a constant for differentiation, so a counter never reaches the IR: each use
//! reads its closed form, an integer expression of the loop variables and trip counts, as if
//! the user had computed the index from them.
//!
//! Outside loops an update rebinds the counter to its new expression. In a `for` loop, a
//! pre-pass over the body ([`advance`]) finds how far one iteration advances it, `Δ(t)`, which
//! may depend on the iteration `t` to the first degree (a nested loop over `i + 1..n` advances
//! it by `n − i − 1`); at the top of iteration `i` the counter is its value before the loop plus
//! `Σ Δ(t)` over the iterations before `i`, and after the loop plus the sum over all of them.
//! Lowering the body then rebinds the counter statement by statement as outside loops; that it
//! ends the iteration at the top form plus `Δ` is checked (an internal error otherwise).
//!
//! A counter updated where it has no closed form, in an `if` or a `match` (its value would
//! depend on the branch) or in a loop that may end early, is held as a number from there on
//! ([`held`]). What it does not know, and refuses with a message at the construct: (in a
//! function over `f32` or `T: Float`, which holds no counter) a counter advanced in an `if`, a
//! `match` or a loop that may end early; set (`=`, `*=`) inside a loop it was declared outside of, advanced by an amount read from `f64` values or from variables the
//! loop declares, or by an amount whose sum has no closed form here (see [`poly`]). After a
//! loop whose range it cannot tell is not reversed (`1..n` when the amount depends on the
//! index), reading the counter is refused.

mod advance;
mod held;
mod poly;
#[cfg(test)]
mod tests;

use std::rc::Rc;

use quote::{ToTokens, quote};
use syn::{BinOp, Expr, ExprForLoop};

use super::control::Bounds;
use super::int::IntCtx;
use super::konst::{Bad, Konst, bin_prec, binary};
use super::{Binding, Kind, Lower};
use crate::ir::{Prec, Prim};
pub(super) use poly::Fact;
use poly::{Build, Poly, nonneg};

/// An integer expression the closed forms do not look into (`i`, `N`, `data.len()`), told apart
/// from others by its text and what its names are bound to.
#[derive(Clone, Debug)]
pub(super) struct Leaf {
    key: String,
    konst: Rc<Konst>,
}

impl Leaf {
    /// `k` as an atom. What it depends on is what its tokens name: an integer `let` it was
    /// substituted from is not (where a closed form is read, that `let` may be out of scope).
    pub(super) fn of(k: &Konst) -> Leaf {
        let named = super::sugar::names_in(&k.tokens);
        let mut deps: Vec<_> = k.deps.iter().filter(|(n, _)| named.contains(n)).cloned().collect();
        deps.sort();
        deps.dedup();
        let key = format!("{} {deps:?} {:?}", k.tokens, k.loops);
        Leaf { key, konst: Rc::new(Konst { poly: None, deps, ..k.clone() }) }
    }
}

impl Leaf {
    /// The expression's text, for messages.
    pub(super) fn text(&self) -> String {
        self.konst.tokens.to_string()
    }
}

impl PartialEq for Leaf {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}

impl Eq for Leaf {}

impl PartialOrd for Leaf {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Leaf {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.key.cmp(&other.key)
    }
}

impl poly::Atom for Leaf {
    fn reads(&self, var: &Self) -> bool {
        let (mine, theirs) = (&self.konst, &var.konst);
        self != var
            && (theirs.deps.iter().any(|d| mine.deps.contains(d))
                || theirs.index.is_some_and(|l| mine.loops.contains(&l)))
    }
}

/// A closed form: a polynomial over atoms.
pub(super) type Closed = Poly<Leaf>;

/// `k` as a polynomial: its own, its value, or itself as one atom.
pub(super) fn poly_of(k: &Konst) -> Closed {
    if let Some(p) = &k.poly {
        return (**p).clone();
    }
    match k.value.and_then(|v| i64::try_from(v).ok()) {
        Some(v) => Poly::constant(v),
        None => Poly::atom(Leaf::of(k)),
    }
}

/// An integer variable declared `mut`.
pub(super) struct Counter {
    /// The user's name for it.
    pub name: String,
    /// What it holds here.
    pub state: State,
    /// How many branches were open where it was declared.
    pub depth: usize,
}

impl Counter {
    /// A copy holding what this one holds now (for a closure that reads it).
    pub(super) fn pinned(&self) -> Counter {
        Counter { name: self.name.clone(), state: self.state.clone(), depth: self.depth }
    }
}

/// What a counter holds.
#[derive(Clone)]
pub(super) enum State {
    /// Its closed form.
    Known(Closed),
    /// Not known: reading it is refused with this message, or reports nothing more (`None`)
    /// after an error.
    Unknown(Option<Rc<str>>),
    /// Held as a number, in this slot ([`held`]).
    Held(usize),
}

/// What lowering needs after a loop to give the counters it advances their values there.
pub(super) struct Advancing {
    /// Each counter, its value before the loop, how far an iteration advances it, and its value
    /// at the end of an iteration as the pre-pass has it.
    each: Vec<(usize, Closed, Closed, Closed)>,
    /// The loop variable, its first value and one past its last (`None`: no fact was pushed).
    var: Option<(Leaf, Closed, Closed)>,
    /// The range as written, for messages.
    range: String,
}

/// How to write closed forms as constants of lowering.
struct Render<'f> {
    facts: &'f [Fact<Leaf>],
}

impl Render<'_> {
    fn op(op: BinOp, a: &Konst, b: &Konst) -> Konst {
        let prec = bin_prec(&op).unwrap_or(Prec::Product);
        binary(&op, prec, a, b, true)
    }
}

impl Build<Leaf> for Render<'_> {
    type Out = Konst;

    fn lit(&mut self, n: u64) -> Konst {
        let tokens = proc_macro2::Literal::u64_unsuffixed(n).into_token_stream();
        Konst::int_lit(tokens, Some(n))
    }

    fn atom(&mut self, a: &Leaf) -> Konst {
        (*a.konst).clone()
    }

    fn add(&mut self, a: Konst, b: Konst) -> Konst {
        Render::op(BinOp::Add(Default::default()), &a, &b)
    }

    fn sub(&mut self, a: Konst, b: Konst) -> Konst {
        Render::op(BinOp::Sub(Default::default()), &a, &b)
    }

    fn mul(&mut self, a: Konst, b: Konst) -> Konst {
        Render::op(BinOp::Mul(Default::default()), &a, &b)
    }

    fn half(&mut self, a: Konst) -> Konst {
        let two = self.lit(2);
        Render::op(BinOp::Div(Default::default()), &a, &two)
    }

    fn pred(&mut self, a: Konst) -> Konst {
        if let Some(v) = a.value {
            return self.lit(v.saturating_sub(1));
        }
        let at = a.operand(Prec::Atom);
        let method =
            proc_macro2::Ident::new(crate::symbol::SATURATING_SUB, proc_macro2::Span::call_site());
        Konst::combine(quote!(#at.#method(1)), Prec::Atom, &[&a])
    }

    fn at_least_one(&self, n: &Closed) -> bool {
        n.sub(&Poly::constant(1)).is_some_and(|p| nonneg(&p, self.facts))
    }
}

impl Lower<'_> {
    /// `p` as a constant: the atom itself when it is one (a loop variable stays one, for the
    /// transforms that read indices), else its expression.
    pub(super) fn render(&self, p: &Closed) -> Konst {
        if let Some(a) = p.as_atom() {
            return (*a.konst).clone();
        }
        let mut k = p.render(&mut Render { facts: &self.facts });
        k.poly = Some(Rc::new(p.clone()));
        k
    }

    /// `q.saturating_sub(p)`: the trip count of a loop from `p` to `q` that may be reversed.
    fn saturating_count(&self, q: &Closed, p: &Closed) -> Closed {
        let (q, p) = (self.render(q), self.render(p));
        let recv = match q.value {
            Some(v) => {
                proc_macro2::Literal::usize_suffixed(usize::try_from(v).unwrap_or(usize::MAX))
                    .into_token_stream()
            }
            None => q.operand(Prec::Atom),
        };
        let (pt, method) = (
            &p.tokens,
            proc_macro2::Ident::new(crate::symbol::SATURATING_SUB, proc_macro2::Span::call_site()),
        );
        let k = Konst::combine(quote!(#recv.#method(#pt)), Prec::Atom, &[&q, &p]);
        Poly::atom(Leaf::of(&k))
    }

    /// `let mut name = k;`: a counter holding `k`.
    pub(super) fn declare_counter(&mut self, name: &str, k: &Konst) {
        let counter = Counter {
            name: name.to_owned(),
            state: State::Known(poly_of(k)),
            depth: self.branches,
        };
        self.counters.push(counter);
        self.bind_name(name, Binding::Counter(self.counters.len() - 1));
    }

    /// Whether the value of counter `c` is known here (as a closed form, or held).
    pub(super) fn counter_known(&self, c: usize) -> bool {
        !matches!(self.counters[c].state, State::Unknown(_))
    }

    /// The counter `c` read at `id`: its closed form.
    pub(super) fn read_counter(&mut self, c: usize, id: &proc_macro2::Ident) -> Result<Konst, Bad> {
        let p = match &self.counters[c].state {
            State::Known(p) => p.clone(),
            State::Unknown(None) => return Err(Bad::Reported),
            State::Unknown(Some(why)) => {
                let why = why.to_string();
                self.cx.error_spanned(id, why);
                return Err(Bad::Reported);
            }
            State::Held(_) => {
                let name = self.counters[c].name.clone();
                self.cx.error_spanned(id, held::held_use(&name));
                return Err(Bad::Reported);
            }
        };
        let k = self.render(&p);
        self.check_deps(id, &k)?;
        Ok(k)
    }

    /// `name = rhs` or `name op= rhs` for the counter `c`: its new closed form.
    pub(super) fn assign_counter(&mut self, e: &Expr, c: usize, op: Option<Prim>, rhs: &Expr) {
        if let State::Held(s) = self.counters[c].state {
            return self.assign_held(e, c, s, op, rhs);
        }
        let name = self.counters[c].name.clone();
        if let State::Unknown(None) = self.counters[c].state {
            return;
        }
        if self.branches > self.counters[c].depth {
            self.cx.error_spanned(e, in_branch(&name));
            self.counters[c].state = State::Unknown(None);
            return;
        }
        if self.kind(rhs) == Kind::Real {
            self.cx.error_spanned(e, f64_into(&name));
            self.counters[c].state = State::Unknown(None);
            return;
        }
        let Some(amount) = self.int_konst(rhs, IntCtx::Counter) else {
            self.counters[c].state = State::Unknown(None);
            return;
        };
        let state = match (op, &self.counters[c].state) {
            (None, _) => State::Known(poly_of(&amount)),
            (Some(_), State::Unknown(why)) => State::Unknown(why.clone()),
            (Some(_), State::Held(s)) => State::Held(*s),
            (Some(prim), State::Known(now)) => {
                let a = poly_of(&amount);
                let next = match prim {
                    Prim::Add => now.add(&a),
                    Prim::Sub => now.sub(&a),
                    Prim::Mul => now.mul(&a),
                    _ => {
                        let now = self.render(now);
                        let div = binary(
                            &BinOp::Div(Default::default()),
                            Prec::Product,
                            &now,
                            &amount,
                            true,
                        );
                        Some(poly_of(&div))
                    }
                };
                match next {
                    Some(p) => State::Known(p),
                    None => {
                        self.cx.error_spanned(e, overflow(&name));
                        State::Unknown(None)
                    }
                }
            }
        };
        self.counters[c].state = state;
    }

    /// Before the body of loop `f` (its variable `var` bound, `names` the variables it
    /// assigns): what is known of its variable, and the closed form of each counter it
    /// advances at the top of an iteration. Returns what [`Lower::counters_after`] needs.
    pub(super) fn counters_before(
        &mut self,
        f: &ExprForLoop,
        names: &[String],
        bounds: Option<&Bounds>,
        var: Option<&Konst>,
    ) -> Advancing {
        let mut counters: Vec<usize> = Vec::new();
        for name in names {
            if let Some(Binding::Counter(c)) = self.lookup(name)
                && !counters.contains(c)
                && self.held_slot(*c).is_none()
            {
                counters.push(*c);
            }
        }
        let range = f.expr.to_token_stream().to_string().replace(" ..", "..").replace(".. ", "..");
        let parts = bounds.and_then(|b| Some((b.lo.as_ref()?, b.hi.as_ref()?, b)));
        let (Some((lo, hi, b)), Some(var)) = (parts, var) else {
            for c in counters {
                self.counters[c].state = State::Unknown(None);
            }
            return Advancing { each: Vec::new(), var: None, range };
        };
        let (lo, last) = (poly_of(lo), poly_of(hi));
        let one = Poly::constant(1);
        let (hi, end) = match b.inclusive {
            true => (Some(last.clone()), last.add(&one)),
            false => (last.sub(&one), Some(last)),
        };
        let var = Leaf::of(var);
        let (Some(hi), Some(end)) = (hi, end) else {
            for c in counters {
                let name = self.counters[c].name.clone();
                self.cx.error_spanned(&f.expr, overflow(&name));
                self.counters[c].state = State::Unknown(None);
            }
            return Advancing { each: Vec::new(), var: None, range };
        };
        self.facts.push(Fact { var: var.clone(), lo: lo.clone(), hi });
        let advanced: Vec<String> =
            counters.iter().map(|c| self.counters[*c].name.clone()).collect();
        let mut each = Vec::new();
        for c in counters {
            let State::Known(entry) = self.counters[c].state.clone() else { continue };
            let name = self.counters[c].name.clone();
            let step = self.advance(&name, &advanced, &f.body);
            let top = step.as_ref().ok().and_then(|d| {
                let x = Poly::atom(var.clone());
                let (from, to) = match b.rev {
                    false => (lo.clone(), x),
                    true => (x.add(&one)?, end.clone()),
                };
                entry.add(&d.sum_over(&var, &from, &to)?)
            });
            match (step, top) {
                (Ok(d), Some(top)) => {
                    let Some(bottom) = top.add(&d) else {
                        self.cx.error_spanned(&f.expr, overflow(&name));
                        self.counters[c].state = State::Unknown(None);
                        continue;
                    };
                    self.counters[c].state = State::Known(top);
                    each.push((c, entry, d, bottom));
                }
                (Ok(_), None) => {
                    self.cx.error_spanned(&f.expr, not_summable(&name, var_text(f).as_deref()));
                    self.counters[c].state = State::Unknown(None);
                }
                (Err(()), _) => self.counters[c].state = State::Unknown(None),
            }
        }
        Advancing { each, var: Some((var, lo, end)), range }
    }

    /// After the body of loop `f`: the values of the counters it advances.
    pub(super) fn counters_after(&mut self, f: &ExprForLoop, adv: Advancing) {
        let Some((var, lo, end)) = adv.var else { return };
        self.facts.pop();
        for (c, entry, d, bottom) in adv.each {
            let State::Known(lowered) = &self.counters[c].state else { continue };
            let name = self.counters[c].name.clone();
            // The body, lowered, advanced the counter as the pre-pass read it would.
            if *lowered != bottom {
                self.cx.error_spanned(&f.expr, format!("internal error in `#[grad]`: the closed form of the integer counter `{name}` at the end of an iteration is not the one its loop was summed with; please report this with the function that caused it"));
                self.counters[c].state = State::Unknown(None);
                continue;
            }
            self.counters[c].state = match self.loop_total(&d, &var, &lo, &end) {
                Some(total) => match entry.add(&total) {
                    Some(p) => State::Known(p),
                    None => State::Unknown(Some(overflow(&name).into())),
                },
                None => State::Unknown(Some(after_loop(&name, &adv.range).into())),
            };
        }
    }

    /// `Σ_{var = lo}^{end − 1} d`, or `None` when it has no closed form here (`d` of a higher
    /// degree in `var`, or depending on it when the range may be reversed).
    fn loop_total(&self, d: &Closed, var: &Leaf, lo: &Closed, end: &Closed) -> Option<Closed> {
        let count = end.sub(lo)?;
        let forward = nonneg(&count, &self.facts);
        if !d.mentions(var) {
            return match forward {
                true => d.mul(&count),
                false => d.mul(&self.saturating_count(end, lo)),
            };
        }
        match forward {
            true => d.sum_over(var, lo, end),
            false => None,
        }
    }
}

/// The loop variable of `f`, for messages (`None` for `_`).
fn var_text(f: &ExprForLoop) -> Option<String> {
    match &*f.pat {
        syn::Pat::Ident(pi) => Some(pi.ident.to_string()),
        _ => None,
    }
}

/// The message for a counter advanced in a branch.
pub(super) fn in_branch(name: &str) -> String {
    format!(
        "`#[grad]` does not support updating the integer counter `{name}` inside an `if` or a `match` in a function over `f32` or a generic float: its value after the branch would depend on the branch taken, and the function's scalar type cannot hold every count; update it on every path, compute the index from the loop variables, or count in an `f64` variable"
    )
}

/// The message for an `f64` value assigned or added to a counter.
fn f64_into(name: &str) -> String {
    format!(
        "`#[grad]` cannot assign an `f64` value to the integer variable `{name}`; declare an `f64` variable instead, such as `let mut {name} = 0.0;`"
    )
}

fn overflow(name: &str) -> String {
    format!(
        "`#[grad]` cannot compute the closed form of the integer counter `{name}`: a coefficient overflows"
    )
}

/// The message for a counter whose sum over a loop (of variable `var`) has no closed form.
fn not_summable(name: &str, var: Option<&str>) -> String {
    let linear = match var {
        Some(var) => format!(
            "linear in `{var}` (as `{name} += {var}` or an inner loop over `{var} + 1..n` does)"
        ),
        None => "linear in the loop variable".to_owned(),
    };
    format!(
        "`#[grad]` cannot give the integer counter `{name}` a closed form in this loop: each iteration must advance it by the same amount or by an amount {linear}; compute the index from the loop variables instead"
    )
}

fn after_loop(name: &str, range: &str) -> String {
    format!(
        "`#[grad]` cannot give the integer counter `{name}` a value after the loop over `{range}`: what an iteration adds depends on the loop variable, and the macro cannot tell that the range is not reversed; read `{name}` inside the loop, or compute the index from the loop variables"
    )
}
