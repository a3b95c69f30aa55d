//! Storage made once: an array of a stored loop's storage that an outer loop's body makes afresh
//! every iteration (`let mut x_saved = [[0.0; D]; K];` at the top of the loop over points) is
//! made once before the outer loop and carried through it, as a person declares a buffer
//! outside the loop and reuses it. What the sweep reads from storage is always written earlier
//! in the same iteration (the storage plan saves a value where the forward pass computes it and
//! loads it where the sweep needs it, under the same loops and branches), so the zeros the
//! fresh array held were never read, and the values are unchanged to the bit.

use crate::ir::{Carry, Func, Name, Operand, Stmt, Suffix, Var, reads};
use crate::ir::{substitute, substitute_operand};

use super::loops::{Rewritten, rewrite_loops};

/// `f` with every per-iteration storage array of its loops made once, before the loop.
pub fn hoist_storage(f: &Func) -> Func {
    rewrite_loops(f, &mut |f, mut l| {
        let mut before = Vec::new();
        while let Some((fill, last)) = candidate(f, &l) {
            before.push(carry(f, &mut l, fill, last));
        }
        Rewritten { before, the_loop: l, after: Vec::new() }
    })
}

/// Whether `v` is an array of a loop's storage.
fn is_storage(f: &Func, v: Var) -> bool {
    let named = match f.name(v) {
        Name::Derived { suffix: Suffix::Saved, .. } => true,
        Name::Hint(h) => *h == crate::symbol::SAVED,
        _ => false,
    };
    named && f.ty(v).shape().is_some()
}

/// A storage array (named so, or carried into an inner loop under such a name) that `l`'s body
/// fills at its top level, with a shape that does not change
/// with `l`'s index, and the last version of it at that level: each version is made by a store
/// into the one before or by an inner loop carrying it, and read otherwise only by loads and by
/// loops that do not carry it.
fn candidate(f: &Func, l: &crate::ir::Loop) -> Option<(usize, Var)> {
    'fills: for (i, s) in l.body.iter().enumerate() {
        let Stmt::Fill { out, .. } = s else { continue };
        // The zeros a stored loop's storage starts from are a temporary, carried into the loop
        // under the storage's name.
        let mut storage = is_storage(f, *out);
        let shape = f.ty(*out).shape()?;
        if shape.dims.iter().any(|d| d.loops.contains(&l.index)) {
            continue;
        }
        let mut current = *out;
        let mut versions = vec![current];
        for s in &l.body[i + 1..] {
            let read =
                |s: &Stmt| reads(s).iter().any(|o| o.var().is_some_and(|v| versions.contains(&v)));
            match s {
                Stmt::Store { out, array, value, .. } if *array == current => {
                    if value.var().is_some_and(|v| versions.contains(&v)) {
                        continue 'fills;
                    }
                    current = *out;
                }
                Stmt::For(inner) => {
                    let carries: Vec<usize> = (0..inner.carried.len())
                        .filter(|k| {
                            inner.carried[*k].init.var().is_some_and(|v| versions.contains(&v))
                        })
                        .collect();
                    match carries.as_slice() {
                        [] => {}
                        [k] if inner.carried[*k].init == Operand::Var(current) => {
                            storage |= is_storage(f, inner.carried[*k].param);
                            current = inner.outs[*k];
                        }
                        _ => continue 'fills,
                    }
                }
                Stmt::Load { .. } => {}
                other => {
                    if read(other) {
                        continue 'fills;
                    }
                }
            }
            versions.push(current);
        }
        if !storage || l.yields.iter().any(|y| y.var().is_some_and(|v| versions.contains(&v))) {
            continue;
        }
        return Some((i, current));
    }
    None
}

/// Moves the fill at `fill` of `l`'s body before `l` (returned) and carries the array through
/// `l`, yielding `last`.
fn carry(f: &mut Func, l: &mut crate::ir::Loop, fill: usize, last: Var) -> Stmt {
    let stmt = l.body.remove(fill);
    let Stmt::Fill { out: made, .. } = &stmt else { return stmt };
    let made = *made;
    let fresh = |f: &mut Func| {
        f.names.push(f.name(made).clone());
        f.types.push(f.ty(made).clone());
        Var(u32::try_from(f.names.len() - 1).unwrap_or(u32::MAX))
    };
    let (param, out) = (fresh(f), fresh(f));
    let map = [(made, Operand::Var(param))].into_iter().collect();
    l.body = substitute(&l.body, &map);
    let last = substitute_operand(Operand::Var(last), &map);
    l.carried.push(Carry { param, init: Operand::Var(made) });
    l.yields.push(last);
    l.outs.push(out);
    stmt
}
