//! Vector mode (Enzyme's "width"): a function whose last inputs are seeds (the cotangents of a
//! VJP, the directions of a JVP) widened to carry `lanes` seeds at once, built in as the unit
//! vectors (the rows or columns of a Jacobian). Every statement that
//! depends on the seeds is repeated once per lane, its values renamed per lane; what does not
//! (the forward pass, recomputed primals, stored values read back, branch conditions, loop
//! bounds) stays single. A loop or a branch stays one loop or one branch, carrying or yielding
//! one value per lane for each value that depends on the seeds, so the sweep is traversed once.
//!
//! Each lane computes what the function computes with that lane's seed (the same operations on
//! the same operands, in the same order), leaving out what its zero seeds make zero, as reverse
//! and forward mode leave out the derivatives of values that no output depends on (or that
//! depend on no input): a lane's values are linear in its seed, so a product with a zero seed's
//! share is zero, a sum with it the other term ([`Widen::fold`]). Its results are those of a
//! call of the function with that seed, except that no `0 · x` is computed: the same numbers
//! wherever the call's values are finite, a zero's sign aside (where an `x` is infinite or NaN,
//! the call's `0 · x` is NaN and the lane's is zero).
//!
//! What it does not widen (it then returns `None`, and the caller runs the function once per
//! seed): control that depends on the seeds (a branch's condition, a `while` loop's test, a
//! checkpointed sweep's recomputed steps), a `while` loop with a tape whose carried values
//! depend on them, and seeds of a length the macro does not know.

use std::collections::{HashMap, HashSet};

use crate::ir::{
    Block, Branch, Carry, Checkpoint, Func, Int, Loop, Name, Operand, Prim, Stmt, Ty, Var, While,
    reads, stmt_defs, substitute_operand,
};

/// `f` with its seeds (its inputs after the user's) taken `lanes` times, built in: lane `j`
/// seeds the `j`-th scalar of the seeds (in order, arrays row-major) with one and every other
/// with zero. Its inputs are the user's; its outputs `[the first `values` outputs…, the others
/// for lane 0…, for lane 1…]`. `None` where control depends on the seeds, or a seed's length is
/// not known to the macro.
pub fn widen(f: &Func, values: usize, lanes: usize) -> Option<Func> {
    let given = &f.inputs[f.user_inputs..];
    let dependent = dependent(f, given);
    let mut w = Widen {
        out: f.clone(),
        dependent,
        maps: vec![HashMap::new(); lanes],
        seed_arrays: HashMap::new(),
    };
    let inputs = f.inputs[..f.user_inputs].to_vec();
    let mut prelude = Vec::new();
    for lane in 0..lanes {
        let mut at = 0;
        for s in given {
            let (ty, name) = (f.ty(*s).clone(), f.name(*s).clone());
            let v = w.unit(&ty, name, (&mut at, lane), &mut prelude)?;
            w.maps[lane].insert(*s, v);
        }
    }
    let mut body = prelude;
    body.extend(w.block(&f.body)?);
    let (value_outs, rest) = f.outputs.split_at(values.min(f.outputs.len()));
    let mut outputs: Vec<Operand> = value_outs.iter().map(|o| w.lane(0, *o)).collect();
    for lane in 0..lanes {
        outputs.extend(rest.iter().map(|o| w.lane(lane, *o)));
    }
    let mut accumulators = f.accumulators.clone();
    for a in &f.accumulators {
        for lane in 0..lanes {
            // A lane's own copy (not a value a folded statement stood for).
            if let Some(Operand::Var(v)) = w.maps[lane].get(a).filter(|v| !is_in_f(f, **v)) {
                accumulators.push(*v);
            }
        }
    }
    accumulators.sort();
    accumulators.dedup();
    // What only the folded terms read, the seeds' array literals among it, is left out.
    Some(super::dead_code(&Func { body, inputs, outputs, accumulators, ..w.out }))
}

/// Whether `op` is a variable of `f` before widening.
fn is_in_f(f: &Func, op: Operand) -> bool {
    op.var().is_some_and(|v| v.index() < f.names.len())
}

