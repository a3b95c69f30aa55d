//! Carried elements: in a `for` loop that carries an array, a load of the element that the
//! previous iteration stored last at the neighbouring index reads the value stored then, which
//! the loop now carries as a scalar, as a person writes `x̄[i] = carry + …; carry = a;` for
//! `x̄[i] += …; x̄[i + 1] = a;`. And when the iteration after overwrites that element (the store
//! at `i` after the forwarded load), the store at the neighbouring index is dead in every
//! iteration but the last: it goes, and the last value is stored after the loop. The fused sweep
//! of a loop reading `x[i]` and `x[i + 1]` then stores each element of the gradient once, where
//! it stored it twice (at n = 10⁶, with 8 MB buffers, the second store costs about a tenth of the
//! loop's time: BENCHMARKS.md, "Number types").
//!
//! Decided on the loop's body alone (not its branches or nested loops): every access to the
//! array's versions is a load or a store of one element at `i + c` of the loop's index `i` (a
//! store of the version before it, a load of the current one). With `s` the loop's step (1, or
//! −1 for `rev`), a load at `i + d` that no store at `i + d` precedes in the body reads what the
//! last store at `i + d + s` wrote one iteration before, and in the first iteration the loop's
//! initial array: that element is loaded before the loop (`x̄[lo + d]`). The loop is guarded by
//! its range being non-empty, so that neither the load before it nor the store after it runs
//! when it does not: `if lo < hi { let c = x̄[lo + d]; for … ; x̄[last + d + s] = c; }`. (The load
//! before the loop also tells rustc that the slice is not empty, which takes the bounds checks
//! out of the loop.)
//!
//! Exact: a load becomes the value its element holds, a store goes only where the loop itself
//! overwrites the element before anything reads it; the arithmetic is the same, to the bit.
//!
//! Runs last, on the gradient as it is emitted (the cleanup folds a load of a zeroed array into
//! its zero, which would lose the load before the loop); not on `f_hvp`, whose forward mode over
//! the carried sweep measured slower than over the plain one. What it does not
//! know: accesses in a branch or a nested loop, or at an index that is not `i + c` (the array
//! then stays as it is); an element read two iterations after its store (`x̄[i + 2]`); `while`
//! loops.

use std::collections::HashMap;

use super::loops::{reads_any, replace_loops, yields_last};
use crate::ir::{
    Block, Branch, Carry, Cmp, Cond, Elem, Func, Int, Loop, Name, Operand, Stmt, Ty, Var,
    substitute, substitute_operand,
};

/// `f` with every element that a loop stores for its next iteration to load carried as a
/// scalar instead.
pub fn carry_elements(f: &Func) -> Func {
    replace_loops(f, &mut |f, l| carried(f, l))
}

/// One access to a carried array in a loop's body.
struct Access {
    /// Its position in the body.
    at: usize,
    /// The element is the loop's index plus this.
    offset: i64,
    /// A load's value; `None` for a store.
    load: Option<Var>,
    /// A store's result (the new version) and the array it stores into.
    store: Option<(Var, Var)>,
    /// A store's value.
    value: Operand,
}

/// A load forwarded from the store of the iteration before.
struct Forward {
    /// The carried array (its position in the loop's carried values).
    k: usize,
    /// The offset of the loads, `d`.
    offset: i64,
    /// The loads at `i + d` that no store at `i + d` precedes.
    loads: Vec<Var>,
    /// The last store at `i + d + s`: its result, the array it stores into, its value.
    store: (Var, Var, Operand),
    /// Whether that store is dead but in the last iteration (the body stores at `i + d` later,
    /// and reads `i + d + s` no more after it).
    dead: bool,
}

