//! Where each IR value lives in the generated Rust: inlined into its one reader, its own `let`,
//! or a mutable variable (a slot) shared by a chain of values that never overlap in time: a
//! loop's carried value (`let mut s = 0.0; for … { s += …; }`), or the successive versions of an
//! array updated in place (`y[i] += …`). This is SSA destruction with coalescing: two values
//! share a slot only when the older is dead where the newer is defined.

use std::collections::HashMap;

use crate::ir::{Block, Carry, Func, Operand, Prim, Stmt, Ty, Var, reads, stmt_defs};

/// How far (in statements, within one block) a single-use temporary may be read and still be
/// inlined into its reader. Inlining a value read much later would move its computation there and
/// keep its operands alive across the statements in between (across libm calls every `f64`
/// register is caller-saved, so that means spills): measured, unlimited inlining made a
/// 93-statement gradient about 7 % slower than this (see BENCHMARKS.md).
const INLINE_DISTANCE: usize = 8;

/// How many operations inlined temporaries may nest in one expression. The adjoint of a value
/// read by many statements is a sum with one term per read, a chain of single-use temporaries;
/// inlined whole it would be one expression as deep as the number of reads, which codegen renders
/// recursively (a parameter read by 4,000 statements overflowed rustc's stack inside the macro).
/// Past this depth the chain is cut by a named temporary.
const MAX_INLINED_DEPTH: usize = 16;

/// How a value is represented.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Repr {
    /// Written into its one reader.
    Inline,
    /// Its own immutable `let` (or a parameter).
    Let,
    /// A member of a mutable variable shared with other values.
    Slot(usize),
}

/// Where every value of a function lives.
pub struct Layout {
    /// By variable.
    pub repr: Vec<Repr>,
    /// The members of each slot, in order of definition.
    pub slots: Vec<Vec<Var>>,
}

impl Layout {
    /// The slot of `v`, if it has one.
    pub fn slot(&self, v: Var) -> Option<usize> {
        match self.repr[v.index()] {
            Repr::Slot(s) => Some(s),
            _ => None,
        }
    }

    /// Whether `a` and `b` live in the same slot.
    pub fn same_slot(&self, a: Operand, b: Operand) -> bool {
        match (a.var().and_then(|v| self.slot(v)), b.var().and_then(|v| self.slot(v))) {
            (Some(x), Some(y)) => x == y,
            _ => false,
        }
    }

    /// Whether `v` is the member that declares its slot (the first defined).
    pub fn declares(&self, v: Var) -> bool {
        self.slot(v).is_some_and(|s| self.slots[s].first() == Some(&v))
    }

    /// Whether the slot of `v` is assigned after its declaration (so it needs `mut`).
    pub fn mutable(&self, v: Var) -> bool {
        self.slot(v).is_some_and(|s| self.slots[s].len() > 1)
    }
}

/// A point of the program: its position in a walk in evaluation order, and the branches it is
/// in (as `(branch, side)`), so that the two sides of a branch are never both "after" each other.
#[derive(Clone, Debug)]
struct Point {
    pos: usize,
    path: Vec<(usize, bool)>,
}

impl Point {
    /// Whether code at `self` can run after code at `other`.
    fn after(&self, other: &Point) -> bool {
        if self.pos <= other.pos {
            return false;
        }
        !self.path.iter().zip(&other.path).any(|(a, b)| a.0 == b.0 && a.1 != b.1)
    }
}

/// What the walk records: each definition and each read (at the point where it counts: a read
/// inside a loop of a value defined outside it counts at the loop's end).
#[derive(Default)]
struct Uses {
    def: HashMap<Var, Point>,
    /// The block each variable is defined in.
    block_of: HashMap<Var, usize>,
    reads: HashMap<Var, Vec<Point>>,
    /// Single readers: the point and block of the one read of a variable read once.
    readers: HashMap<Var, Vec<(Point, usize)>>,
    /// The positions where a slot candidate is written (stores, yields), for inlining.
    writes: Vec<(usize, Var)>,
    /// The results of calls.
    called: std::collections::HashSet<Var>,
}

struct Walker {
    pos: usize,
    path: Vec<(usize, bool)>,
    branches: usize,
    blocks: usize,
    /// Open loops: their first position and the variables defined inside them.
    loops: Vec<(usize, Vec<Var>)>,
    uses: Uses,
}

