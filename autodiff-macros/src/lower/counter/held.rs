//! Counters held as numbers: a counter updated where its value has no closed form (inside an
//! `if` or a `match`, in a loop that may end early) is held from there on as a value of the IR
//! of the function's scalar type, which the regions around carry and yield like any variable:
//!
//! ```text
//! let mut n = 0;                           let mut n = 0.0;
//! for v in data {                          for v in data {
//!     if v > 0.0 { n += 1; }       reads       if v > 0.0 { n += 1.0; }
//! }                                as      }
//! s / n as f64                             s / n
//! ```
//! It is held at the region that needs it (the loop or the `if` it is updated in, or the outer
//! loop around that), before the region is lowered; up to there it is a closed form as any
//! counter. Its value is an integer's in every run that fits `f64`'s 53-bit mantissa, and its
//! derivative is zero (it adds constants only).
//!
//! A counter that a `while` or a `loop` advances by a literal in one statement of its body
//! (`it += 1`), and nowhere else, is a closed form in the iteration's index inside the loop
//! (an index there, `x[k]`), and held after it ([`Stepped`]).
//!
//! What it does not know, and refuses with a message at the use: a held counter read where an
//! integer is (an index, a bound, an integer `let`, a call's argument), divided, or given to a
//! method; and holding one in a function over `f32` or `T: Float`, whose scalar would not hold
//! every count exactly (there the refusals of closed forms stand).

use proc_macro2::{Ident, Span};
use quote::quote;
use syn::{BinOp, Expr, UnOp};

use super::super::int::IntCtx;
use super::super::konst::Konst;
use super::super::passed::ConstTy;
use super::super::{Binding, Kind, Lower, Slot};
use super::poly::Poly;
use super::{Closed, Leaf, State};
use crate::ir::{Operand, Prec, Prim, Scalar};
use crate::symbol;