/// The statements that replace `l`: `l` itself, or `l` with carried elements behind its guard.
fn carried(f: &mut Func, mut l: Loop) -> Block {
    let step = if l.range.rev { -1 } else { 1 };
    let mut found = Vec::new();
    for k in 0..l.carried.len() {
        if let Some(accesses) = accesses(f, &l, k) {
            found.extend(forwards(k, &accesses, step));
        }
    }
    // An element before the first (`x[0 - 1]`) the loop itself would panic on at run time; a
    // constant index written out of the loop would be rustc's error instead.
    let known = |first: bool, k: i64| {
        let at = if first != l.range.rev { l.range.lo.value } else { None };
        at.is_none_or(|v| i64::try_from(v).is_ok_and(|v| v + k >= 0))
    };
    found.retain(|fw| known(true, fw.offset) && (!fw.dead || known(false, fw.offset + step)));
    if found.is_empty() {
        return vec![Stmt::For(Box::new(l))];
    }
    let mut before = Vec::new();
    let mut map: HashMap<Var, Operand> = HashMap::new();
    let mut dropped = Vec::new();
    let mut yields = Vec::new();
    for fw in &found {
        let array = l.carried[fw.k].init.var().unwrap_or(fw.store.1);
        let name = f.name(l.carried[fw.k].param).clone();
        let pre = fresh(f, name.clone(), Ty::F64);
        before.push(Stmt::Load { out: pre, array, index: vec![end(&l, true, fw.offset)] });
        let param = fresh(f, name, Ty::F64);
        l.carried.push(Carry { param, init: Operand::Var(pre) });
        yields.push(fw.store.2);
        for v in &fw.loads {
            map.insert(*v, Operand::Var(param));
        }
        dropped.extend(fw.loads.iter().copied());
        if fw.dead {
            map.insert(fw.store.0, Operand::Var(fw.store.1));
            dropped.push(fw.store.0);
        }
    }
    // A dead store of a version that another dead store made: its array is the one before both.
    let resolve = |map: &HashMap<Var, Operand>, mut op: Operand| {
        while let Some(next) = op.var().and_then(|v| map.get(&v)) {
            op = *next;
        }
        op
    };
    let map: HashMap<Var, Operand> = map.iter().map(|(v, op)| (*v, resolve(&map, *op))).collect();
    l.body.retain(
        |s| !matches!(s, Stmt::Load { out, .. } | Stmt::Store { out, .. } if dropped.contains(out)),
    );
    l.body = substitute(&l.body, &map);
    l.yields = l.yields.iter().chain(&yields).map(|y| substitute_operand(*y, &map)).collect();
    let outs = std::mem::take(&mut l.outs);
    l.outs = l
        .carried
        .iter()
        .map(|c| fresh(f, f.name(c.param).clone(), f.ty(c.param).clone()))
        .collect();
    let mut results: Vec<Operand> = l.outs[..outs.len()].iter().map(|v| Operand::Var(*v)).collect();
    let mut after = Vec::new();
    for (j, fw) in found.iter().enumerate().filter(|(_, fw)| fw.dead) {
        let Some(array) = results[fw.k].var() else { continue };
        let out = fresh(f, f.name(array).clone(), f.ty(array).clone());
        let value = Operand::Var(l.outs[outs.len() + j]);
        let index = vec![end(&l, false, fw.offset + step)];
        after.push(Stmt::Store { out, array, index, value });
        results[fw.k] = Operand::Var(out);
    }
    wrapped(f, l, before, after, results, outs)
}

/// `before`, `l` and `after`, under `if lo < hi` unless `l` is known to run, with `results` (of
/// `l` and `after`) for `outs`, the statement's results.
fn wrapped(
    f: &mut Func,
    mut l: Loop,
    mut before: Block,
    mut after: Block,
    results: Vec<Operand>,
    outs: Vec<Var>,
) -> Block {
    if nonempty(&l) {
        // No guard: the loop's results and the stores' are the statement's own.
        let rename = |v: &mut Var| {
            if let Some(p) = results.iter().position(|r| *r == Operand::Var(*v)) {
                *v = outs[p];
            }
        };
        l.outs.iter_mut().for_each(rename);
        for s in &mut after {
            if let Stmt::Store { out, .. } = s {
                rename(out);
            }
        }
        before.push(Stmt::For(Box::new(l)));
        before.extend(after);
        return before;
    }
    let inits: Vec<Operand> = l.carried[..outs.len()].iter().map(|c| c.init).collect();
    let cmp = if l.range.inclusive { Cmp::Le } else { Cmp::Lt };
    let cond = Cond::Int(cmp, Box::new(l.range.lo.clone()), Box::new(l.range.hi.clone()));
    let mut then = before;
    then.push(Stmt::For(Box::new(l)));
    then.extend(after);
    let test = fresh(f, Name::temp(), Ty::Bool);
    let guard = Branch {
        cond: test,
        then,
        then_yields: results,
        otherwise: Vec::new(),
        else_yields: inits,
        outs,
    };
    vec![Stmt::Test { out: test, cond }, Stmt::If(Box::new(guard))]
}

