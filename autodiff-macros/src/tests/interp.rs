//! An interpreter of the IR, for tests: it runs a function's IR on given inputs, so the transforms
//! can be checked numerically (against finite differences of the interpreted primal) without
//! going through codegen and rustc.

use std::collections::HashMap;

use syn::{BinOp, Expr, Lit};

use crate::ir::{Block, Cmp, Cond, Func, Int, LoopId, Operand, Prim, Stmt, Ty};

/// A value of the IR.
#[derive(Clone, Debug, PartialEq)]
pub enum Val {
    /// An `f64`.
    F(f64),
    /// A boolean.
    B(bool),
    /// An array.
    A(Vec<Val>),
}

impl Val {
    /// The `f64`, or NaN.
    pub fn f(&self) -> f64 {
        match self {
            Val::F(x) => *x,
            _ => f64::NAN,
        }
    }

    /// Every `f64` in the value, flattened in row-major order.
    pub fn flat(&self) -> Vec<f64> {
        match self {
            Val::F(x) => vec![*x],
            Val::B(_) => Vec::new(),
            Val::A(items) => items.iter().flat_map(Val::flat).collect(),
        }
    }

    /// A value shaped like `self` with the `f64`s taken in order from `xs`.
    pub fn unflat(&self, xs: &mut impl Iterator<Item = f64>) -> Val {
        match self {
            Val::F(_) => Val::F(xs.next().unwrap_or(f64::NAN)),
            Val::B(b) => Val::B(*b),
            Val::A(items) => Val::A(items.iter().map(|i| i.unflat(xs)).collect()),
        }
    }
}

/// Named integer and `f64` constants that the user's tokens may mention.
#[derive(Default, Clone)]
pub struct Consts {
    /// Integer constants (`N`), also used for integer parameters.
    pub ints: HashMap<String, i64>,
    /// `f64` constants and constant data (`data` as an array).
    pub vals: HashMap<String, Val>,
}

/// Runs `f` on `inputs` (one per input variable); returns its outputs.
pub fn run(f: &Func, inputs: &[Val], consts: &Consts) -> Vec<Val> {
    let mut m = Machine {
        f,
        env: vec![None; f.names.len()],
        loops: HashMap::new(),
        tapes: HashMap::new(),
        consts,
    };
    for (v, x) in f.inputs.iter().zip(inputs) {
        m.env[v.index()] = Some(x.clone());
    }
    m.block(&f.body);
    f.outputs.iter().map(|o| m.operand(*o)).collect()
}

struct Machine<'a> {
    f: &'a Func,
    env: Vec<Option<Val>>,
    loops: HashMap<LoopId, i64>,
    /// The states recorded by each loop that fills a tape, and their indices.
    tapes: HashMap<LoopId, Vec<(i64, Vec<Val>)>>,
    consts: &'a Consts,
}

