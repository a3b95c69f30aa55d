//! Store-to-load forwarding: a load of the element that a store just wrote (the array it reads
//! is that store's result, at the same index) is the stored value. Run on the primal before the
//! storage plan, so that the plan sees what the forward pass computes: after `y[j] = e`, the
//! `y[j]` of `y[j] * z` is `e`, not a load of the array the loop carries, which the sweep would
//! have to save. Exact: the values are the same to the bit.
//!
//! Row forwarding too: a load from a row of an array (`let row = m[i];` then `row[j]`, as
//! `for row in m.iter()` or `zip(m.iter().copied())` bind it) is a load from the array
//! (`m[i][j]`); arrays are values in the IR, so the row is that array's at `i` wherever it is
//! read. The sweep then adds each element's cotangent into `m`'s adjoint where the read is, as
//! it does for `m[i][j]` written out (the same order of additions, to the bit), instead of
//! summing a row's cotangents first and adding the row after.

use std::collections::HashMap;

use crate::ir::{Block, Func, Int, Operand, Stmt, Var, substitute, substitute_operand};

/// `f` with every load of a just-stored element replaced by the stored value, and every load
/// from a row read from the row's array.
pub fn forward_stores(f: &Func) -> Func {
    let mut stores = HashMap::new();
    collect(&f.body, &mut stores);
    let mut map = HashMap::new();
    let mut rows = HashMap::new();
    let body = forward(&f.body, &stores, (&mut map, &mut rows));
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
            Stmt::While(w) => collect(&w.body, out),
            Stmt::If(b) => {
                collect(&b.then, out);
                collect(&b.otherwise, out);
            }
            _ => {}
        }
    }
}

/// The loads of rows seen so far: each one's array and index (`m`, `[i]` for `row = m[i]`).
type Rows = HashMap<Var, (Var, Vec<Int>)>;

/// `block` without the forwarded loads (recorded in `map`), and its loads from rows read from
/// their arrays (the rows recorded in `rows`), in nested blocks too.
fn forward(
    block: &Block,
    stores: &HashMap<Var, (Vec<Int>, Operand)>,
    (map, rows): (&mut HashMap<Var, Operand>, &mut Rows),
) -> Block {
    let mut out = Vec::with_capacity(block.len());
    for s in block {
        let s = match s {
            Stmt::Load { out: v, array, index } => {
                let (array, index) = match rows.get(array) {
                    Some((base, at)) => (*base, at.iter().chain(index).cloned().collect()),
                    None => (*array, index.clone()),
                };
                match stores.get(&array) {
                    Some((ix, value)) if *ix == index => {
                        map.insert(*v, substitute_operand(*value, map));
                        continue;
                    }
                    // A scalar's entry is never read: no load indexes it.
                    _ => {
                        rows.insert(*v, (array, index.clone()));
                        Stmt::Load { out: *v, array, index }
                    }
                }
            }
            Stmt::For(l) => {
                let body = forward(&l.body, stores, (map, rows));
                Stmt::For(Box::new(crate::ir::Loop { body, ..(**l).clone() }))
            }
            // A loop that may end early too (bug 67: its rows' cotangents were summed first,
            // another order of additions than the `for` loop's).
            Stmt::While(w) => {
                let body = forward(&w.body, stores, (map, rows));
                Stmt::While(Box::new(crate::ir::While { body, ..(**w).clone() }))
            }
            Stmt::If(b) => {
                let then = forward(&b.then, stores, (map, rows));
                let otherwise = forward(&b.otherwise, stores, (map, rows));
                Stmt::If(Box::new(crate::ir::Branch { then, otherwise, ..(**b).clone() }))
            }
            other => other.clone(),
        };
        out.push(s);
    }
    out
}
