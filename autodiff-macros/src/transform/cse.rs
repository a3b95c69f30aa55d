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
    let mut regions = Regions { scopes: vec![HashMap::new()], fills: HashMap::new() };
    block(&mut b, &f.body, &mut regions);
    let outputs = f.outputs.clone();
    b.finish(outputs)
}

/// The loops and branches emitted in each open block, by their canonical text; and the arrays
/// filled with one value (by their value and type), which two loops may start from under two
/// names.
#[derive(Default)]
struct Regions {
    scopes: Vec<HashMap<String, Vec<Var>>>,
    fills: HashMap<Var, String>,
}

/// Emits `s` (a loop or a branch) unless an equal one was emitted in scope: then its results
/// are read as that one's.
fn region(b: &mut Builder, s: Stmt, regions: &mut Regions) {
    let key = Canon { local: HashMap::new(), fills: &regions.fills, out: String::new() }.of(&s);
    let outs = stmt_defs(&s);
    if let Some(earlier) = regions.scopes.iter().rev().find_map(|r| r.get(&key)) {
        for (o, e) in outs.iter().zip(earlier.clone()) {
            b.map(*o, Operand::Var(e));
        }
        return;
    }
    if let Some(r) = regions.scopes.last_mut() {
        r.insert(key, outs);
    }
    b.emit(s);
}

/// A statement as text, with the variables it defines inside numbered in order, and the arrays
/// filled with one value written as that value and their type: equal texts, equal computations.
struct Canon<'a> {
    local: HashMap<Var, usize>,
    fills: &'a HashMap<Var, String>,
    out: String,
}

impl Canon<'_> {
    fn of(mut self, s: &Stmt) -> String {
        self.stmt(s);
        self.out
    }

    fn op(&self, op: Operand) -> String {
        match op {
            Operand::Var(v) => match (self.local.get(&v), self.fills.get(&v)) {
                (Some(k), _) => format!("l{k}"),
                (None, Some(fill)) => fill.clone(),
                (None, None) => format!("v{}", v.0),
            },
            other => literal(other),
        }
    }

    fn cond(&self, c: &Cond) -> String {
        match c {
            Cond::F64(cmp, a, b) => format!("({:?} {} {})", cmp, self.op(*a), self.op(*b)),
            Cond::Int(cmp, a, b) => format!("({:?} {} {})", cmp, a.key(), b.key()),
            Cond::Var(v) => self.op(Operand::Var(*v)),
            Cond::Not(c) => format!("!{}", self.cond(c)),
            Cond::And(a, b) => format!("({}&&{})", self.cond(a), self.cond(b)),
            Cond::Or(a, b) => format!("({}||{})", self.cond(a), self.cond(b)),
        }
    }

    fn define(&mut self, v: Var) {
        let k = self.local.len();
        self.local.insert(v, k);
    }

    fn block(&mut self, b: &Block, yields: &[Operand]) {
        for s in b {
            self.stmt(s);
        }
        let ys: Vec<String> = yields.iter().map(|y| self.op(*y)).collect();
        let _ = write!(self.out, "yield {};", ys.join(" "));
    }

    fn ops(&self, ops: &[Operand]) -> String {
        ops.iter().map(|x| self.op(*x)).collect::<Vec<_>>().join(",")
    }

    fn stmt(&mut self, s: &Stmt) {
        let index =
            |ix: &[crate::ir::Int]| ix.iter().map(|i| i.key()).collect::<Vec<_>>().join("][");
        let text = match s {
            Stmt::Op { prim, args, .. } => format!("{prim:?}({});", self.ops(args)),
            Stmt::Test { cond, .. } => format!("test {};", self.cond(cond)),
            Stmt::Load { array, index: ix, .. } => {
                format!("load {}[{}];", self.op(Operand::Var(*array)), index(ix))
            }
            Stmt::Store { array, index: ix, value, .. } => format!(
                "store {}[{}]={};",
                self.op(Operand::Var(*array)),
                index(ix),
                self.op(*value)
            ),
            Stmt::Fill { value, .. } => format!("fill {};", self.op(*value)),
            Stmt::Array { elems, .. } => format!("array {};", self.ops(elems)),
            Stmt::For(l) => {
                let inits: Vec<Operand> = l.carried.iter().map(|c| c.init).collect();
                let r = &l.range;
                let head = format!(
                    "for@{} {}..{}{}{} ({}) {{",
                    l.index.0,
                    r.lo.key(),
                    r.hi.key(),
                    r.inclusive,
                    r.rev,
                    self.ops(&inits)
                );
                self.out.push_str(&head);
                for c in &l.carried {
                    self.define(c.param);
                }
                self.block(&l.body, &l.yields);
                "}".to_owned()
            }
            // A loop that fills a tape is one of a kind: the sweep after it reads its tape.
            Stmt::While(w) if w.tape.is_some() => format!("while {:p};", &**w),
            Stmt::While(w) => {
                let inits: Vec<Operand> = w.carried.iter().map(|c| c.init).collect();
                let range = w
                    .range
                    .as_ref()
                    .map(|r| format!("{}..{}{}{}", r.lo.key(), r.hi.key(), r.inclusive, r.rev));
                let head = format!(
                    "while@{} {range:?} if {} ({}) {{",
                    w.index.0,
                    self.op(w.first),
                    self.ops(&inits)
                );
                self.out.push_str(&head);
                for c in &w.carried {
                    self.define(c.param);
                }
                let mut yields = w.yields.clone();
                yields.push(w.cond);
                self.block(&w.body, &yields);
                "}".to_owned()
            }
            Stmt::Checkpoint(c) => format!("checkpoint {:p};", &**c),
            Stmt::Call(c) => {
                let args: Vec<String> = c
                    .args
                    .iter()
                    .map(|a| match a {
                        crate::ir::Arg::Value { op, by_ref } => format!("{by_ref}{}", self.op(*op)),
                        crate::ir::Arg::Fixed { ext, .. } => format!("f{}", ext.0),
                        crate::ir::Arg::Const(e) => format!("e{}", e.0),
                    })
                    .collect();
                let dirs = self.ops(&c.dirs);
                format!("call {:?} {:?} ({}) ({dirs});", c.callee, c.kind, args.join(","))
            }
            Stmt::If(br) => {
                let head = format!("if {} {{", self.op(Operand::Var(br.cond)));
                self.out.push_str(&head);
                self.block(&br.then, &br.then_yields);
                self.out.push_str("} else {");
                self.block(&br.otherwise, &br.else_yields);
                "}".to_owned()
            }
        };
        self.out.push_str(&text);
        for v in stmt_defs(s) {
            self.define(v);
        }
    }
}

