//! Reverse mode: the primal, then an adjoint sweep that walks it backwards.
//!
//! The output's adjoint is seeded with 1 (or, for a vector function, with cotangent inputs); each
//! value's adjoint is the sum of the contributions of every reader. Straight-line code accumulates
//! them at transform time, so the emitted code has one immutable `let` per adjoint. A loop's sweep
//! is a loop running backwards that carries the adjoints of the loop's carried values and
//! accumulates those of the values it reads from outside; a branch's sweep takes the same branch.
//! The sweep of a loop iteration or a branch recomputes the values it needs from what is
//! available, reads from storage what the forward loop saved for it (see [`super::plan()`]), and
//! reads the square roots and libm results that the forward branch carried out of the side it
//! took (see `replay.rs`).
//! Only values that depend on a differentiated input and reach an output get adjoints.

mod adjoint;
mod calls;
mod implicit;
mod regions;
mod replay;
mod stored;

use std::collections::{HashMap, HashSet};

use super::plan::Plans;
use crate::ir::{Builder, Func, LoopId, Name, Operand, stmt_defs};
use stored::Stored;

/// Where the sweep starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seed {
    /// A scalar function: the adjoint of its value is 1.
    One,
    /// A vector function: one new input per output carries the output's cotangent.
    Inputs,
}

/// The reverse-mode transform: outputs `[values…, ∂/∂a₁, …, ∂/∂aₙ]`. With [`Seed::Inputs`], one
/// cotangent input per output is added after the user's inputs.
pub fn reverse(f: &Func, plans: &Plans, seed: Seed) -> Func {
    reverse_marked(f, plans, seed).0
}

/// [`reverse()`], with the number of statements of its body that are the forward pass: the
/// statements after them are the sweep (see [`super::split`]).
pub fn reverse_marked(f: &Func, plans: &Plans, seed: Seed) -> (Func, usize) {
    let (varied, active) = (&plans.varied[..], &plans.active[..]);
    let mut top = vec![false; f.names.len()];
    for v in f.inputs.iter().copied().chain(f.body.iter().flat_map(stmt_defs)) {
        top[v.index()] = true;
    }
    let mut r = Rev {
        f,
        b: Builder::derive_from(f),
        plans,
        varied,
        active,
        storage: HashMap::new(),
        loaded: HashSet::new(),
        top,
    };
    r.forward_pass();
    let forward = r.b.top_len();
    let mut adj = adjoint::Adj::default();
    for o in &f.outputs {
        let value = match seed {
            Seed::One => Operand::Lit(1.0),
            Seed::Inputs => {
                let input = r.b.input(Name::Hint(crate::symbol::OUT_BAR), f.operand_ty(*o));
                Operand::Var(input)
            }
        };
        if let Some(v) = o.var().filter(|v| varied[v.index()]) {
            r.contribute(&mut adj, v, value);
        }
    }
    r.rev_block(&f.body, &mut adj);
    let mut outputs = f.outputs.clone();
    for a in &f.active {
        let bar = r.take_or_zero(&mut adj, *a);
        outputs.push(bar);
    }
    (r.b.finish(outputs), forward)
}

/// The state of one reverse transform.
struct Rev<'a> {
    f: &'a Func,
    b: Builder,
    plans: &'a Plans,
    /// Which variables depend on a differentiated input.
    varied: &'a [bool],
    /// Which variables are varied and reach an output.
    active: &'a [bool],
    /// The storage of each loop run in the current scope: each saved value with the array that
    /// holds it.
    storage: HashMap<LoopId, Stored>,
    /// The loops whose storage the current sweep loaded from a loop around them: they do not
    /// save again when recomputed.
    loaded: HashSet<LoopId>,
    /// The variables of the function's own block (and its inputs), visible everywhere after.
    top: Vec<bool>,
}

impl Rev<'_> {
    /// Whether the sweep can read `op` here: a constant, a value of the function's own block, or
    /// a value recomputed or loaded in the current scope.
    fn available(&self, op: Operand) -> bool {
        match op {
            Operand::Var(v) => self.top[v.index()] || self.b.is_mapped(v),
            _ => true,
        }
    }
}