impl Machine<'_> {
    fn operand(&self, op: Operand) -> Val {
        match op {
            Operand::Var(v) => {
                self.env[v.index()].clone().unwrap_or_else(|| panic!("%{} unset", v.0))
            }
            Operand::Lit(x) => Val::F(x),
            Operand::Bool(b) => Val::B(b),
            Operand::Ext(e) => {
                let tokens = &self.f.exts[e.0 as usize].tokens;
                let expr: Expr = syn::parse2(tokens.clone()).expect("an expression");
                self.ext(&expr)
            }
        }
    }

    fn idents(&self) -> HashMap<String, i64> {
        let mut out = self.consts.ints.clone();
        for (id, value) in &self.loops {
            if let Some(name) = &self.f.loops[id.0 as usize].ident {
                out.insert(name.to_string(), *value);
            }
        }
        out
    }

    fn int(&self, i: &Int) -> i64 {
        if let Some(l) = i.as_index() {
            return self.loops[&l];
        }
        let expr: Expr = syn::parse2(i.render(&|_| unreachable!())).expect("an integer expression");
        eval_int(&expr, &self.idents())
    }

    fn ext(&self, e: &Expr) -> Val {
        match e {
            Expr::Lit(l) => match &l.lit {
                Lit::Float(x) => Val::F(x.base10_parse().unwrap_or(f64::NAN)),
                Lit::Int(x) => Val::F(x.base10_parse().unwrap_or(f64::NAN)),
                _ => Val::F(f64::NAN),
            },
            Expr::Paren(p) => self.ext(&p.expr),
            Expr::Cast(c) => Val::F(eval_int(&c.expr, &self.idents()) as f64),
            Expr::Unary(u) => Val::F(-self.ext(&u.expr).f()),
            Expr::Path(p) => {
                let name = p.path.segments.last().map(|s| s.ident.to_string()).unwrap_or_default();
                match (self.consts.vals.get(&name), self.idents().get(&name)) {
                    (Some(v), _) => v.clone(),
                    (None, Some(n)) => Val::F(*n as f64),
                    (None, None) => Val::F(f64::NAN),
                }
            }
            Expr::Binary(b) => {
                let (x, y) = (self.ext(&b.left).f(), self.ext(&b.right).f());
                Val::F(match b.op {
                    BinOp::Add(_) => x + y,
                    BinOp::Sub(_) => x - y,
                    BinOp::Mul(_) => x * y,
                    BinOp::Div(_) => x / y,
                    _ => f64::NAN,
                })
            }
            Expr::Index(ix) => match self.ext(&ix.expr) {
                Val::A(items) => items[eval_int(&ix.index, &self.idents()) as usize].clone(),
                _ => Val::F(f64::NAN),
            },
            _ => Val::F(f64::NAN),
        }
    }

    fn set(&mut self, v: crate::ir::Var, x: Val) {
        self.env[v.index()] = Some(x);
    }

    fn block(&mut self, b: &Block) {
        for s in b {
            self.stmt(s);
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        match s {
            Stmt::Op { out, prim, args } => {
                let xs: Vec<f64> = args.iter().map(|a| self.operand(*a).f()).collect();
                self.set(*out, Val::F(prim_value(*prim, &xs)));
            }
            Stmt::Test { out, cond } => {
                let c = self.cond(cond);
                self.set(*out, Val::B(c));
            }
            Stmt::Load { out, array, index } => {
                let mut x = self.operand(Operand::Var(*array));
                for i in index {
                    let k = self.int(i) as usize;
                    x = match x {
                        Val::A(items) => items[k].clone(),
                        other => other,
                    };
                }
                self.set(*out, x);
            }
            Stmt::Store { out, array, index, value } => {
                let mut a = self.operand(Operand::Var(*array));
                let ks: Vec<usize> = index.iter().map(|i| self.int(i) as usize).collect();
                let v = self.operand(*value);
                put(&mut a, &ks, v);
                self.set(*out, a);
            }
            Stmt::Fill { out, value } => {
                let v = self.operand(*value);
                let ty = self.f.ty(*out).clone();
                let filled = self.filled(&ty, v);
                self.set(*out, filled);
            }
            Stmt::Array { out, elems } => {
                let items = elems.iter().map(|e| self.operand(*e)).collect();
                self.set(*out, Val::A(items));
            }
            Stmt::For(l) => {
                let (lo, hi) = (self.int(&l.range.lo), self.int(&l.range.hi));
                let hi = if l.range.inclusive { hi + 1 } else { hi };
                let mut idx: Vec<i64> = (lo..hi).collect();
                if l.range.rev {
                    idx.reverse();
                }
                for c in &l.carried {
                    let init = self.operand(c.init);
                    self.set(c.param, init);
                }
                for i in idx {
                    self.loops.insert(l.index, i);
                    self.block(&l.body);
                    let ys: Vec<Val> = l.yields.iter().map(|y| self.operand(*y)).collect();
                    for (c, y) in l.carried.iter().zip(ys) {
                        self.set(c.param, y);
                    }
                }
                self.loops.remove(&l.index);
                for (c, o) in l.carried.iter().zip(&l.outs) {
                    let v = self.operand(Operand::Var(c.param));
                    self.set(*o, v);
                }
            }
            Stmt::While(w) => self.while_loop(w),
            Stmt::Checkpoint(c) if matches!(c.source, crate::ir::Source::Tape(_)) => {
                let tape = self.tapes.remove(&c.index).unwrap_or_default();
                // Each step from a recorded state gives the next recorded state.
                for pair in tape.windows(2) {
                    let ((i, x), (_, next)) = (&pair[0], &pair[1]);
                    for (p, v) in c.step_params.iter().zip(x.clone()) {
                        self.set(*p, v);
                    }
                    self.loops.insert(c.index, *i);
                    self.block(&c.step);
                    let got: Vec<Val> = c.step_yields.iter().map(|y| self.operand(*y)).collect();
                    assert_eq!(&got, next, "a step from the tape");
                }
                let mut adjoint: Vec<Val> =
                    c.adjoint.iter().map(|a| self.operand(a.init)).collect();
                for (i, x) in tape.iter().rev() {
                    for (p, v) in c.back_params.iter().zip(x.clone()) {
                        self.set(*p, v);
                    }
                    for (a, v) in c.adjoint.iter().zip(adjoint.clone()) {
                        self.set(a.param, v);
                    }
                    self.loops.insert(c.index, *i);
                    self.block(&c.back);
                    adjoint = c.back_yields.iter().map(|y| self.operand(*y)).collect();
                }
                self.loops.remove(&c.index);
                for (o, x) in c.outs.iter().zip(adjoint) {
                    self.set(*o, x);
                }
            }
            Stmt::Checkpoint(c) => {
                let Some(r) = c.source.range() else { return };
                let (lo, hi) = (self.int(&r.lo), self.int(&r.hi));
                let hi = if r.inclusive { hi + 1 } else { hi };
                let mut idx: Vec<i64> = (lo..hi).collect();
                if r.rev {
                    idx.reverse();
                }
                let mut states = vec![c.state.iter().map(|x| self.operand(*x)).collect::<Vec<_>>()];
                for i in &idx {
                    for (p, x) in
                        c.step_params.iter().zip(states.last().cloned().unwrap_or_default())
                    {
                        self.set(*p, x);
                    }
                    self.loops.insert(c.index, *i);
                    self.block(&c.step);
                    states.push(c.step_yields.iter().map(|y| self.operand(*y)).collect());
                }
                let mut adjoint: Vec<Val> =
                    c.adjoint.iter().map(|a| self.operand(a.init)).collect();
                for (k, i) in idx.iter().enumerate().rev() {
                    for (p, x) in c.back_params.iter().zip(states[k].clone()) {
                        self.set(*p, x);
                    }
                    for (a, x) in c.adjoint.iter().zip(adjoint.clone()) {
                        self.set(a.param, x);
                    }
                    self.loops.insert(c.index, *i);
                    self.block(&c.back);
                    adjoint = c.back_yields.iter().map(|y| self.operand(*y)).collect();
                }
                self.loops.remove(&c.index);
                for (o, x) in c.outs.iter().zip(adjoint) {
                    self.set(*o, x);
                }
            }
            Stmt::If(b) => {
                let c = matches!(self.operand(Operand::Var(b.cond)), Val::B(true));
                let (block, yields) =
                    if c { (&b.then, &b.then_yields) } else { (&b.otherwise, &b.else_yields) };
                self.block(block);
                let ys: Vec<Val> = yields.iter().map(|y| self.operand(*y)).collect();
                for (o, y) in b.outs.iter().zip(ys) {
                    self.set(*o, y);
                }
            }
            // The interpreter has no callee bodies: a call's results read as NaN, so
            // a test that reaches one fails loudly instead of passing by accident.
            Stmt::Call(c) => {
                for o in &c.outs {
                    self.set(*o, Val::F(f64::NAN));
                }
            }
        }
    }

    /// A loop of unknown length: the indices of its range, or 0, 1, 2, ...; with a tape, the
    /// state before each iteration recorded.
    fn while_loop(&mut self, w: &crate::ir::While) {
        let idx: Vec<i64> = match &w.range {
            Some(r) => {
                let (lo, hi) = (self.int(&r.lo), self.int(&r.hi));
                let hi = if r.inclusive { hi + 1 } else { hi };
                let mut idx: Vec<i64> = (lo..hi).collect();
                if r.rev {
                    idx.reverse();
                }
                idx
            }
            None => (0..1_000_000).collect(),
        };
        for c in &w.carried {
            let init = self.operand(c.init);
            self.set(c.param, init);
        }
        let mut go = matches!(self.operand(w.first), Val::B(true));
        let mut tape = Vec::new();
        for i in idx {
            if !go {
                break;
            }
            let state: Vec<Val> =
                w.carried.iter().map(|c| self.operand(crate::ir::Operand::Var(c.param))).collect();
            tape.push((i, state));
            self.loops.insert(w.index, i);
            self.block(&w.body);
            let ys: Vec<Val> = w.yields.iter().map(|y| self.operand(*y)).collect();
            go = matches!(self.operand(w.cond), Val::B(true));
            for (c, y) in w.carried.iter().zip(ys) {
                self.set(c.param, y);
            }
        }
        self.loops.remove(&w.index);
        if w.tape.is_some() {
            self.tapes.insert(w.index, tape);
        }
        for (c, o) in w.carried.iter().zip(&w.outs) {
            let v = self.operand(Operand::Var(c.param));
            self.set(*o, v);
        }
    }

    fn filled(&self, ty: &Ty, v: Val) -> Val {
        match ty.shape() {
            None => v,
            Some(s) => {
                let mut x = v;
                for d in s.dims.iter().rev() {
                    x = Val::A(vec![x; self.int(d) as usize]);
                }
                x
            }
        }
    }

    fn cond(&self, c: &Cond) -> bool {
        match c {
            Cond::F64(cmp, a, b) => cmp.holds(self.operand(*a).f(), self.operand(*b).f()),
            Cond::Int(cmp, a, b) => cmp.holds(self.int(a), self.int(b)),
            Cond::Var(v) => matches!(self.operand(Operand::Var(*v)), Val::B(true)),
            Cond::Not(c) => !self.cond(c),
            Cond::And(a, b) => self.cond(a) && self.cond(b),
            Cond::Or(a, b) => self.cond(a) || self.cond(b),
        }
    }
}

