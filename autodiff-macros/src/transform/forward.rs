//! Forward (tangent) mode: each statement is followed by its tangent, `ẏ = Σ ∂y/∂xᵢ ẋᵢ`.
//!
//! One new input per differentiated input carries the direction. The result returns the original
//! outputs followed by their tangents. Loops carry the tangents of their carried values next to
//! them, branches yield them, and arrays have arrays of tangents, so the transform accepts any IR,
//! including the reverse transform's output (storage, backward loops and all): that is how
//! Hessian-vector products are made.

mod calls;

use std::collections::HashMap;

use super::activity::varied;
use super::{sum, zero};
use crate::ir::{
    Block, Branch, Builder, Carry, Checkpoint, Func, Loop, LoopId, Operand, Prim, Source, Stmt,
    Suffix, Var, While,
};
use crate::rules::{apply, partials};

/// The forward-mode transform: outputs `[o₁, …, oₖ, ȯ₁, …, ȯₖ]`.
pub fn forward(f: &Func) -> Func {
    let mut t = Tangent {
        f,
        b: Builder::derive_from(f),
        dots: HashMap::new(),
        varied: with_buffers(f, varied(f)),
        tapes: HashMap::new(),
    };
    for a in &f.active {
        let dot = t.b.input(f.derived_name(*a, Suffix::Dot), f.ty(*a).clone());
        t.dots.insert(*a, Operand::Var(dot));
    }
    t.block(&f.body);
    let dots: Vec<Operand> = f.outputs.iter().map(|o| t.dot_or_zero(*o)).collect();
    let mut outputs = f.outputs.clone();
    outputs.extend(dots);
    t.b.finish(outputs)
}

/// `varied` with every array of run-time length (a gradient's buffer) counted as varied: its
/// tangent, H·v's buffer, then passes along every store, branch and loop the buffer does, one
/// chain from the zeros it starts with (a store of a constant into the gradient, or a side of a
/// branch that leaves it as it was, would otherwise start a tangent of its own there).
fn with_buffers(f: &Func, mut varied: Vec<bool>) -> Vec<bool> {
    for (v, ty) in varied.iter_mut().zip(&f.types) {
        *v |= ty.run_time_length();
    }
    varied
}

struct Tangent<'a> {
    f: &'a Func,
    b: Builder,
    /// The tangent of every varied variable seen so far.
    dots: HashMap<Var, Operand>,
    varied: Vec<bool>,
    /// For each loop that fills a tape: the positions of the carried values whose tangents it
    /// carries (and records on the tape after the values), which the sweep from the tape reads.
    tapes: HashMap<LoopId, Vec<usize>>,
}

