//! Clean-up passes: keep only the wanted outputs, and drop statements nothing reads.

use crate::ir::{Func, Operand};

/// `f` returning only the outputs at `indices`, in that order.
pub fn select_outputs(f: &Func, indices: &[usize]) -> Func {
    let outputs = indices.iter().filter_map(|i| f.outputs.get(*i).copied()).collect();
    Func { outputs, ..f.clone() }
}

/// `f` without the statements whose results never reach an output.
pub fn dead_code(f: &Func) -> Func {
    let mut live = vec![false; f.names.len()];
    let mark = |live: &mut Vec<bool>, op: &Operand| {
        if let Some(v) = op.var() {
            live[v.index()] = true;
        }
    };
    for o in &f.outputs {
        mark(&mut live, o);
    }
    for s in f.stmts.iter().rev() {
        if live[s.out.index()] {
            for a in &s.args {
                mark(&mut live, a);
            }
        }
    }
    let stmts = f.stmts.iter().filter(|s| live[s.out.index()]).cloned().collect();
    Func { stmts, ..f.clone() }
}
