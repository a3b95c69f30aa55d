//! What a loop over a chain becomes: a `for` loop over it, a `filter` for a body that is one
//! `if`, and for a reduction or a loop that updates state, a consumer (`sum`, `fold`) whose
//! closure does what the body did, in the same order.

use std::collections::HashSet;

use super::super::ast::{
    Adaptor, Assign, Block, Closure, Consumer, Expr, Iter, Op, Pat, Place, Range, Source, Stmt,
};
use super::chain::adapt;
use super::plan::Plan;
use super::reads::Reads;
use super::walk::{self, cond_names, expr_names, stmt_names};
use super::{Rewriter, Ty};

/// The accumulator of a reduction: a body of `let`s and `acc += e` / `acc -= e` of one
/// variable that nothing else reads.
fn reduction(body: &[Stmt]) -> Option<String> {
    let mut acc: Option<&String> = None;
    let mut reads = HashSet::new();
    for s in body {
        match s {
            Stmt::Let(_, _, e) => expr_names(e, &mut reads),
            Stmt::LetInt(..) => stmt_names(s, &mut reads),
            Stmt::Assign(Place::Var(v), Assign::Add | Assign::Sub, e) => {
                if acc.is_some_and(|a| a != v) {
                    return None;
                }
                acc = Some(v);
                expr_names(e, &mut reads);
            }
            _ => return None,
        }
    }
    acc.filter(|a| !reads.contains(*a)).cloned()
}

/// A reduction's body as the value of a `fold`'s closure whose accumulator is `param`: each
/// update a new `let` (or the value, for the last statement).
fn functional(body: Vec<Stmt>, param: &str, fresh: &mut dyn FnMut() -> String) -> Block {
    let mut current = param.to_string();
    let mut stmts = Vec::new();
    let last = body.len().saturating_sub(1);
    for (k, s) in body.into_iter().enumerate() {
        match s {
            Stmt::Assign(_, op, e) => {
                let op = if op == Assign::Add { Op::Add } else { Op::Sub };
                let value = Expr::Bin(op, Box::new(Expr::Var(current.clone())), Box::new(e));
                if k == last {
                    return Block { stmts, tail: value };
                }
                current = fresh();
                stmts.push(Stmt::Let(current.clone(), None, value));
            }
            other => stmts.push(other),
        }
    }
    Block { stmts, tail: Expr::Var(current) }
}

/// Whether every variable in `accs` is read, in `body`, before it is assigned.
fn read_first(body: &[Stmt], accs: &[String]) -> bool {
    accs.iter().all(|a| {
        let first = body.iter().find(|s| {
            let mut names = HashSet::new();
            stmt_names(s, &mut names);
            names.contains(a) || walk::assigned(std::slice::from_ref(s)).contains(a)
        });
        first.is_some_and(|s| walk::reads(s, a))
    })
}

/// A chain, the pattern of its items, and the names they bind.
struct Over {
    chain: Iter,
    item: Pat,
    bindings: Vec<(String, Ty)>,
}

/// The forms a loop may take.
#[derive(Clone, Copy, PartialEq)]
enum Form {
    ForIn,
    /// `let s = chain.map(..).sum::<f64>();` for `let mut s = -0.0;` before the loop.
    Sum,
    /// `let s = chain.fold(init, |acc, ..| acc + e);` for `let mut s = init;` before the loop.
    FoldInit,
    /// `s = chain.fold(s, |acc, ..| acc + e);`
    FoldAssign,
    /// `s = chain.fold(s, |mut s, ..| { body; s });`, or with a tuple of the state.
    FoldState,
}

