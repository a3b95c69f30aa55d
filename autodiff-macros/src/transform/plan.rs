//! The storage plan of each loop: which values of an iteration its reverse sweep needs and cannot
//! recompute, so that the forward loop saves them, one slot per iteration, in an array whose
//! length the macro knows.
//!
//! The rule: the sweep of an iteration recomputes what it needs from values fixed before the
//! loop and from the loop index when that is cheap, and saves the rest. Recomputing a value
//! costs what computing it did; saving it costs a store, a load and its slot. So:
//! - arithmetic and comparisons (no libm call) are recomputed, from the carried values (which
//!   are then saved) if they depend on them;
//! - a load is recomputed (a load for a load) unless it depends on the carried values: then
//!   it is saved;
//! - a transcendental function (a libm call), the result of an inner loop and that of a call
//!   are saved, whatever they depend on: recomputing them costs the call, the whole trip count
//!   or the callee again, against a store and a load;
//! - an inner loop that saves values of its own has its whole storage saved too, one slot per
//!   iteration, so that it never runs again in the sweep.
//!
//! A loop that saves no value of its own (a reduction, or a loop whose iterations its sweep
//! recomputes entirely) does not save its inner loops' storage: they run again in its sweep,
//! and once fusion has joined its sweep to its iteration ([`super::fuse()`]), that run is the
//! forward one (and what the sweep loads from storage is the forward value itself, so the
//! storage goes). When what inner loops and calls compute cannot be stored (the loop's length is
//! known only at run time, or the storage exceeds the budget, that of the whole function
//! included where the macro knows the sizes), it is recomputed as before: the inner loop runs
//! again in the sweep, to fill its own storage, and that run gives its results. (Sizes that
//! depend on a const generic are checked by rustc against the budget, in the generated code.)
//!
//! Carried values that the loop only adds to (reductions, see [`super::additive`]) are never
//! needed, so a reduction saves nothing and takes any number of iterations.
//!
//! A loop whose number of iterations is known only at run time, before any loop runs (`0..n`,
//! `0..xs.len()`), is stored in arrays of a capacity: the budget's (what it holds of the loop's
//! iterations, when the macro knows what one takes), or that of a tier ([`Options::tier`]),
//! planned once per tier. The generated function runs the sweep of the smallest capacity the
//! length does not exceed (its storage is zero-filled, so a capacity far above the length costs
//! time), and the variant planned with [`Options::checkpoint_unsized`] past them all.
//!
//! A loop whose storage would not fit even so (its number of iterations is known only at run
//! time and it has no capacity, or the storage would exceed the stack budget), or whose plan is
//! asked to, is checkpointed instead: it saves nothing, and its sweep recomputes the states from a
//! few snapshots (binomial checkpointing, see `autodiff_runtime::revolve`).

use std::collections::{HashMap, HashSet};

use super::activity::varied;
use super::cleanup::live;
use super::residual::residuals;
use crate::ir::{
    Block, CallKind, Func, Int, Loop, LoopId, Operand, Range, Stmt, Var, While, reads, stmt_defs,
};
use crate::symbol::DEFAULT_SNAPSHOTS;

/// What one loop saves per iteration.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    /// The values saved each iteration: carried values first, then values of the body.
    pub saved: Vec<Var>,
    /// The loops of the body (statements of it) whose own storage this loop saves each
    /// iteration, so that they do not run again in the sweep.
    pub nested: Vec<LoopId>,
    /// The number of slots, one per possible index value (the end of the range).
    pub size: Option<Int>,
    /// What the loop's reverse sweep reads from outside the loop.
    pub free_needs: HashSet<Var>,
    /// Checkpointed in this many snapshots instead of saving values.
    pub checkpoint: Option<u64>,
    /// A loop of unknown length differentiated at its fixed point (see `While::implicit`).
    pub implicit: bool,
}

impl Plan {
    /// Whether the loop saves anything per iteration (values, or inner loops' storage).
    pub fn stores(&self) -> bool {
        !self.saved.is_empty() || !self.nested.is_empty()
    }
}

