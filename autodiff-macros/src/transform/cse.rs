//! Common subexpressions: the function rebuilt statement by statement, each `Op`, `Load` or
//! `Test` that repeats an earlier one in scope replaced by it, and each loop or branch that repeats an
//! earlier one (the same statements on the same values, up to the names of its own variables:
//! a loop the sweep recomputed, say) replaced by it. Exact (the same operations on the same
//! values), so the values are unchanged to the bit.

use std::collections::HashMap;
use std::fmt::Write;

use crate::ir::{
    Block, Branch, Builder, Carry, Cond, Func, Loop, Operand, Stmt, Var, While, stmt_defs,
};

/// `f` with repeated computations merged.
pub fn cse(f: &Func) -> Func {
    let mut b = Builder::derive_from(f);
    let mut regions = vec![HashMap::new()];
    block(&mut b, &f.body, &mut regions);
    let outputs = f.outputs.clone();
    b.finish(outputs)
}

/// The loops and branches emitted in each open block, by their canonical text.
type Regions = Vec<HashMap<String, Vec<Var>>>;

/// Emits `s` (a loop or a branch) unless an equal one was emitted in scope: then its results
/// are read as that one's.
fn region(b: &mut Builder, s: Stmt, regions: &mut Regions) {
    let key = canonical(&s);
    let outs = stmt_defs(&s);
    if let Some(earlier) = regions.iter().rev().find_map(|r| r.get(&key)) {
        for (o, e) in outs.iter().zip(earlier.clone()) {
            b.map(*o, Operand::Var(e));
        }
        return;
    }
    if let Some(r) = regions.last_mut() {
        r.insert(key, outs);
    }
    b.emit(s);
}

/// `s` as text, with the variables it defines inside numbered in order: equal texts, equal
/// computations.
fn canonical(s: &Stmt) -> String {
    let mut local: HashMap<Var, usize> = HashMap::new();
    let mut out = String::new();
    canon_stmt(s, &mut local, &mut out);
    out
}

fn canon_op(op: Operand, local: &HashMap<Var, usize>) -> String {
    match op {
        Operand::Var(v) => match local.get(&v) {
            Some(k) => format!("l{k}"),
            None => format!("v{}", v.0),
        },
        Operand::Lit(x) => format!("#{}", x.to_bits()),
        Operand::Ext(e) => format!("e{}", e.0),
        Operand::Bool(b) => format!("{b}"),
    }
}

fn canon_cond(c: &Cond, local: &HashMap<Var, usize>) -> String {
    match c {
        Cond::F64(cmp, a, b) => {
            format!("({:?} {} {})", cmp, canon_op(*a, local), canon_op(*b, local))
        }
        Cond::Int(cmp, a, b) => format!("({:?} {} {})", cmp, a.key(), b.key()),
        Cond::Var(v) => canon_op(Operand::Var(*v), local),
        Cond::Not(c) => format!("!{}", canon_cond(c, local)),
        Cond::And(a, b) => format!("({}&&{})", canon_cond(a, local), canon_cond(b, local)),
        Cond::Or(a, b) => format!("({}||{})", canon_cond(a, local), canon_cond(b, local)),
    }
}

fn define(v: Var, local: &mut HashMap<Var, usize>) {
    let k = local.len();
    local.insert(v, k);
}

fn canon_block(b: &Block, yields: &[Operand], local: &mut HashMap<Var, usize>, out: &mut String) {
    for s in b {
        canon_stmt(s, local, out);
    }
    let ys: Vec<String> = yields.iter().map(|y| canon_op(*y, local)).collect();
    let _ = write!(out, "yield {};", ys.join(" "));
}

