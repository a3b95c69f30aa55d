//! First touch: in a loop that carries a zeroed adjoint array (an accumulator of
//! [`Func::accumulators`]), an element that nothing has written yet reads as zero, so the first
//! contribution to it is written, `x̄[k] = e`, instead of added, `x̄[k] += e`, as a hand-written
//! gradient writes it.
//!
//! Legal for a load of an element when no store of the loop to the array can have written that
//! element before the load: in an earlier iteration (of the loop or of a loop inside it), or
//! earlier in the same iteration. Decided on the indices, dimension by dimension: two known
//! constants that differ never meet; two indices `s + a` and `t + b` of the same loop (the store
//! in iteration `s`, the load in iteration `t`) meet only when `s − t = b − a`, which says
//! whether the store's iteration comes before the load's; two indices that are polynomials in
//! several loop indices and names ([`crate::ir::Poly`]: `j * M + k`, `N * M + j`,
//! `i * N + j + 1`) never meet when the greatest value of one over its loops' ranges is below the
//! least of the other, and, when they are the same polynomial of the indices of loops around
//! both that maps distinct iterations to distinct elements (each coefficient above what the
//! terms before it can add up to, `M > M − 1` for `k` in `0..M`), meet only in the same
//! iteration; anything else (a cyclic `(i + N − 1) % N`, which [`super::wrap`] splits off a ring
//! reduction before differentiation, `j + k`, an index of a loop around the accumulating one) is
//! assumed to meet. A
//! loop's iterations come in the order of its range (`rev` reverses it). An array that also
//! flows anywhere but through the loop's loads and stores (a call, a checkpoint, a branch that
//! yields another array) is left alone.
//!
//! Runs after [`super::fuse()`]: fusion reorders the iterations of a sweep (legal only while every
//! write is an addition), and this decides on the final order.

use std::collections::{HashMap, HashSet};

use crate::ir::{
    Affine, Block, Bounds, Branch, Checkpoint, Func, Int, Loop, LoopId, Operand, Poly, Prim, Stmt,
    Var, While, reads, substitute, substitute_operand,
};

/// `f` with every load of a not yet written element of an accumulator replaced by zero, and
/// the sums that read it by their other term.
pub fn first_touch(f: &Func) -> Func {
    let mut fills = HashMap::new();
    fill_values(f, &f.body, &f.accumulators, &mut fills);
    let mut zeroed = HashMap::new();
    find(f, &f.body, &fills, &mut zeroed);
    if zeroed.is_empty() {
        return f.clone();
    }
    let mut edit = Edit { map: HashMap::new(), dropped: HashSet::new(), negated: HashSet::new() };
    edit.plan(&f.body, &zeroed);
    let body = substitute(&edit.apply(&f.body), &edit.map);
    let outputs = f.outputs.iter().map(|o| substitute_operand(*o, &edit.map)).collect();
    Func { body, outputs, ..f.clone() }
}

/// The element value of every accumulator, by its variable.
fn fill_values(f: &Func, block: &Block, accumulators: &[Var], out: &mut HashMap<Var, Operand>) {
    for s in block {
        match s {
            Stmt::Fill { out: v, value } if accumulators.contains(v) && f.known_fill(*v) => {
                out.insert(*v, *value);
            }
            _ => each_block(s, &mut |b| fill_values(f, b, accumulators, out)),
        }
    }
}

/// Runs `visit` on each block nested in `s`.
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

/// Finds, in every loop of `block` that carries an accumulator, the loads that read an element
/// no store has reached yet, each with the element's value.
fn find(
    f: &Func,
    block: &Block,
    fills: &HashMap<Var, Operand>,
    zeroed: &mut HashMap<Var, Operand>,
) {
    for s in block {
        if let Stmt::For(l) = s {
            for (k, c) in l.carried.iter().enumerate() {
                let Some(value) = c.init.var().and_then(|v| fills.get(&v)) else { continue };
                for load in untouched(f, l, k) {
                    zeroed.insert(load, *value);
                }
            }
        }
        each_block(s, &mut |b| find(f, b, fills, zeroed));
    }
}

/// A loop around an access, inside the accumulating loop (which comes first).
#[derive(Clone, PartialEq)]
pub(super) struct Around {
    /// Where the loop statement is (see [`Access::at`]).
    at: Vec<u32>,
    /// Its index.
    index: LoopId,
    /// Whether its iterations run from the last index down.
    rev: bool,
    /// Its range as polynomials, when its bounds are polynomials.
    bounds: Option<Bounds>,
}

