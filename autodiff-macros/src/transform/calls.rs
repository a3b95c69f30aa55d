//! Calls ready for the reverse transform: each call of a scalar callee whose arguments carry a
//! differentiated value runs `g_grad` instead of `g`, so that the forward pass gets the value
//! and its partial derivatives from one call, and the sweep only multiplies (the callee is never
//! run twice for one call). `g_grad` returns one partial per parameter `g` differentiates; the
//! call keeps those of its argument values (the constants' are dropped in codegen). A vector
//! callee's call stays `g`: its sweep calls `g_vjp` with the cotangent of its value (see
//! `reverse/calls.rs`). With `split`, a vector callee's call runs `g_fwd` instead, which also
//! returns the residuals that `g_rev`, called in the sweep, reads: the callee's forward pass
//! then runs once per call, as a scalar callee's does.

use super::activity::varied;
use crate::ir::{
    Arg, Block, Branch, Builder, Call, CallKind, Checkpoint, Func, Loop, Name, Stmt, Suffix, Ty,
    While,
};

/// `f` with its calls of differentiated values turned into `g_grad` calls (and, with `split`,
/// its vector callees' into `g_fwd` calls).
pub fn grad_calls(f: &Func, split: bool) -> Func {
    let varied = varied(f);
    let mut b = Builder::derive_from(f);
    let body = block(&mut b, &f.body, &(&varied, split));
    let mut out = b.finish(f.outputs.clone());
    out.body = body;
    out
}

/// Which values are varied, and whether vector callees run `g_fwd`.
type Ctx<'a> = (&'a [bool], bool);

fn block(b: &mut Builder, stmts: &Block, cx: &Ctx) -> Block {
    stmts.iter().map(|s| stmt(b, s, cx)).collect()
}

/// Whether a call reads a varied value.
fn reads_varied(c: &Call, varied: &[bool]) -> bool {
    c.values().iter().any(|(op, _)| op.var().is_some_and(|v| varied[v.index()]))
}

fn stmt(b: &mut Builder, s: &Stmt, cx: &Ctx) -> Stmt {
    let (varied, split) = *cx;
    match s {
        Stmt::Call(c) if c.kind == CallKind::Value && !c.ret.is_scalar() => {
            if !split || !reads_varied(c, varied) {
                return s.clone();
            }
            let name = b.func().derived_name(c.outs[0], Suffix::Res);
            let mut outs = c.outs.clone();
            outs.push(b.fresh(name, Ty::Residuals));
            Stmt::Call(Box::new(Call { kind: CallKind::Fwd, outs, ..(**c).clone() }))
        }
        Stmt::Call(c) if c.kind == CallKind::Value && c.ret.is_scalar() => {
            if !reads_varied(c, varied) {
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
        Stmt::For(l) => Stmt::For(Box::new(Loop { body: block(b, &l.body, cx), ..(**l).clone() })),
        Stmt::While(w) => {
            Stmt::While(Box::new(While { body: block(b, &w.body, cx), ..(**w).clone() }))
        }
        Stmt::If(br) => Stmt::If(Box::new(Branch {
            then: block(b, &br.then, cx),
            otherwise: block(b, &br.otherwise, cx),
            ..(**br).clone()
        })),
        Stmt::Checkpoint(c) => Stmt::Checkpoint(Box::new(Checkpoint {
            step: block(b, &c.step, cx),
            back: block(b, &c.back, cx),
            ..(**c).clone()
        })),
        other => other.clone(),
    }
}

/// Whether `f` calls a vector callee (one returning an array or a tuple), in nested blocks too.
pub fn has_vector_calls(f: &Func) -> bool {
    fn any(block: &Block) -> bool {
        block.iter().any(|s| match s {
            Stmt::Call(c) => !c.ret.is_scalar(),
            Stmt::For(l) => any(&l.body),
            Stmt::While(w) => any(&w.body),
            Stmt::If(b) => any(&b.then) || any(&b.otherwise),
            Stmt::Checkpoint(c) => any(&c.step) || any(&c.back),
            _ => false,
        })
    }
    any(&f.body)
}