/// The variables of `f` that depend on `seeds` (those repeated per lane): what reads them, the
/// carried values and results that take them, and the zero arrays that a dependent value is
/// stored into or carried from (each lane then adds into its own).
fn dependent(f: &Func, seeds: &[Var]) -> HashSet<Var> {
    let mut d: HashSet<Var> = seeds.iter().copied().collect();
    let mut fills = HashSet::new();
    fills_of(&f.body, &mut fills);
    loop {
        let before = d.len();
        mark(&f.body, &mut d, &fills);
        if d.len() == before {
            return d;
        }
    }
}

/// The arrays made by a `Fill` or an array literal, which a lane may need its own copy of.
fn fills_of(block: &Block, out: &mut HashSet<Var>) {
    for s in block {
        match s {
            Stmt::Fill { out: v, .. } | Stmt::Array { out: v, .. } => {
                out.insert(*v);
            }
            _ => each_block(s, &mut |b| fills_of(b, out)),
        }
    }
}

fn each_block(s: &Stmt, visit: &mut dyn FnMut(&Block)) {
    match s {
        Stmt::For(l) => visit(&l.body),
        Stmt::While(w) => visit(&w.body),
        Stmt::If(b) => {
            visit(&b.then);
            visit(&b.otherwise);
        }
        Stmt::Checkpoint(c) => {
            visit(&c.step);
            visit(&c.back);
        }
        _ => {}
    }
}

fn is_in(d: &HashSet<Var>, op: Operand) -> bool {
    op.var().is_some_and(|v| d.contains(&v))
}

/// One pass of the marking over `block`.
fn mark(block: &Block, d: &mut HashSet<Var>, fills: &HashSet<Var>) {
    let force = |d: &mut HashSet<Var>, op: Operand| {
        if let Some(v) = op.var().filter(|v| fills.contains(v)) {
            d.insert(v);
        }
    };
    for s in block {
        match s {
            Stmt::For(l) => {
                mark_carries(&l.carried, &l.yields, &l.outs, d, fills);
                mark(&l.body, d, fills);
            }
            Stmt::While(w) => {
                mark_carries(&w.carried, &w.yields, &w.outs, d, fills);
                mark(&w.body, d, fills);
            }
            Stmt::If(b) => {
                mark(&b.then, d, fills);
                mark(&b.otherwise, d, fills);
                for (k, out) in b.outs.iter().enumerate() {
                    let ys = [b.then_yields.get(k), b.else_yields.get(k)];
                    if d.contains(out) || ys.into_iter().flatten().any(|y| is_in(d, *y)) {
                        d.insert(*out);
                        ys.into_iter().flatten().for_each(|y| force(d, *y));
                    }
                }
            }
            Stmt::Checkpoint(c) => {
                mark_carries(&c.adjoint, &c.back_yields, &c.outs, d, fills);
                mark(&c.step, d, fills);
                mark(&c.back, d, fills);
            }
            _ => {
                if reads(s).into_iter().any(|op| is_in(d, op))
                    || stmt_defs(s).iter().any(|v| d.contains(v))
                {
                    d.extend(stmt_defs(s));
                    if let Stmt::Store { array, .. } = s {
                        force(d, Operand::Var(*array));
                    }
                }
            }
        }
    }
}

/// Marks the carried values of a loop (or the adjoint of a checkpointed sweep) that depend on
/// the seeds: with a dependent initial value, yield or result.
fn mark_carries(
    carried: &[Carry],
    yields: &[Operand],
    outs: &[Var],
    d: &mut HashSet<Var>,
    fills: &HashSet<Var>,
) {
    for (k, c) in carried.iter().enumerate() {
        let y = yields.get(k).copied();
        let out = outs.get(k).copied();
        let any = d.contains(&c.param)
            || is_in(d, c.init)
            || y.is_some_and(|y| is_in(d, y))
            || out.is_some_and(|o| d.contains(&o));
        if any {
            d.insert(c.param);
            d.extend(out);
            for op in [Some(c.init), y].into_iter().flatten() {
                if let Some(v) = op.var().filter(|v| fills.contains(v)) {
                    d.insert(v);
                }
            }
        }
    }
}

