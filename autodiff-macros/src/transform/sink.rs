//! Sinking into branches: a value computed before an `if` and read only inside it is computed
//! inside the sides that read it, so that the derivatives of the side taken never meet what only
//! another side reads.
//!
//! Why: a branch's sweep yields, for a value it reads from outside, the adjoint from the side
//! taken, zero when that side does not read it; the sweep of the statement that computed the
//! value then multiplies that zero by its partial derivatives, and a partial that is NaN or
//! infinite there (`(1.0 - x * x).sqrt()` at `x = 2`, read only where `x.abs() < 1.0`) makes the
//! gradient NaN. Moved into the side, the statement has its sweep in that side's sweep only.
//! Every value is computed as before, from the same operands (statements are pure and assigned
//! once), so the function's value is the same to the bit; the other sides compute less.
//!
//! What moves: arithmetic, comparisons, loads, stores, array literals and fills, whose one
//! result is read by one later `if` of the same block (not by its condition) and by nothing else
//! there, nor yielded by the block; into the start of the side that reads it, or of both sides
//! when both do but one does not on every path through it (a value read by two arms of an
//! `else if` chain goes into both sides of the outer `if`, a copy of it under new names into the
//! `else` side, and from there into the inner `if`'s arm). The block is processed backwards, so
//! whole chains move, and then each nested block (branch sides, loop bodies) likewise.
//!
//! What does not move, so that a partial of it that is NaN where its readers do not run still
//! reaches the gradient: a value read by two `if`s (even on the same condition: write them as
//! one `if`) or also after the `if`; a value read inside a loop, as moved in it would be computed
//! in every iteration (a loop that runs zero times, or takes the other side in every iteration,
//! leaves it a zero adjoint); loops, branches, and calls (a call moved into a side would run
//! `g_grad` a second time, in that side's sweep: write the call inside the side).
//!
//! The cost: the sweep of a side computes again what it needs of the forward side (a side's
//! values are not kept), so a moved value is computed twice on the path that reads it, unless
//! the forward branch and the sweep's are joined (see [`super::join_branches()`]) and the second
//! computation merged with the first. Runs on the primal, before every other transform: `_grad`,
//! `_jvp` and `_hvp` (forward mode over `_grad`'s sweep) take the same sides.

use std::collections::{BTreeSet, HashMap, HashSet};

use crate::ir::{
    Block, Branch, Func, Operand, Stmt, Var, free_vars, reads, substitute, substitute_operand,
};

/// `f` with every value read only inside an `if` computed inside the sides that read it.
pub fn sink(f: &Func) -> Func {
    let mut out = f.clone();
    let body = std::mem::take(&mut out.body);
    let outputs = out.outputs.clone();
    out.body = block(&mut out, body, &outputs);
    out
}

/// `stmts` (which yield `yields`) with values sunk at its own level, then in its nested blocks.
fn block(f: &mut Func, stmts: Block, yields: &[Operand]) -> Block {
    let mut level = Level::new(stmts, yields);
    for i in (0..level.stmts.len()).rev() {
        level.consider(f, i);
    }
    level.finish().into_iter().map(|s| inside(f, s)).collect()
}

/// `s` with values sunk in the blocks nested in it.
fn inside(f: &mut Func, s: Stmt) -> Stmt {
    match s {
        Stmt::If(mut b) => {
            b.then = block(f, std::mem::take(&mut b.then), &b.then_yields);
            b.otherwise = block(f, std::mem::take(&mut b.otherwise), &b.else_yields);
            Stmt::If(b)
        }
        Stmt::For(mut l) => {
            l.body = block(f, std::mem::take(&mut l.body), &l.yields);
            Stmt::For(l)
        }
        Stmt::While(mut w) => {
            let mut yields = w.yields.clone();
            yields.push(w.cond);
            w.body = block(f, std::mem::take(&mut w.body), &yields);
            Stmt::While(w)
        }
        other => other,
    }
}