impl Around {
    fn new(at: Vec<u32>, l: &Loop) -> Self {
        Around { at, index: l.index, rev: l.range.rev, bounds: bounds(l) }
    }
}

/// The first and last index of `l`, as polynomials.
fn bounds(l: &Loop) -> Option<Bounds> {
    let lo = l.range.lo.poly.clone()?;
    let hi = l.range.hi.poly.clone()?;
    let last = match l.range.inclusive {
        true => hi,
        false => hi.sub(&Poly::constant(1)?)?,
    };
    Some(Bounds { index: l.index, lo, last })
}

/// A load or store of the accumulated array in the loop.
pub(super) struct Access {
    /// Where the statement is: its position in the loop's body, then in the nested block, and so
    /// on (a branch's side counts as a position: 0 then, 1 otherwise). Within one iteration of
    /// every loop around both, of two accesses the one with the smaller position runs first.
    pub(super) at: Vec<u32>,
    /// The loops around it, the accumulating loop first.
    pub(super) around: Vec<Around>,
    /// The element (or, for a shorter index, the sub-array) accessed.
    pub(super) index: Vec<Int>,
    /// For a load of one element, the value it defines; `None` for a store (or a sub-array load).
    pub(super) load: Option<Var>,
}

/// The accesses of the array carried at position `k` of `l` through its versions in one
/// iteration; `None` when a version flows elsewhere.
pub(super) struct Chain<'a> {
    f: &'a Func,
    versions: HashSet<Var>,
    pub(super) accesses: Vec<Access>,
}

/// The loads of `l`'s body that read an element of the array carried at `k` that no store of
/// the loop can have written before them.
fn untouched(f: &Func, l: &Loop, k: usize) -> Vec<Var> {
    let Some(chain) = Chain::of(f, l, k) else { return Vec::new() };
    let stores: Vec<&Access> = chain.accesses.iter().filter(|a| a.load.is_none()).collect();
    chain
        .accesses
        .iter()
        .filter(|ld| ld.load.is_some() && stores.iter().all(|st| !may_write_before(st, ld)))
        .filter_map(|ld| ld.load)
        .collect()
}

impl<'a> Chain<'a> {
    /// The accesses of `l`'s body to the array carried at `k`, when every version of it stays
    /// in its loads and stores.
    pub(super) fn of(f: &'a Func, l: &Loop, k: usize) -> Option<Self> {
        let mut chain =
            Chain { f, versions: HashSet::from([l.carried[k].param]), accesses: Vec::new() };
        let mut around = vec![Around::new(Vec::new(), l)];
        chain.block(&l.body, &[], &mut around)?;
        chain.yields(&l.yields, &[k]).then_some(chain)
    }

    fn has(&self, op: Operand) -> bool {
        op.var().is_some_and(|v| self.versions.contains(&v))
    }

    /// Whether `yields` carries a version exactly at the positions `at`.
    fn yields(&self, yields: &[Operand], at: &[usize]) -> bool {
        yields.iter().enumerate().all(|(p, y)| self.has(*y) == at.contains(&p))
    }

    /// Walks `block` (at position `at`, inside the loops `around`), following the versions.
    fn block(&mut self, block: &Block, at: &[u32], around: &mut Vec<Around>) -> Option<()> {
        for (k, s) in block.iter().enumerate() {
            let mut here = at.to_vec();
            here.push(u32::try_from(k).ok()?);
            self.stmt(s, here, around)?;
        }
        Some(())
    }

    fn stmt(&mut self, s: &Stmt, at: Vec<u32>, around: &mut Vec<Around>) -> Option<()> {
        match s {
            Stmt::Load { out, array, index } if self.versions.contains(array) => {
                let dims = self.f.ty(*array).shape().map_or(0, |s| s.dims.len());
                let load = (index.len() == dims).then_some(*out);
                let around = around.clone();
                self.accesses.push(Access { at, around, index: index.clone(), load });
            }
            Stmt::Store { out, array, index, value } if self.versions.contains(array) => {
                if self.has(*value) {
                    return None;
                }
                let around = around.clone();
                self.accesses.push(Access { at, around, index: index.clone(), load: None });
                self.versions.insert(*out);
            }
            Stmt::For(l) => {
                let carried: Vec<usize> =
                    (0..l.carried.len()).filter(|p| self.has(l.carried[*p].init)).collect();
                self.versions.extend(carried.iter().map(|p| l.carried[*p].param));
                around.push(Around::new(at.clone(), l));
                let walked = self.block(&l.body, &at, around);
                around.pop();
                walked?;
                if !self.yields(&l.yields, &carried) {
                    return None;
                }
                self.versions.extend(carried.iter().map(|p| l.outs[*p]));
            }
            Stmt::If(b) => {
                for (side, block) in [(0, &b.then), (1, &b.otherwise)] {
                    let mut inside = at.clone();
                    inside.push(side);
                    self.block(block, &inside, around)?;
                }
                for (p, out) in b.outs.iter().enumerate() {
                    match (self.has(b.then_yields[p]), self.has(b.else_yields[p])) {
                        (true, true) => {
                            self.versions.insert(*out);
                        }
                        (false, false) => {}
                        _ => return None,
                    }
                }
            }
            // Any other reader of a version (an operation, a call, a checkpoint, another array
            // built from it) takes the array somewhere this does not follow.
            other => {
                if reads(other).into_iter().any(|op| self.has(op)) {
                    return None;
                }
            }
        }
        Some(())
    }
}

