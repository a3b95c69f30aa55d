//! Loop fusion: a loop whose iterations can run in any order (every carried value additive: the
//! sweep of a reduction, accumulating adjoints) joins the earlier loop over the same indices, so
//! that each iteration computes the value and its adjoint contributions together, as a
//! hand-written gradient does. What the first loop saved for the second is then read directly,
//! and the recomputations of the second merge with the first's computations ([`super::cse`]).
//!
//! Legal when the second loop reads nothing the first one produces except its saved values (at
//! the same index), and everything else it reads exists before the first loop (or is defined
//! between the two by statements that read nothing the first loop produces, which move before
//! it: the adjoints that the sweep of a reduction starts from, say, summed in a loop after it).

use std::collections::{HashMap, HashSet};

use super::additive::additive;
use super::cleanup::dead_code;
use super::cse::{cse, same};
use crate::ir::{
    Block, Branch, Checkpoint, Func, Int, Loop, Operand, Range, Source, Stmt, Var, While, reads,
    stmt_defs, substitute, substitute_operand,
};

/// `f` with every fusable pair of loops fused. One pair at a time, each followed by merging
/// repeated computations: a loop the sweep recomputed then merges with the loop it repeats
/// before it could be fused in its place.
pub fn fuse(f: &Func) -> Func {
    let mut f = cse(f);
    loop {
        if let Some(body) = fuse_first(&f.body) {
            f = cse(&Func { body, ..f.clone() });
        } else if let Some((body, map)) = subsume_first(&f, &f.body) {
            let outputs = f.outputs.iter().map(|o| substitute_operand(*o, &map)).collect();
            f = cse(&Func { body: substitute(&body, &map), outputs, ..f.clone() });
        } else {
            return f;
        }
    }
}

/// `block` with its first loop that another loop after it subsumes replaced by that one (at
/// its own level first, then inside its loops and branches), and the map from the replaced
/// loop's results to the other's; `None` if there is none.
///
/// A loop subsumes an earlier one over the same indices when it computes the same carried
/// values from the same inputs, and more after them: the sweep's rerun of a forward loop that
/// saves what the loop's own sweep needs, which fusion placed in one body with that forward
/// loop. It then takes the earlier one's place, with what it reads from between the two.
fn subsume_first(f: &Func, block: &Block) -> Option<(Block, HashMap<Var, Operand>)> {
    if let Some(found) = subsume_once(f, block) {
        return Some(found);
    }
    for (i, s) in block.iter().enumerate() {
        let inner = match s {
            Stmt::For(l) => subsume_first(f, &l.body)
                .map(|(body, m)| (Stmt::For(Box::new(Loop { body, ..(**l).clone() })), m)),
            Stmt::If(b) => subsume_first(f, &b.then)
                .map(|(then, m)| (Branch { then, ..(**b).clone() }, m))
                .or_else(|| {
                    subsume_first(f, &b.otherwise)
                        .map(|(otherwise, m)| (Branch { otherwise, ..(**b).clone() }, m))
                })
                .map(|(b, m)| (Stmt::If(Box::new(b)), m)),
            _ => None,
        };
        if let Some((inner, map)) = inner {
            let mut out = block.clone();
            out[i] = inner;
            return Some((out, map));
        }
    }
    None
}

fn subsume_once(f: &Func, stmts: &[Stmt]) -> Option<(Block, HashMap<Var, Operand>)> {
    for (j, s) in stmts.iter().enumerate() {
        let Stmt::For(b) = s else { continue };
        for i in (0..j).rev() {
            let Stmt::For(a) = &stmts[i] else { continue };
            let m = a.carried.len();
            if a.index != b.index || a.range != b.range || m >= b.carried.len() {
                continue;
            }
            let Some(prefix) = restricted(f, b, m) else { continue };
            if !same(f, &stmts[i], &Stmt::For(Box::new(prefix))) {
                continue;
            }
            if let Some(out) = replace(stmts, i, j) {
                let map = a.outs.iter().zip(&b.outs).map(|(x, y)| (*x, Operand::Var(*y))).collect();
                return Some((out, map));
            }
        }
    }
    None
}