/// What the planning follows from the attribute.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// The stack budget for stored values, in bytes.
    pub budget: u64,
    /// `checkpoint(s = N)`: checkpoint every loop that would save values, with `N` snapshots.
    pub snapshots: Option<u64>,
    /// Checkpoint the loops whose storage the macro cannot size (an expression of a `const`
    /// item or a const generic) instead of storing them: the other variant of a function whose
    /// choice rustc makes, from the constants' values. Without it, a loop of run-time length is
    /// stored up to a capacity; with it, it is checkpointed (the variant run past the capacity).
    pub checkpoint_unsized: bool,
    /// A loop of run-time length is stored in arrays of at most this many iterations (one of
    /// the capacity tiers, [`crate::symbol::CAPACITY_TIERS`]), or of what the budget holds when
    /// that is less; `None`: of what the budget holds, when the macro knows what an iteration
    /// takes. With a tier, an iteration whose size only rustc knows (a const generic) is stored
    /// too: rustc checks the tier's storage against the budget.
    pub tier: Option<u64>,
}

/// The plans of every loop that has a reverse sweep, and the activity they were made from.
#[derive(Clone, Debug, Default)]
pub struct Plans {
    /// By loop.
    pub loops: HashMap<LoopId, Plan>,
    /// Which variables depend on a differentiated input.
    pub varied: Vec<bool>,
    /// Which variables are varied and reach an output: those that get adjoints.
    pub active: Vec<bool>,
}

/// Plans every loop of `f` for its reverse sweep: saving what libm calls, inner loops and calls
/// compute, unless the storage that takes, where the macro knows its size, exceeds the budget;
/// then recomputing those as before.
pub fn plan(f: &Func, options: Options) -> Plans {
    let varied = varied(f);
    let active: Vec<bool> = varied.iter().zip(live(f)).map(|(v, l)| *v && l).collect();
    let run = |store_more: bool, capacity: bool| {
        let mut p = Planner {
            f,
            active: &active,
            plans: Plans::default(),
            options,
            store_more,
            capacity: capacity && !options.checkpoint_unsized && options.snapshots.is_none(),
        };
        p.block_needs(&f.body, None, (&mut Vec::new(), &mut Vec::new()), false);
        p.plans
    };
    let over = |plans: &Plans| total(f, plans).is_some_and(|bytes| bytes > options.budget);
    let mut plans = run(true, true);
    if over(&plans) {
        plans = run(false, true);
    }
    // Several loops of run-time length, each given the whole budget, do not fit together: they
    // are checkpointed, as the other variant's.
    if over(&plans) {
        plans = run(false, false);
    }
    plans.varied = varied;
    plans.active = active;
    plans
}

/// The bytes that the storage of the stored loops takes, of those the macro knows the size of
/// (rustc checks the others, in the generated code).
fn total(f: &Func, plans: &Plans) -> Option<u64> {
    plans.loops.values().filter(|p| p.stores()).try_fold(0u64, |acc, p| {
        let bytes = p.size.as_ref().and_then(|n| n.times(&per_iteration(f, plans, p)).value);
        acc.checked_add(bytes.unwrap_or(0))
    })
}

/// The bytes one iteration of a stored loop saves: its values, and the storage of the inner
/// loops it nests.
fn per_iteration(f: &Func, plans: &Plans, p: &Plan) -> Int {
    let values = p.saved.iter().fold(Int::lit(0), |acc, v| acc.add(&f.ty(*v).bytes()));
    p.nested.iter().filter_map(|l| plans.loops.get(l)).fold(values, |acc, inner| {
        let size = inner.size.clone().unwrap_or_else(|| Int::lit(0));
        acc.add(&size.times(&per_iteration(f, plans, inner)))
    })
}

/// Whether a statement must run again in the sweep.
enum Rerun {
    /// It need not.
    No,
    /// A loop that saves values of its own: it runs again to fill its storage, unless the loop
    /// around saves that storage each iteration.
    Nestable(LoopId),
    /// A loop of unknown length: it runs again to fill its tape.
    Always,
}

