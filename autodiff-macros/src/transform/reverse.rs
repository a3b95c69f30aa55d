//! Reverse mode: the primal statements, then an adjoint sweep that walks them backwards.
//!
//! The output's adjoint is seeded with 1; each statement's adjoint is the sum of the contributions
//! of every reader (accumulated here, at transform time, so the emitted code has one immutable
//! `let` per adjoint and no `+=`). Only values that depend on a differentiated input and lie on a
//! path to the output get adjoints. The result returns `[value, ∂f/∂a₁, …, ∂f/∂aₙ]`.

use std::collections::HashMap;

use super::sum;
use crate::ir::{Builder, Func, Operand, Stmt, Suffix, Var};
use crate::rules::{apply, partials};

/// Which variables depend on a differentiated input.
fn varied(f: &Func) -> Vec<bool> {
    let mut varied = vec![false; f.names.len()];
    for a in &f.active {
        varied[a.index()] = true;
    }
    for s in &f.body {
        if let Stmt::Op { out, args, .. } = s {
            varied[out.index()] = args.iter().any(|a| a.var().is_some_and(|v| varied[v.index()]));
        }
    }
    varied
}

/// The reverse-mode transform of a single-output function.
pub fn reverse(f: &Func) -> Func {
    let mut b = Builder::derive_from(f);
    for s in &f.body {
        if let Stmt::Op { out, prim, args } = s {
            b.copy(*out, *prim, args);
        }
    }
    let varied = varied(f);
    let mut contributions: HashMap<Var, Vec<Operand>> = HashMap::new();
    let output = f.outputs.first().copied().unwrap_or(Operand::Lit(0.0));
    if let Operand::Var(v) = output
        && varied[v.index()]
    {
        contributions.insert(v, vec![Operand::Lit(1.0)]);
    }
    for s in f.body.iter().rev() {
        let Stmt::Op { out, prim, args } = s else { continue };
        let Some(terms) = contributions.remove(out) else { continue };
        let Some(bar) = sum(&mut b, terms, f.derived_name(*out, Suffix::Bar)) else { continue };
        let rules = partials(&mut b, *prim, args, Operand::Var(*out));
        for (arg, partial) in args.iter().zip(&rules) {
            let Some(v) = arg.var().filter(|v| varied[v.index()]) else { continue };
            if let Some(c) = apply(&mut b, partial, bar) {
                contributions.entry(v).or_default().push(c);
            }
        }
    }
    let mut outputs = vec![output];
    for a in &f.active {
        let terms = contributions.remove(a).unwrap_or_default();
        outputs
            .push(sum(&mut b, terms, f.derived_name(*a, Suffix::Bar)).unwrap_or(Operand::Lit(0.0)));
    }
    b.finish(outputs)
}