impl Lower<'_> {
    /// The slot holding counter `c`, if it is held.
    pub(in crate::lower) fn held_slot(&self, c: usize) -> Option<usize> {
        match self.counters[c].state {
            State::Held(s) => Some(s),
            _ => None,
        }
    }

    /// Whether counters can be held here: in a function over `f64`.
    pub(in crate::lower) fn holds_counters(&self) -> bool {
        self.scalar.kind == Scalar::F64 && self.scalar.param.is_none()
    }

    /// Holds the counters among `names` whose closed form is known (the others say why where
    /// they are read): each becomes a slot starting from its value here.
    pub(in crate::lower) fn hold_counters(&mut self, names: &[String]) {
        if !self.holds_counters() {
            return;
        }
        for name in names {
            let Some(Binding::Counter(c)) = self.lookup(name).cloned() else { continue };
            let State::Known(p) = self.counters[c].state.clone() else { continue };
            let k = self.render(&p);
            let value = Some(self.int_as_scalar(k));
            let field_depths = std::rc::Rc::default();
            let (alias, int_alias, strukt, ty) = (None, None, None, ConstTy::Other);
            let name = name.clone();
            self.slots.push(Slot { name, value, alias, int_alias, ty, strukt, field_depths });
            self.counters[c].state = State::Held(self.slots.len() - 1);
        }
    }

    /// The integer constant `k` as a value of the scalar type: a literal, or `k as f64`.
    fn int_as_scalar(&mut self, k: Konst) -> Operand {
        if let Some(v) = k.value.filter(|v| *v < 1 << 53) {
            // Below 2^53: exact.
            return Operand::Lit(v as f64);
        }
        let (it, ty) = (k.operand(Prec::Cast), Ident::new(symbol::F64, Span::call_site()));
        let cast = Konst::combine(quote!(#it as #ty), Prec::Cast, &[&k]);
        self.ext(cast)
    }

    /// Whether `e` reads a held counter.
    pub(in crate::lower) fn reads_held(&self, e: &Expr) -> bool {
        self.held_in(e).is_some()
    }

    /// The name of a held counter that `e` reads, if any.
    fn held_in(&self, e: &Expr) -> Option<String> {
        let mut names: Vec<String> = super::super::sugar::names_in(e).into_iter().collect();
        names.sort();
        names.into_iter().find(
            |n| matches!(self.lookup(n), Some(Binding::Counter(c)) if self.held_slot(*c).is_some()),
        )
    }

    /// The integer expression `e` (`n`, `n + 1`, `k * n`, `N`) as a value of the scalar type,
    /// reading held counters as the values they hold and integer constants cast.
    pub(in crate::lower) fn held_int(&mut self, e: &Expr, ctx: IntCtx) -> Operand {
        let Some(name) = self.held_in(e) else {
            return match self.int_konst(e, ctx) {
                Some(k) => self.int_as_scalar(k),
                None => Operand::Lit(0.0),
            };
        };
        let prim = |op: &BinOp| match op {
            BinOp::Add(_) => Some(Prim::Add),
            BinOp::Sub(_) => Some(Prim::Sub),
            BinOp::Mul(_) => Some(Prim::Mul),
            _ => None,
        };
        match e {
            Expr::Paren(p) => self.held_int(&p.expr, ctx),
            Expr::Group(g) => self.held_int(&g.expr, ctx),
            Expr::Path(p) => {
                let c = p.path.get_ident().and_then(|id| match self.lookup(&symbol::unraw(id)) {
                    Some(Binding::Counter(c)) => self.held_slot(*c),
                    _ => None,
                });
                c.and_then(|s| self.slots[s].value).unwrap_or(Operand::Lit(0.0))
            }
            Expr::Binary(b) if prim(&b.op).is_some() => {
                let l = self.held_int(&b.left, ctx);
                let r = self.held_int(&b.right, ctx);
                self.b.push(prim(&b.op).unwrap_or(Prim::Add), &[l, r])
            }
            Expr::Unary(u) if matches!(u.op, UnOp::Neg(_)) => {
                let a = self.held_int(&u.expr, ctx);
                self.b.push(Prim::Neg, &[a])
            }
            _ => {
                self.cx.error_spanned(e, held_use(&name));
                Operand::Lit(0.0)
            }
        }
    }

    /// `name = rhs` or `name op= rhs` for the counter `c` held in slot `s`.
    pub(super) fn assign_held(
        &mut self,
        e: &Expr,
        c: usize,
        s: usize,
        op: Option<Prim>,
        rhs: &Expr,
    ) {
        let name = self.counters[c].name.clone();
        if self.kind(rhs) == Kind::Real {
            self.cx.error_spanned(e, super::f64_into(&name));
            return;
        }
        if matches!(op, Some(Prim::Div)) {
            self.cx.error_spanned(e, held_use(&name));
            return;
        }
        let since = self.mark();
        let r = self.held_int(rhs, IntCtx::Counter);
        let value = match (op, self.slots[s].value) {
            (Some(prim), Some(now)) => self.b.push(prim, &[now, r]),
            _ => r,
        };
        self.name_value(&name, value, since);
        self.slots[s].value = Some(value);
    }
}

/// The message for a held counter used where only its value as a number is known.
pub(super) fn held_use(name: &str) -> String {
    format!(
        "`#[grad]` holds the integer counter `{name}` as a number from its update inside an `if` or a `match`, or in a loop that may end early (where it has no closed form): it supports comparing it, `+`, `-` and `*` on it, and reading it as `{name} as f64`, not reading it as an index, a bound or another integer, nor dividing it; compute such an index from the loop variables"
    )
}

/// A counter that a loop of unknown length advances by the same literal in one statement of
/// its body, `it += 1`, and nowhere else: in the loop it is a closed form in the iteration's
/// index (`it0 + step · k` before the statement), and after the loop it is held, in a slot the
/// loop carries (yielding that closed form at the end of each iteration).
pub(in crate::lower) struct Stepped {
    counter: usize,
    /// The slot that holds it after the loop.
    pub(in crate::lower) slot: usize,
    entry: Closed,
    step: i64,
}

/// Counts the assignments to `name` and whether a pattern binds it (then it is not the same
/// variable throughout).
struct Writes<'n> {
    name: &'n str,
    writes: usize,
    bound: bool,
}

impl<'ast> syn::visit::Visit<'ast> for Writes<'_> {
    fn visit_expr_assign(&mut self, a: &'ast syn::ExprAssign) {
        self.writes += usize::from(root_is(&a.left, self.name));
        syn::visit::visit_expr_assign(self, a);
    }

    fn visit_expr_binary(&mut self, b: &'ast syn::ExprBinary) {
        let compound = !matches!(
            b.op,
            BinOp::Add(_)
                | BinOp::Sub(_)
                | BinOp::Mul(_)
                | BinOp::Div(_)
                | BinOp::Rem(_)
                | BinOp::And(_)
                | BinOp::Or(_)
                | BinOp::BitXor(_)
                | BinOp::BitAnd(_)
                | BinOp::BitOr(_)
                | BinOp::Shl(_)
                | BinOp::Shr(_)
                | BinOp::Eq(_)
                | BinOp::Lt(_)
                | BinOp::Le(_)
                | BinOp::Ne(_)
                | BinOp::Ge(_)
                | BinOp::Gt(_)
        );
        self.writes += usize::from(compound && root_is(&b.left, self.name));
        syn::visit::visit_expr_binary(self, b);
    }

    fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
        self.bound |= symbol::unraw(&p.ident) == self.name;
        syn::visit::visit_pat_ident(self, p);
    }
}