impl Rewriter {
    /// `for var in range { body }` (loop number `id`), perhaps over a chain, pushed to `out`.
    pub(super) fn for_loop(
        &mut self,
        var: String,
        range: Range,
        body: Vec<Stmt>,
        id: usize,
        out: &mut Vec<Stmt>,
    ) {
        let plan = if self.rng.chance(75) { self.plan(&var, &range, &body) } else { None };
        let Some(Plan { chain, item, bindings, body: mapped, range_only }) = plan else {
            let body = self.nested(vec![(var.clone(), Ty::Int)], body);
            out.push(Stmt::For(var, range, body));
            return;
        };
        let (chain, inner, filtered) = self.filter(chain, &item, &bindings, &body, mapped);
        let live = self.live.get(id).cloned().unwrap_or_default();
        let mut local = HashSet::new();
        walk::declared(&inner, &mut local);
        let acc = reduction(&inner).filter(|a| live.contains(a) && !local.contains(a));
        let prev = out.last().cloned();
        let state: Vec<String> =
            walk::assigned(&inner).into_iter().filter(|n| !local.contains(n)).collect();
        let state_ok = !state.is_empty()
            && state.iter().all(|n| matches!(self.ty(n), Some(Ty::Real | Ty::Array { .. })))
            && match state.as_slice() {
                [one] => live.contains(one),
                _ => state.iter().any(|n| live.contains(n)),
            }
            && read_first(&inner, &state);
        let prev_let = |a: &String| matches!(&prev, Some(Stmt::Let(n, ..)) if n == a);
        let sum_ok = |a: &String| match (&prev, inner.last()) {
            (Some(Stmt::Let(n, _, Expr::Neg(z))), Some(Stmt::Assign(_, op, e))) => {
                n == a
                    && **z == Expr::Lit(0.0)
                    && inner.iter().filter(|s| matches!(s, Stmt::Assign(..))).count() == 1
                    && !(*op == Assign::Sub && matches!(e, Expr::Neg(_)))
            }
            _ => false,
        };
        // A loop over its own range, unfiltered, is the loop as written.
        let plain = range_only && !filtered;
        let forms = [
            (Form::ForIn, if plain { 0 } else { 4 }),
            (Form::Sum, if acc.as_ref().is_some_and(sum_ok) { 8 } else { 0 }),
            (Form::FoldInit, if acc.as_ref().is_some_and(prev_let) { 3 } else { 0 }),
            (Form::FoldAssign, if acc.is_some() { 3 } else { 0 }),
            (Form::FoldState, if state_ok { 4 } else { 0 }),
        ];
        if forms.iter().all(|f| f.1 == 0) {
            let body = self.nested(vec![(var.clone(), Ty::Int)], body);
            out.push(Stmt::For(var, range, body));
            return;
        }
        let weights: Vec<u32> = forms.iter().map(|f| f.1).collect();
        let form = forms[self.rng.weighted(&weights)].0;
        self.changed = true;
        let over = Over { chain, item, bindings };
        self.write_form(form, acc, over, inner, &state, &live, out);
    }

    /// The loop in the form `form`, pushed to `out` (for a `Sum` or a `FoldInit`, in place of
    /// the `let` before it).
    #[allow(clippy::too_many_arguments)]
    fn write_form(
        &mut self,
        form: Form,
        acc: Option<String>,
        over: Over,
        inner: Vec<Stmt>,
        state: &[String],
        live: &HashSet<String>,
        out: &mut Vec<Stmt>,
    ) {
        match (form, acc) {
            (Form::Sum, Some(a)) => {
                out.pop();
                let sum = self.sum(over, inner);
                let ty = self.rng.chance(50).then(Vec::new);
                out.push(Stmt::Let(a, ty, sum));
            }
            (Form::FoldInit, Some(a)) => {
                let Some(Stmt::Let(_, ty, init)) = out.pop() else { return };
                let fold = self.fold(over, inner, init);
                out.push(Stmt::Let(a, ty, fold));
            }
            (Form::FoldAssign, Some(a)) => {
                let fold = self.fold(over, inner, Expr::Var(a.clone()));
                out.push(Stmt::Assign(Place::Var(a), Assign::Set, fold));
            }
            (Form::FoldState, _) => self.fold_state(over, inner, state, live, out),
            _ => {
                let (chain, item) = self.bare(over.chain, over.item);
                let body = self.nested(over.bindings, inner);
                out.push(Stmt::ForIn(item, chain, body));
            }
        }
    }

    /// A loop over one array's elements, sometimes written `&x` or `x` (`for &v in &x`,
    /// `for v in x`).
    fn bare(&mut self, chain: Iter, item: Pat) -> (Iter, Pat) {
        let (x, values) = match &chain {
            Iter::Source(x, Source::Iter) => (x.clone(), false),
            Iter::Source(x, Source::IntoIter) => (x.clone(), true),
            Iter::Adapt(inner, Adaptor::Copied | Adaptor::Cloned) => match &**inner {
                Iter::Source(x, Source::Iter) => (x.clone(), true),
                _ => return (chain, item),
            },
            _ => return (chain, item),
        };
        let owned = matches!(self.ty(&x), Some(Ty::Array { owned: true, .. }));
        if !self.rng.chance(75) {
            return (chain, item);
        }
        match (owned, values, item) {
            (true, true, item) => (Iter::Source(x, Source::Plain), item),
            (true, false, item) if self.rng.chance(50) => (Iter::Source(x, Source::Borrow), item),
            (true, false, Pat::Ref(inner)) => (Iter::Source(x, Source::Plain), *inner),
            (false, false, item) => (Iter::Source(x, Source::Plain), item),
            (_, _, item) => (chain, item),
        }
    }

