//! Loop-invariant code motion: an arithmetic statement in a loop body whose operands are all
//! defined before the loop computes the same value in every iteration, so it moves before the
//! loop (`0.1 * k` once, not once per step), as a person would write it.
//!
//! Only `f64` arithmetic and comparisons move: they cannot fail, so computing them when the loop
//! runs zero times is harmless. Loads stay (an index might be out of bounds when the loop would
//! not have run), and so do loops and branches.

use std::collections::HashSet;

use super::cse::cse;
use crate::ir::{
    Block, Branch, Carry, Func, Loop, LoopId, Operand, Stmt, Var, While, reads, stmt_defs,
};

/// `f` with loop-invariant arithmetic moved out of its loops (and merged with equal statements
/// it meets there).
pub fn hoist(f: &Func) -> Func {
    cse(&Func { body: block(f, &f.body), ..f.clone() })
}

fn block(f: &Func, b: &Block) -> Block {
    let mut out = Vec::new();
    for s in b {
        match s {
            Stmt::For(l) => {
                let body = block(f, &l.body);
                let (moved, kept) = invariant(f, &body, l.index, &l.carried);
                out.extend(moved);
                out.push(Stmt::For(Box::new(Loop { body: kept, ..(**l).clone() })));
            }
            Stmt::While(w) => {
                let body = block(f, &w.body);
                let (moved, kept) = invariant(f, &body, w.index, &w.carried);
                out.extend(moved);
                out.push(Stmt::While(Box::new(While { body: kept, ..(**w).clone() })));
            }
            Stmt::If(br) => out.push(Stmt::If(Box::new(Branch {
                then: block(f, &br.then),
                otherwise: block(f, &br.otherwise),
                ..(**br).clone()
            }))),
            other => out.push(other.clone()),
        }
    }
    out
}

/// The statements of `body` (of the loop with index `l` carrying `carried`) that depend on
/// nothing the loop defines, and the others.
fn invariant(f: &Func, body: &Block, l: LoopId, carried: &[Carry]) -> (Block, Block) {
    let mut variant: HashSet<Var> = carried.iter().map(|c| c.param).collect();
    let (mut moved, mut kept) = (Vec::new(), Vec::new());
    for s in body {
        let movable = matches!(s, Stmt::Op { .. } | Stmt::Test { .. })
            && reads(s).iter().all(|op| match op {
                Operand::Var(v) => !variant.contains(v),
                Operand::Ext(e) => !f.exts[e.0 as usize].loops.contains(&l),
                _ => true,
            })
            && !reads_index(s, l);
        if movable {
            moved.push(s.clone());
        } else {
            variant.extend(stmt_defs(s));
            match s {
                Stmt::For(inner) => variant.extend(inner.carried.iter().map(|c| c.param)),
                Stmt::While(inner) => variant.extend(inner.carried.iter().map(|c| c.param)),
                _ => {}
            }
            kept.push(s.clone());
        }
    }
    (moved, kept)
}

/// Whether `s` reads the loop's index (through a constant or a comparison of integers).
fn reads_index(s: &Stmt, l: LoopId) -> bool {
    match s {
        Stmt::Test { cond, .. } => cond_reads_index(cond, l),
        _ => false,
    }
}

fn cond_reads_index(c: &crate::ir::Cond, l: LoopId) -> bool {
    use crate::ir::Cond;
    match c {
        Cond::Int(_, a, b) => a.loops.contains(&l) || b.loops.contains(&l),
        Cond::Not(c) => cond_reads_index(c, l),
        Cond::And(a, b) | Cond::Or(a, b) => cond_reads_index(a, l) || cond_reads_index(b, l),
        Cond::F64(..) | Cond::Var(_) => false,
    }
}
