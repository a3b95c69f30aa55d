//! Common subexpressions: the function rebuilt statement by statement, each `Op` or `Load` that
//! repeats an earlier one in scope replaced by it. Exact (the same operation on the same values),
//! so the values are unchanged to the bit.

use crate::ir::{Block, Branch, Builder, Carry, Func, Loop, Operand, Stmt};

/// `f` with repeated computations merged.
pub fn cse(f: &Func) -> Func {
    let mut b = Builder::derive_from(f);
    block(&mut b, &f.body);
    let outputs = f.outputs.clone();
    b.finish(outputs)
}

fn block(b: &mut Builder, stmts: &Block) {
    for s in stmts {
        match s {
            Stmt::Op { out, prim, args } => b.copy(*out, *prim, args),
            Stmt::Load { out, array, index } => {
                let loaded = b.load_as(*out, Operand::Var(*array), index.clone());
                if loaded != Operand::Var(*out) {
                    b.map(*out, loaded);
                }
            }
            Stmt::For(l) => {
                let carried: Vec<Carry> = l
                    .carried
                    .iter()
                    .map(|c| Carry { param: c.param, init: b.resolve(c.init) })
                    .collect();
                b.begin();
                block(b, &l.body);
                let yields = l.yields.iter().map(|y| b.resolve(*y)).collect();
                let body = b.end();
                b.emit_loop(Loop { carried, body, yields, ..(**l).clone() });
            }
            Stmt::If(br) => {
                b.begin();
                block(b, &br.then);
                let then_yields = br.then_yields.iter().map(|y| b.resolve(*y)).collect();
                let then = b.end();
                b.begin();
                block(b, &br.otherwise);
                let else_yields = br.else_yields.iter().map(|y| b.resolve(*y)).collect();
                let otherwise = b.end();
                b.emit_if(Branch { then, then_yields, otherwise, else_yields, ..(**br).clone() });
            }
            other => b.emit(other.clone()),
        }
    }
}
