//! Calls ready for the reverse transform: each call of a scalar callee whose arguments carry a
//! differentiated value runs `g_grad` instead of `g`, so that the forward pass gets the value
//! and its partial derivatives from one call, and the sweep only multiplies (the callee is never
//! run twice for one call). `g_grad` returns one partial per parameter `g` differentiates; the
//! call keeps those of its argument values (the constants' are dropped in codegen). A vector
//! callee's call stays `g`: its sweep calls `g_vjp` with the cotangent of its value (see
//! `reverse/calls.rs`).

use super::activity::varied;
use crate::ir::{
    Arg, Block, Branch, Builder, Call, CallKind, Checkpoint, Func, Loop, Name, Stmt, While,
};

/// `f` with its calls of differentiated values turned into `g_grad` calls.
pub fn grad_calls(f: &Func) -> Func {
    let varied = varied(f);
    let mut b = Builder::derive_from(f);
    let body = block(&mut b, &f.body, &varied);
    let mut out = b.finish(f.outputs.clone());
    out.body = body;
    out
}

fn block(b: &mut Builder, stmts: &Block, varied: &[bool]) -> Block {
    stmts.iter().map(|s| stmt(b, s, varied)).collect()
}

fn stmt(b: &mut Builder, s: &Stmt, varied: &[bool]) -> Stmt {
    match s {
        Stmt::Call(c) if c.kind == CallKind::Value && c.ret.is_scalar() => {
            let values = c.values();
            if !values.iter().any(|(op, _)| op.var().is_some_and(|v| varied[v.index()])) {
                return s.clone();
            }
            let of = c.outs[0];
            let mut outs = vec![of];
            // A partial's position among the callee's differentiated parameters: the values',
            // and the constants' whose partials are dropped.
            let positions = c.args.iter().filter(|a| !matches!(a, Arg::Const(_))).enumerate();
            for (index, a) in positions {
                let Arg::Value { op, .. } = a else { continue };
                let name =
                    Name::Partial { of, callee: c.callee.name.to_string(), wrt: op.var(), index };
                outs.push(b.fresh(name, b.ty(*op)));
            }
            Stmt::Call(Box::new(Call { kind: CallKind::Grad, outs, ..(**c).clone() }))
        }
        Stmt::For(l) => {
            Stmt::For(Box::new(Loop { body: block(b, &l.body, varied), ..(**l).clone() }))
        }
        Stmt::While(w) => {
            Stmt::While(Box::new(While { body: block(b, &w.body, varied), ..(**w).clone() }))
        }
        Stmt::If(br) => Stmt::If(Box::new(Branch {
            then: block(b, &br.then, varied),
            otherwise: block(b, &br.otherwise, varied),
            ..(**br).clone()
        })),
        Stmt::Checkpoint(c) => Stmt::Checkpoint(Box::new(Checkpoint {
            step: block(b, &c.step, varied),
            back: block(b, &c.back, varied),
            ..(**c).clone()
        })),
        other => other.clone(),
    }
}