/// The result of a statement that may move: pure, one result, no region.
fn movable(s: &Stmt) -> Option<Var> {
    match s {
        Stmt::Op { out, .. }
        | Stmt::Test { out, .. }
        | Stmt::Load { out, .. }
        | Stmt::Store { out, .. }
        | Stmt::Fill { out, .. }
        | Stmt::Array { out, .. } => Some(*out),
        Stmt::For(_) | Stmt::While(_) | Stmt::If(_) | Stmt::Checkpoint(_) | Stmt::Call(_) => None,
    }
}

/// `s` (a movable statement) defining `v` instead.
fn renamed(s: &Stmt, v: Var) -> Stmt {
    let mut s = s.clone();
    match &mut s {
        Stmt::Op { out, .. }
        | Stmt::Test { out, .. }
        | Stmt::Load { out, .. }
        | Stmt::Store { out, .. }
        | Stmt::Fill { out, .. }
        | Stmt::Array { out, .. } => *out = v,
        Stmt::For(_) | Stmt::While(_) | Stmt::If(_) | Stmt::Checkpoint(_) | Stmt::Call(_) => {}
    }
    s
}

/// The variables `s` reads (from outside its blocks).
fn read_vars(s: &Stmt) -> BTreeSet<Var> {
    reads(s).into_iter().filter_map(Operand::var).collect()
}

/// A new variable with `v`'s name and type.
fn fresh(f: &mut Func, v: Var) -> Var {
    let new = Var(u32::try_from(f.names.len()).unwrap_or(u32::MAX));
    f.names.push(f.name(v).clone());
    f.types.push(f.ty(v).clone());
    new
}

/// The statements of one block while values are sunk: each `None` once moved.
struct Level {
    stmts: Vec<Option<Stmt>>,
    /// The positions of the statements that read each variable.
    readers: HashMap<Var, BTreeSet<usize>>,
    /// What the block yields.
    yielded: HashSet<Var>,
    /// Each `if`, by position.
    ifs: HashMap<usize, Target>,
}

/// An `if` that values may move into: per side (then, else), what it reads from outside and the
/// statements moved into it.
struct Target {
    free: [HashSet<Var>; 2],
    /// Last moved first: the reverse of their order at the start of the side. A copy keeps the
    /// variable of the original until [`Level::finish`] renames it.
    moved: [Vec<Stmt>; 2],
    /// The new variable of each copy in the `else` side.
    renames: HashMap<Var, Operand>,
}

impl Level {
    fn new(stmts: Block, yields: &[Operand]) -> Self {
        let mut readers: HashMap<Var, BTreeSet<usize>> = HashMap::new();
        let mut ifs = HashMap::new();
        for (i, s) in stmts.iter().enumerate() {
            for v in read_vars(s) {
                readers.entry(v).or_default().insert(i);
            }
            if let Stmt::If(b) = s {
                let free = |block, yields| free_vars(block, yields).into_iter().collect();
                let free = [free(&b.then, &b.then_yields), free(&b.otherwise, &b.else_yields)];
                let moved = [Vec::new(), Vec::new()];
                ifs.insert(i, Target { free, moved, renames: HashMap::new() });
            }
        }
        let yielded = yields.iter().filter_map(|y| y.var()).collect();
        Level { stmts: stmts.into_iter().map(Some).collect(), readers, yielded, ifs }
    }

    /// Moves the statement at `i` into the `if` that alone reads its result, if it may.
    fn consider(&mut self, f: &mut Func, i: usize) {
        let Some(v) = self.stmts[i].as_ref().and_then(movable) else { return };
        let sole = self.readers.get(&v).filter(|r| r.len() == 1).and_then(|r| r.first());
        let Some(&j) = sole.filter(|_| !self.yielded.contains(&v)) else { return };
        let (Some(Stmt::If(b)), Some(t)) = (&self.stmts[j], self.ifs.get(&j)) else { return };
        if b.cond == v {
            return;
        }
        let (side, copy) = match [t.free[0].contains(&v), t.free[1].contains(&v)] {
            [true, false] => (0, false),
            [false, true] => (1, false),
            [true, true] if !t.always_in_both(b, v) => (0, true),
            _ => return,
        };
        let copy = copy.then(|| fresh(f, v));
        self.move_into(i, j, side, copy);
    }