/// `l` computing only its first `m` carried values (what they need of the body), if those
/// need none of the others.
fn restricted(f: &Func, l: &Loop, m: usize) -> Option<Loop> {
    let outputs = l.outs[..m].iter().map(|o| Operand::Var(*o)).collect();
    let alone = Func { body: vec![Stmt::For(Box::new(l.clone()))], outputs, ..f.clone() };
    match dead_code(&alone).body.pop() {
        Some(Stmt::For(r)) if r.carried.len() == m && r.outs == l.outs[..m] => Some(*r),
        _ => None,
    }
}

/// `stmts` with the loop at `j` in place of the one at `i`, and the statements between them
/// that it reads moved before it; `None` if one of them cannot move.
fn replace(stmts: &[Stmt], i: usize, j: usize) -> Option<Block> {
    let later: HashSet<Var> = stmts[i..].iter().flat_map(stmt_defs).collect();
    let def_at: HashMap<Var, usize> =
        (i + 1..j).flat_map(|k| stmt_defs(&stmts[k]).into_iter().map(move |v| (v, k))).collect();
    let mut hoist = HashSet::new();
    for op in reads(&stmts[j]) {
        let Some(v) = op.var() else { continue };
        if later.contains(&v) && !movable(stmts, &def_at, &later, v, &mut hoist) {
            return None;
        }
    }
    let mut out: Vec<Stmt> = stmts[..i].to_vec();
    out.extend((i + 1..j).filter(|k| hoist.contains(k)).map(|k| stmts[k].clone()));
    out.push(stmts[j].clone());
    out.extend((i + 1..j).filter(|k| !hoist.contains(k)).map(|k| stmts[k].clone()));
    out.extend(stmts[j + 1..].iter().cloned());
    Some(out)
}

/// `block` with its first fusable pair of loops fused (at its own level first, then inside its
/// loops, branches and checkpointed sweeps); `None` if it has none.
fn fuse_first(block: &Block) -> Option<Block> {
    if let Some(fused) = fuse_once(block) {
        return Some(fused);
    }
    for (i, s) in block.iter().enumerate() {
        let inner = match s {
            Stmt::For(l) => {
                fuse_first(&l.body).map(|body| Stmt::For(Box::new(Loop { body, ..(**l).clone() })))
            }
            Stmt::While(w) => fuse_first(&w.body)
                .map(|body| Stmt::While(Box::new(While { body, ..(**w).clone() }))),
            Stmt::If(b) => fuse_first(&b.then)
                .map(|then| Branch { then, ..(**b).clone() })
                .or_else(|| {
                    fuse_first(&b.otherwise).map(|otherwise| Branch { otherwise, ..(**b).clone() })
                })
                .map(|b| Stmt::If(Box::new(b))),
            // The sweep of a checkpointed loop fuses as a stored loop's does, so that both run
            // their iterations in the same order and give the same values to the bit.
            Stmt::Checkpoint(c) => fuse_first(&c.back)
                .map(|back| Checkpoint { back, ..(**c).clone() })
                .or_else(|| fuse_first(&c.step).map(|step| Checkpoint { step, ..(**c).clone() }))
                .map(|c| Stmt::Checkpoint(Box::new(c))),
            _ => None,
        };
        if let Some(inner) = inner {
            let mut out = block.clone();
            out[i] = inner;
            return Some(out);
        }
    }
    None
}

fn same_indices(a: &Range, b: &Range) -> bool {
    a.lo == b.lo && a.hi == b.hi && a.inclusive == b.inclusive
}

/// The block with one pair of loops fused, if it has a fusable pair.
fn fuse_once(stmts: &[Stmt]) -> Option<Vec<Stmt>> {
    for (bi, s) in stmts.iter().enumerate() {
        let Stmt::For(b) = s else { continue };
        if !(0..b.carried.len()).all(|k| additive(b, k)) {
            continue;
        }
        let earlier = stmts[..bi].iter().rposition(
            |t| matches!(t, Stmt::For(a) if a.index == b.index && same_indices(&a.range, &b.range)),
        );
        if let Some(ai) = earlier
            && let Some(fused) = try_fuse(stmts, ai, bi)
        {
            return Some(fused);
        }
    }
    None
}