/// Whether the store `st` can write the element the load `ld` reads before `ld` runs.
fn may_write_before(st: &Access, ld: &Access) -> bool {
    // The loops around both (the same statements), outermost first.
    let common = st.around.iter().zip(&ld.around).take_while(|(a, b)| a == b).count();
    // For each, the store's iteration minus the load's, where the indices fix it.
    let mut shift: Vec<Option<i64>> = vec![None; common];
    for (a, b) in st.index.iter().zip(&ld.index) {
        if let (Some(x), Some(y)) = (a.value, b.value) {
            if x != y {
                return false;
            }
            continue;
        }
        let fixed = match (a.affine, b.affine) {
            (Some(sa), Some(lb)) => affine_shift(st, ld, sa, lb, common),
            _ => poly_shifts(st, ld, a, b, common),
        };
        match fixed {
            Fixed::Never => return false,
            Fixed::Shifts(shifts) => {
                for (q, d) in shifts {
                    match shift[q] {
                        Some(e) if e != d => return false,
                        _ => shift[q] = Some(d),
                    }
                }
            }
        }
    }
    for (q, d) in shift.iter().enumerate() {
        match d {
            Some(0) => {}
            // The store's iteration of this loop runs before the load's when it is smaller (or
            // larger, for a reversed range); the loops inside then do not matter.
            Some(d) => return if st.around[q].rev { *d > 0 } else { *d < 0 },
            None => return true,
        }
    }
    // The same iteration of every loop around both: program order.
    st.at < ld.at
}

/// What one dimension's indices say about when a store and a load meet.
enum Fixed {
    /// They never do.
    Never,
    /// Only when the store's iteration of each listed common loop minus the load's is the
    /// number given (the other loops unconstrained; an empty list says nothing).
    Shifts(Vec<(usize, i64)>),
}

/// `s + a` and `t + b` of the same loop meet only when `s − t = b − a`.
fn affine_shift(st: &Access, ld: &Access, sa: Affine, lb: Affine, common: usize) -> Fixed {
    let (Some(q), Some(r)) = (innermost(&st.around, sa.index), innermost(&ld.around, lb.index))
    else {
        return Fixed::Shifts(Vec::new());
    };
    match (q == r && q < common, lb.offset.checked_sub(sa.offset)) {
        (true, Some(d)) => Fixed::Shifts(vec![(q, d)]),
        _ => Fixed::Shifts(Vec::new()),
    }
}

