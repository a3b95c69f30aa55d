//! First write of a caller's buffer: the elements of a zeroed buffer (a slice's gradient) that
//! its first loop writes before anything reads them need no zero. Codegen then zeroes only the
//! others, instead of a whole pass over the buffer before the sweep (at n = 10⁶ the buffer is
//! 8 MB, and that pass costs what a hand-written gradient does not); the values are the same to
//! the bit, since no read sees an element that the zeroing would have changed.
//!
//! Decided on the loop that takes the zeroed buffer first, a `for` loop at the function's top
//! level over an ascending range: a store `x̄[i + c]` in its body (not in a branch or a nested
//! loop) writes the elements `lo + c ..= last + c`, one per iteration; they are left unzeroed
//! when every load of the buffer in the loop, `x̄[i + d]` in iteration `i`, reads an element the
//! store has written by then (`d < c`, or `d = c` after the store) or one outside them. Any
//! other access (another loop's index, a constant index, a nested loop, a buffer of arrays) keeps
//! the whole buffer zeroed.
//!
//! The loop may stand behind the guard that [`super::carry_elements`] puts around a loop whose
//! elements it carries (`if lo < hi { c = x̄[lo + d]; for … ; x̄[last + e] = c; }`, the other side
//! yielding the buffer as it is): a load before the loop reads in its first iteration, before
//! anything, and a store after it writes in its last, after everything, so they count as a load
//! at the start of the body and a store at its end (sound because the body itself writes
//! `x̄[i + e − 1]` before reading it: the element that each iteration but the last leaves to the
//! next). When the range is empty, `zero_outside` zeroes the whole buffer, which is what the
//! other side yields. A loop known to run has no guard: the same loads before it and stores
//! after it at the top level.

use super::carry::end;
use super::first_touch::Chain;
use crate::ir::{
    Block, Branch, Cmp, Cond, Func, Int, Loop, Operand, Range, Stmt, Var, free_vars, reads,
};

/// The elements `range.lo + offset ..` of a buffer that its first loop writes first: one per
/// index of `range`, shifted by `offset`.
#[derive(Clone, Debug, PartialEq)]
pub struct Written {
    /// The loop's range.
    pub range: Range,
    /// The element written in iteration `i` is `i + offset`.
    pub offset: i64,
}

/// The elements of the buffer that `fill` (a zeroed array of run-time length at `f`'s top level)
/// starts, which its first loop writes before reading them, if the macro can tell.
pub fn written_first(f: &Func, fill: Var) -> Option<Written> {
    let readers: Vec<usize> = (0..f.body.len())
        .filter(|k| reads(&f.body[*k]).iter().any(|o| o.var() == Some(fill)))
        .collect();
    let (last, before) = readers.split_last()?;
    match &f.body[*last] {
        // The loop, with the loads of `carry_elements` before it when it always runs.
        Stmt::For(l) if before.iter().all(|k| matches!(f.body[*k], Stmt::Load { .. })) => {
            let (extra, _) = beside(f, &f.body, *last, fill)?;
            first_loop(f, l, fill, extra)
        }
        Stmt::If(b) if before.is_empty() => guarded(f, b, fill),
        _ => None,
    }
}

/// A load (`true`) or a store of the buffer outside the loop, as an access of its body: where
/// (before or after every statement of the body) and the offset from the loop's index.
type Extra = (bool, Vec<u32>, i64);

/// The loop behind the guard `b` that takes the buffer `fill`.
fn guarded(f: &Func, b: &Branch, fill: Var) -> Option<Written> {
    let cond = f.body.iter().find_map(|s| match s {
        Stmt::Test { out, cond } if *out == b.cond => Some(cond),
        _ => None,
    })?;
    let at = b.else_yields.iter().position(|y| y.var() == Some(fill))?;
    let k = b.then.iter().position(|s| matches!(s, Stmt::For(_)))?;
    let Stmt::For(l) = &b.then[k] else { return None };
    let r = &l.range;
    let cmp = if r.inclusive { Cmp::Le } else { Cmp::Lt };
    let test = Cond::Int(cmp, Box::new(r.lo.clone()), Box::new(r.hi.clone()));
    if !b.otherwise.is_empty() || *cond != test {
        return None;
    }
    let (extra, current) = beside(f, &b.then, k, fill)?;
    let reads_var = |s: &Stmt, v: Var| reads(s).iter().any(|o| o.var() == Some(v));
    let after = b.then[k + 1..].iter().filter(|s| !matches!(s, Stmt::Store { .. }));
    if after.clone().any(|s| reads_var(s, current) || reads_var(s, fill))
        || b.then_yields.get(at) != Some(&Operand::Var(current))
    {
        return None;
    }
    first_loop(f, l, fill, extra)
}