/// Whether the macro knows that `l` runs at least once (`0..=n`, `1..8`).
fn nonempty(l: &Loop) -> bool {
    let r = &l.range;
    match (r.lo.value, r.hi.value) {
        (Some(0), _) if r.inclusive => true,
        (Some(lo), Some(hi)) => lo < hi || (r.inclusive && lo == hi),
        _ => false,
    }
}

/// The index `k` past the first iteration's index of `l` (`first`), or its last's.
pub(super) fn end(l: &Loop, first: bool, k: i64) -> Int {
    let r = &l.range;
    match (first != r.rev, r.inclusive) {
        (true, _) => r.lo.shift(k),
        (false, true) => r.hi.shift(k),
        (false, false) => r.hi.shift(k - 1),
    }
}

/// A new variable.
fn fresh(f: &mut Func, name: Name, ty: Ty) -> Var {
    f.names.push(name);
    f.types.push(ty);
    Var(u32::try_from(f.names.len() - 1).unwrap_or(u32::MAX))
}

/// The loads of the array carried at `k` that read what the iteration before stored, each group
/// with its store (`step` is the loop's: 1, or −1 going down).
fn forwards(k: usize, accesses: &[Access], step: i64) -> Vec<Forward> {
    let stores = |c: i64| accesses.iter().filter(move |a| a.load.is_none() && a.offset == c);
    let mut out = Vec::new();
    let mut offsets: Vec<i64> =
        accesses.iter().filter(|a| a.load.is_some()).map(|a| a.offset).collect();
    offsets.sort_unstable();
    offsets.dedup();
    for d in offsets {
        let Some(c) = d.checked_add(step) else { continue };
        let Some(source) = stores(c).next_back() else { continue };
        let first_store = stores(d).next().map_or(usize::MAX, |s| s.at);
        let loads: Vec<Var> = accesses
            .iter()
            .filter(|a| a.offset == d && a.at < first_store)
            .filter_map(|a| a.load)
            .collect();
        let Some((result, array)) = source.store else { continue };
        if loads.is_empty() {
            continue;
        }
        let read_after =
            accesses.iter().any(|a| a.load.is_some() && a.offset == c && a.at > source.at);
        let dead = first_store != usize::MAX && !read_after;
        out.push(Forward { k, offset: d, loads, store: (result, array, source.value), dead });
    }
    out
}

/// The accesses to the array carried at `k` of `l`, if it is an array of one dimension of the
/// function's scalars whose every version in the body is read only by a load or a store (of the
/// current version) at the body's level, of one element at an index `i + c` of `l`'s index; and
/// the loop yields the last version at `k` and no version elsewhere.
fn accesses(f: &Func, l: &Loop, k: usize) -> Option<Vec<Access>> {
    let shape = f.ty(l.carried[k].param).shape()?;
    if shape.dims.len() != 1 || shape.elem != Elem::F64 {
        return None;
    }
    l.carried[k].init.var()?;
    let offset = |index: &[Int]| match index {
        [i] => i.affine.filter(|a| a.index == l.index).map(|a| a.offset),
        _ => None,
    };
    let mut current = l.carried[k].param;
    let mut versions = vec![current];
    let mut out = Vec::new();
    for (at, s) in l.body.iter().enumerate() {
        match s {
            Stmt::Load { out: v, array, index } if versions.contains(array) => {
                let offset = offset(index).filter(|_| *array == current)?;
                out.push(Access {
                    at,
                    offset,
                    load: Some(*v),
                    store: None,
                    value: Operand::Lit(0.0),
                });
            }
            Stmt::Store { out: v, array, index, value } if versions.contains(array) => {
                let offset = offset(index).filter(|_| *array == current)?;
                if value.var().is_some_and(|x| versions.contains(&x)) {
                    return None;
                }
                out.push(Access {
                    at,
                    offset,
                    load: None,
                    store: Some((*v, *array)),
                    value: *value,
                });
                current = *v;
                versions.push(current);
            }
            other => {
                if reads_any(other, &versions) {
                    return None;
                }
            }
        }
    }
    if !yields_last(l, k, &versions, current) {
        return None;
    }
    Some(out)
}