/// Two polynomial indices (`j * M + k`, `N * M + j`, `i * N + j + 1`), read as the digits of a
/// number in a mixed radix: a term `c · i` of a loop around both, with the same coefficient in
/// both, whose remainders lie in `0..c`, meets the other only in the same iteration `i` (`i N`
/// and `i N + j + 1`, with `j + 1 < N`), and the remainders decide the rest. They never meet when
/// the greatest value of one, over the ranges of the loops around it, is below the least of the
/// other; remainders `k · l + e` of one loop `l` fix the shift `(e' − e) / k`; equal remainders
/// that map distinct iterations to distinct elements meet only in the same iteration.
fn poly_shifts(st: &Access, ld: &Access, a: &Int, b: &Int, common: usize) -> Fixed {
    let (Some(mut p), Some(mut q)) = (a.poly.clone(), b.poly.clone()) else {
        return Fixed::Shifts(Vec::new());
    };
    let (Some(sb), Some(lb)) = (all_bounds(&st.around), all_bounds(&ld.around)) else {
        return Fixed::Shifts(Vec::new());
    };
    // When both run, every loop around them runs at least once.
    let facts = Facts(sb.iter().chain(&lb).filter_map(|b| b.last.sub(&b.lo)).collect());
    let mut shifts = Vec::new();
    loop {
        if facts.below(&p, &sb, &q, &lb) || facts.below(&q, &lb, &p, &sb) {
            return Fixed::Never;
        }
        if let Some(found) = same_loop_shift(&p, &q, &st.around[..common]) {
            return match found {
                Some(d) => Fixed::Shifts(shifts.into_iter().chain([d]).collect()),
                None => Fixed::Never,
            };
        }
        if p == q {
            let read: Vec<usize> =
                (0..st.around.len()).filter(|k| p.reads(st.around[*k].index)).collect();
            let inner = ld.around.iter().skip(common).any(|l| q.reads(l.index));
            let loops: Vec<Bounds> = read.iter().map(|k| sb[*k].clone()).collect();
            if read.iter().all(|k| *k < common) && !inner && injective(&p, &loops, &facts) {
                shifts.extend(read.into_iter().map(|k| (k, 0)));
            }
            return Fixed::Shifts(shifts);
        }
        // The outermost common loop both read, as a digit of the same weight.
        let Some(k) = (0..common).find(|k| p.reads(sb[*k].index) && q.reads(sb[*k].index)) else {
            return Fixed::Shifts(shifts);
        };
        let (Some((cp, rp)), Some((cq, rq))) = (p.split(sb[k].index), q.split(sb[k].index)) else {
            return Fixed::Shifts(shifts);
        };
        if cp != cq || !facts.within(&rp, &sb, &cp) || !facts.within(&rq, &lb, &cq) {
            return Fixed::Shifts(shifts);
        }
        shifts.push((k, 0));
        (p, q) = (rp, rq);
    }
}

/// `p = c · l + e` and `q = c · l + e'` for the index of one loop `l` of `common`, a positive
/// literal `c`, and `e' − e` a constant: `Some(Some((l, (e' − e) / c)))`, or `Some(None)` when
/// `c` does not divide it (they never meet); `None` when they are not of that form.
fn same_loop_shift(p: &Poly, q: &Poly, common: &[Around]) -> Option<Option<(usize, i64)>> {
    let at = common.iter().position(|a| p.reads(a.index))?;
    let (cp, ep) = p.split(common[at].index)?;
    let (cq, eq) = q.split(common[at].index)?;
    let c = cp.as_constant().filter(|c| *c > 0)?;
    if cq != cp || common.iter().any(|a| ep.reads(a.index) || eq.reads(a.index)) {
        return None;
    }
    let d = eq.sub(&ep)?.as_constant()?;
    Some((d % c == 0).then_some((at, d / c)))
}

/// What holds whenever two accesses run: each loop around them has `last − lo ≥ 0`.
struct Facts(Vec<Poly>);

impl Facts {
    /// Whether `x ≥ 0`: its coefficients are, or those of `x` less one fact are.
    fn nonneg(&self, x: &Poly) -> bool {
        x.nonneg() || self.0.iter().any(|f| x.sub(f).is_some_and(|d| d.nonneg()))
    }

    /// Whether `hi`, over the loops `hb`, is always below `lo` over `lb`.
    fn below(&self, hi: &Poly, hb: &[Bounds], lo: &Poly, lb: &[Bounds]) -> bool {
        let (Some(max), Some(min)) = (hi.extreme(hb, false), lo.extreme(lb, true)) else {
            return false;
        };
        let gap = Poly::constant(1).and_then(|one| min.sub(&max)?.sub(&one));
        gap.is_some_and(|g| self.nonneg(&g))
    }

    /// Whether `r`, over the loops `bounds`, stays in `0..c`.
    fn within(&self, r: &Poly, bounds: &[Bounds], c: &Poly) -> bool {
        let (Some(min), Some(max)) = (r.extreme(bounds, true), r.extreme(bounds, false)) else {
            return false;
        };
        let room = Poly::constant(1).and_then(|one| c.sub(&max)?.sub(&one));
        self.nonneg(&min) && room.is_some_and(|r| self.nonneg(&r))
    }
}

/// The bounds of every loop in `around`, if all are polynomials.
fn all_bounds(around: &[Around]) -> Option<Vec<Bounds>> {
    around.iter().map(|a| a.bounds.clone()).collect()
}