impl Walker {
    fn point(&self) -> Point {
        Point { pos: self.pos, path: self.path.clone() }
    }

    fn define(&mut self, v: Var, block: usize) {
        self.uses.def.insert(v, self.point());
        self.uses.block_of.insert(v, block);
        if let Some((_, defined)) = self.loops.last_mut() {
            defined.push(v);
        }
    }

    /// Records reads made at the current point; `pending` collects reads of values from outside
    /// an open loop, which count at the loop's end.
    fn read(&mut self, op: Operand, block: usize, pending: &mut [Vec<Var>]) {
        let Some(v) = op.var() else { return };
        let point = self.point();
        self.uses.readers.entry(v).or_default().push((point.clone(), block));
        // The outermost open loop that `v` is defined before: the read recurs until its end.
        let outer = (0..self.loops.len()).find(|i| !self.defined_in_loop(v, *i));
        match outer {
            Some(i) => pending[i].push(v),
            None => self.uses.reads.entry(v).or_default().push(point),
        }
    }

    fn defined_in_loop(&self, v: Var, i: usize) -> bool {
        self.loops[i..].iter().any(|(_, defined)| defined.contains(&v))
    }

    fn block(&mut self, b: &Block, pending: &mut Vec<Vec<Var>>) -> usize {
        self.blocks += 1;
        let id = self.blocks;
        for s in b {
            self.stmt(s, id, pending);
        }
        id
    }

    /// A loop's body (a `for` or a `while`, whose entry reads the caller has walked): its carried
    /// values defined in the body, the yields (and a `while`'s condition) read at its end, a
    /// write of each carried value that the body changes, and the loop's results defined after it.
    #[allow(clippy::too_many_arguments)]
    fn looped(
        &mut self,
        carried: &[Carry],
        body: &Block,
        yields: &[Operand],
        cond: Option<Operand>,
        outs: &[Var],
        block: usize,
        pending: &mut Vec<Vec<Var>>,
    ) {
        self.loops.push((self.pos, Vec::new()));
        pending.push(Vec::new());
        let body_block = self.blocks + 1;
        for c in carried {
            self.define(c.param, body_block);
        }
        let id = self.block(body, pending);
        self.pos += 1;
        for y in yields.iter().copied().chain(cond) {
            self.read(y, id, pending);
        }
        for (c, y) in carried.iter().zip(yields) {
            if y.var() != Some(c.param) {
                self.uses.writes.push((self.pos, c.param));
            }
        }
        self.loops.pop();
        let recurring = pending.pop().unwrap_or_default();
        let end = self.point();
        for v in recurring {
            self.uses.reads.entry(v).or_default().push(end.clone());
        }
        for o in outs {
            self.define(*o, block);
        }
    }

    fn stmt(&mut self, s: &Stmt, block: usize, pending: &mut Vec<Vec<Var>>) {
        self.pos += 1;
        match s {
            Stmt::For(l) => {
                for c in &l.carried {
                    self.read(c.init, block, pending);
                }
                self.looped(&l.carried, &l.body, &l.yields, None, &l.outs, block, pending);
            }
            Stmt::While(w) => {
                self.read(w.first, block, pending);
                for c in &w.carried {
                    self.read(c.init, block, pending);
                }
                self.looped(&w.carried, &w.body, &w.yields, Some(w.cond), &w.outs, block, pending);
            }
            Stmt::Checkpoint(c) => {
                for op in c.state.iter().chain(c.adjoint.iter().map(|a| &a.init)) {
                    self.read(*op, block, pending);
                }
                // Both blocks run many times, like a loop's body.
                self.loops.push((self.pos, Vec::new()));
                pending.push(Vec::new());
                let step_block = self.blocks + 1;
                for p in &c.step_params {
                    self.define(*p, step_block);
                }
                let id = self.block(&c.step, pending);
                self.pos += 1;
                for y in &c.step_yields {
                    self.read(*y, id, pending);
                }
                let back_block = self.blocks + 1;
                for p in c.back_params.iter().chain(c.adjoint.iter().map(|a| &a.param)) {
                    self.define(*p, back_block);
                }
                let id = self.block(&c.back, pending);
                self.pos += 1;
                for y in &c.back_yields {
                    self.read(*y, id, pending);
                }
                self.loops.pop();
                let recurring = pending.pop().unwrap_or_default();
                let end = self.point();
                for v in recurring {
                    self.uses.reads.entry(v).or_default().push(end.clone());
                }
                for o in &c.outs {
                    self.define(*o, block);
                }
            }
            Stmt::If(br) => {
                self.read(Operand::Var(br.cond), block, pending);
                self.branches += 1;
                let id = self.branches;
                for (side, (b, ys)) in
                    [(true, (&br.then, &br.then_yields)), (false, (&br.otherwise, &br.else_yields))]
                {
                    self.path.push((id, side));
                    let inner = self.block(b, pending);
                    self.pos += 1;
                    for y in ys {
                        self.read(*y, inner, pending);
                    }
                    self.path.pop();
                }
                self.pos += 1;
                for o in &br.outs {
                    self.define(*o, block);
                }
            }
            _ => {
                for op in reads(s) {
                    self.read(op, block, pending);
                }
                if let Stmt::Store { array, .. } = s {
                    self.uses.writes.push((self.pos, *array));
                }
                if let Stmt::Call(c) = s {
                    self.uses.called.extend(c.outs.iter().copied());
                }
                for v in stmt_defs(s) {
                    self.define(v, block);
                }
            }
        }
    }
}

