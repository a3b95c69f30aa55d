//! Walking the IR: what a statement defines, what it reads, and what a block reads from outside.

use std::collections::{HashMap, HashSet};

use super::{Arg, Block, Cond, Operand, Stmt, Var};

/// The variables a statement defines at its own level (not those inside its blocks).
pub fn stmt_defs(s: &Stmt) -> Vec<Var> {
    match s {
        Stmt::Op { out, .. }
        | Stmt::Test { out, .. }
        | Stmt::Load { out, .. }
        | Stmt::Store { out, .. }
        | Stmt::Fill { out, .. }
        | Stmt::Array { out, .. } => vec![*out],
        Stmt::For(l) => l.outs.clone(),
        Stmt::While(w) => w.outs.clone(),
        Stmt::If(b) => b.outs.clone(),
        Stmt::Checkpoint(c) => c.outs.clone(),
        Stmt::Call(c) => c.outs.clone(),
    }
}

/// The operands a condition reads.
pub fn cond_reads(c: &Cond, out: &mut Vec<Operand>) {
    match c {
        Cond::F64(_, a, b) => out.extend([*a, *b]),
        Cond::Int(..) => {}
        Cond::Var(v) => out.push(Operand::Var(*v)),
        Cond::Not(c) => cond_reads(c, out),
        Cond::And(a, b) | Cond::Or(a, b) => {
            cond_reads(a, out);
            cond_reads(b, out);
        }
    }
}

/// The operands a statement reads, including what its blocks read from outside them and what
/// it yields.
pub fn reads(s: &Stmt) -> Vec<Operand> {
    let mut out = Vec::new();
    match s {
        Stmt::Op { args, .. } => out.extend(args.iter().copied()),
        Stmt::Test { cond, .. } => cond_reads(cond, &mut out),
        Stmt::Load { array, .. } => out.push(Operand::Var(*array)),
        Stmt::Store { array, value, .. } => out.extend([Operand::Var(*array), *value]),
        Stmt::Fill { value, .. } => out.push(*value),
        Stmt::Array { elems, .. } => out.extend(elems.iter().copied()),
        Stmt::For(l) => {
            out.extend(l.carried.iter().map(|c| c.init));
            let inner: HashSet<Var> = l.carried.iter().map(|c| c.param).collect();
            let free = free_vars_with(&l.body, &l.yields, inner);
            out.extend(free.into_iter().map(Operand::Var));
        }
        Stmt::While(w) => {
            out.push(w.first);
            out.extend(w.carried.iter().map(|c| c.init));
            let inner: HashSet<Var> = w.carried.iter().map(|c| c.param).collect();
            let mut yields = w.yields.clone();
            yields.push(w.cond);
            let free = free_vars_with(&w.body, &yields, inner);
            out.extend(free.into_iter().map(Operand::Var));
        }
        Stmt::If(b) => {
            out.push(Operand::Var(b.cond));
            for (block, yields) in [(&b.then, &b.then_yields), (&b.otherwise, &b.else_yields)] {
                let free = free_vars_with(block, yields, HashSet::new());
                out.extend(free.into_iter().map(Operand::Var));
            }
        }
        Stmt::Call(c) => {
            out.extend(c.values().into_iter().map(|(op, _)| op));
            out.extend(c.dirs.iter().copied());
        }
        Stmt::Checkpoint(c) => {
            out.extend(c.state.iter().copied());
            out.extend(c.adjoint.iter().map(|a| a.init));
            let step: HashSet<Var> = c.step_params.iter().copied().collect();
            out.extend(free_vars_with(&c.step, &c.step_yields, step).into_iter().map(Operand::Var));
            let mut back: HashSet<Var> = c.back_params.iter().copied().collect();
            back.extend(c.adjoint.iter().map(|a| a.param));
            out.extend(free_vars_with(&c.back, &c.back_yields, back).into_iter().map(Operand::Var));
        }
    }
    out
}

/// The variables that `block` (and then `yields`) read but do not define, in order of first
/// reading.
pub fn free_vars(block: &Block, yields: &[Operand]) -> Vec<Var> {
    free_vars_with(block, yields, HashSet::new())
}

fn free_vars_with(block: &Block, yields: &[Operand], mut defined: HashSet<Var>) -> Vec<Var> {
    let mut free = Vec::new();
    let mut seen = HashSet::new();
    let mut note = |op: Operand, defined: &HashSet<Var>| {
        if let Operand::Var(v) = op
            && !defined.contains(&v)
            && seen.insert(v)
        {
            free.push(v);
        }
    };
    for s in block {
        for op in reads(s) {
            note(op, &defined);
        }
        defined.extend(stmt_defs(s));
    }
    for y in yields {
        note(*y, &defined);
    }
    free
}

