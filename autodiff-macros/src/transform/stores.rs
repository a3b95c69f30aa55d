//! Store-to-load forwarding: a load of the element that a store just wrote (the array it reads
//! is that store's result, at the same index) is the stored value. Run on the primal before the
//! storage plan, so that the plan sees what the forward pass computes: after `y[j] = e`, the
//! `y[j]` of `y[j] * z` is `e`, not a load of the array the loop carries, which the sweep would
//! have to save. Exact: the values are the same to the bit.

use std::collections::HashMap;

use crate::ir::{Block, Func, Int, Operand, Stmt, Var, substitute, substitute_operand};

/// `f` with every load of a just-stored element replaced by the stored value.
pub fn forward_stores(f: &Func) -> Func {
    let mut stores = HashMap::new();
    collect(&f.body, &mut stores);
    let mut map = HashMap::new();
    let body = forward(&f.body, &stores, &mut map);
    if map.is_empty() {
        return f.clone();
    }
    let outputs = f.outputs.iter().map(|o| substitute_operand(*o, &map)).collect();
    Func { body: substitute(&body, &map), outputs, ..f.clone() }
}

/// Every store, by the array it defines: the index written and the value.
fn collect(block: &Block, out: &mut HashMap<Var, (Vec<Int>, Operand)>) {
    for s in block {
        match s {
            Stmt::Store { out: v, index, value, .. } => {
                out.insert(*v, (index.clone(), *value));
            }
            Stmt::For(l) => collect(&l.body, out),
            Stmt::If(b) => {
                collect(&b.then, out);
                collect(&b.otherwise, out);
            }
            _ => {}
        }
    }
}

/// `block` without the forwarded loads (recorded in `map`), in nested blocks too.
fn forward(
    block: &Block,
    stores: &HashMap<Var, (Vec<Int>, Operand)>,
    map: &mut HashMap<Var, Operand>,
) -> Block {
    let mut out = Vec::with_capacity(block.len());
    for s in block {
        let s = match s {
            Stmt::Load { out: v, array, index } => match stores.get(array) {
                Some((ix, value)) if ix == index => {
                    map.insert(*v, substitute_operand(*value, map));
                    continue;
                }
                _ => s.clone(),
            },
            Stmt::For(l) => {
                let body = forward(&l.body, stores, map);
                Stmt::For(Box::new(crate::ir::Loop { body, ..(**l).clone() }))
            }
            Stmt::If(b) => {
                let then = forward(&b.then, stores, map);
                let otherwise = forward(&b.otherwise, stores, map);
                Stmt::If(Box::new(crate::ir::Branch { then, otherwise, ..(**b).clone() }))
            }
            other => other.clone(),
        };
        out.push(s);
    }
    out
}