/// Statements that may share a slot between their operands and results, in program order.
enum Event {
    /// `out = store(array, …)`, or an `Op` that updates `from` (a value in a slot).
    Update { from: Var, to: Var },
    /// A loop: its carried values, with the point where they are yielded and the body's block.
    Loop { carried: Vec<(Var, Operand, Operand, Var)>, body: usize },
    /// A branch: each result with what the two sides yield.
    Branch { outs: Vec<(Var, Operand, Operand)> },
}

/// Where every value of `f` lives.
pub fn layout(f: &Func) -> Layout {
    let mut w = Walker {
        pos: 0,
        path: Vec::new(),
        branches: 0,
        blocks: 0,
        loops: Vec::new(),
        uses: Uses::default(),
    };
    for v in &f.inputs {
        w.define(*v, 0);
    }
    let top = w.block(&f.body, &mut Vec::new());
    w.pos += 1;
    for o in &f.outputs {
        w.read(*o, top, &mut Vec::new());
    }
    let mut events = Vec::new();
    collect_events(&f.body, &mut events, &mut 1);
    let uses = w.uses;
    let mut c = Coalescer {
        f,
        uses: &uses,
        sets: (0..f.names.len()).map(|i| vec![Var(i as u32)]).collect(),
        of: (0..f.names.len()).collect(),
    };
    // A loop's result is its carried variable after the last iteration: the two share a slot
    // whatever else joins it, so they are joined first (an outer loop must not claim an inner
    // loop's result first, when the inner loop's variable overlaps the outer one's).
    for e in &events {
        if let Event::Loop { carried, .. } = e {
            for (param, _, _, out) in carried {
                c.union(*param, *out);
            }
        }
    }
    for e in &events {
        c.event(e);
    }
    c.finish(f, &uses)
}

/// The events of `block`, nested ones included; `blocks` numbers blocks as the walker does.
fn collect_events(block: &Block, events: &mut Vec<Event>, blocks: &mut usize) {
    for s in block {
        match s {
            Stmt::For(l) => {
                let carried = l
                    .carried
                    .iter()
                    .zip(&l.yields)
                    .zip(&l.outs)
                    .map(|((c, y), o)| (c.param, c.init, *y, *o))
                    .collect();
                events.push(Event::Loop { carried, body: *blocks + 1 });
                *blocks += 1;
                collect_events(&l.body, events, blocks);
            }
            Stmt::While(w) => {
                let carried = w
                    .carried
                    .iter()
                    .zip(&w.yields)
                    .zip(&w.outs)
                    .map(|((c, y), o)| (c.param, c.init, *y, *o))
                    .collect();
                events.push(Event::Loop { carried, body: *blocks + 1 });
                *blocks += 1;
                collect_events(&w.body, events, blocks);
            }
            Stmt::Checkpoint(c) => {
                *blocks += 1;
                collect_events(&c.step, events, blocks);
                *blocks += 1;
                collect_events(&c.back, events, blocks);
            }
            Stmt::If(b) => {
                *blocks += 1;
                collect_events(&b.then, events, blocks);
                *blocks += 1;
                collect_events(&b.otherwise, events, blocks);
                let outs = b
                    .outs
                    .iter()
                    .enumerate()
                    .map(|(j, o)| (*o, b.then_yields[j], b.else_yields[j]))
                    .collect();
                events.push(Event::Branch { outs });
            }
            Stmt::Store { out, array, .. } => events.push(Event::Update { from: *array, to: *out }),
            Stmt::Op { out, prim, args }
                if matches!(prim, Prim::Add | Prim::Sub | Prim::Mul | Prim::Div) =>
            {
                if let Some(from) = args[0].var() {
                    events.push(Event::Update { from, to: *out });
                }
                if matches!(prim, Prim::Add | Prim::Mul)
                    && let Some(from) = args[1].var()
                {
                    events.push(Event::Update { from, to: *out });
                }
            }
            _ => {}
        }
    }
}

