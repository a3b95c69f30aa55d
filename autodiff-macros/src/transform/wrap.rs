//! Splitting a loop over a ring at its wrap-around: in `for i in 0..m`, an index
//! `(i + m - k) % m` (the `k`-th previous element, cyclically) wraps around in the first `k`
//! iterations only and is `i - k` in all the others. The loop becomes two, in the same order:
//! `for i in 0..::core::cmp::min(m, k)`, the wrap-around iterations as written, then
//! `for i in k..m`, with the index `i - k`. Every value is computed as before, in the same
//! order, so to the bit. (`::core::cmp::min`, not `m.min(k)`: a trait of the user's with a
//! method `min` on `usize` would make the method call ambiguous.)
//!
//! What it is for: the reverse sweep of the second loop reads and writes the adjoint of the ring
//! at affine indices, so [`super::first_touch()`] can assign each element once, as a hand-written
//! gradient of a ring sum does, instead of adding to a zeroed array (and the sweep indexes
//! without a division). The wrap-around iterations' sweep runs after the second loop's, as a
//! hand-written one would finish the ring.
//!
//! Applied to reductions (loops whose carried values are only added to, which store nothing
//! for their sweep) without loops inside, whose wrap-around index reads a differentiated array,
//! and to at most four wrap-around iterations, and a quarter of the loop's when its length is
//! known (`(i + 1) % 5` wraps around after four iterations: not split): there a split pays,
//! though the sweep of the wrap-around iterations computes them again. The forward mode
//! (`_jvp`) keeps the user's loop.
//!
//! And only where the split's sweep gives every adjoint the loop's own sweep's bits (see
//! `sweeps_alike`): moving the wrap-around iterations' contributions last reorders the sum of an
//! adjoint that other iterations add to as well, unless it gets two contributions in all onto
//! zero (`a + b` is `b + a`). The loop written with a `break`, or any loop of unknown length,
//! is not split and adds in the order of its iterations: the two must agree to the bit (found by
//! the fuzzer's loop-exit twin, `tests/fuzz_found.rs`, bugs 41 to 43).

use std::collections::{HashMap, HashSet};

use super::activity::varied;
use super::additive::additive;
use crate::ir::{
    Block, Branch, Carry, Cond, Func, Int, Linear, Loop, LoopId, Operand, Range, Stmt, Var, While,
    Wrap, reads, stmt_defs, substitute, substitute_operand,
};

/// The most wrap-around iterations split off: `(i + N - 4) % N`.
const MAX_BACK: u64 = 4;

/// `f` with every loop over a ring split at its wrap-around (nested loops first).
pub fn split_wraps(f: &Func) -> Func {
    let varied = varied(f);
    let mut out = f.clone();
    // What the function returns is read after every loop.
    let later = Later { stmts: &[], vars: &f.outputs, outer: None };
    out.body = split_block(&mut out, &f.body, Place { varied: &varied, later, nested: false });
    out
}

/// Where a block is: what is read after it, and whether it is inside a loop.
#[derive(Clone, Copy)]
struct Place<'a> {
    varied: &'a [bool],
    later: Later<'a>,
    /// Inside a loop: an adjoint may hold the contributions of earlier iterations.
    nested: bool,
}

/// What runs after a statement: the statements after it in its block, what reads its block's
/// results (a branch's), and what runs after the block.
#[derive(Clone, Copy)]
struct Later<'a> {
    stmts: &'a [Stmt],
    vars: &'a [Operand],
    outer: Option<&'a Later<'a>>,
}

impl Later<'_> {
    /// Whether it reads `v`.
    fn reads(&self, v: Var) -> bool {
        let reads_v = |s: &Stmt| reads(s).iter().any(|o| o.var() == Some(v));
        self.vars.iter().any(|o| o.var() == Some(v))
            || self.stmts.iter().any(reads_v)
            || self.outer.is_some_and(|o| o.reads(v))
    }
}