/// Whether `p = Σ cₗ·iₗ + rest`, over the loops `loops` (the only indices it reads of theirs),
/// takes distinct values at distinct iterations: in some order of its terms, each coefficient
/// exceeds the greatest value the terms before it can add up to (`j * M + k` with `k` in
/// `0..M`: `M > 1 · (M − 1)`), as the digits of a number in a mixed radix.
fn injective(p: &Poly, loops: &[Bounds], facts: &Facts) -> bool {
    let mut terms = Vec::new();
    for b in loops {
        let Some((c, _)) = p.split(b.index) else { return false };
        // Each coefficient positive, each extent (`last − lo`) readable.
        let Some(extent) = b.last.sub(&b.lo) else { return false };
        if c.reads_any(loops) || extent.reads_any(loops) || !facts.nonneg(&c) {
            return false;
        }
        terms.push((c, extent));
    }
    if terms.len() > 4 {
        return false;
    }
    permutations(terms.len()).into_iter().any(|order| {
        let mut reach = Poly::default();
        order.iter().all(|k| {
            let (c, extent) = &terms[*k];
            // c ≥ reach + 1, then reach += c · extent.
            let ok = Poly::constant(1)
                .and_then(|one| c.sub(&reach)?.sub(&one))
                .is_some_and(|d| facts.nonneg(&d));
            match c.mul(extent).and_then(|s| reach.add(&s)) {
                Some(next) if ok => {
                    reach = next;
                    true
                }
                _ => false,
            }
        })
    })
}

/// Every order of `0..n`.
fn permutations(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for rest in permutations(n - 1) {
        for at in 0..=rest.len() {
            let mut p = rest.clone();
            p.insert(at, n - 1);
            out.push(p);
        }
    }
    out
}

/// The position, among `around`, of the innermost loop with index `l`.
fn innermost(around: &[Around], l: LoopId) -> Option<usize> {
    around.iter().rposition(|a| a.index == l)
}

/// The rewrite: loads dropped for their value, sums with zero dropped for their other term,
/// `0 - e` as `-e`.
struct Edit {
    map: HashMap<Var, Operand>,
    dropped: HashSet<Var>,
    negated: HashSet<Var>,
}

impl Edit {
    /// Decides the rewrite, in program order (so that what a sum reads is already mapped).
    fn plan(&mut self, block: &Block, zeroed: &HashMap<Var, Operand>) {
        for s in block {
            match s {
                Stmt::Load { out, .. } if zeroed.contains_key(out) => {
                    self.map.insert(*out, zeroed[out]);
                    self.dropped.insert(*out);
                }
                // Only the readers of a zeroed load: a sum with zero elsewhere may be the
                // primal's, which keeps its sign of zero.
                Stmt::Op { out, prim, args }
                    if args.iter().any(|a| a.var().is_some_and(|v| zeroed.contains_key(&v))) =>
                {
                    let args: Vec<Operand> =
                        args.iter().map(|a| substitute_operand(*a, &self.map)).collect();
                    let zero = |k: usize| args[k].lit() == Some(0.0);
                    let to = match prim {
                        Prim::Add if zero(0) => Some(args[1]),
                        Prim::Add | Prim::Sub if zero(1) => Some(args[0]),
                        Prim::Sub if zero(0) => {
                            self.negated.insert(*out);
                            None
                        }
                        _ => None,
                    };
                    if let Some(to) = to {
                        self.map.insert(*out, to);
                        self.dropped.insert(*out);
                    }
                }
                _ => each_block(s, &mut |b| self.plan(b, zeroed)),
            }
        }
    }

    /// `block` without the dropped statements, negations in place of `0 - e` (its operands are
    /// substituted afterwards).
    fn apply(&self, block: &Block) -> Block {
        let mut out = Vec::with_capacity(block.len());
        for s in block {
            let s = match s {
                Stmt::Op { out: v, .. } | Stmt::Load { out: v, .. } if self.dropped.contains(v) => {
                    continue;
                }
                Stmt::Op { out: v, args, .. } if self.negated.contains(v) => {
                    Stmt::Op { out: *v, prim: Prim::Neg, args: vec![args[1]] }
                }
                Stmt::For(l) => {
                    Stmt::For(Box::new(Loop { body: self.apply(&l.body), ..(**l).clone() }))
                }
                Stmt::While(w) => {
                    Stmt::While(Box::new(While { body: self.apply(&w.body), ..(**w).clone() }))
                }
                Stmt::If(b) => Stmt::If(Box::new(Branch {
                    then: self.apply(&b.then),
                    otherwise: self.apply(&b.otherwise),
                    ..(**b).clone()
                })),
                Stmt::Checkpoint(c) => Stmt::Checkpoint(Box::new(Checkpoint {
                    step: self.apply(&c.step),
                    back: self.apply(&c.back),
                    ..(**c).clone()
                })),
                other => other.clone(),
            };
            out.push(s);
        }
        out
    }
}