fn try_fuse(stmts: &[Stmt], ai: usize, bi: usize) -> Option<Vec<Stmt>> {
    let (Stmt::For(a), Stmt::For(b)) = (&stmts[ai], &stmts[bi]) else { return None };
    let saved = saved_values(a);
    let later: HashSet<Var> = stmts[ai..].iter().flat_map(stmt_defs).collect();
    // Where each later variable is defined, for moving plain statements before the first loop.
    let def_at: HashMap<Var, usize> =
        (ai + 1..bi).flat_map(|j| stmt_defs(&stmts[j]).into_iter().map(move |v| (v, j))).collect();
    let mut hoist = HashSet::new();
    let mut map = HashMap::new();
    for s in &b.body {
        if let Stmt::Load { out, array, index } = s
            && let Some(value) = saved.get(array)
            && index.as_slice() == [Int::index(a.index)]
        {
            map.insert(*out, *value);
        }
    }
    let body: Block = b
        .body
        .iter()
        .filter(|s| !matches!(s, Stmt::Load { out, .. } if map.contains_key(out)))
        .cloned()
        .collect();
    let body = substitute(&body, &map);
    let yields: Vec<Operand> = b.yields.iter().map(|y| substitute_operand(*y, &map)).collect();
    let merged_b = Loop { body, yields, ..(**b).clone() };
    for op in reads(&Stmt::For(Box::new(merged_b.clone()))) {
        let Some(v) = op.var() else { continue };
        if later.contains(&v) && !movable(stmts, &def_at, &later, v, &mut hoist) {
            return None;
        }
    }
    let mut carried = a.carried.clone();
    carried.extend(merged_b.carried.iter().cloned());
    let mut body = a.body.clone();
    body.extend(merged_b.body.iter().cloned());
    let mut yields = a.yields.clone();
    yields.extend(merged_b.yields.iter().copied());
    let mut outs = a.outs.clone();
    outs.extend(merged_b.outs.iter().copied());
    let fused = Stmt::For(Box::new(Loop {
        index: a.index,
        range: a.range.clone(),
        carried,
        body,
        yields,
        outs,
    }));
    let mut out: Vec<Stmt> = stmts[..ai].to_vec();
    out.extend((ai + 1..bi).filter(|j| hoist.contains(j)).map(|j| stmts[j].clone()));
    out.push(fused);
    out.extend((ai + 1..bi).filter(|j| !hoist.contains(j)).map(|j| stmts[j].clone()));
    out.extend(stmts[bi + 1..].iter().cloned());
    Some(out)
}

/// The first loop's saved values: each storage array it yields, with the value stored into it
/// at the loop's own index.
fn saved_values(a: &Loop) -> HashMap<Var, Operand> {
    let mut stored: HashMap<Var, Operand> = HashMap::new();
    for s in &a.body {
        if let Stmt::Store { out, array, index, value } = s
            && index.as_slice() == [Int::index(a.index)]
            && a.carried.iter().any(|c| c.param == *array)
        {
            stored.insert(*out, *value);
        }
    }
    let mut saved = HashMap::new();
    for (y, o) in a.yields.iter().zip(&a.outs) {
        if let Some(value) = y.var().and_then(|y| stored.get(&y)) {
            saved.insert(*o, *value);
        }
    }
    saved
}

/// Whether `v`, defined between the loops, can be defined before the first one: a statement
/// (a loop, a branch or a call too: the IR has no effects) whose operands are (recursively)
/// available there. Marks the statements to move. The values are the same, computed earlier.
fn movable(
    stmts: &[Stmt],
    def_at: &HashMap<Var, usize>,
    later: &HashSet<Var>,
    v: Var,
    hoist: &mut HashSet<usize>,
) -> bool {
    let Some(j) = def_at.get(&v).copied() else { return false };
    if hoist.contains(&j) {
        return true;
    }
    // A loop of unknown length may fill a tape that its sweep reads, and a sweep from a tape
    // reads the loop that fills it, a dependence no operand shows: both stay where they are.
    if matches!(&stmts[j], Stmt::While(_))
        || matches!(&stmts[j], Stmt::Checkpoint(c) if matches!(c.source, Source::Tape(_)))
    {
        return false;
    }
    hoist.insert(j);
    reads(&stmts[j])
        .into_iter()
        .filter_map(Operand::var)
        .all(|w| !later.contains(&w) || movable(stmts, def_at, later, w, hoist))
}