/// Whether the assignment target `e` is (an element of) the variable `name`.
fn root_is(e: &Expr, name: &str) -> bool {
    super::super::assigned::target_root(e).is_some_and(|id| symbol::unraw(id) == name)
}

/// The literal step of `s` if it is `name += n` or `name -= n` for an integer literal `n`.
fn literal_step(s: &syn::Stmt, name: &str) -> Option<i64> {
    let syn::Stmt::Expr(Expr::Binary(b), _) = s else { return None };
    let is_name =
        matches!(super::super::value::peel(&b.left), Expr::Path(_)) && root_is(&b.left, name);
    let n = i64::try_from(super::super::sugar::int_literal(&b.right)?).ok()?;
    match b.op {
        BinOp::AddAssign(_) if is_name => Some(n),
        BinOp::SubAssign(_) if is_name => Some(-n),
        _ => None,
    }
}

impl Lower<'_> {
    /// The counters among `names` that the body `stmts` of a loop of unknown length advances
    /// as [`Stepped`] says, each given its slot, starting from its value here.
    pub(in crate::lower) fn stepped_counters(
        &mut self,
        stmts: &[syn::Stmt],
        names: &[String],
    ) -> Vec<Stepped> {
        let mut out = Vec::new();
        for name in names {
            let Some(Binding::Counter(c)) = self.lookup(name).cloned() else { continue };
            let State::Known(entry) = self.counters[c].state.clone() else { continue };
            let mut w = Writes { name, writes: 0, bound: false };
            stmts.iter().for_each(|s| syn::visit::Visit::visit_stmt(&mut w, s));
            let steps: Vec<i64> = stmts.iter().filter_map(|s| literal_step(s, name)).collect();
            let ([step], 1, false) = (steps.as_slice(), w.writes, w.bound) else { continue };
            let value = Some(self.int_as_scalar(self.render(&entry)));
            let field_depths = std::rc::Rc::default();
            let (alias, int_alias, strukt, ty) = (None, None, None, ConstTy::Other);
            let name = name.clone();
            self.slots.push(Slot { name, value, alias, int_alias, ty, strukt, field_depths });
            out.push(Stepped { counter: c, slot: self.slots.len() - 1, entry, step: *step });
        }
        out
    }

    /// At the top of an iteration of index `k`: each stepped counter is `entry + step · k`.
    pub(in crate::lower) fn stepped_top(&mut self, stepped: &[Stepped], k: &Konst) {
        let k = Poly::atom(Leaf::of(k));
        for s in stepped {
            let top = k.scale(s.step).and_then(|d| s.entry.add(&d));
            self.counters[s.counter].state = match top {
                Some(p) => State::Known(p),
                None => {
                    State::Unknown(Some(super::overflow(&self.counters[s.counter].name).into()))
                }
            };
        }
    }

    /// At the end of the iteration: each stepped counter's slot yields its closed form there,
    /// checked against what lowering the body made of it.
    pub(in crate::lower) fn stepped_bottom(&mut self, stepped: &[Stepped], k: &Konst, at: Span) {
        let k = Poly::atom(Leaf::of(k));
        for s in stepped {
            let want = k.add(&Poly::constant(1)).and_then(|k1| k1.scale(s.step));
            let want = want.and_then(|d| s.entry.add(&d));
            let value = match (&self.counters[s.counter].state, want) {
                (State::Known(now), Some(want)) if *now == want => {
                    let r = self.render(&want);
                    self.int_as_scalar(r)
                }
                (State::Unknown(_), _) => Operand::Lit(0.0),
                _ => {
                    let name = self.counters[s.counter].name.clone();
                    self.cx.error_at(at, format!("internal error in `#[grad]`: the closed form of the integer counter `{name}` at the end of an iteration is not the one of its step; please report this with the function that caused it"));
                    Operand::Lit(0.0)
                }
            };
            self.slots[s.slot].value = Some(value);
        }
    }

    /// After the loop: each stepped counter is held in its slot.
    pub(in crate::lower) fn stepped_after(&mut self, stepped: &[Stepped]) {
        for s in stepped {
            self.counters[s.counter].state = State::Held(s.slot);
        }
    }
}
