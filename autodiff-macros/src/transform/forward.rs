//! Forward (tangent) mode: each statement is followed by its tangent, `ẏ = Σ ∂y/∂xᵢ ẋᵢ`.
//!
//! One new input per differentiated input carries the direction. The result returns the original
//! outputs followed by their tangents. It accepts any IR, including the reverse transform's
//! output, which is how Hessian-vector products are made.

use std::collections::HashMap;

use super::sum;
use crate::ir::{Builder, Func, Operand, Suffix, Var};
use crate::rules::{apply, partials};

/// The forward-mode transform: outputs `[o₁, …, oₖ, ȯ₁, …, ȯₖ]`.
pub fn forward(f: &Func) -> Func {
    let mut b = Builder::derive_from(f);
    let mut tangents: HashMap<Var, Operand> = HashMap::new();
    for a in &f.active {
        let dot = b.input(f.derived_name(*a, Suffix::Dot));
        tangents.insert(*a, Operand::Var(dot));
    }
    let tangent =
        |t: &HashMap<Var, Operand>, op: &Operand| op.var().and_then(|v| t.get(&v).copied());
    for s in &f.stmts {
        b.copy(s);
        let dots: Vec<Option<Operand>> = s.args.iter().map(|a| tangent(&tangents, a)).collect();
        if dots.iter().all(Option::is_none) {
            continue;
        }
        let rules = partials(&mut b, s.prim, &s.args, Operand::Var(s.out));
        let terms: Vec<Operand> = rules
            .iter()
            .zip(&dots)
            .filter_map(|(partial, dot)| apply(&mut b, partial, (*dot)?))
            .collect();
        if let Some(t) = sum(&mut b, terms, f.derived_name(s.out, Suffix::Dot)) {
            tangents.insert(s.out, t);
        }
    }
    let dots: Vec<Operand> =
        f.outputs.iter().map(|o| tangent(&tangents, o).unwrap_or(Operand::Lit(0.0))).collect();
    let mut outputs = f.outputs.clone();
    outputs.extend(dots);
    b.finish(outputs)
}
