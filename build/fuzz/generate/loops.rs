//! `for` loops: over literal or `const` ranges, `..=`, `.rev()`, nested and triangular, each
//! body updating state declared outside; and reductions, over `data.len()`, a range whose end
//! moves with an outer loop (where the macro accepts only `acc += e` with `e` not reading `acc`),
//! or a ring `0..N`.

use super::super::ast::{Assign, Expr, Int, IntOp, Op, Place, Range, Size, Stmt};
use super::int::{ibin as bin_int, size_int};
use super::tree::bin;
use super::{Gen, Kind};

/// The most iterations of the loops around one statement.
pub(super) const MAX_TRIPS: usize = 64;
/// The largest value of a `steps: usize` parameter (`tests/fuzz/check.rs` draws it).
pub(super) const MAX_STEPS: usize = 4;

impl Gen {
    /// The range of a new loop, its variable's smallest and largest values, its largest trip
    /// count, and whether its end moves with an outer loop (the macro then stores nothing for
    /// it, so its body must be a reduction); `None` when the loops around leave no room.
    pub(super) fn range(&mut self) -> Option<(Range, usize, usize, usize, bool)> {
        let room = (MAX_TRIPS / self.trips).min(8);
        if room < 2 {
            return None;
        }
        let sizes: Vec<Size> = self
            .visible()
            .filter_map(|v| match &v.kind {
                Kind::Array(d) => Some(d.clone()),
                _ => None,
            })
            .flatten()
            .filter(|s| s.n >= 2 && s.n <= room)
            .collect();
        let outer: Vec<(String, usize, usize)> = self
            .ints()
            .into_iter()
            .filter(|(v, ..)| !self.visible().any(|x| x.name == *v && x.int_let))
            .filter_map(|(v, lo, hi)| hi.map(|h| (v, lo, h)))
            .collect();
        let rev = self.rng.chance(25);
        let lit = Int::Lit;
        let range = |lo, hi, inclusive| Range { lo, hi, inclusive, rev };
        let (range, lo, hi, moves) =
            match self.rng.weighted(&[5, 3, 2, if outer.is_empty() { 0 } else { 4 }]) {
                0 if !sizes.is_empty() => {
                    let s = sizes[self.rng.below(sizes.len())].clone();
                    (range(lit(0), size_int(&s), false), 0, s.n - 1, false)
                }
                0 | 1 => {
                    let lo = self.rng.below(3);
                    let n = self.rng.between(1, room);
                    (range(lit(lo), lit(lo + n), false), lo, lo + n - 1, false)
                }
                2 => {
                    let lo = self.rng.below(2);
                    let n = self.rng.between(1, room);
                    (range(lit(lo), lit(lo + n - 1), true), lo, lo + n - 1, false)
                }
                _ => {
                    let (v, vlo, vhi) = outer[self.rng.below(outer.len())].clone();
                    let var = Int::Var(v.clone());
                    let n = self.rng.between(vhi + 1, vhi + room.min(5));
                    let r = match self.rng.below(4) {
                        0 if vlo + 2 <= n => {
                            let start = Int::Bin(IntOp::Add, Box::new(var), Box::new(lit(1)));
                            (range(start, lit(n), false), vlo + 1, n - 1, false)
                        }
                        1 if vlo < n => (range(var, lit(n), false), vlo, n - 1, false),
                        2 if vhi >= 1 && vhi <= room => {
                            (range(lit(0), var, false), 0, vhi - 1, true)
                        }
                        _ if vhi < room => (range(lit(0), var, true), 0, vhi, true),
                        _ => return None,
                    };
                    self.read(&v);
                    r
                }
            };
        let trips = hi + 1 - lo;
        (trips <= room).then_some((range, lo, hi, trips, moves))
    }

    /// Runs `body` in a new scope inside a loop of `trips` iterations over `var`.
    pub(super) fn in_loop(
        &mut self,
        var: &str,
        lo: usize,
        hi: Option<usize>,
        trips: usize,
        stmts: usize,
    ) -> Vec<Stmt> {
        let mut body = Vec::new();
        self.scopes.push(Vec::new());
        self.declare(var, Kind::Int { lo, hi }, false);
        self.read(var);
        self.loops += 1;
        self.trips *= trips;
        match self.guard(var, hi) {
            Some(cond) => self.guarded(cond, &mut body, stmts),
            None => self.loop_stmts(&mut body, stmts),
        }
        self.close_scope(&mut body);
        self.loops -= 1;
        self.trips /= trips;
        body
    }