struct Planner<'a> {
    f: &'a Func,
    active: &'a [bool],
    plans: Plans,
    options: Options,
    /// Whether a stored loop may save the results of its inner loops and calls (and nest the
    /// storage of its inner loops) rather than run them again in its sweep.
    store_more: bool,
    /// Whether a loop of run-time length stores its values in an array of the capacity the
    /// budget holds of its iterations (see [`Planner::fit_capacity`]).
    capacity: bool,
}

impl Planner<'_> {
    fn is_active(&self, op: Operand) -> bool {
        op.var().is_some_and(|v| self.active[v.index()])
    }

    /// The values that reversing `block` reads, its own and free ones. `dep` marks the values of
    /// a loop body that depend on the loop's carried values: those are saved into `saved`
    /// instead of recomputed (and, with `store_more`, the results of inner loops and calls, and
    /// the storage of inner loops, into `nested`). Without `dep` (a branch, the function's own
    /// block), everything is recomputed.
    fn block_needs(
        &mut self,
        block: &Block,
        dep: Option<&[bool]>,
        (saved, nested): (&mut Vec<Var>, &mut Vec<LoopId>),
        more: bool,
    ) -> HashSet<Var> {
        let mut need = HashSet::new();
        let mut must_run = HashSet::new();
        let nests = dep.is_some() && more;
        for (i, s) in block.iter().enumerate() {
            match self.residuals(s, &mut need) {
                Rerun::Nestable(l) if nests => nested.push(l),
                Rerun::Nestable(_) | Rerun::Always => {
                    must_run.insert(i);
                }
                Rerun::No => {}
            }
        }
        for (i, s) in block.iter().enumerate().rev() {
            let needed: Vec<Var> = stmt_defs(s).into_iter().filter(|v| need.contains(v)).collect();
            if needed.is_empty() && !must_run.contains(&i) {
                continue;
            }
            let mut recompute = must_run.contains(&i);
            let costly = more && matches!(s, Stmt::For(_) | Stmt::Call(_) | Stmt::Op { .. });
            for v in needed {
                match dep {
                    // Cheap arithmetic is recomputed from what it reads (in the end, from the
                    // saved carried values); anything else that depends on them is saved, and
                    // so is what an inner loop or a call computes. An inner loop that runs
                    // again in the sweep (to fill its own storage) gives its results anew:
                    // saving them too would skip that run (the sweep does not recompute what
                    // it has), and the inner sweep would lack its storage.
                    Some(dep)
                        if (dep[v.index()] || costly) && !cheap(s) && !must_run.contains(&i) =>
                    {
                        if !saved.contains(&v) {
                            saved.push(v);
                        }
                    }
                    _ => recompute = true,
                }
            }
            if recompute {
                need.extend(reads(s).into_iter().filter_map(Operand::var));
            }
        }
        need
    }

    /// Adds to `need` what the adjoint of `s` reads. Says whether `s` must run again in the
    /// sweep: a loop that saves values of its own (to fill its storage, unless the loop around
    /// saves that storage), a loop of unknown length (to fill its tape).
    fn residuals(&mut self, s: &Stmt, need: &mut HashSet<Var>) -> Rerun {
        match s {
            Stmt::Op { out, prim, args } if self.active[out.index()] => {
                let wanted: Vec<bool> = args.iter().map(|a| self.is_active(*a)).collect();
                let (read, read_out) = residuals(*prim, &wanted);
                need.extend(args.iter().zip(read).filter(|(_, r)| *r).filter_map(|(a, _)| a.var()));
                if read_out {
                    need.insert(*out);
                }
            }
            Stmt::For(l) if l.carried.iter().any(|c| self.active[c.param.index()]) => {
                let plan = self.plan_loop(l);
                need.extend(plan.free_needs.iter().copied());
                if plan.stores() {
                    return Rerun::Nestable(l.index);
                }
            }
            // A loop of unknown length runs again in the sweep, to fill its tape.
            Stmt::While(w) if w.carried.iter().any(|c| self.active[c.param.index()]) => {
                let plan = self.plan_while(w);
                need.extend(plan.free_needs.iter().copied());
                if !plan.implicit {
                    return Rerun::Always;
                }
            }
            // The sweep of `g_grad`'s call multiplies by the partials it returned; that of a
            // vector callee's `g_fwd` calls `g_rev` with the same arguments and the residuals.
            Stmt::Call(c) if c.outs.iter().any(|o| self.active[o.index()]) => match c.kind {
                CallKind::Grad => need.extend(c.outs.iter().skip(1).copied()),
                CallKind::Fwd => {
                    need.extend(c.values().iter().filter_map(|(op, _)| op.var()));
                    need.extend(c.outs.last().copied());
                }
                _ => need.extend(c.values().iter().filter_map(|(op, _)| op.var())),
            },
            Stmt::If(b) if b.outs.iter().any(|o| self.active[o.index()]) => {
                need.insert(b.cond);
                for block in [&b.then, &b.otherwise] {
                    let none = (&mut Vec::new(), &mut Vec::new());
                    let inner = self.block_needs(block, None, none, false);
                    let defined = defs_in(block);
                    need.extend(inner.into_iter().filter(|v| !defined.contains(v)));
                }
            }
            _ => {}
        }
        Rerun::No
    }

    /// Plans `l` (and the loops inside it) and records the plan: storing what its sweep needs,
    /// the results of inner loops and calls included; if that cannot be stored (its length is
    /// known only at run time, or it exceeds the budget), recomputing those; if that cannot be
    /// stored either, checkpointed.
    fn plan_loop(&mut self, l: &Loop) -> Plan {
        let mut plan = self.stored(l, self.store_more);
        self.fit_capacity(l, &mut plan);
        let over = |p: &Plan, r: &Self| {
            p.size.as_ref().and_then(|n| n.times(&per_iteration(r.f, &r.plans, p)).value)
                > Some(r.options.budget)
        };
        // Asked to, a length that only rustc knows (a const generic) is checkpointed: the
        // function then also has the stored variant, and rustc picks one.
        let unsized_checkpointed = |p: &Plan, r: &Self| {
            r.options.checkpoint_unsized
                && p.size
                    .as_ref()
                    .is_some_and(|n| n.times(&per_iteration(r.f, &r.plans, p)).value.is_none())
        };
        let unstorable =
            plan.size.is_none() || over(&plan, self) || unsized_checkpointed(&plan, self);
        if self.store_more && plan.stores() && unstorable {
            plan = self.stored(l, false);
            self.fit_capacity(l, &mut plan);
        }
        if plan.stores() {
            match (&plan.size, self.options.snapshots) {
                (Some(_), None) if !over(&plan, self) && !unsized_checkpointed(&plan, self) => {}
                (_, asked) => {
                    // The sweep recomputes every iteration from its state, so it reads what the
                    // loop reads, and saves nothing.
                    plan.saved.clear();
                    plan.nested.clear();
                    plan.size = None;
                    let state = l
                        .carried
                        .iter()
                        .fold(Int::lit(0), |acc, c| acc.add(&self.f.ty(c.param).bytes()));
                    plan.checkpoint =
                        Some(asked.unwrap_or_else(|| snapshots(&state, self.options.budget)));
                    let stmt = Stmt::For(Box::new(l.clone()));
                    plan.free_needs = reads(&stmt).into_iter().filter_map(Operand::var).collect();
                }
            }
        }
        self.plans.loops.insert(l.index, plan.clone());
        plan
    }

    /// A loop of run-time length (`0..n`, `0..xs.len()`) whose storage has no length: given
    /// the capacity that the budget holds of its iterations, when the macro knows what one
    /// takes, or the tier's if that is less (with a tier and an iteration only rustc can size,
    /// the tier's). The generated function stores its values in the smallest variant whose
    /// capacity its length does not exceed, at run time, and runs the variant that checkpoints
    /// it otherwise.
    fn fit_capacity(&self, l: &Loop, plan: &mut Plan) {
        if !self.capacity
            || plan.size.is_some()
            || !plan.stores()
            || run_time_end(&l.range).is_none()
        {
            return;
        }
        let per = per_iteration(self.f, &self.plans, plan).value.filter(|b| *b > 0);
        let cap = match (per.map(|b| self.options.budget / b), self.options.tier) {
            (Some(held), Some(tier)) => held.min(tier),
            (Some(held), None) => held,
            (None, tier) => tier.unwrap_or(0),
        };
        if cap >= 2 {
            plan.size = Some(Int::lit(cap));
        }
    }

    /// The plan of `l` that stores what its sweep needs (its length unchecked). A loop that
    /// saves no value of its own recomputes its iterations in its sweep: its inner loops then
    /// run again there too (to fill their storage), rather than have it saved.
    fn stored(&mut self, l: &Loop, more: bool) -> Plan {
        let dep = self.dependence(l);
        let (mut saved, mut nested) = (Vec::new(), Vec::new());
        let mut need = self.block_needs(&l.body, Some(&dep), (&mut saved, &mut nested), more);
        let own = l.carried.iter().any(|c| need.contains(&c.param)) || !saved.is_empty();
        if more && !own && !nested.is_empty() {
            (saved, nested) = (Vec::new(), Vec::new());
            need = self.block_needs(&l.body, Some(&dep), (&mut saved, &mut nested), false);
        }
        // An additive carried value is never read by the sweep (its rules are `+` and `-`).
        let mut carried: Vec<Var> =
            l.carried.iter().map(|c| c.param).filter(|p| need.contains(p)).collect();
        carried.extend(saved);
        let defined = defs_in(&l.body);
        let params: HashSet<Var> = l.carried.iter().map(|c| c.param).collect();
        let free_needs =
            need.into_iter().filter(|v| !defined.contains(v) && !params.contains(v)).collect();
        let size = match carried.is_empty() && nested.is_empty() {
            true => None,
            false => size(&l.range).ok(),
        };
        Plan { saved: carried, nested, size, free_needs, checkpoint: None, implicit: false }
    }

    /// Plans a loop of unknown length (and the loops inside it): its sweep is always
    /// checkpointed, from a tape of snapshots that the loop fills as it runs, and reads what the
    /// loop reads.
    fn plan_while(&mut self, w: &While) -> Plan {
        let l = w.as_loop();
        let dep = self.dependence(&l);
        self.block_needs(&w.body, Some(&dep), (&mut Vec::new(), &mut Vec::new()), false);
        let state =
            w.carried.iter().fold(Int::lit(0), |acc, c| acc.add(&self.f.ty(c.param).bytes()));
        let slots =
            self.options.snapshots.unwrap_or_else(|| snapshots(&state, self.options.budget));
        let stmt = Stmt::While(Box::new(w.clone()));
        let mut free_needs: HashSet<Var> =
            reads(&stmt).into_iter().filter_map(Operand::var).collect();
        let implicit = w.implicit && self.implicit_fits(w, &l);
        if implicit {
            // The sweep runs at the fixed point: the loop's results.
            free_needs.extend(w.outs.iter().copied());
        }
        let checkpoint = (!implicit).then_some(slots);
        let plan = Plan { free_needs, checkpoint, implicit, ..Plan::default() };
        self.plans.loops.insert(w.index, plan.clone());
        plan
    }

    /// Whether the loop marked implicit can be differentiated at its fixed point: its
    /// differentiated carried values are `f64`s (compared one by one to stop the adjoint
    /// iteration) that the body does not only add to, and its index is not read (a fixed point
    /// is the same in every iteration). Otherwise it is differentiated through its iterations.
    fn implicit_fits(&self, w: &While, l: &Loop) -> bool {
        let scalar = |k: usize| *self.f.ty(w.carried[k].param) == crate::ir::Ty::F64;
        let active: Vec<usize> =
            (0..w.carried.len()).filter(|k| self.active[w.carried[*k].param.index()]).collect();
        w.range.is_none() && active.iter().all(|k| scalar(*k) && !super::additive::additive(l, *k))
    }

    /// Which values of `l`'s body depend on what the loop carries.
    fn dependence(&self, l: &Loop) -> Vec<bool> {
        let mut dep = vec![false; self.f.names.len()];
        for c in &l.carried {
            dep[c.param.index()] = true;
        }
        for s in &l.body {
            let d = reads(s).iter().any(|op| op.var().is_some_and(|v| dep[v.index()]));
            for v in stmt_defs(s) {
                dep[v.index()] = d;
            }
        }
        dep
    }
}