/// Whether any value `block` defines (in nested blocks too) depends on the seeds.
fn touches(block: &Block, d: &HashSet<Var>) -> bool {
    block.iter().any(|s| {
        let mut inner = false;
        each_block(s, &mut |b| inner |= touches(b, d));
        inner || stmt_defs(s).iter().any(|v| d.contains(v))
    })
}

/// The widening in progress: the function whose variables it extends, and each lane's names
/// for the dependent variables.
struct Widen {
    out: Func,
    dependent: HashSet<Var>,
    maps: Vec<HashMap<Var, Operand>>,
    /// The unit seeds' array literals, with their elements.
    seed_arrays: HashMap<Var, Vec<Operand>>,
}

impl Widen {
    /// A new variable with the name and type of `v`.
    fn fresh(&mut self, v: Var) -> Var {
        let (name, ty) = (self.out.names[v.index()].clone(), self.out.types[v.index()].clone());
        self.new_var(name, ty)
    }

    fn new_var(&mut self, name: Name, ty: Ty) -> Var {
        let new = Var(self.out.names.len() as u32);
        self.out.names.push(name);
        self.out.types.push(ty);
        new
    }

    /// A seed of type `ty` whose scalars, numbered from `at` on, are zero but the `hot`-th,
    /// one: a literal, or an array literal made in `out` (its rows first). `None` for a length
    /// the macro does not know.
    fn unit(
        &mut self,
        ty: &Ty,
        name: Name,
        (at, hot): (&mut usize, usize),
        out: &mut Block,
    ) -> Option<Operand> {
        match ty {
            Ty::F64 | Ty::Other => {
                let one = *at == hot;
                *at += 1;
                Some(Operand::Lit(if one { 1.0 } else { 0.0 }))
            }
            Ty::Array(s) => {
                let len = usize::try_from(s.dims.first()?.value?).ok()?;
                let inner = ty.indexed(1)?;
                let elems = (0..len)
                    .map(|_| self.unit(&inner, Name::temp(), (&mut *at, hot), &mut *out))
                    .collect::<Option<Vec<Operand>>>()?;
                let v = self.new_var(name, ty.clone());
                self.seed_arrays.insert(v, elems.clone());
                out.push(Stmt::Array { out: v, elems });
                Some(Operand::Var(v))
            }
            Ty::Bool | Ty::Residuals => None,
        }
    }

    /// `op` as lane `lane` sees it.
    fn lane(&self, lane: usize, op: Operand) -> Operand {
        substitute_operand(op, &self.maps[lane])
    }

    fn lanes(&self, op: Operand) -> Vec<Operand> {
        (0..self.maps.len()).map(|l| self.lane(l, op)).collect()
    }

    /// Lane `lane`'s copy of the dependent variable `v`, made.
    fn define(&mut self, lane: usize, v: Var) -> Var {
        let new = self.fresh(v);
        self.maps[lane].insert(v, Operand::Var(new));
        new
    }

    fn is_dependent(&self, v: Var) -> bool {
        self.dependent.contains(&v)
    }

    fn block(&mut self, block: &Block) -> Option<Block> {
        let mut out = Vec::new();
        for s in block {
            self.stmt(s, &mut out)?;
        }
        Some(out)
    }