    /// A loop's statements: a carried update, then up to `stmts - 1` more.
    pub(super) fn loop_stmts(&mut self, body: &mut Vec<Stmt>, stmts: usize) {
        self.carried_update(body);
        for _ in 1..stmts {
            if self.budget <= 0 {
                break;
            }
            self.stmt(body, false);
        }
    }

    /// An update of a variable declared outside the innermost scope, so that a loop carries
    /// state.
    pub(super) fn carried_update(&mut self, out: &mut Vec<Stmt>) {
        if self.reduction.is_some() {
            return self.reduce(out);
        }
        let arrays = self.targets(true).into_iter().any(|(_, _, outside)| outside);
        if arrays && self.rng.chance(40) {
            self.assign_elem(out);
        } else {
            self.assign_real(out);
        }
    }

    pub(super) fn for_loop(&mut self, out: &mut Vec<Stmt>) {
        let Some((range, lo, hi, trips, moves)) = self.range() else {
            return self.assign_real(out);
        };
        // A loop over a ring (`0..N`, with `N` an array's length) is made a reduction often,
        // so that indices `(i + N - k) % N` in it meet the macro's split at the wrap-around.
        let ring = range.lo == Int::Lit(0) && matches!(range.hi, Int::Var(_)) && !range.inclusive;
        if moves || (ring && !range.rev && self.rng.chance(40)) {
            return self.reduction_loop(out, range, lo, Some(hi), trips);
        }
        let var = ["i", "j", "k", "l"][self.loops].to_string();
        let stmts = self.rng.between(1, 4);
        let body = self.in_loop(&var, lo, Some(hi), trips, stmts);
        out.push(Stmt::For(var, range, body));
    }

    /// `for i in 0..steps { .. }`: a trip count known only at run time, which the macro
    /// checkpoints.
    pub(super) fn steps_loop(&mut self, out: &mut Vec<Stmt>) {
        if self.loops >= 3 || self.trips * MAX_STEPS > MAX_TRIPS {
            return self.assign_real(out);
        }
        self.read("steps");
        let var = ["i", "j", "k", "l"][self.loops].to_string();
        let stmts = self.rng.between(1, 4);
        let body = self.in_loop(&var, 0, Some(MAX_STEPS - 1), MAX_STEPS, stmts);
        let hi = Int::Var("steps".into());
        let range = Range { lo: Int::Lit(0), hi, inclusive: false, rev: self.rng.chance(20) };
        out.push(Stmt::For(var, range, body));
    }

    /// `for i in 0..data.len() { acc += ...; }`: a reduction, which is all the macro accepts
    /// over a length known only at run time.
    pub(super) fn data_loop(&mut self, out: &mut Vec<Stmt>) {
        let Some(data) = self.visible().find(|v| v.kind == Kind::Data).map(|v| v.name.clone())
        else {
            return self.assign_real(out);
        };
        // From 1 sometimes, reading `data[i - 1]` and `data[i]`: the pairs `data.windows(2)` gives.
        let lo = usize::from(self.rng.chance(25));
        let range = Range {
            lo: Int::Lit(lo),
            hi: Int::Len(data),
            inclusive: false,
            rev: self.rng.chance(20),
        };
        self.reduction_loop(out, range, lo, None, 1);
    }