/// The accesses to `fill` next to the loop `block[k]` that takes it: every load of `fill` before
/// it (the first iteration's), and the stores into its result right after it (the last's), as
/// `carry_elements` writes their indices; with the buffer's version after those stores.
fn beside(f: &Func, block: &Block, k: usize, fill: Var) -> Option<(Vec<Extra>, Var)> {
    let Stmt::For(l) = &block[k] else { return None };
    let l: &Loop = l;
    let mine = l.carried.iter().position(|c| c.init.var() == Some(fill))?;
    let chain = Chain::of(f, l, mine)?;
    // The offsets they can have: next to the loop's own accesses.
    let near: Vec<i64> = chain
        .accesses
        .iter()
        .filter_map(|a| a.index.first().and_then(|i| i.affine).map(|x| x.offset))
        .flat_map(|o| [o - 1, o, o + 1])
        .collect();
    let offset = |index: &[Int], first: bool| match index {
        [i] => near.iter().copied().find(|k| end(l, first, *k) == *i),
        _ => None,
    };
    let mut extra: Vec<Extra> = Vec::new();
    for s in &block[..k] {
        match s {
            Stmt::Load { array, index, .. } if *array == fill => {
                extra.push((true, Vec::new(), offset(index, true)?));
            }
            s if reads(s).iter().any(|o| o.var() == Some(fill)) => return None,
            _ => {}
        }
    }
    // (The stores into the loop's other arrays come in between.)
    let mut current = *l.outs.get(mine)?;
    for s in &block[k + 1..] {
        match s {
            Stmt::Store { out, array, index, .. } if *array == current => {
                extra.push((false, vec![u32::MAX], offset(index, false)?));
                current = *out;
            }
            Stmt::Store { value, .. } if value.var() != Some(current) => {}
            _ => break,
        }
    }
    Some((extra, current))
}

/// The elements that `l`, which takes `fill`, writes first, with `extra` accesses from outside.
fn first_loop(f: &Func, l: &Loop, fill: Var, extra: Vec<Extra>) -> Option<Written> {
    let dims = f.ty(fill).shape().map(|s| s.dims.len());
    if l.range.rev || dims != Some(1) || free_vars(&l.body, &l.yields).contains(&fill) {
        return None;
    }
    let k = l.carried.iter().position(|c| c.init.var() == Some(fill))?;
    if l.carried.iter().filter(|c| c.init.var() == Some(fill)).count() != 1 {
        return None;
    }
    let chain = Chain::of(f, l, k)?;
    // Each access as (is a load, where, offset from the loop's index), or `None`.
    let mut accesses = Vec::new();
    for a in &chain.accesses {
        let affine = a.index.first().and_then(|i| i.affine).filter(|x| x.index == l.index);
        let (Some(x), 1, 1) = (affine, a.around.len(), a.index.len()) else { return None };
        accesses.push((a.load.is_some(), a.at.clone(), x.offset));
    }
    // A store after the loop at `i + c` of its last iteration stands for the element that each
    // iteration but the last leaves to the next, which writes it at `i + c - 1` before reading
    // it; the body must do so.
    let leaves = |c: i64| {
        let first = accesses.iter().filter(|(load, at, d)| !load && at.len() == 1 && *d == c - 1);
        first
            .map(|(_, at, _)| at)
            .min()
            .is_some_and(|st| !accesses.iter().any(|(load, ld, d)| *load && *d == c - 1 && ld < st))
    };
    if extra.iter().any(|(load, _, c)| !load && !leaves(*c)) {
        return None;
    }
    accesses.extend(extra);
    let stores = accesses.iter().filter(|(load, at, _)| !load && at.len() == 1);
    let offset = stores
        .filter(|(_, st, c)| {
            accesses
                .iter()
                .filter(|(load, ..)| *load)
                .all(|(_, ld, d)| d < c || (d == c && st < ld))
        })
        .map(|(.., c)| *c)
        .max()?;
    Some(Written { range: l.range.clone(), offset })
}