    fn stmt(&mut self, s: &Stmt, out: &mut Block) -> Option<()> {
        let mut inner = false;
        each_block(s, &mut |b| inner |= touches(b, &self.dependent));
        let defs = stmt_defs(s);
        // A branch on a dependent condition defines nothing dependent when its sides do not,
        // yet is not the same branch in every lane (`branch` declines it).
        let reads_dependent = reads(s).into_iter().any(|op| is_in(&self.dependent, op));
        if !inner && !reads_dependent && !defs.iter().any(|v| self.is_dependent(*v)) {
            out.push(s.clone());
            return Some(());
        }
        match s {
            Stmt::For(l) => out.push(Stmt::For(Box::new(self.for_loop(l)?))),
            Stmt::While(w) => out.push(Stmt::While(Box::new(self.while_loop(w)?))),
            Stmt::If(b) => out.push(Stmt::If(Box::new(self.branch(b)?))),
            Stmt::Checkpoint(c) => out.push(Stmt::Checkpoint(Box::new(self.checkpoint(c)?))),
            _ => {
                for lane in 0..self.maps.len() {
                    let single = vec![s.clone()];
                    let copy = crate::ir::substitute(&single, &self.maps[lane]).pop()?;
                    let mut copy = match self.fold(copy) {
                        Folded::Stmt(copy) => copy,
                        Folded::Value(value) => {
                            defs.iter().for_each(|v| _ = self.maps[lane].insert(*v, value));
                            continue;
                        }
                    };
                    for v in &defs {
                        let new = self.define(lane, *v);
                        rename_def(&mut copy, *v, new);
                    }
                    out.push(copy);
                }
            }
        }
        Some(())
    }

    /// The carried values widened: each dependent one once per lane (its parameter renamed in
    /// the body's lanes before the body is widened). Returns them with, for each, the original
    /// index and lane (`None` for one kept single).
    fn carries(&mut self, carried: &[Carry]) -> (Vec<Carry>, Vec<(usize, Option<usize>)>) {
        let (mut out, mut from) = (Vec::new(), Vec::new());
        for (k, c) in carried.iter().enumerate() {
            if !self.is_dependent(c.param) {
                out.push(c.clone());
                from.push((k, None));
                continue;
            }
            for lane in 0..self.maps.len() {
                let param = self.define(lane, c.param);
                out.push(Carry { param, init: self.lane(lane, c.init) });
                from.push((k, Some(lane)));
            }
        }
        (out, from)
    }

    /// The yields and results of widened carried values, in the order of `from`.
    fn ends(
        &mut self,
        from: &[(usize, Option<usize>)],
        yields: &[Operand],
        outs: &[Var],
    ) -> Option<(Vec<Operand>, Vec<Var>)> {
        let (mut ys, mut os) = (Vec::new(), Vec::new());
        for (k, lane) in from {
            let (y, o) = (*yields.get(*k)?, *outs.get(*k)?);
            match lane {
                None => {
                    ys.push(y);
                    os.push(o);
                }
                Some(lane) => {
                    ys.push(self.lane(*lane, y));
                    os.push(self.define(*lane, o));
                }
            }
        }
        Some((ys, os))
    }

    fn for_loop(&mut self, l: &Loop) -> Option<Loop> {
        let (carried, from) = self.carries(&l.carried);
        let body = self.block(&l.body)?;
        let (yields, outs) = self.ends(&from, &l.yields, &l.outs)?;
        Some(Loop { carried, body, yields, outs, ..l.clone() })
    }

    fn while_loop(&mut self, w: &While) -> Option<While> {
        let carried_dependent = w.carried.iter().any(|c| self.is_dependent(c.param));
        if (w.tape.is_some() && carried_dependent) || self.controls(w.first) {
            return None;
        }
        let (carried, from) = self.carries(&w.carried);
        let body = self.block(&w.body)?;
        if self.controls(w.cond) {
            return None;
        }
        let (yields, outs) = self.ends(&from, &w.yields, &w.outs)?;
        Some(While { carried, body, yields, outs, ..w.clone() })
    }

    /// Whether `op` depends on the seeds: control that cannot stay single.
    fn controls(&self, op: Operand) -> bool {
        op.var().is_some_and(|v| self.is_dependent(v))
    }

    fn branch(&mut self, b: &Branch) -> Option<Branch> {
        if self.is_dependent(b.cond) {
            return None;
        }
        let then = self.block(&b.then)?;
        let otherwise = self.block(&b.otherwise)?;
        let (mut then_yields, mut else_yields, mut outs) = (Vec::new(), Vec::new(), Vec::new());
        for (k, o) in b.outs.iter().enumerate() {
            let (t, e) = (*b.then_yields.get(k)?, *b.else_yields.get(k)?);
            if !self.is_dependent(*o) {
                then_yields.push(t);
                else_yields.push(e);
                outs.push(*o);
                continue;
            }
            then_yields.extend(self.lanes(t));
            else_yields.extend(self.lanes(e));
            for lane in 0..self.maps.len() {
                outs.push(self.define(lane, *o));
            }
        }
        Some(Branch { cond: b.cond, then, then_yields, otherwise, else_yields, outs })
    }