fn split_block(f: &mut Func, block: &Block, at: Place) -> Block {
    let mut out = Vec::with_capacity(block.len());
    for (k, s) in block.iter().enumerate() {
        let later = Later { stmts: &block[k + 1..], vars: &[], outer: Some(&at.later) };
        let here = Place { later, ..at };
        match s {
            Stmt::For(l) => {
                let body = split_block(f, &l.body, Place { nested: true, ..here });
                let l = Loop { body, ..(**l).clone() };
                match split(f, &l, here) {
                    Some((wraps, rest)) => out.extend([Stmt::For(wraps), Stmt::For(rest)]),
                    None => out.push(Stmt::For(Box::new(l))),
                }
            }
            Stmt::While(w) => {
                let body = split_block(f, &w.body, Place { nested: true, ..here });
                out.push(Stmt::While(Box::new(While { body, ..(**w).clone() })));
            }
            Stmt::If(b) => {
                // The branch's results are read after its blocks.
                let yields: Vec<Operand> =
                    b.then_yields.iter().chain(&b.else_yields).copied().collect();
                let later = Later { vars: &yields, outer: Some(&here.later), stmts: &[] };
                let place = Place { later, ..at };
                let then = split_block(f, &b.then, place);
                let otherwise = split_block(f, &b.otherwise, place);
                out.push(Stmt::If(Box::new(Branch { then, otherwise, ..(**b).clone() })));
            }
            other => out.push(other.clone()),
        }
    }
    out
}

/// `l` as its wrap-around iterations and the rest, if it is a reduction over a ring.
fn split(f: &mut Func, l: &Loop, at: Place) -> Option<(Box<Loop>, Box<Loop>)> {
    let varied = at.varied;
    let r = &l.range;
    let m = r.hi.linear.as_ref()?;
    if r.rev || r.inclusive || r.lo.value != Some(0) || m.index.is_some() || !r.hi.loops.is_empty()
    {
        return None;
    }
    if !(0..l.carried.len()).all(|k| additive(l, k)) || has_loops(&l.body) {
        return None;
    }
    let ident = f.loops[l.index.0 as usize].ident.clone()?;
    let ours = |w: &Wrap| w.index == l.index && &w.modulus == m;
    let mut back = 0;
    each_stmt(&l.body, &mut |s| {
        if let Stmt::Load { array, index, .. } = s
            && varied.get(array.index()).copied().unwrap_or(false)
        {
            let wraps = index.iter().filter_map(|i| i.wrap.as_deref()).filter(|w| ours(w));
            back = wraps.map(|w| w.back).fold(back, u64::max);
        }
    });
    // The sweep of the wrap-around iterations recomputes them: worth it for a few of many.
    if back == 0 || back > MAX_BACK || r.hi.value.is_some_and(|m| m < 4 * back) {
        return None;
    }
    if !sweeps_alike(l, m, at) {
        return None;
    }
    let wraps = copy_loop(f, l, Range { lo: Int::lit(0), hi: r.hi.min_lit(back), ..r.clone() });
    // Every wrap-around index of the loop that goes back at most `back` (not only those that
    // decided the split: conditions, stores, constant arrays too) is `i - k` in `back..m`.
    let unwrap = |i: &Int| match i.wrap.as_deref() {
        Some(w) if ours(w) && w.back <= back => Int::index_minus(l.index, &ident, w.back),
        _ => i.clone(),
    };
    let carried = l.carried.iter().zip(&wraps.outs);
    let rest = Loop {
        range: Range { lo: Int::lit(back), ..r.clone() },
        carried: carried.map(|(c, o)| Carry { param: c.param, init: Operand::Var(*o) }).collect(),
        body: map_ints(&l.body, &unwrap),
        ..l.clone()
    };
    Some((Box::new(wraps), Box::new(rest)))
}

