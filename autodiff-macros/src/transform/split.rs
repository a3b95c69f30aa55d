//! A vector function's VJP split in two at the end of its forward pass, as JAX's `custom_vjp`
//! splits a rule into `fwd` and `bwd`: the forward half computes the value and the residuals (the
//! values of the forward pass that the sweep reads), the reverse half takes them with the
//! cotangent and runs the sweep. A caller's gradient runs the first in its forward pass and the
//! second in its sweep, so the callee's forward pass runs once per call. Nothing is derived
//! again: the halves are the statements of one reverse transform, partitioned.

use std::collections::HashSet;

use crate::ir::{Func, Operand, Stmt, Var, free_vars, stmt_defs};

/// The two halves of a VJP, each to be cleaned up on its own.
pub struct Halves {
    /// The user's inputs to `[values…, residuals…]`.
    pub fwd: Func,
    /// The user's inputs, the residuals and the cotangents of the values, to the cotangents of
    /// the differentiated inputs.
    pub rev: Func,
    /// The residuals, in order.
    pub residuals: Vec<Var>,
}

/// Splits `vjp` (a reverse transform of a vector function, whose first `forward` statements
/// are its forward pass) into its halves. A zero array that the forward pass made is made again
/// in the sweep rather than passed.
pub fn halves(vjp: &Func, forward: usize) -> Halves {
    let forward = forward.min(vjp.body.len());
    let (fwd_body, sweep) = vjp.body.split_at(forward);
    let values = vjp.outputs.len() - vjp.active.len();
    let (value_outs, cotangents) = vjp.outputs.split_at(values);
    let defined: HashSet<Var> = fwd_body.iter().flat_map(stmt_defs).collect();
    let read = free_vars(&sweep.to_vec(), cotangents);
    let mut remade: Vec<Stmt> = Vec::new();
    let mut residuals = Vec::new();
    for v in read.into_iter().filter(|v| defined.contains(v)) {
        match fwd_body.iter().find(|s| stmt_defs(s).contains(&v)) {
            Some(s @ Stmt::Fill { value, .. }) if value.var().is_none() => remade.push(s.clone()),
            _ => residuals.push(v),
        }
    }
    let users = &vjp.inputs[..vjp.user_inputs];
    let mut fwd = vjp.clone();
    fwd.body = fwd_body.to_vec();
    fwd.inputs = users.to_vec();
    fwd.outputs = value_outs.to_vec();
    fwd.outputs.extend(residuals.iter().map(|v| Operand::Var(*v)));
    let mut rev = vjp.clone();
    rev.body = remade;
    rev.body.extend_from_slice(sweep);
    rev.inputs = users.to_vec();
    rev.inputs.extend(&residuals);
    rev.inputs.extend(&vjp.inputs[vjp.user_inputs..]);
    rev.outputs = cotangents.to_vec();
    Halves { fwd, rev, residuals }
}

/// Keeps only the residuals that the cleaned-up reverse half `rev` still reads: dropped from
/// its inputs and from the forward half's outputs. Returns how many are kept.
pub fn keep_residuals(h: &mut Halves, rev: &mut Func, values: usize) -> usize {
    let read: HashSet<Var> = free_vars(&rev.body, &rev.outputs).into_iter().collect();
    let kept: Vec<Var> = h.residuals.iter().copied().filter(|v| read.contains(v)).collect();
    rev.inputs.retain(|v| !h.residuals.contains(v) || kept.contains(v));
    h.fwd.outputs.truncate(values);
    h.fwd.outputs.extend(kept.iter().map(|v| Operand::Var(*v)));
    h.residuals = kept;
    h.residuals.len()
}