    /// A body that is one `if` on what the items give (and on nothing the body assigns) as a
    /// `filter`, sometimes: the chain, and the body left.
    fn filter(
        &mut self,
        chain: Iter,
        item: &Pat,
        bindings: &[(String, Ty)],
        original: &[Stmt],
        mapped: Vec<Stmt>,
    ) -> (Iter, Vec<Stmt>, bool) {
        let [Stmt::If(arms, None)] = mapped.as_slice() else { return (chain, mapped, false) };
        let [(cond, inner)] = arms.as_slice() else { return (chain, mapped, false) };
        let mut names = HashSet::new();
        cond_names(cond, &mut names);
        let assigned: HashSet<String> = walk::assigned(original).into_iter().collect();
        let known = |n: &String| {
            bindings.iter().any(|(b, _)| b == n) || (self.ty(n).is_some() && !assigned.contains(n))
        };
        if !names.iter().all(known) || !self.rng.chance(70) {
            return (chain, mapped, false);
        }
        let test = Closure {
            params: vec![Pat::Ref(Box::new(item.clone()))],
            body: Block { stmts: Vec::new(), tail: Expr::Test(Box::new(cond.clone())) },
        };
        let inner = inner.clone();
        // The closure loads what its test reads apart from the body's loads: where the body
        // reads the same array, the sweep adds the adjoints in another order.
        let (mut tested, mut read) = (Reads { out: Vec::new() }, Reads { out: Vec::new() });
        tested.cond(cond, false);
        read.stmts(&inner, false);
        if tested.out.iter().any(|t| read.out.iter().any(|r| r.array == t.array)) {
            self.exact = false;
        }
        (adapt(chain, Adaptor::Filter(test)), inner, true)
    }

    /// `chain.map(|item| e).sum::<f64>()` for the reduction `body` (its last statement the
    /// update), without the `map` when it would only give the item.
    fn sum(&mut self, over: Over, mut body: Vec<Stmt>) -> Expr {
        let Some(Stmt::Assign(_, op, e)) = body.pop() else { return Expr::Lit(0.0) };
        let value = match op {
            Assign::Sub => Expr::Neg(Box::new(e)),
            _ => e,
        };
        let Over { chain, item, bindings } = over;
        let identity = body.is_empty()
            && match (&item, &value) {
                (Pat::Name(n), Expr::Var(v)) => n == v,
                (Pat::Ref(p), Expr::Var(v)) => **p == Pat::Name(v.clone()),
                _ => false,
            };
        let chain = match identity {
            true => chain,
            false => {
                let body = self.nested_block(bindings, Block { stmts: body, tail: value });
                adapt(chain, Adaptor::Map(Closure { params: vec![item], body }))
            }
        };
        Expr::Reduce(Box::new(chain), Box::new(Consumer::Sum))
    }

    /// `chain.fold(init, |acc, item| acc + e ..)` for the reduction `body`, or for one update
    /// `chain.map(|item| e).fold(init, |acc, t| acc + t)`.
    fn fold(&mut self, over: Over, mut body: Vec<Stmt>, init: Expr) -> Expr {
        let updates = body.iter().filter(|s| matches!(s, Stmt::Assign(..))).count();
        let last = matches!(body.last(), Some(Stmt::Assign(..)));
        if updates == 1 && last && self.rng.chance(40) {
            let Some(Stmt::Assign(_, op, e)) = body.pop() else { return init };
            let Over { chain, item, bindings } = over;
            let mapped = self.nested_block(bindings, Block { stmts: body, tail: e });
            let chain = adapt(chain, Adaptor::Map(Closure { params: vec![item], body: mapped }));
            let (acc, t) = (self.fresh("acc"), self.fresh("t"));
            let op = if op == Assign::Add { Op::Add } else { Op::Sub };
            let sum =
                Expr::Bin(op, Box::new(Expr::Var(acc.clone())), Box::new(Expr::Var(t.clone())));
            let f = Closure {
                params: vec![Pat::Name(acc), Pat::Name(t)],
                body: Block { stmts: Vec::new(), tail: sum },
            };
            return Expr::Reduce(Box::new(chain), Box::new(Consumer::Fold(init, f)));
        }
        let Over { chain, item, mut bindings } = over;
        let acc = self.fresh("acc");
        let mut fresh = || {
            self.next += 1;
            format!("acc{}", self.next)
        };
        let block = functional(body, &acc, &mut fresh);
        bindings.push((acc.clone(), Ty::Real));
        let body = self.nested_block(bindings, block);
        let f = Closure { params: vec![Pat::Name(acc), item], body };
        Expr::Reduce(Box::new(chain), Box::new(Consumer::Fold(init, f)))
    }