/// Whether the sweep of the split loop, the rest's and then the wrap-around iterations', gives
/// every adjoint the value the loop's own sweep gives, in the order of its iterations, to the
/// bit (up to the sign of a zero), so that a loop stored, checkpointed, or of unknown length
/// (which is not split) differentiates alike. The split moves the contributions of the
/// wrap-around iterations after the others': exact for an adjoint that only one iteration adds
/// to, or two (`a + b` is `b + a`) when it holds nothing before the loop's sweep. So:
/// - the loop reads no differentiated value from outside but elements of arrays (the adjoint of
///   a scalar gets a contribution in every iteration);
/// - each such array is read at one or two indices, each of which reads the loop's index
///   in a dimension as `i + c` or `(i + m - k) % m`, so that an iteration adds to an element
///   at most once per index;
/// - an array read at two indices is read after the loop nowhere, and the loop is inside no
///   other loop: its adjoint is zero when the loop's sweep starts.
fn sweeps_alike(l: &Loop, m: &Linear, at: Place) -> bool {
    let mut inside: HashSet<Var> = l.carried.iter().map(|c| c.param).collect();
    each_stmt(&l.body, &mut |s| inside.extend(stmt_defs(s)));
    let outer = |v: &Var| !inside.contains(v) && at.varied.get(v.index()).copied().unwrap_or(true);
    let injective = |i: &Int| {
        i.linear.as_ref().is_some_and(|x| x.index == Some(l.index))
            || i.wrap.as_deref().is_some_and(|w| w.index == l.index && &w.modulus == m)
    };
    let mut indices: HashMap<Var, HashSet<String>> = HashMap::new();
    let mut alike = true;
    each_stmt(&l.body, &mut |s| {
        let read: Vec<Operand> = match s {
            Stmt::Load { array, index, .. } if outer(array) => {
                alike &= index.iter().any(injective);
                let text = index.iter().map(ToString::to_string).collect::<Vec<_>>().join(",");
                indices.entry(*array).or_default().insert(text);
                Vec::new()
            }
            // A comparison has no adjoint; a branch's blocks are visited, its results read.
            Stmt::Test { .. } => Vec::new(),
            Stmt::If(b) => b.then_yields.iter().chain(&b.else_yields).copied().collect(),
            other => reads(other),
        };
        alike &= !read.iter().filter_map(|o| o.var()).any(|v| outer(&v));
    });
    alike
        && indices.iter().all(|(array, ix)| {
            ix.len() == 1 || (ix.len() == 2 && !at.nested && !at.later.reads(*array))
        })
}

/// Whether `block` has a loop (or a checkpointed sweep) in it, in branches too.
fn has_loops(block: &Block) -> bool {
    block.iter().any(|s| match s {
        Stmt::For(_) | Stmt::While(_) | Stmt::Checkpoint(_) => true,
        Stmt::If(b) => has_loops(&b.then) || has_loops(&b.otherwise),
        _ => false,
    })
}

/// Runs `visit` on every statement of `block`, in branches too.
fn each_stmt(block: &Block, visit: &mut dyn FnMut(&Stmt)) {
    for s in block {
        visit(s);
        if let Stmt::If(b) = s {
            each_stmt(&b.then, visit);
            each_stmt(&b.otherwise, visit);
        }
    }
}

/// `block` (with no loops in it) with every integer expression replaced by `map` of it.
fn map_ints(block: &Block, map: &dyn Fn(&Int) -> Int) -> Block {
    let ints = |ix: &[Int]| ix.iter().map(map).collect();
    block
        .iter()
        .map(|s| match s {
            Stmt::Load { out, array, index } => {
                Stmt::Load { out: *out, array: *array, index: ints(index) }
            }
            Stmt::Store { out, array, index, value } => {
                Stmt::Store { out: *out, array: *array, index: ints(index), value: *value }
            }
            Stmt::Test { out, cond } => Stmt::Test { out: *out, cond: map_cond(cond, map) },
            Stmt::If(b) => Stmt::If(Box::new(Branch {
                then: map_ints(&b.then, map),
                otherwise: map_ints(&b.otherwise, map),
                ..(**b).clone()
            })),
            other => other.clone(),
        })
        .collect()
}

fn map_cond(c: &Cond, map: &dyn Fn(&Int) -> Int) -> Cond {
    let inner = |c: &Cond| Box::new(map_cond(c, map));
    match c {
        Cond::Int(cmp, a, b) => Cond::Int(*cmp, Box::new(map(a)), Box::new(map(b))),
        Cond::Not(c) => Cond::Not(inner(c)),
        Cond::And(a, b) => Cond::And(inner(a), inner(b)),
        Cond::Or(a, b) => Cond::Or(inner(a), inner(b)),
        other => other.clone(),
    }
}

/// A copy of `l` over `range`, with a loop index of its own and new variables (the same names).
pub(super) fn copy_loop(f: &mut Func, l: &Loop, range: Range) -> Loop {
    let info = f.loops[l.index.0 as usize].clone();
    let index = LoopId(u32::try_from(f.loops.len()).unwrap_or(u32::MAX));
    f.loops.push(info);
    let mut fresh = HashMap::new();
    let mut defs: Vec<Var> = l.carried.iter().map(|c| c.param).collect();
    defs.extend(l.outs.iter().copied());
    each_stmt(&l.body, &mut |s| {
        defs.extend(stmt_defs(s));
    });
    for v in defs {
        let new = Var(u32::try_from(f.names.len()).unwrap_or(u32::MAX));
        f.names.push(f.names[v.index()].clone());
        f.types.push(f.types[v.index()].clone());
        fresh.insert(v, Operand::Var(new));
    }
    let var = |v: &Var| fresh.get(v).and_then(|o| o.var()).unwrap_or(*v);
    let body = rename_defs(&substitute(&l.body, &fresh), &var);
    let body = map_ints(&body, &|i: &Int| i.relabel(l.index, index));
    let body = relabel_exts(f, &body, l.index, index);
    Loop {
        index,
        range,
        carried: l.carried.iter().map(|c| Carry { param: var(&c.param), init: c.init }).collect(),
        body,
        yields: l.yields.iter().map(|y| substitute_operand(*y, &fresh)).collect(),
        outs: l.outs.iter().map(var).collect(),
    }
}

