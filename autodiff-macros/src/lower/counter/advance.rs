//! The pre-pass of a loop for one counter it advances: how far one run of the body advances it
//! (`Δ`, a closed form that may read the loop variable), read from the syntax before the body
//! is lowered, the same way lowering then rebinds the counter statement by statement. Inner
//! loops are summed over their ranges; their variables are bound for the pass only.
//!
//! The pass reports every refusal about the counter in the loop, inner loops included (their
//! own pass then finds the counter unknown and reports nothing again); what lowering itself
//! refuses (a `while`, a closure assigning a variable it captures, a refused range or pattern)
//! makes it give up without a word.

use std::collections::HashMap;
use std::rc::Rc;

use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::{BinOp, Block, Expr, ExprForLoop, Local, Pat, Stmt};

use super::super::assigned::{first_assignment, pattern_names, target_root};
use super::super::expr::iterator_chain;
use super::super::int::IntCtx;
use super::super::konst::Konst;
use super::super::sugar::{is_plain_range, names_in};
use super::super::{Binding, Kind, Lower};
use super::poly::{Fact, Poly, nonneg};
use super::{Closed, Leaf, in_branch, poly_of};
use crate::symbol;

/// How far a piece of the body advances the counter; `Err` once refused.
type Step = Result<Closed, ()>;

/// The state of the pass.
struct Pass<'p> {
    /// The counter.
    name: &'p str,
    /// The counters the loop advances: an amount may not read them.
    advanced: &'p [String],
    /// The names the body declared so far, innermost block last: `true` for those bound for
    /// the pass (integer `let`s, loop variables), `false` for those an amount may not read.
    scopes: Vec<HashMap<String, bool>>,
    /// The first of the facts about the variables the counter is summed over (the loop's own).
    first: usize,
}

impl Pass<'_> {
    fn declared(&self, name: &str) -> Option<bool> {
        self.scopes.iter().rev().find_map(|s| s.get(name).copied())
    }

    /// Whether the counter's name means a variable of the body here.
    fn shadowed(&self) -> bool {
        self.declared(self.name).is_some()
    }

    fn declare(&mut self, name: String, bound: bool) {
        if let Some(s) = self.scopes.last_mut() {
            s.insert(name, bound);
        }
    }
}

/// Whether `target` is the variable `name` itself.
fn is_name(target: &Expr, name: &str) -> bool {
    matches!(super::super::value::peel(target), Expr::Path(_))
        && target_root(target).is_some_and(|id| symbol::unraw(id) == name)
}