    fn checkpoint(&mut self, c: &Checkpoint) -> Option<Checkpoint> {
        let state = c.state.iter().any(|s| self.controls(*s));
        let params = c.step_params.iter().chain(&c.back_params).any(|v| self.is_dependent(*v));
        if state || params || touches(&c.step, &self.dependent) {
            return None;
        }
        let (adjoint, from) = self.carries(&c.adjoint);
        let back = self.block(&c.back)?;
        let (back_yields, outs) = self.ends(&from, &c.back_yields, &c.outs)?;
        Some(Checkpoint { adjoint, back, back_yields, outs, ..c.clone() })
    }
}

/// A lane's copy of a statement, with the literals of its unit seeds folded.
enum Folded {
    /// The statement, to emit.
    Stmt(Stmt),
    /// No statement: its value is this operand.
    Value(Operand),
}

impl Widen {
    /// A lane's copy `s` of a statement, its unit seeds' literals folded: a seed's element read
    /// at a constant index is that literal; `0 · x`, `x · 0`, `0 / x` and `−0` are zero, `0 + x`,
    /// `x + 0`, `x − 0`, `1 · x` and `x · 1` are `x`, `0 − x` is `−x`. Only seed-dependent
    /// statements reach it, and those are linear in the seed (adjoints, tangents), so a zero
    /// operand there is a zero seed's share: the derivative that the other outputs' (inputs')
    /// seeds would have carried.
    fn fold(&self, s: Stmt) -> Folded {
        match &s {
            Stmt::Load { array, index, .. } => match self.seed_element(*array, index) {
                Some(value) => Folded::Value(value),
                None => Folded::Stmt(s),
            },
            Stmt::Op { out, prim, args } => {
                let is = |i: usize, c: f64| args.get(i).and_then(|a| a.lit()) == Some(c);
                let zero = Operand::Lit(0.0);
                match prim {
                    Prim::Mul if is(0, 0.0) || is(1, 0.0) => Folded::Value(zero),
                    Prim::Div | Prim::Neg if is(0, 0.0) => Folded::Value(zero),
                    Prim::Mul if is(0, 1.0) => Folded::Value(args[1]),
                    Prim::Mul if is(1, 1.0) => Folded::Value(args[0]),
                    Prim::Add if is(0, 0.0) => Folded::Value(args[1]),
                    Prim::Add | Prim::Sub if is(1, 0.0) => Folded::Value(args[0]),
                    Prim::Sub if is(0, 0.0) => {
                        Folded::Stmt(Stmt::Op { out: *out, prim: Prim::Neg, args: vec![args[1]] })
                    }
                    _ => Folded::Stmt(s),
                }
            }
            _ => Folded::Stmt(s),
        }
    }

    /// The element of a unit seed's array literal at `index`, when every index is a constant.
    fn seed_element(&self, array: Var, index: &[Int]) -> Option<Operand> {
        let mut at = Operand::Var(array);
        for i in index {
            let elems = self.seed_arrays.get(&at.var()?)?;
            at = *elems.get(usize::try_from(i.value?).ok()?)?;
        }
        Some(at)
    }
}

/// `s` (a statement with no blocks) defining `new` where it defined `old`.
fn rename_def(s: &mut Stmt, old: Var, new: Var) {
    let swap = |v: &mut Var| {
        if *v == old {
            *v = new;
        }
    };
    match s {
        Stmt::Op { out, .. }
        | Stmt::Test { out, .. }
        | Stmt::Load { out, .. }
        | Stmt::Store { out, .. }
        | Stmt::Fill { out, .. }
        | Stmt::Array { out, .. } => swap(out),
        Stmt::Call(c) => c.outs.iter_mut().for_each(swap),
        Stmt::For(_) | Stmt::While(_) | Stmt::If(_) | Stmt::Checkpoint(_) => {}
    }
}