fn canon_stmt(s: &Stmt, local: &mut HashMap<Var, usize>, out: &mut String) {
    let index = |ix: &[crate::ir::Int]| ix.iter().map(|i| i.key()).collect::<Vec<_>>().join("][");
    let _ = match s {
        Stmt::Op { prim, args, .. } => {
            let a: Vec<String> = args.iter().map(|x| canon_op(*x, local)).collect();
            write!(out, "{prim:?}({});", a.join(","))
        }
        Stmt::Test { cond, .. } => write!(out, "test {};", canon_cond(cond, local)),
        Stmt::Load { array, index: ix, .. } => {
            write!(out, "load {}[{}];", canon_op(Operand::Var(*array), local), index(ix))
        }
        Stmt::Store { array, index: ix, value, .. } => write!(
            out,
            "store {}[{}]={};",
            canon_op(Operand::Var(*array), local),
            index(ix),
            canon_op(*value, local)
        ),
        Stmt::Fill { value, .. } => write!(out, "fill {};", canon_op(*value, local)),
        Stmt::Array { elems, .. } => {
            let e: Vec<String> = elems.iter().map(|x| canon_op(*x, local)).collect();
            write!(out, "array {};", e.join(","))
        }
        Stmt::For(l) => {
            let inits: Vec<String> = l.carried.iter().map(|c| canon_op(c.init, local)).collect();
            let r = &l.range;
            let _ = write!(
                out,
                "for@{} {}..{}{}{} ({}) {{",
                l.index.0,
                r.lo.key(),
                r.hi.key(),
                r.inclusive,
                r.rev,
                inits.join(",")
            );
            for c in &l.carried {
                define(c.param, local);
            }
            canon_block(&l.body, &l.yields, local, out);
            write!(out, "}}")
        }
        // A loop that fills a tape is one of a kind: the sweep after it reads its tape.
        Stmt::While(w) if w.tape.is_some() => write!(out, "while {:p};", &**w),
        Stmt::While(w) => {
            let inits: Vec<String> = w.carried.iter().map(|c| canon_op(c.init, local)).collect();
            let range = w
                .range
                .as_ref()
                .map(|r| format!("{}..{}{}{}", r.lo.key(), r.hi.key(), r.inclusive, r.rev));
            let _ = write!(
                out,
                "while@{} {range:?} if {} ({}) {{",
                w.index.0,
                canon_op(w.first, local),
                inits.join(",")
            );
            for c in &w.carried {
                define(c.param, local);
            }
            let mut yields = w.yields.clone();
            yields.push(w.cond);
            canon_block(&w.body, &yields, local, out);
            write!(out, "}}")
        }
        Stmt::Checkpoint(c) => write!(out, "checkpoint {:p};", &**c),
        Stmt::Call(c) => {
            let args: Vec<String> = c
                .args
                .iter()
                .map(|a| match a {
                    crate::ir::Arg::Value { op, by_ref } => {
                        format!("{by_ref}{}", canon_op(*op, local))
                    }
                    crate::ir::Arg::Fixed { ext, .. } => format!("f{}", ext.0),
                    crate::ir::Arg::Const(e) => format!("e{}", e.0),
                })
                .collect();
            let dirs: Vec<String> = c.dirs.iter().map(|d| canon_op(*d, local)).collect();
            write!(
                out,
                "call {:?} {:?} ({}) ({});",
                c.callee,
                c.kind,
                args.join(","),
                dirs.join(",")
            )
        }
        Stmt::If(br) => {
            let _ = write!(out, "if {} {{", canon_op(Operand::Var(br.cond), local));
            canon_block(&br.then, &br.then_yields, local, out);
            let _ = write!(out, "}} else {{");
            canon_block(&br.otherwise, &br.else_yields, local, out);
            write!(out, "}}")
        }
    };
    for v in stmt_defs(s) {
        define(v, local);
    }
}

fn block(b: &mut Builder, stmts: &Block, regions: &mut Regions) {
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
                regions.push(HashMap::new());
                block(b, &l.body, regions);
                regions.pop();
                let (body, yields) = b.end_yielding(&l.yields);
                let l = Loop { carried, body, yields, ..(**l).clone() };
                region(b, Stmt::For(Box::new(l)), regions);
            }
            Stmt::While(w) => {
                let carried: Vec<Carry> = w
                    .carried
                    .iter()
                    .map(|c| Carry { param: c.param, init: b.resolve(c.init) })
                    .collect();
                let first = b.resolve(w.first);
                b.begin();
                regions.push(HashMap::new());
                block(b, &w.body, regions);
                regions.pop();
                let mut ys = w.yields.clone();
                ys.push(w.cond);
                let (body, mut yields) = b.end_yielding(&ys);
                let cond = yields.pop().unwrap_or(w.cond);
                let w = While { first, carried, body, yields, cond, ..(**w).clone() };
                region(b, Stmt::While(Box::new(w)), regions);
            }
            Stmt::If(br) => {
                b.begin();
                regions.push(HashMap::new());
                block(b, &br.then, regions);
                regions.pop();
                let (then, then_yields) = b.end_yielding(&br.then_yields);
                b.begin();
                regions.push(HashMap::new());
                block(b, &br.otherwise, regions);
                regions.pop();
                let (otherwise, else_yields) = b.end_yielding(&br.else_yields);
                let cond = b.resolve(Operand::Var(br.cond)).var().unwrap_or(br.cond);
                let br =
                    Branch { cond, then, then_yields, otherwise, else_yields, ..(**br).clone() };
                region(b, Stmt::If(Box::new(br)), regions);
            }
            // A call, or a comparison: merged with an equal one in scope like a region.
            Stmt::Call(_) | Stmt::Test { .. } => {
                let s = b.resolved_copy(s.clone());
                region(b, s, regions);
            }
            Stmt::Checkpoint(c) => {
                let nested =
                    |b: &mut Builder, stmts: &Block, ys: &[Operand], regions: &mut Regions| {
                        b.begin();
                        regions.push(HashMap::new());
                        block(b, stmts, regions);
                        regions.pop();
                        b.end_yielding(ys)
                    };
                let (step, step_yields) = nested(b, &c.step, &c.step_yields, regions);
                let (back, back_yields) = nested(b, &c.back, &c.back_yields, regions);
                let c =
                    crate::ir::Checkpoint { step, step_yields, back, back_yields, ..(**c).clone() };
                b.emit(Stmt::Checkpoint(Box::new(c)));
            }
            other => b.emit(other.clone()),
        }
    }
}