impl Lower<'_> {
    /// How far one run of `body` advances the counter `name` (the loop advances the counters
    /// `advanced`), or `Err` once refused.
    pub(super) fn advance(&mut self, name: &str, advanced: &[String], body: &Block) -> Step {
        let first = self.facts.len().saturating_sub(1);
        let mut pass = Pass { name, advanced, scopes: Vec::new(), first };
        // The sugar's fresh names are given out again when lowering meets the same rewrite.
        let names = self.names.clone();
        let step = self.advance_block(&mut pass, body);
        self.names = names;
        step
    }

    fn advance_block(&mut self, p: &mut Pass, block: &Block) -> Step {
        p.scopes.push(HashMap::new());
        let step = self.scoped(|l| {
            let mut total = Poly::zero();
            for stmt in &block.stmts {
                let d = match stmt {
                    Stmt::Local(local) => l.advance_local(p, local)?,
                    Stmt::Expr(e, _) => l.advance_expr(p, e)?,
                    Stmt::Item(_) | Stmt::Macro(_) => Poly::zero(),
                };
                total = l.sum_of(p, &total, &d, stmt)?;
            }
            Ok(total)
        });
        p.scopes.pop();
        step
    }

    /// `a + b`, or a report at `at` if a coefficient overflows.
    fn sum_of(&mut self, p: &Pass, a: &Closed, b: &Closed, at: &dyn ToTokens) -> Step {
        a.add(b).ok_or_else(|| self.cx.error_spanned(at, super::overflow(p.name)))
    }

    /// `let pat = init;`: what `init` advances; an integer variable is bound for the pass (an
    /// amount may read it), any other name is one an amount may not read.
    fn advance_local(&mut self, p: &mut Pass, local: &Local) -> Step {
        let d = match &local.init {
            Some(init) => self.advance_expr(p, &init.expr)?,
            None => Poly::zero(),
        };
        let (pat, annotated) = match &local.pat {
            Pat::Type(pt) => (&*pt.pat, Some(&*pt.ty)),
            other => (other, None),
        };
        let int = match annotated {
            Some(ty) => super::super::types::is_int(super::super::pattern::strip_refs(ty)),
            None => local.init.as_ref().is_some_and(|i| self.kind(&i.expr) == Kind::Int),
        };
        let konst = match (pat, &local.init) {
            (Pat::Ident(pi), Some(init))
                if int
                    && pi.mutability.is_none()
                    && pi.subpat.is_none()
                    && self.readable(p, &init.expr) =>
            {
                self.probe(|l| l.int_konst(&init.expr, IntCtx::Let)).map(|k| (pi, k))
            }
            _ => None,
        };
        match konst {
            Some((pi, k)) => {
                let name = symbol::unraw(&pi.ident);
                self.bind_name(&name, Binding::Int(Rc::new(k)));
                p.declare(name, true);
            }
            None => pattern_names(&local.pat).into_iter().for_each(|n| p.declare(n, false)),
        }
        Ok(d)
    }

    /// Whether `e` reads only names the pass knows: none the body declared that it cannot read,
    /// and no counter the loop advances.
    fn readable(&self, p: &Pass, e: &Expr) -> bool {
        self.unreadable(p, e).is_none()
    }

    /// A name `e` reads that an amount may not: one the body declared (`true`), or a counter
    /// the loop advances (`false`).
    fn unreadable(&self, p: &Pass, e: &Expr) -> Option<(String, bool)> {
        let mut names: Vec<String> = names_in(e).into_iter().collect();
        names.sort();
        names.into_iter().find_map(|n| match p.declared(&n) {
            Some(false) => Some((n, true)),
            Some(true) => None,
            None => (p.advanced.contains(&n)
                && matches!(self.lookup(&n), Some(Binding::Counter(_))))
            .then_some((n, false)),
        })
    }

    /// What evaluating `e` advances the counter by.
    fn advance_expr(&mut self, p: &mut Pass, e: &Expr) -> Step {
        if p.shadowed() {
            return Ok(Poly::zero());
        }
        match e {
            Expr::Assign(a) if is_name(&a.left, p.name) => {
                self.advance_assign(p, e, None, &a.right)
            }
            Expr::Binary(b) if is_name(&b.left, p.name) && is_compound(&b.op) => {
                self.advance_assign(p, e, Some(&b.op), &b.right)
            }
            Expr::ForLoop(f) if first_assignment(e, p.name).is_some() => self.advance_loop(p, f),
            Expr::If(_) | Expr::Match(_) => match first_assignment(e, p.name) {
                Some(at) => {
                    self.cx.error_spanned(at, in_branch(p.name));
                    Err(())
                }
                None => Ok(Poly::zero()),
            },
            // Refused where lowering meets them (a closure assigning what it captures, `while`).
            Expr::Closure(_)
            | Expr::While(_)
            | Expr::Loop(_)
            | Expr::Async(_)
            | Expr::Unsafe(_) => match first_assignment(e, p.name) {
                Some(_) => Err(()),
                None => Ok(Poly::zero()),
            },
            Expr::Block(b) => self.advance_block(p, &b.block),
            Expr::MethodCall(_) if iterator_chain(e).is_some() => {
                if first_assignment(e, p.name).is_none() {
                    return Ok(Poly::zero());
                }
                let plain = self.probe(|l| l.desugar_method(e));
                match plain {
                    Some(Some(plain)) => self.advance_expr(p, &plain),
                    _ => {
                        self.cx.error_spanned(e, follow(p.name));
                        Err(())
                    }
                }
            }
            other => {
                let mut total = Poly::zero();
                for child in children(other) {
                    let d = self.advance_expr(p, child)?;
                    total = self.sum_of(p, &total, &d, child)?;
                }
                Ok(total)
            }
        }
    }

    /// `name = rhs` (as `name = name + a`) or `name op= rhs` in the loop: the amount added.
    fn advance_assign(&mut self, p: &mut Pass, e: &Expr, op: Option<&BinOp>, rhs: &Expr) -> Step {
        let amount = match (op, super::super::value::peel(rhs)) {
            (Some(BinOp::AddAssign(_)), _) => Some((rhs, 1)),
            (Some(BinOp::SubAssign(_)), _) => Some((rhs, -1)),
            (None, Expr::Binary(b)) if is_name(&b.left, p.name) => match b.op {
                BinOp::Add(_) => Some((&*b.right, 1)),
                BinOp::Sub(_) => Some((&*b.right, -1)),
                _ => None,
            },
            (None, Expr::Binary(b))
                if is_name(&b.right, p.name) && matches!(b.op, BinOp::Add(_)) =>
            {
                Some((&*b.left, 1))
            }
            _ => None,
        };
        if self.kind(rhs) == Kind::Real {
            self.cx.error_spanned(e, super::f64_into(p.name));
            return Err(());
        }
        let Some((amount, sign)) = amount else {
            self.cx.error_spanned(e, set_in_loop(p.name));
            return Err(());
        };
        if let Some((name, local)) = self.unreadable(p, amount) {
            let why = match local {
                true => format!("`{name}` is declared inside the loop"),
                false => format!("it reads `{name}`, a counter the loop advances too"),
            };
            self.cx.error_spanned(amount, amount_varies(p.name, &why));
            return Err(());
        }
        let k = self.int_konst(amount, IntCtx::Counter).ok_or(())?;
        let d = poly_of(&k);
        let vars: Vec<Leaf> = self.facts[p.first..].iter().map(|f| f.var.clone()).collect();
        if let Some(var) = vars.iter().find(|v| d.split(v).is_none()) {
            let var = var.text();
            self.cx.error_spanned(amount, super::not_summable(p.name, Some(&var)));
            return Err(());
        }
        d.scale(sign).ok_or_else(|| self.cx.error_spanned(e, super::overflow(p.name)))
    }

    /// An inner loop `f` that advances the counter: the sum over its range of what its body
    /// advances it by.
    fn advance_loop(&mut self, p: &mut Pass, f: &ExprForLoop) -> Step {
        if !is_plain_range(&f.expr) {
            let plain = self.probe(|l| l.desugar_for(f));
            return match plain {
                Some(plain) => self.advance_loop(p, &plain),
                None => {
                    self.cx.error_spanned(&f.expr, follow(p.name));
                    Err(())
                }
            };
        }
        // Read before the body of the outer loop is lowered, the range must not change in it.
        if let Some((name, local)) = self.unreadable(p, &f.expr) {
            let why = match local {
                true => format!("its range reads `{name}`, declared inside the outer loop"),
                false => format!("its range reads `{name}`, a counter the outer loop advances"),
            };
            self.cx.error_spanned(&f.expr, amount_varies(p.name, &why));
            return Err(());
        }
        // A refused range or pattern is reported where lowering meets the loop.
        let bounds = self.probe(|l| l.bounds(&f.expr)).ok_or(())?;
        let (Some(lo), Some(hi)) = (&bounds.lo, &bounds.hi) else { return Err(()) };
        let ident = match &*f.pat {
            Pat::Ident(pi) if pi.by_ref.is_none() && pi.subpat.is_none() => Some(&pi.ident),
            Pat::Wild(_) => None,
            _ => return Err(()),
        };
        let (lo, last) = (poly_of(lo), poly_of(hi));
        let one = Poly::constant(1);
        let (hi, end) = match bounds.inclusive {
            true => (Some(last.clone()), last.add(&one)),
            false => (last.sub(&one), Some(last)),
        };
        let (Some(hi), Some(end)) = (hi, end) else {
            self.cx.error_spanned(&f.expr, super::overflow(p.name));
            return Err(());
        };
        p.scopes.push(HashMap::new());
        let step = self.scoped(|l| {
            let var = l.pass_variable(ident);
            if let Some(id) = ident {
                p.declare(symbol::unraw(id), true);
            }
            l.facts.push(Fact { var: var.clone(), lo: lo.clone(), hi });
            let d = l.advance_block(p, &f.body);
            l.facts.pop();
            Ok((var, d?))
        });
        p.scopes.pop();
        let (var, d) = step?;
        let count = end.sub(&lo).ok_or(())?;
        let outer = self.facts[p.first..].iter().find(|f| count.mentions(&f.var));
        let outer = outer.map(|f| f.var.text());
        if (outer.is_some() || d.mentions(&var)) && !nonneg(&count, &self.facts) {
            let count = self.render(&count).tokens.to_string();
            self.cx.error_spanned(&f.expr, backwards(p.name, outer.as_deref(), &count));
            return Err(());
        }
        match self.loop_total(&d, &var, &lo, &end) {
            Some(total) => Ok(total),
            None => {
                let text = ident.map(ToString::to_string);
                self.cx.error_spanned(&f.expr, super::not_summable(p.name, text.as_deref()));
                Err(())
            }
        }
    }

    /// The variable of an inner loop, bound for the pass (with a serial number of its own, so
    /// that it is told apart from any other variable of the same name).
    fn pass_variable(&mut self, ident: Option<&proc_macro2::Ident>) -> Leaf {
        let (name, tokens) = match ident {
            Some(id) => (symbol::unraw(id), id.to_token_stream()),
            None => ("_".to_owned(), TokenStream::new()),
        };
        let mut k = Konst::combine(tokens, crate::ir::Prec::Atom, &[]);
        k.deps.push((name.clone(), Some(self.serial + 1)));
        self.bind_name(&name, Binding::Int(Rc::new(k.clone())));
        Leaf::of(&k)
    }
}