/// Whether recomputing `s` in the sweep costs less than saving its value: arithmetic (no libm
/// call) and comparisons. Loads, calls of transcendental functions and loops are not.
fn cheap(s: &Stmt) -> bool {
    match s {
        Stmt::Test { .. } => true,
        Stmt::Op { prim, .. } => cheap_prim(*prim),
        _ => false,
    }
}

/// Whether `prim` is arithmetic that a loop's sweep recomputes rather than saves (no libm call;
/// a square root is one instruction, cheaper than a store, a load and a slot).
pub(super) fn cheap_prim(prim: crate::ir::Prim) -> bool {
    use crate::ir::Prim::*;
    matches!(
        prim,
        Neg | Add
            | Sub
            | Mul
            | Div
            | Recip
            | MulAdd
            | Powi(_)
            | PowiInt(_)
            | IntAsF64(_)
            | Convert
            | Sqrt
            | Abs
            | Min
            | Max
            | Clamp
            | Signum
            | Floor
            | Ceil
            | Round
            | Trunc
            | Select(_)
    )
}

/// Every variable defined in `block`, nested blocks included.
fn defs_in(block: &Block) -> HashSet<Var> {
    let mut out = HashSet::new();
    for s in block {
        out.extend(stmt_defs(s));
        match s {
            Stmt::For(l) => {
                out.extend(l.carried.iter().map(|c| c.param));
                out.extend(defs_in(&l.body));
            }
            Stmt::While(w) => {
                out.extend(w.carried.iter().map(|c| c.param));
                out.extend(defs_in(&w.body));
            }
            Stmt::If(b) => {
                out.extend(defs_in(&b.then));
                out.extend(defs_in(&b.otherwise));
            }
            _ => {}
        }
    }
    out
}