struct Coalescer<'a> {
    f: &'a Func,
    uses: &'a Uses,
    /// The members of each set (a set is named by an index into `sets`).
    sets: Vec<Vec<Var>>,
    /// The set of each variable.
    of: Vec<usize>,
}

impl Coalescer<'_> {
    fn is_input(&self, v: Var) -> bool {
        self.f.inputs.contains(&v)
    }

    /// Whether the one of `a` and `b` defined first is read after the other is defined: then
    /// they cannot share a variable.
    fn interferes(&self, a: Var, b: Var) -> bool {
        let (Some(da), Some(db)) = (self.uses.def.get(&a), self.uses.def.get(&b)) else {
            return true;
        };
        let (first, then) = if da.pos <= db.pos { (a, db) } else { (b, da) };
        self.uses.reads.get(&first).is_some_and(|rs| rs.iter().any(|r| r.after(then)))
    }

    /// Puts `a` and `b` in one slot if no two of their members interfere.
    fn union(&mut self, a: Var, b: Var) -> bool {
        let (sa, sb) = (self.of[a.index()], self.of[b.index()]);
        if sa == sb {
            return true;
        }
        // A call's results are bound by one `let` pattern: they keep their own names.
        let fixed = |v: Var| self.is_input(v) || self.uses.called.contains(&v);
        if fixed(a) || fixed(b) || self.f.ty(a) != self.f.ty(b) {
            return false;
        }
        let clash =
            self.sets[sa].iter().any(|x| self.sets[sb].iter().any(|y| self.interferes(*x, *y)));
        if clash {
            return false;
        }
        let moved = std::mem::take(&mut self.sets[sb]);
        for v in &moved {
            self.of[v.index()] = sa;
        }
        self.sets[sa].extend(moved);
        true
    }

    fn in_slot(&self, v: Var) -> bool {
        self.sets[self.of[v.index()]].len() > 1
    }

    fn event(&mut self, e: &Event) {
        match e {
            Event::Update { from, to } => {
                // Arrays are updated in place when the old version dies; a scalar only joins a
                // variable that is already mutable (a loop's or a branch's), and only as a new
                // version of the same variable (`s += x`), not as some other value that happens
                // to fit there.
                let same = || {
                    let name = |v: Var| super::names::unnumbered(self.f, v).map(|n| n.0);
                    name(*from).is_some() && name(*from) == name(*to)
                };
                if matches!(self.f.ty(*from), Ty::Array(_)) || (self.in_slot(*from) && same()) {
                    self.union(*from, *to);
                }
            }
            Event::Loop { carried, body } => {
                for (param, init, y, out) in carried {
                    self.union(*param, *out);
                    if let Some(y) = y.var()
                        && self.uses.block_of.get(&y) == Some(body)
                    {
                        self.union(*param, y);
                    }
                    if let Some(init) = init.var()
                        && (self.in_slot(init) || matches!(self.f.ty(init), Ty::Array(_)))
                    {
                        self.union(init, *param);
                    }
                }
            }
            Event::Branch { outs } => {
                for (out, t, e) in outs {
                    // A result joins a variable that exists before the branch (not one declared
                    // inside a side) when a side's result is already in it (an update in place);
                    // then the other side's result joins it too if it can.
                    let before = |c: &Self, v: Var| {
                        let Some(d_out) = c.uses.def.get(out) else { return false };
                        c.sets[c.of[v.index()]].iter().any(|m| {
                            c.uses.def.get(m).is_some_and(|d| {
                                d.pos < d_out.pos && d.path.len() <= d_out.path.len()
                            })
                        })
                    };
                    let sides: Vec<Var> = [t.var(), e.var()].into_iter().flatten().collect();
                    let base = sides.iter().copied().find(|v| self.in_slot(*v) && before(self, *v));
                    let Some(base) = base else { continue };
                    if self.union(base, *out) {
                        for v in sides {
                            self.union(base, v);
                        }
                    }
                }
            }
        }
    }

    fn finish(self, f: &Func, uses: &Uses) -> Layout {
        let mut repr = vec![Repr::Let; f.names.len()];
        let mut slots = Vec::new();
        for set in &self.sets {
            if set.len() < 2 {
                continue;
            }
            let mut members = set.clone();
            members.sort_by_key(|v| uses.def.get(v).map_or(0, |d| d.pos));
            for v in &members {
                repr[v.index()] = Repr::Slot(slots.len());
            }
            slots.push(members);
        }
        let layout = Layout { repr, slots };
        let inline = inlined(f, uses, &layout);
        let mut repr = layout.repr;
        for (v, yes) in inline.iter().enumerate() {
            if *yes {
                repr[v] = Repr::Inline;
            }
        }
        Layout { repr, slots: layout.slots }
    }
}