/// `block` with every read of a variable in `map` replaced by its image (in nested blocks too).
pub fn substitute(block: &Block, map: &HashMap<Var, Operand>) -> Block {
    block.iter().map(|s| substitute_stmt(s, map)).collect()
}

/// `op` with a variable in `map` replaced by its image.
pub fn substitute_operand(op: Operand, map: &HashMap<Var, Operand>) -> Operand {
    match op {
        Operand::Var(v) => map.get(&v).copied().unwrap_or(op),
        other => other,
    }
}

fn substitute_var(v: Var, map: &HashMap<Var, Operand>) -> Var {
    map.get(&v).and_then(|op| op.var()).unwrap_or(v)
}

fn substitute_cond(c: &Cond, map: &HashMap<Var, Operand>) -> Cond {
    let op = |o: &Operand| substitute_operand(*o, map);
    match c {
        Cond::F64(cmp, a, b) => Cond::F64(*cmp, op(a), op(b)),
        Cond::Int(..) => c.clone(),
        Cond::Var(v) => Cond::Var(substitute_var(*v, map)),
        Cond::Not(c) => Cond::Not(Box::new(substitute_cond(c, map))),
        Cond::And(a, b) => {
            Cond::And(Box::new(substitute_cond(a, map)), Box::new(substitute_cond(b, map)))
        }
        Cond::Or(a, b) => {
            Cond::Or(Box::new(substitute_cond(a, map)), Box::new(substitute_cond(b, map)))
        }
    }
}

fn substitute_stmt(s: &Stmt, map: &HashMap<Var, Operand>) -> Stmt {
    let op = |o: &Operand| substitute_operand(*o, map);
    let ops = |os: &[Operand]| os.iter().map(op).collect::<Vec<_>>();
    match s {
        Stmt::Op { out, prim, args } => Stmt::Op { out: *out, prim: *prim, args: ops(args) },
        Stmt::Test { out, cond } => Stmt::Test { out: *out, cond: substitute_cond(cond, map) },
        Stmt::Load { out, array, index } => {
            Stmt::Load { out: *out, array: substitute_var(*array, map), index: index.clone() }
        }
        Stmt::Store { out, array, index, value } => Stmt::Store {
            out: *out,
            array: substitute_var(*array, map),
            index: index.clone(),
            value: op(value),
        },
        Stmt::Fill { out, value } => Stmt::Fill { out: *out, value: op(value) },
        Stmt::Array { out, elems } => Stmt::Array { out: *out, elems: ops(elems) },
        Stmt::For(l) => {
            let mut l = (**l).clone();
            for c in &mut l.carried {
                c.init = op(&c.init);
            }
            l.body = substitute(&l.body, map);
            l.yields = ops(&l.yields);
            Stmt::For(Box::new(l))
        }
        Stmt::While(w) => {
            let mut w = (**w).clone();
            w.first = op(&w.first);
            for c in &mut w.carried {
                c.init = op(&c.init);
            }
            w.body = substitute(&w.body, map);
            w.yields = ops(&w.yields);
            w.cond = op(&w.cond);
            Stmt::While(Box::new(w))
        }
        Stmt::If(b) => {
            let mut b = (**b).clone();
            b.cond = substitute_var(b.cond, map);
            b.then = substitute(&b.then, map);
            b.then_yields = ops(&b.then_yields);
            b.otherwise = substitute(&b.otherwise, map);
            b.else_yields = ops(&b.else_yields);
            Stmt::If(Box::new(b))
        }
        Stmt::Call(c) => {
            let mut c = (**c).clone();
            for a in &mut c.args {
                if let Arg::Value { op: o, .. } = a {
                    *o = op(o);
                }
            }
            c.dirs = ops(&c.dirs);
            Stmt::Call(Box::new(c))
        }
        Stmt::Checkpoint(c) => {
            let mut c = (**c).clone();
            c.state = ops(&c.state);
            for a in &mut c.adjoint {
                a.init = op(&a.init);
            }
            c.step = substitute(&c.step, map);
            c.step_yields = ops(&c.step_yields);
            c.back = substitute(&c.back, map);
            c.back_yields = ops(&c.back_yields);
            Stmt::Checkpoint(Box::new(c))
        }
    }
}

/// Whether `block` has a loop whose length is decided while it runs (in nested blocks too).
pub fn has_while(block: &Block) -> bool {
    block.iter().any(|s| match s {
        Stmt::While(_) => true,
        Stmt::For(l) => has_while(&l.body),
        Stmt::If(b) => has_while(&b.then) || has_while(&b.otherwise),
        Stmt::Checkpoint(c) => has_while(&c.step) || has_while(&c.back),
        _ => false,
    })
}