    /// A loop whose body only adds to accumulators declared outside (new or existing ones) and
    /// reads none of them.
    pub(super) fn reduction_loop(
        &mut self,
        out: &mut Vec<Stmt>,
        range: Range,
        lo: usize,
        hi: Option<usize>,
        trips: usize,
    ) {
        let mut accs: Vec<String> = self.targets(false).into_iter().map(|(n, ..)| n).collect();
        if accs.is_empty() || self.rng.chance(50) {
            let acc = self.fresh("s");
            // `-0.0` sometimes: where `sum` starts, so that the iterator form may sum.
            let zero = match self.rng.chance(50) {
                true => Expr::Neg(Box::new(Expr::Lit(0.0))),
                false => Expr::Lit(0.0),
            };
            out.push(Stmt::Let(acc.clone(), Some(vec![]), zero));
            self.declare(&acc, Kind::Real, true);
            accs = vec![acc];
        } else {
            let keep = self.rng.between(1, accs.len().min(2));
            let start = self.rng.below(accs.len() + 1 - keep);
            accs = accs[start..start + keep].to_vec();
        }
        let var = ["i", "j", "k", "l"][self.loops].to_string();
        let outer = self.reduction.replace(accs.clone());
        let ring = match (&range.lo, &range.hi) {
            (Int::Lit(0), Int::Var(n)) if !range.inclusive => {
                let size = self.consts.iter().find(|(c, _)| c == n).map(|(_, v)| *v);
                size.map(|v| (var.clone(), Size { n: v, name: Some(n.clone()) }))
            }
            _ => None,
        };
        let outer_ring = std::mem::replace(&mut self.ring, ring);
        let stmts = self.rng.between(1, 3);
        let body = self.in_loop(&var, lo, hi, trips, stmts);
        self.ring = outer_ring;
        self.reduction = outer;
        for a in &accs {
            self.wrote(a);
        }
        out.push(Stmt::For(var, range, body));
    }

    /// A statement of a reduction: a `let` read only inside, or `acc += e` / `acc -= e`.
    pub(super) fn reduce(&mut self, out: &mut Vec<Stmt>) {
        if self.rng.chance(30) {
            return self.let_real(out);
        }
        let accs = self.reduction.clone().unwrap_or_default();
        let acc = accs[self.rng.below(accs.len())].clone();
        let op = if self.rng.chance(75) { Assign::Add } else { Assign::Sub };
        let data =
            self.visible().find(|v| v.kind == Kind::Data).map(|v| (v.name.clone(), v.pending));
        let index =
            self.ints().into_iter().find(|(_, _, hi)| hi.is_none()).map(|(i, lo, _)| (i, lo));
        // The ring read is drawn first (so that the draws stay as they were) and recorded as
        // read only where it is used: a read recorded and dropped left a `let` unread.
        let rhs = match (data, index, self.ring_read()) {
            (Some((d, pending)), Some((i, lo)), _) if pending || self.rng.chance(40) => {
                let read = self.data_read(&d, &i, lo);
                bin(Op::Mul, read, self.expr(1))
            }
            (.., Some((ring, read))) if self.rng.chance(60) => {
                read.iter().for_each(|n| self.read(n));
                bin(Op::Mul, self.expr(1), ring)
            }
            _ => self.expr(2),
        };
        self.flows(&acc, &rhs);
        out.push(Stmt::Assign(Place::Var(acc), op, rhs));
    }

    /// In a reduction over a ring `0..N`: `x[(i + N - k) % N]`, the `k`-th previous element
    /// of a differentiated array of length `N` (`k` from 1 to 4, at most `N`: the rest of the
    /// split loop may be empty), if there is one, with the names it reads (`x` and `i`), for
    /// the caller to record as read if it uses it.
    fn ring_read(&mut self) -> Option<(Expr, [String; 2])> {
        let (i, size) = self.ring.clone()?;
        let arrays: Vec<String> = self
            .visible()
            .filter(|v| v.active && self.readable(&v.name) && !v.int_let)
            .filter(|v| matches!(&v.kind, Kind::Array(d) if d.len() == 1 && d[0] == size))
            .map(|v| v.name.clone())
            .collect();
        if arrays.is_empty() || size.n < 2 {
            return None;
        }
        let x = arrays[self.rng.below(arrays.len())].clone();
        let k = self.rng.between(1, 4.min(size.n));
        let ring = bin_int(IntOp::Add, Int::Var(i.clone()), size_int(&size));
        let back = bin_int(IntOp::Sub, ring, Int::Lit(k));
        let read = [x.clone(), i];
        Some((Expr::Elem(x, vec![bin_int(IntOp::Rem, back, size_int(&size))]), read))
    }
}
