//! Scalar promotion: an array that a loop carries, and whose every access in the loop's body is
//! to one element at an index the loop does not change (`x̄[c]` in a loop over `r`), becomes a
//! scalar the loop carries. The element is loaded before the loop and stored after it, and in
//! between it is a local, as a person writes `let mut acc = x̄[c]; for r … { acc += … }
//! x̄[c] = acc;`: the sum then stays in a register instead of going through memory at every
//! iteration (where a store to another array in the same iteration may, for all the compiler
//! knows, change it). The same operations in the same order: the values are unchanged to the
//! bit.

use std::collections::HashMap;

use super::loops::{Rewritten, reads_any, rewrite_loops, yields_last};

use crate::ir::{
    Carry, Elem, Func, Int, Loop, Name, Operand, Stmt, Ty, Var, substitute, substitute_operand,
};

/// `f` with every promotable carried array of its loops carried as a scalar.
pub fn promote(f: &Func) -> Func {
    rewrite_loops(f, &mut |f, mut l| {
        let (mut before, mut after) = (Vec::new(), Vec::new());
        for k in 0..l.carried.len() {
            if let Some((load, store)) = promote_one(f, &mut l, k) {
                before.push(load);
                after.push(store);
            }
        }
        Rewritten { before, the_loop: l, after }
    })
}

/// The accesses of the `k`-th carried array of `l`: each load and store of the current version,
/// in order, all at `index`.
struct Accesses {
    index: Vec<Int>,
    /// Each load's result, and each store's result with the value stored.
    steps: Vec<(Var, Option<Operand>)>,
}

/// Promotes the `k`-th carried value of `l`, if it can: returns the load before the loop and
/// the store after it.
fn promote_one(f: &mut Func, l: &mut Loop, k: usize) -> Option<(Stmt, Stmt)> {
    let param = l.carried[k].param;
    let shape = f.ty(param).shape()?.clone();
    let init = l.carried[k].init.var()?;
    if shape.elem != Elem::F64 {
        return None;
    }
    let acc = accesses(l, k, shape.dims.len())?;
    if acc.index.iter().any(|i| i.loops.contains(&l.index))
        || acc.steps.iter().all(|s| s.1.is_none())
    {
        return None;
    }
    let scalar = |f: &mut Func, name: Name| {
        f.names.push(name);
        f.types.push(Ty::F64);
        Var(u32::try_from(f.names.len() - 1).unwrap_or(u32::MAX))
    };
    let first = scalar(f, Name::temp());
    let name = f.name(param).clone();
    let carried = scalar(f, name.clone());
    let result = scalar(f, name);
    let mut map: HashMap<Var, Operand> = HashMap::new();
    let mut current = Operand::Var(carried);
    for (out, stored) in &acc.steps {
        match stored {
            None => {
                map.insert(*out, current);
            }
            Some(value) => current = substitute_operand(*value, &map),
        }
    }
    let dropped: Vec<Var> = acc.steps.iter().map(|s| s.0).collect();
    l.body.retain(
        |s| !matches!(s, Stmt::Load { out, .. } | Stmt::Store { out, .. } if dropped.contains(out)),
    );
    l.body = substitute(&l.body, &map);
    for y in l.yields.iter_mut() {
        *y = substitute_operand(*y, &map);
    }
    l.yields[k] = current;
    l.carried[k] = Carry { param: carried, init: Operand::Var(first) };
    let array_out = std::mem::replace(&mut l.outs[k], result);
    let load = Stmt::Load { out: first, array: init, index: acc.index.clone() };
    let store =
        Stmt::Store { out: array_out, array: init, index: acc.index, value: Operand::Var(result) };
    Some((load, store))
}

/// The accesses to the `k`-th carried array of `l` (of `dims` dimensions), if every reader of
/// its versions in the body is a load or a store of one element at one index, each of the
/// version before it, and the loop yields the last version.
fn accesses(l: &Loop, k: usize, dims: usize) -> Option<Accesses> {
    let mut current = l.carried[k].param;
    let mut index: Option<Vec<Int>> = None;
    let mut steps = Vec::new();
    let mut same = |ix: &Vec<Int>| match &index {
        Some(i) => i == ix,
        None => {
            index = Some(ix.clone());
            true
        }
    };
    // The versions of the array: the carried one, then each store's.
    let mut versions = vec![current];
    for s in &l.body {
        match s {
            Stmt::Load { out, array, index: ix } if *array == current => {
                if ix.len() != dims || !same(ix) {
                    return None;
                }
                steps.push((*out, None));
            }
            Stmt::Store { out, array, index: ix, value } if *array == current => {
                if ix.len() != dims
                    || !same(ix)
                    || versions.iter().any(|v| *value == Operand::Var(*v))
                {
                    return None;
                }
                steps.push((*out, Some(*value)));
                current = *out;
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
    Some(Accesses { index: index?, steps })
}