/// The sub-expressions of `e`, in the order they are evaluated, for the pass to look into.
fn children(e: &Expr) -> Vec<&Expr> {
    match e {
        Expr::Assign(a) => vec![&*a.right, &*a.left],
        Expr::Binary(b) => vec![&*b.left, &*b.right],
        Expr::Unary(u) => vec![&*u.expr],
        Expr::Paren(x) => vec![&*x.expr],
        Expr::Group(g) => vec![&*g.expr],
        Expr::Cast(c) => vec![&*c.expr],
        Expr::Reference(r) => vec![&*r.expr],
        Expr::Field(f) => vec![&*f.base],
        Expr::Index(i) => vec![&*i.expr, &*i.index],
        Expr::MethodCall(m) => std::iter::once(&*m.receiver).chain(&m.args).collect(),
        Expr::Call(c) => std::iter::once(&*c.func).chain(&c.args).collect(),
        Expr::Tuple(t) => t.elems.iter().collect(),
        Expr::Array(a) => a.elems.iter().collect(),
        Expr::Repeat(r) => vec![&*r.expr],
        Expr::Return(r) => r.expr.iter().map(|x| &**x).collect(),
        Expr::Let(l) => vec![&*l.expr],
        _ => Vec::new(),
    }
}

/// The compound assignments lowering reads (it refuses the others itself).
fn is_compound(op: &BinOp) -> bool {
    matches!(
        op,
        BinOp::AddAssign(_) | BinOp::SubAssign(_) | BinOp::MulAssign(_) | BinOp::DivAssign(_)
    )
}

fn set_in_loop(name: &str) -> String {
    format!(
        "`#[grad]` supports only `{name} += ...` and `{name} -= ...` on the integer counter `{name}` inside a loop it is declared outside of; declare `{name}` inside the loop if each iteration starts it afresh, or compute the index from the loop variables"
    )
}

fn amount_varies(name: &str, why: &str) -> String {
    format!(
        "`#[grad]` cannot sum what this loop adds to the integer counter `{name}`: {why}; an amount may read constants, loop variables and integer variables declared before the loop or as immutable `let`s in it"
    )
}

fn backwards(name: &str, outer: Option<&str>, count: &str) -> String {
    let when = outer.map_or_else(String::new, |v| format!(" for some `{v}`"));
    format!(
        "`#[grad]` cannot sum what this loop adds to the integer counter `{name}`: the range may run backwards (start after its end){when}, and its trip count is then not `{count}`; write a range that cannot, such as `0..n`, or `i + 1..n` in `for i in 0..n`"
    )
}

fn follow(name: &str) -> String {
    format!(
        "`#[grad]` cannot tell how far this loop advances the integer counter `{name}`; write it as a `for` loop over an integer range"
    )
}