fn put(a: &mut Val, ks: &[usize], v: Val) {
    match (a, ks.split_first()) {
        (slot, None) => *slot = v,
        (Val::A(items), Some((k, rest))) => put(&mut items[*k], rest, v),
        _ => {}
    }
}

/// Evaluates an integer expression of the user's.
pub fn eval_int(e: &Expr, idents: &HashMap<String, i64>) -> i64 {
    match e {
        Expr::Lit(l) => match &l.lit {
            Lit::Int(i) => i.base10_parse().unwrap_or(0),
            _ => 0,
        },
        Expr::Paren(p) => eval_int(&p.expr, idents),
        Expr::Group(g) => eval_int(&g.expr, idents),
        Expr::Cast(c) => eval_int(&c.expr, idents),
        Expr::Path(p) => {
            let name = p.path.segments.last().map(|s| s.ident.to_string()).unwrap_or_default();
            *idents.get(&name).unwrap_or_else(|| panic!("unknown integer `{name}`"))
        }
        // `::core::cmp::min(a, b)`.
        Expr::Call(c) if c.args.len() == 2 => {
            eval_int(&c.args[0], idents).min(eval_int(&c.args[1], idents))
        }
        Expr::MethodCall(m) if m.method == "len" => {
            let name = quote::ToTokens::to_token_stream(&m.receiver).to_string();
            *idents.get(&format!("{name}.len()")).unwrap_or(&0)
        }
        Expr::Binary(b) => {
            let (x, y) = (eval_int(&b.left, idents), eval_int(&b.right, idents));
            match b.op {
                BinOp::Add(_) => x + y,
                BinOp::Sub(_) => x - y,
                BinOp::Mul(_) => x * y,
                BinOp::Div(_) => x / y,
                BinOp::Rem(_) => x % y,
                _ => 0,
            }
        }
        _ => panic!("cannot evaluate `{}`", quote::ToTokens::to_token_stream(e)),
    }
}