/// A literal operand as text.
fn literal(op: Operand) -> String {
    match op {
        Operand::Var(v) => format!("v{}", v.0),
        Operand::Lit(x) => format!("#{}", x.to_bits()),
        Operand::Ext(e) => format!("e{}", e.0),
        Operand::Bool(b) => format!("{b}"),
    }
}

/// The text of a filled array: its value and its type's dimensions.
fn fill_key(f: &Func, out: Var, value: Operand) -> String {
    let dims = f.ty(out).shape().map(|s| s.dims.iter().map(|d| d.key()).collect::<Vec<_>>());
    format!("[{};{dims:?}]", literal(value))
}

/// Whether the statements `a` and `b` of `f` compute the same values (up to the names of what
/// they define, and reading equal filled arrays as equal).
pub(super) fn same(f: &Func, a: &Stmt, b: &Stmt) -> bool {
    let mut fills = HashMap::new();
    collect_fills(f, &f.body, &mut fills);
    let key = |s: &Stmt| Canon { local: HashMap::new(), fills: &fills, out: String::new() }.of(s);
    key(a) == key(b)
}

fn collect_fills(f: &Func, block: &Block, out: &mut HashMap<Var, String>) {
    for s in block {
        match s {
            Stmt::Fill { out: v, value }
                if !matches!(value, Operand::Var(_)) && f.known_fill(*v) =>
            {
                out.insert(*v, fill_key(f, *v, *value));
            }
            Stmt::For(l) => collect_fills(f, &l.body, out),
            Stmt::While(w) => collect_fills(f, &w.body, out),
            Stmt::If(b) => {
                collect_fills(f, &b.then, out);
                collect_fills(f, &b.otherwise, out);
            }
            Stmt::Checkpoint(c) => {
                collect_fills(f, &c.step, out);
                collect_fills(f, &c.back, out);
            }
            _ => {}
        }
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
                regions.scopes.push(HashMap::new());
                block(b, &l.body, regions);
                regions.scopes.pop();
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
                regions.scopes.push(HashMap::new());
                block(b, &w.body, regions);
                regions.scopes.pop();
                let mut ys = w.yields.clone();
                ys.push(w.cond);
                let (body, mut yields) = b.end_yielding(&ys);
                let cond = yields.pop().unwrap_or(w.cond);
                let w = While { first, carried, body, yields, cond, ..(**w).clone() };
                region(b, Stmt::While(Box::new(w)), regions);
            }
            Stmt::If(br) => {
                b.begin();
                regions.scopes.push(HashMap::new());
                block(b, &br.then, regions);
                regions.scopes.pop();
                let (then, then_yields) = b.end_yielding(&br.then_yields);
                b.begin();
                regions.scopes.push(HashMap::new());
                block(b, &br.otherwise, regions);
                regions.scopes.pop();
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
                        regions.scopes.push(HashMap::new());
                        block(b, stmts, regions);
                        regions.scopes.pop();
                        b.end_yielding(ys)
                    };
                let (step, step_yields) = nested(b, &c.step, &c.step_yields, regions);
                let (back, back_yields) = nested(b, &c.back, &c.back_yields, regions);
                let c =
                    crate::ir::Checkpoint { step, step_yields, back, back_yields, ..(**c).clone() };
                b.emit(Stmt::Checkpoint(Box::new(c)));
            }
            Stmt::Fill { out, value } => {
                let value = b.resolve(*value);
                if !matches!(value, Operand::Var(_)) && b.func().known_fill(*out) {
                    let key = fill_key(b.func(), *out, value);
                    regions.fills.insert(*out, key);
                }
                b.emit(s.clone());
            }
            other => b.emit(other.clone()),
        }
    }
}
