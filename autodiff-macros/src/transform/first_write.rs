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

use super::first_touch::Chain;
use crate::ir::{Func, Range, Stmt, Var, free_vars, reads};

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
    let readers: Vec<&Stmt> =
        f.body.iter().filter(|s| reads(s).iter().any(|o| o.var() == Some(fill))).collect();
    let [Stmt::For(l)] = readers.as_slice() else { return None };
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
        accesses.push((a.load.is_some(), &a.at, x.offset));
    }
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