/// `block` (with no loops in it) with the variables it defines renamed by `var`.
fn rename_defs(block: &Block, var: &dyn Fn(&Var) -> Var) -> Block {
    let mut out = block.clone();
    for s in &mut out {
        match s {
            Stmt::Op { out, .. }
            | Stmt::Test { out, .. }
            | Stmt::Load { out, .. }
            | Stmt::Store { out, .. }
            | Stmt::Fill { out, .. }
            | Stmt::Array { out, .. } => *out = var(out),
            Stmt::If(b) => {
                b.then = rename_defs(&b.then, var);
                b.otherwise = rename_defs(&b.otherwise, var);
                b.outs = b.outs.iter().map(var).collect();
            }
            Stmt::Call(c) => c.outs = c.outs.iter().map(var).collect(),
            Stmt::For(_) | Stmt::While(_) | Stmt::Checkpoint(_) => {}
        }
    }
    out
}

/// `block` (with no loops in it) with each constant that reads loop `from`'s index replaced by a
/// copy that reads loop `to`'s.
fn relabel_exts(f: &mut Func, block: &Block, from: LoopId, to: LoopId) -> Block {
    let mut copies: HashMap<u32, u32> = HashMap::new();
    let mut ext = |op: Operand| match op {
        Operand::Ext(e) if f.exts[e.0 as usize].loops.contains(&from) => {
            let id = *copies.entry(e.0).or_insert_with(|| {
                let mut copy = f.exts[e.0 as usize].clone();
                copy.loops = copy.loops.iter().map(|l| if *l == from { to } else { *l }).collect();
                f.exts.push(copy);
                u32::try_from(f.exts.len() - 1).unwrap_or(u32::MAX)
            });
            Operand::Ext(crate::ir::ExtId(id))
        }
        other => other,
    };
    map_operands(block, &mut ext)
}

/// `block` (with no loops in it) with every operand replaced by `map` of it.
fn map_operands(block: &Block, map: &mut dyn FnMut(Operand) -> Operand) -> Block {
    let mut out = block.clone();
    for s in &mut out {
        match s {
            Stmt::Op { args, .. } => args.iter_mut().for_each(|a| *a = map(*a)),
            Stmt::Array { elems, .. } => elems.iter_mut().for_each(|a| *a = map(*a)),
            Stmt::Store { value, .. } | Stmt::Fill { value, .. } => *value = map(*value),
            Stmt::Test { cond, .. } => map_cond_operands(cond, map),
            Stmt::If(b) => {
                b.then = map_operands(&b.then, map);
                b.otherwise = map_operands(&b.otherwise, map);
                b.then_yields.iter_mut().for_each(|a| *a = map(*a));
                b.else_yields.iter_mut().for_each(|a| *a = map(*a));
            }
            Stmt::Call(c) => {
                for a in &mut c.args {
                    match a {
                        crate::ir::Arg::Value { op, .. } => *op = map(*op),
                        crate::ir::Arg::Fixed { ext: e, .. } | crate::ir::Arg::Const(e) => {
                            if let Operand::Ext(new) = map(Operand::Ext(*e)) {
                                *e = new;
                            }
                        }
                    }
                }
                c.dirs.iter_mut().for_each(|a| *a = map(*a));
            }
            Stmt::Load { .. } | Stmt::For(_) | Stmt::While(_) | Stmt::Checkpoint(_) => {}
        }
    }
    out
}

fn map_cond_operands(c: &mut Cond, map: &mut dyn FnMut(Operand) -> Operand) {
    match c {
        Cond::F64(_, a, b) => {
            *a = map(*a);
            *b = map(*b);
        }
        Cond::Not(c) => map_cond_operands(c, map),
        Cond::And(a, b) | Cond::Or(a, b) => {
            map_cond_operands(a, map);
            map_cond_operands(b, map);
        }
        Cond::Int(..) | Cond::Var(_) => {}
    }
}
