//! Additive carried values: a loop's carried value that each iteration only adds to (`s += e`,
//! `s -= e`, `y[i] += e`, through branches, inner loops and checkpointed sweeps too), where
//! nothing else reads it.
//!
//! Its adjoint is the same in every iteration (∂s'/∂s = 1), so the reverse sweep needs no carried
//! adjoint for it, the iterations of the sweep can run in any order, and none of them needs the
//! carried value itself: such a loop is a reduction, and needs no storage for it.

use crate::ir::{Block, Loop, Operand, Prim, Stmt, Var, reads};

/// Whether the `k`-th carried value of `l` is additive.
pub fn additive(l: &Loop, k: usize) -> bool {
    chain(&l.body, l.carried[k].param, l.yields[k], 0)
}

/// How many times `block` (and then `yields`) read `v`, nested blocks included.
fn uses(block: &Block, yields: &[Operand], v: Var) -> usize {
    let here = |op: &Operand| op.var() == Some(v);
    block.iter().map(|s| reads(s).iter().filter(|op| here(op)).count()).sum::<usize>()
        + yields.iter().filter(|op| here(op)).count()
}

/// Whether `to` is `from` plus terms that do not read it, in `block`, with nothing else reading
/// `from` or the partial sums on the way (`to` itself is read `to_uses` times in `block`).
fn chain(block: &Block, from: Var, to: Operand, to_uses: usize) -> bool {
    let mut current = from;
    loop {
        if to == Operand::Var(current) {
            return uses(block, &[], current) == to_uses;
        }
        let total = uses(block, &[to], current);
        let Some(s) = block.iter().find(|s| reads(s).contains(&Operand::Var(current))) else {
            return false;
        };
        let here = reads(s).iter().filter(|op| **op == Operand::Var(current)).count();
        let next = match s {
            _ if here != total => {
                // An array's element update reads it twice: `a[i] = a[i] + e`.
                match element_update(block, s, current) {
                    Some(next) if total == 2 => next,
                    _ => return false,
                }
            }
            Stmt::Op { out, prim: Prim::Add, .. } if here == 1 => *out,
            Stmt::Op { out, prim: Prim::Sub, args }
                if here == 1 && args[0] == Operand::Var(current) =>
            {
                *out
            }
            Stmt::For(inner) => {
                match inner.carried.iter().position(|c| c.init == Operand::Var(current)) {
                    Some(j) if additive(inner, j) && here == 1 => inner.outs[j],
                    _ => return false,
                }
            }
            Stmt::While(inner) => {
                match inner.carried.iter().position(|c| c.init == Operand::Var(current)) {
                    Some(j) if additive(&inner.as_loop(), j) && here == 1 => inner.outs[j],
                    _ => return false,
                }
            }
            // A checkpointed sweep carrying it as an adjoint that each iteration only adds to.
            Stmt::Checkpoint(c) => {
                match c.adjoint.iter().position(|a| a.init == Operand::Var(current)) {
                    Some(j)
                        if here == 1 && chain(&c.back, c.adjoint[j].param, c.back_yields[j], 0) =>
                    {
                        c.outs[j]
                    }
                    _ => return false,
                }
            }
            Stmt::If(b) => match branch_step(b, current) {
                Some(next) => next,
                None => return false,
            },
            _ => return false,
        };
        current = next;
    }
}

/// `a' = store(a, i, load(a, i) ± terms)`: the new array, when `s` is that load and it feeds the
/// store through additions only.
fn element_update(block: &Block, s: &Stmt, a: Var) -> Option<Var> {
    let Stmt::Load { out: loaded, array, index } = s else { return None };
    if *array != a {
        return None;
    }
    let store = block.iter().find_map(|t| match t {
        Stmt::Store { out, array, index: ix, value } if *array == a && ix == index => {
            Some((*out, *value))
        }
        _ => None,
    })?;
    chain(block, *loaded, store.1, 1).then_some(store.0)
}

/// The branch result that `v` flows into, when each side yields `v` plus terms (or `v` itself).
fn branch_step(b: &crate::ir::Branch, v: Var) -> Option<Var> {
    let sides = [(&b.then, &b.then_yields), (&b.otherwise, &b.else_yields)];
    let j = (0..b.outs.len()).find(|&j| {
        sides.iter().all(|(block, ys)| {
            let elsewhere = ys.iter().enumerate().any(|(i, y)| i != j && *y == Operand::Var(v));
            !elsewhere && chain(block, v, ys[j], 0)
        })
    })?;
    Some(b.outs[j])
}