/// The temporaries to inline: scalars read once, in the same block, soon after their
/// definition, with no write to a variable they read in between.
fn inlined(f: &Func, uses: &Uses, layout: &Layout) -> Vec<bool> {
    let mut inline = vec![false; f.names.len()];
    let writes: Vec<(usize, usize)> = layout
        .slots
        .iter()
        .enumerate()
        .flat_map(|(s, members)| {
            members.iter().skip(1).filter_map(move |m| uses.def.get(m).map(|d| (d.pos, s)))
        })
        .collect();
    let mut reads_slots: HashMap<Var, Vec<usize>> = HashMap::new();
    // The depth of the expression of each inlined value (a named value is 0).
    let mut depth = vec![0_usize; f.names.len()];
    visit(&f.body, &mut |s| {
        let (out, operands) = match s {
            Stmt::Op { out, args, .. } => (*out, args.clone()),
            Stmt::Test { out, .. } | Stmt::Load { out, .. } => (*out, reads(s)),
            _ => return,
        };
        let mut slots: Vec<usize> = Vec::new();
        for op in &operands {
            let Some(v) = op.var() else { continue };
            if let Some(sl) = layout.slot(v) {
                slots.push(sl);
            }
            if inline[v.index()] {
                slots.extend(reads_slots.get(&v).cloned().unwrap_or_default());
            }
        }
        let own = 1 + operands
            .iter()
            .filter_map(|o| o.var())
            .map(|v| depth[v.index()])
            .max()
            .unwrap_or(0);
        let scalar = matches!(f.ty(out), Ty::F64 | Ty::Bool);
        let single = uses.readers.get(&out).filter(|r| r.len() == 1).map(|r| r[0].clone());
        let (Some(def), Some(block)) = (uses.def.get(&out), uses.block_of.get(&out)) else {
            return;
        };
        if let Some((at, reader_block)) = single
            && scalar
            && f.name(out).is_temp()
            && layout.slot(out).is_none()
            && reader_block == *block
            && at.pos - def.pos <= INLINE_DISTANCE
            && !writes.iter().any(|(p, s)| *p > def.pos && *p < at.pos && slots.contains(s))
            && own <= MAX_INLINED_DEPTH
        {
            inline[out.index()] = true;
            depth[out.index()] = own;
        }
        reads_slots.insert(out, slots);
    });
    inline
}

/// Calls `f` on every statement, nested ones included, in program order.
fn visit(block: &Block, f: &mut dyn FnMut(&Stmt)) {
    for s in block {
        f(s);
        match s {
            Stmt::For(l) => visit(&l.body, f),
            Stmt::While(w) => visit(&w.body, f),
            Stmt::If(b) => {
                visit(&b.then, f);
                visit(&b.otherwise, f);
            }
            Stmt::Checkpoint(c) => {
                visit(&c.step, f);
                visit(&c.back, f);
            }
            _ => {}
        }
    }
}
