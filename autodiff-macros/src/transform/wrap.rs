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

use std::collections::HashMap;

use super::activity::varied;
use super::additive::additive;
use crate::ir::{
    Block, Branch, Carry, Cond, Func, Int, Loop, LoopId, Operand, Range, Stmt, Var, While, Wrap,
    stmt_defs, substitute, substitute_operand,
};

/// The most wrap-around iterations split off: `(i + N - 4) % N`.
const MAX_BACK: u64 = 4;

/// `f` with every loop over a ring split at its wrap-around (nested loops first).
pub fn split_wraps(f: &Func) -> Func {
    let varied = varied(f);
    let mut out = f.clone();
    let body = std::mem::take(&mut out.body);
    out.body = split_block(&mut out, body, &varied);
    out
}

fn split_block(f: &mut Func, block: Block, varied: &[bool]) -> Block {
    let mut out = Vec::with_capacity(block.len());
    for s in block {
        match s {
            Stmt::For(l) => {
                let body = split_block(f, l.body.clone(), varied);
                let l = Loop { body, ..*l };
                match split(f, &l, varied) {
                    Some((wraps, rest)) => out.extend([Stmt::For(wraps), Stmt::For(rest)]),
                    None => out.push(Stmt::For(Box::new(l))),
                }
            }
            Stmt::While(w) => {
                let body = split_block(f, w.body.clone(), varied);
                out.push(Stmt::While(Box::new(While { body, ..*w })));
            }
            Stmt::If(b) => {
                let then = split_block(f, b.then.clone(), varied);
                let otherwise = split_block(f, b.otherwise.clone(), varied);
                out.push(Stmt::If(Box::new(Branch { then, otherwise, ..*b })));
            }
            other => out.push(other),
        }
    }
    out
}

/// `l` as its wrap-around iterations and the rest, if it is a reduction over a ring.
fn split(f: &mut Func, l: &Loop, varied: &[bool]) -> Option<(Box<Loop>, Box<Loop>)> {
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
fn copy_loop(f: &mut Func, l: &Loop, range: Range) -> Loop {
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