/// How many snapshots a checkpointed loop gets without `checkpoint(s = N)`: 32, or fewer when
/// the state is so large that 32 copies would take more than half the stack budget (at least 2).
fn snapshots(state: &Int, budget: u64) -> u64 {
    match state.value {
        Some(b) if b > 0 => (budget / 2 / b).clamp(2, DEFAULT_SNAPSHOTS),
        _ => DEFAULT_SNAPSHOTS,
    }
}

/// The end of `range` (excluded), when the number of iterations is known only at run time and
/// before any loop runs: an expression of the function's parameters only (`n`, `xs.len()`).
pub fn run_time_end(range: &Range) -> Option<Int> {
    let hi = &range.hi;
    let run_time = hi.value.is_none() && hi.at_most.is_none() && !hi.generic && !hi.inferred;
    if !run_time || !hi.loops.is_empty() || hi.params.is_empty() {
        return None;
    }
    Some(if range.inclusive { hi.plus(1) } else { hi.clone() })
}

/// The length of a storage array for `range`: one slot per index value below its end, so that
/// the index itself is the slot.
fn size(range: &Range) -> Result<Int, &'static str> {
    let hi = &range.hi;
    // `0..min(n, k)`: at most `k` slots (`min` cannot be an array length).
    if let (None, Some(k)) = (hi.value, hi.at_most) {
        return Ok(Int::lit(if range.inclusive { k.saturating_add(1) } else { k }));
    }
    if !hi.loops.is_empty() {
        return Err("its end changes with an outer loop, so the storage has no fixed length");
    }
    if !hi.params.is_empty() {
        return Err("its number of iterations is known only at run time");
    }
    if hi.generic && (range.inclusive || !hi.is_name()) {
        return Err(
            "the length of the storage would be an expression of a const generic, which stable Rust cannot use as an array length (only the parameter itself, as in `a..N`)",
        );
    }
    Ok(if range.inclusive { hi.plus(1) } else { hi.clone() })
}