/// The value of a primitive, as Rust's `f64` methods give it.
pub fn prim_value(p: Prim, x: &[f64]) -> f64 {
    let a = x[0];
    let b = x.get(1).copied().unwrap_or(0.0);
    match p {
        Prim::Neg => -a,
        Prim::Add => a + b,
        Prim::Sub => a - b,
        Prim::Mul => a * b,
        Prim::Div => a / b,
        Prim::Sin => a.sin(),
        Prim::Cos => a.cos(),
        Prim::Tan => a.tan(),
        Prim::Asin => a.asin(),
        Prim::Acos => a.acos(),
        Prim::Atan => a.atan(),
        Prim::Atan2 => a.atan2(b),
        Prim::Sinh => a.sinh(),
        Prim::Cosh => a.cosh(),
        Prim::Tanh => a.tanh(),
        Prim::Asinh => a.asinh(),
        Prim::Acosh => a.acosh(),
        Prim::Atanh => a.atanh(),
        Prim::Exp => a.exp(),
        Prim::Exp2 => a.exp2(),
        Prim::ExpM1 => a.exp_m1(),
        Prim::Ln => a.ln(),
        Prim::Ln1p => a.ln_1p(),
        Prim::Log => a.log(b),
        Prim::Log2 => a.log2(),
        Prim::Log10 => a.log10(),
        Prim::Sqrt => a.sqrt(),
        Prim::Cbrt => a.cbrt(),
        Prim::Powi(n) => a.powi(n),
        Prim::PowiInt(k) => a.powi(int(b) + k),
        Prim::IntAsF64(k) => f64::from(int(a) + k),
        Prim::Powf => a.powf(b),
        Prim::Hypot => a.hypot(b),
        Prim::Recip => a.recip(),
        Prim::MulAdd => a.mul_add(b, x[2]),
        Prim::Abs => a.abs(),
        Prim::Min => a.min(b),
        Prim::Max => a.max(b),
        Prim::Clamp => a.clamp(b, x[2]),
        Prim::Signum => a.signum(),
        Prim::Floor => a.floor(),
        Prim::Ceil => a.ceil(),
        Prim::Round => a.round(),
        Prim::Trunc => a.trunc(),
        // The interpreter computes in `f64`: a conversion is the identity.
        Prim::Convert => a,
        Prim::Select(c) => {
            if holds(c, a, b) {
                x[2]
            } else {
                x[3]
            }
        }
    }
}

/// An integer constant operand, which the interpreter reads as an `f64`.
fn int(x: f64) -> i32 {
    assert!(x.fract() == 0.0, "the integer operand {x} is not an integer");
    x as i32
}

fn holds(c: Cmp, a: f64, b: f64) -> bool {
    c.holds(a, b)
}