impl Tangent<'_> {
    fn dot(&self, op: Operand) -> Option<Operand> {
        op.var().and_then(|v| self.dots.get(&v).copied())
    }

    fn dot_or_zero(&mut self, op: Operand) -> Operand {
        match self.dot(op) {
            Some(d) => d,
            None => zero(&mut self.b, &self.f.operand_ty(op)),
        }
    }

    fn name(&self, v: Var) -> crate::ir::Name {
        self.f.derived_name(v, Suffix::Dot)
    }

    fn block(&mut self, block: &Block) {
        for s in block {
            self.stmt(s);
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        match s {
            Stmt::Op { out, prim, args } => self.op(*out, *prim, args),
            Stmt::Test { .. } => self.b.emit(s.clone()),
            Stmt::Load { out, array, index } => {
                self.b.emit(s.clone());
                if let Some(d) = self.dot(Operand::Var(*array)) {
                    let dot = self.b.load(self.name(*out), d, index.clone());
                    self.dots.insert(*out, dot);
                }
            }
            Stmt::Store { out, array, index, value } => {
                self.b.emit(s.clone());
                if self.varied[out.index()] {
                    let a = self.dot_or_zero(Operand::Var(*array));
                    let v = self.dot_or_zero(*value);
                    let dot = self.b.store(self.name(*out), a, index.clone(), v);
                    self.dots.insert(*out, dot);
                }
            }
            Stmt::Fill { out, value } => {
                self.b.emit(s.clone());
                let ty = self.f.ty(*out).clone();
                // A buffer that starts from the caller's values has a tangent that does too:
                // the caller's other buffer (`#[grad(accumulate)]`). A gradient's buffer (an
                // array of run-time length) gets its tangent, H·v's buffer, zeroed where it is:
                // stores into it may come under a branch, whose other side must pass a buffer on
                // too (the zeros of a tangent made at a store would live on that side alone).
                let opaque = (!self.f.known_fill(*out)).then_some(Operand::Lit(0.0));
                let zeros = ty.run_time_length().then_some(Operand::Lit(0.0));
                if let Some(d) = self.dot(*value).or(opaque).or(zeros) {
                    let dot = self.b.fill(self.name(*out), ty, d);
                    self.dots.insert(*out, dot);
                }
            }
            Stmt::Array { out, elems } => {
                self.b.emit(s.clone());
                if self.varied[out.index()] {
                    let dots: Vec<Operand> = elems.iter().map(|e| self.dot_or_zero(*e)).collect();
                    let dot = self.b.array(self.name(*out), self.f.ty(*out).clone(), dots);
                    self.dots.insert(*out, dot);
                }
            }
            Stmt::For(l) => self.for_loop(l),
            Stmt::While(w) => self.while_loop(w),
            Stmt::If(br) => self.branch(br),
            Stmt::Checkpoint(c) => self.checkpoint(c),
            Stmt::Call(c) => self.call(c),
        }
    }

    fn op(&mut self, out: Var, prim: Prim, args: &[Operand]) {
        self.b.copy(out, prim, args);
        let dots: Vec<Option<Operand>> = args.iter().map(|a| self.dot(*a)).collect();
        if dots.iter().all(Option::is_none) {
            return;
        }
        let rules = partials(&mut self.b, prim, args, Operand::Var(out));
        let terms: Vec<Operand> = rules
            .iter()
            .zip(&dots)
            .filter_map(|(partial, dot)| apply(&mut self.b, partial, (*dot)?))
            .collect();
        // Named after the statement `out` was merged into, if it was (the tangent of one value).
        let of = self.b.resolve(Operand::Var(out)).var().unwrap_or(out);
        let name = self.b.func().derived_name(of, Suffix::Dot);
        if let Some(t) = sum(&mut self.b, terms, name) {
            self.dots.insert(out, t);
        }
    }

    /// The loop, carrying the tangent of each varied carried value after the originals.
    fn for_loop(&mut self, l: &Loop) {
        let mut carried = l.carried.clone();
        let mut tangent_params = Vec::new();
        for c in &l.carried {
            if self.varied[c.param.index()] {
                let init = self.dot_or_zero(c.init);
                let param = self.b.fresh(self.name(c.param), self.f.ty(c.param).clone());
                carried.push(Carry { param, init });
                tangent_params.push((c.param, param));
            }
        }
        self.b.begin();
        for (p, d) in &tangent_params {
            self.dots.insert(*p, Operand::Var(*d));
        }
        self.block(&l.body);
        let mut yields = l.yields.clone();
        for (c, y) in l.carried.iter().zip(&l.yields) {
            if self.varied[c.param.index()] {
                let d = self.dot_or_zero(*y);
                yields.push(d);
            }
        }
        let (body, yields) = self.b.end_yielding(&yields);
        let mut outs = l.outs.clone();
        for (c, o) in l.carried.iter().zip(&l.outs) {
            if self.varied[c.param.index()] {
                let d = self.b.fresh(self.name(*o), self.f.ty(*o).clone());
                outs.push(d);
                self.dots.insert(*o, Operand::Var(d));
            }
        }
        let range = l.range.clone();
        self.b.emit_loop(Loop { index: l.index, range, carried, body, yields, outs });
    }

    /// A loop of unknown length, carrying the tangent of each varied carried value after the
    /// originals (its tape then records both).
    fn while_loop(&mut self, w: &While) {
        let tangent: Vec<usize> =
            (0..w.carried.len()).filter(|k| self.varied[w.carried[*k].param.index()]).collect();
        let mut carried = w.carried.clone();
        let mut params = Vec::new();
        for k in &tangent {
            let c = &w.carried[*k];
            let init = self.dot_or_zero(c.init);
            let param = self.b.fresh(self.name(c.param), self.f.ty(c.param).clone());
            carried.push(Carry { param, init });
            params.push((c.param, param));
        }
        self.b.begin();
        for (p, d) in &params {
            self.dots.insert(*p, Operand::Var(*d));
        }
        self.block(&w.body);
        let mut yields = w.yields.clone();
        for k in &tangent {
            let d = self.dot_or_zero(w.yields[*k]);
            yields.push(d);
        }
        yields.push(w.cond);
        let (body, mut yields) = self.b.end_yielding(&yields);
        let cond = yields.pop().unwrap_or(w.cond);
        let mut outs = w.outs.clone();
        for k in &tangent {
            let o = w.outs[*k];
            let d = self.b.fresh(self.name(o), self.f.ty(o).clone());
            outs.push(d);
            self.dots.insert(o, Operand::Var(d));
        }
        if w.tape.is_some() {
            self.tapes.insert(w.index, tangent);
        }
        let w = While { carried, body, yields, cond, outs, ..w.clone() };
        self.b.emit_while(w);
    }

    /// A fresh tangent variable for each of `vars` at the positions `at`, registered as its
    /// tangent.
    fn tangents_at(&mut self, vars: &[Var], at: &[usize]) -> Vec<Var> {
        let mut out = Vec::new();
        for v in at.iter().filter_map(|k| vars.get(*k)) {
            let d = self.b.fresh(self.name(*v), self.f.ty(*v).clone());
            self.dots.insert(*v, Operand::Var(d));
            out.push(d);
        }
        out
    }

    /// A checkpointed sweep, with the tangents of its state and of its adjoint after the
    /// originals: the snapshots then hold both, and both blocks carry their tangents.
    fn checkpoint(&mut self, c: &Checkpoint) {
        let varied = |t: &Self, vs: &[Var]| -> Vec<usize> {
            (0..vs.len()).filter(|k| t.varied[vs[*k].index()]).collect()
        };
        // The state from a tape has the tangents the loop that filled it carries.
        let (state_k, from_tape) = match c.source {
            Source::Tape(_) => (self.tapes.get(&c.index).cloned().unwrap_or_default(), true),
            Source::Range(_) => (varied(self, &c.step_params), false),
        };
        let mut state = c.state.clone();
        for k in state_k.iter().filter(|_| !from_tape) {
            let d = self.dot_or_zero(c.state[*k]);
            state.push(d);
        }
        let adjoint_params: Vec<Var> = c.adjoint.iter().map(|a| a.param).collect();
        let adjoint_k = varied(self, &adjoint_params);
        let mut adjoint = c.adjoint.clone();
        let mut adjoint_inits = Vec::new();
        for k in &adjoint_k {
            adjoint_inits.push(self.dot_or_zero(c.adjoint[*k].init));
        }
        self.b.begin();
        let mut step_params = c.step_params.clone();
        step_params.extend(self.tangents_at(&c.step_params, &state_k));
        self.block(&c.step);
        let mut step_yields = c.step_yields.clone();
        for k in &state_k {
            let d = self.dot_or_zero(c.step_yields[*k]);
            step_yields.push(d);
        }
        let (step, step_yields) = self.b.end_yielding(&step_yields);
        self.b.begin();
        let mut back_params = c.back_params.clone();
        back_params.extend(self.tangents_at(&c.back_params, &state_k));
        for (k, init) in adjoint_k.iter().zip(adjoint_inits) {
            let p = c.adjoint[*k].param;
            let d = self.b.fresh(self.name(p), self.f.ty(p).clone());
            self.dots.insert(p, Operand::Var(d));
            adjoint.push(Carry { param: d, init });
        }
        self.block(&c.back);
        let mut back_yields = c.back_yields.clone();
        for k in &adjoint_k {
            let d = self.dot_or_zero(c.back_yields[*k]);
            back_yields.push(d);
        }
        let (back, back_yields) = self.b.end_yielding(&back_yields);
        let mut outs = c.outs.clone();
        for k in &adjoint_k {
            let o = c.outs[*k];
            let d = self.b.fresh(self.name(o), self.f.ty(o).clone());
            outs.push(d);
            self.dots.insert(o, Operand::Var(d));
        }
        let c = Checkpoint {
            state,
            step_params,
            step,
            step_yields,
            adjoint,
            back_params,
            back,
            back_yields,
            outs,
            ..c.clone()
        };
        self.b.emit(Stmt::Checkpoint(Box::new(c)));
    }

    /// The branch, each side yielding the tangents of the varied results after the originals.
    fn branch(&mut self, br: &Branch) {
        let active: Vec<usize> =
            (0..br.outs.len()).filter(|k| self.varied[br.outs[*k].index()]).collect();
        let side = |t: &mut Self, block: &Block, yields: &[Operand]| {
            t.b.begin();
            t.block(block);
            let mut all = yields.to_vec();
            for k in &active {
                let d = t.dot_or_zero(yields[*k]);
                all.push(d);
            }
            t.b.end_yielding(&all)
        };
        let (then, then_yields) = side(self, &br.then, &br.then_yields);
        let (otherwise, else_yields) = side(self, &br.otherwise, &br.else_yields);
        let mut outs = br.outs.clone();
        for k in &active {
            let o = br.outs[*k];
            let d = self.b.fresh(self.name(o), self.f.ty(o).clone());
            outs.push(d);
            self.dots.insert(o, Operand::Var(d));
        }
        let cond = br.cond;
        self.b.emit_if(Branch { cond, then, then_yields, otherwise, else_yields, outs });
    }
}