    /// Moves the statement at `i` into side `side` of the `if` at `j`; with `copy`, a copy of it
    /// into the other side too, whose result will be `copy`.
    fn move_into(&mut self, i: usize, j: usize, side: usize, copy: Option<Var>) {
        let (Some(s), Some(t)) = (self.stmts[i].take(), self.ifs.get_mut(&j)) else { return };
        let Some(v) = movable(&s) else { return };
        let read = read_vars(&s);
        for r in &read {
            let readers = self.readers.entry(*r).or_default();
            readers.remove(&i);
            readers.insert(j);
        }
        let mut sides = vec![side];
        if let Some(c) = copy {
            t.renames.insert(v, Operand::Var(c));
            sides.push(1 - side);
        }
        for k in sides {
            t.free[k].remove(&v);
            t.free[k].extend(read.iter().copied());
            t.moved[k].push(s.clone());
        }
    }

    /// The statements left, with those moved at the start of the sides they moved into.
    fn finish(mut self) -> Block {
        let mut out = Vec::with_capacity(self.stmts.len());
        for (i, s) in self.stmts.into_iter().enumerate() {
            match (s, self.ifs.remove(&i)) {
                (Some(Stmt::If(mut b)), Some(t)) => {
                    let [then, otherwise] = t.moved;
                    b.then.splice(0..0, then.into_iter().rev());
                    let copy = |s: Stmt| match movable(&s).and_then(|v| t.renames.get(&v)) {
                        Some(Operand::Var(c)) => renamed(&s, *c),
                        _ => s,
                    };
                    b.otherwise.splice(0..0, otherwise.into_iter().rev().map(copy));
                    if !t.renames.is_empty() {
                        b.otherwise = substitute(&b.otherwise, &t.renames);
                        for y in &mut b.else_yields {
                            *y = substitute_operand(*y, &t.renames);
                        }
                    }
                    out.push(Stmt::If(b));
                }
                (Some(s), _) => out.push(s),
                (None, _) => {}
            }
        }
        out
    }
}

impl Target {
    /// Whether both sides of `b`, with the statements moved into them so far, read `v` on every
    /// path through them.
    fn always_in_both(&self, b: &Branch, v: Var) -> bool {
        let sides = [(&b.then, &b.then_yields), (&b.otherwise, &b.else_yields)];
        sides.iter().zip(&self.moved).all(|((block, yields), moved)| {
            always(moved.iter().rev().chain(block.iter()), yields).contains(&v)
        })
    }
}

/// The variables that `stmts` (then `yields`) read on every path through them, once values are
/// sunk: a statement that will move into a side reads only where that side runs, and an `if`
/// reads on every path its condition and what both its sides do.
fn always<'a>(
    stmts: impl DoubleEndedIterator<Item = &'a Stmt>,
    yields: &[Operand],
) -> HashSet<Var> {
    let mut must: HashSet<Var> = yields.iter().filter_map(|y| y.var()).collect();
    let mut readers: HashMap<Var, usize> = HashMap::new();
    for s in stmts.rev() {
        let read = read_vars(s);
        if let Stmt::If(b) = s {
            must.insert(b.cond);
            let then = always(b.then.iter(), &b.then_yields);
            let otherwise = always(b.otherwise.iter(), &b.else_yields);
            must.extend(then.intersection(&otherwise).copied());
        } else if movable(s).is_none_or(|v| must.contains(&v) || readers.get(&v) > Some(&1)) {
            // Stays where it is (a region, or read on every path, or read by several
            // statements): what it reads is read on every path.
            must.extend(read.iter().copied());
        }
        for v in read {
            *readers.entry(v).or_default() += 1;
        }
    }
    must
}