    /// The loop as a `fold` carrying the variables it assigns (`state`), those read after it
    /// assigned its result.
    fn fold_state(
        &mut self,
        over: Over,
        body: Vec<Stmt>,
        state: &[String],
        live: &HashSet<String>,
        out: &mut Vec<Stmt>,
    ) {
        let Over { chain, item, mut bindings } = over;
        for n in state {
            let ty = self.ty(n).cloned().unwrap_or(Ty::Real);
            bindings.push((n.clone(), ty));
        }
        let vars: Vec<Expr> = state.iter().map(|n| Expr::Var(n.clone())).collect();
        let (init, tail, param) = match state.len() {
            1 => (vars[0].clone(), vars[0].clone(), Pat::Mut(state[0].clone())),
            _ => (
                Expr::Tuple(vars.clone()),
                Expr::Tuple(vars),
                Pat::Tuple(state.iter().map(|n| Pat::Mut(n.clone())).collect()),
            ),
        };
        let body = self.nested_block(bindings, Block { stmts: body, tail });
        let f = Closure { params: vec![param, item], body };
        let fold = Expr::Reduce(Box::new(chain), Box::new(Consumer::Fold(init, f)));
        if state.len() == 1 {
            out.push(Stmt::Assign(Place::Var(state[0].clone()), Assign::Set, fold));
            return;
        }
        let names: Vec<String> = state
            .iter()
            .map(|n| if live.contains(n) { self.fresh("u") } else { "_".to_string() })
            .collect();
        out.push(Stmt::LetTuple(names.clone(), fold));
        for (n, u) in state.iter().zip(names) {
            if u != "_" {
                out.push(Stmt::Assign(Place::Var(n.clone()), Assign::Set, Expr::Var(u)));
            }
        }
    }
}

/// The names that nothing reads, in the patterns of loops and closures, as `_`.
pub(super) fn finish(b: &mut Block) {
    finish_stmts(&mut b.stmts);
    finish_expr(&mut b.tail);
}

fn finish_stmts(stmts: &mut [Stmt]) {
    for s in stmts {
        match s {
            Stmt::ForIn(pat, it, body) => {
                finish_iter(it);
                finish_stmts(body);
                let mut used = HashSet::new();
                body.iter().for_each(|s| stmt_names(s, &mut used));
                *pat = walk::prune(pat, &used);
            }
            Stmt::For(_, _, body) => finish_stmts(body),
            Stmt::If(arms, els) => {
                arms.iter_mut().for_each(|(_, b)| finish_stmts(b));
                els.iter_mut().for_each(|b| finish_stmts(b));
            }
            Stmt::Match(_, arms) => arms.iter_mut().for_each(|a| finish_stmts(&mut a.body)),
            Stmt::Let(_, _, e)
            | Stmt::Assign(_, _, e)
            | Stmt::LetTuple(_, e)
            | Stmt::Closure(_, _, e) => finish_expr(e),
            Stmt::LetInt(..) => {}
        }
    }
}

fn finish_expr(e: &mut Expr) {
    match e {
        Expr::Reduce(it, consumer) => {
            finish_iter(it);
            if let Consumer::Fold(init, f) = &mut **consumer {
                finish_expr(init);
                finish_closure(f);
            }
        }
        Expr::Bin(_, l, r) => {
            finish_expr(l);
            finish_expr(r);
        }
        Expr::Neg(x) | Expr::Powi(x, _) | Expr::Ref(x) => finish_expr(x),
        Expr::Method { recv, args, .. } => {
            finish_expr(recv);
            args.iter_mut().for_each(finish_expr);
        }
        Expr::If(arms, els) => {
            arms.iter_mut().for_each(|(_, b)| finish(b));
            finish(els);
        }
        Expr::Match(_, arms) => arms.iter_mut().for_each(|a| finish(&mut a.body)),
        Expr::Array(xs) | Expr::Tuple(xs) | Expr::Call(_, xs) => {
            xs.iter_mut().for_each(finish_expr)
        }
        _ => {}
    }
}

fn finish_iter(it: &mut Iter) {
    if let Iter::Adapt(inner, a) = it {
        finish_iter(inner);
        match a {
            Adaptor::Zip(other) => finish_iter(other),
            Adaptor::Map(f) | Adaptor::Filter(f) => finish_closure(f),
            _ => {}
        }
    }
}

fn finish_closure(f: &mut Closure) {
    finish(&mut f.body);
    let mut used = HashSet::new();
    walk::block_names(&f.body, &mut used);
    f.params = f.params.iter().map(|p| walk::prune(p, &used)).collect();
}
