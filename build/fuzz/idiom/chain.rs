//! The parts of a loop's chain: for `for i in lo..hi`, each read of an array that the loop does
//! not assign, at an index affine in `i` (`x[i + c]`, `x[2 * i + c]`, `x[N - 1 - i]`,
//! `m[i + c][j]`, `data[i + c]`), may come from a chain (`x.iter().skip(lo + c)`,
//! `.step_by(2)`, `x.iter().rev().skip(lo)`, `m.iter()` for rows, `x.windows(k)` for offsets
//! that fit in a window); the position `p` of an item is the loop's `i - lo`, so the item holds
//! exactly the elements the index loop read. `plan` zips them.

use std::collections::HashSet;

use super::super::ast::{Adaptor, Expr, Int, IntOp, Iter, Pat, Source, Stmt};
use super::reads::Read;
use super::walk::{assigned, declared, map_stmts};
use super::{Rewriter, Ty};

/// An index `a·i + c`, or `L - 1 - i`.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Affine {
    Fwd { a: i64, c: i64 },
    Rev,
}

/// A part of the chain.
#[derive(Clone)]
pub(super) enum Part {
    /// The elements (or rows) of `array` at `index`, which has the form `form`.
    Elems { array: String, index: Int, form: Affine },
    /// `array.windows(k)`: its `d`-th element is the read at offset `first + d`, the reads
    /// `indices` with their `d`.
    Windows { array: String, first: i64, k: usize, indices: Vec<(Int, usize)> },
}

/// A length: a symbol (`data.len()`, `steps`, a loop variable) plus a constant, or a constant.
pub(super) type Len = (Option<String>, i64);

/// `i + c`, folded.
pub(super) fn int_add(i: &Int, c: i64) -> Int {
    let lit = |n: i64| Int::Lit(n.max(0) as usize);
    match i {
        Int::Lit(n) => lit(*n as i64 + c),
        _ if c == 0 => i.clone(),
        Int::Bin(IntOp::Add, x, r) if matches!(**r, Int::Lit(_)) => {
            let Int::Lit(n) = **r else { return i.clone() };
            int_add(x, n as i64 + c)
        }
        Int::Bin(IntOp::Sub, x, r) if matches!(**r, Int::Lit(_)) => {
            let Int::Lit(n) = **r else { return i.clone() };
            int_add(x, c - n as i64)
        }
        _ if c > 0 => Int::Bin(IntOp::Add, Box::new(i.clone()), Box::new(lit(c))),
        _ => Int::Bin(IntOp::Sub, Box::new(i.clone()), Box::new(lit(-c))),
    }
}

pub(super) fn adapt(it: Iter, a: Adaptor) -> Iter {
    Iter::Adapt(Box::new(it), a)
}

impl Rewriter {
    /// The value of `i` if it is a constant.
    fn eval(&self, i: &Int) -> Option<i64> {
        match i {
            Int::Lit(n) => Some(*n as i64),
            Int::Var(v) => self.consts.get(v).map(|&n| n as i64),
            Int::Bin(op, l, r) => {
                let (l, r) = (self.eval(l)?, self.eval(r)?);
                match op {
                    IntOp::Add => Some(l + r),
                    IntOp::Sub => Some(l - r),
                    IntOp::Mul => Some(l * r),
                    IntOp::Rem => (r != 0).then(|| l % r),
                }
            }
            Int::Len(_) => None,
        }
    }

    /// `i` as a symbol plus a constant.
    pub(super) fn len_of(&self, i: &Int) -> Option<Len> {
        if let Some(n) = self.eval(i) {
            return Some((None, n));
        }
        match i {
            Int::Var(v) => Some((Some(v.clone()), 0)),
            Int::Len(d) => Some((Some(format!("{d}.len()")), 0)),
            Int::Bin(op @ (IntOp::Add | IntOp::Sub), l, r) => {
                let (s, c) = self.len_of(l)?;
                let n = self.eval(r)?;
                Some((s, if *op == IntOp::Add { c + n } else { c - n }))
            }
            _ => None,
        }
    }

    /// How `index` reads an array of length `len` (unknown for data) in terms of `var`.
    fn affine(&self, index: &Int, var: &str, len: Option<usize>) -> Option<Affine> {
        let is_var = |i: &Int| matches!(i, Int::Var(v) if v == var);
        let lit = |i: &Int| self.eval(i).filter(|_| matches!(i, Int::Lit(_)));
        match index {
            i if is_var(i) => Some(Affine::Fwd { a: 1, c: 0 }),
            Int::Bin(IntOp::Add, l, r) if is_var(l) => Some(Affine::Fwd { a: 1, c: lit(r)? }),
            Int::Bin(IntOp::Sub, l, r) if is_var(l) => Some(Affine::Fwd { a: 1, c: -lit(r)? }),
            Int::Bin(IntOp::Mul, l, r) if is_var(l) && lit(r) == Some(2) && len.is_some() => {
                Some(Affine::Fwd { a: 2, c: 0 })
            }
            Int::Bin(IntOp::Add, l, r) if len.is_some() => match &**l {
                Int::Bin(IntOp::Mul, v, two) if is_var(v) && lit(two) == Some(2) => {
                    Some(Affine::Fwd { a: 2, c: lit(r)? })
                }
                _ => None,
            },
            Int::Bin(IntOp::Sub, l, r) if is_var(r) => {
                let last = self.eval(l)?;
                (Some(last + 1) == len.map(|n| n as i64)).then_some(Affine::Rev)
            }
            _ => None,
        }
    }

    /// The form of an index of `array` in a loop over `var`, if a chain can give its elements.
    fn form_of(&self, array: &str, index: &Int, var: &str) -> Option<Affine> {
        match self.ty(array) {
            Some(Ty::Array { dims, .. }) if dims.len() <= 2 => {
                self.affine(index, var, Some(dims[0]))
            }
            Some(Ty::Data) => self.affine(index, var, None),
            _ => None,
        }
    }

    /// The reads of arrays and data in `body` that a chain may give (of arrays in scope that it
    /// does not assign): distinct, in order, with their form and whether they read rows.
    pub(super) fn candidates(
        &self,
        var: &str,
        body: &[Stmt],
        reads: &[Read],
    ) -> Vec<(String, Int, Affine, bool)> {
        let assigned: HashSet<String> = assigned(body).into_iter().collect();
        let mut inside = HashSet::new();
        declared(body, &mut inside);
        let mut found: Vec<(String, Int, Affine, bool)> = Vec::new();
        for r in reads {
            let Some(index) = &r.index else { continue };
            if assigned.contains(&r.array) || inside.contains(&r.array) {
                continue;
            }
            let Some(form) = self.form_of(&r.array, index, var) else { continue };
            if found.iter().any(|(a, i, ..)| *a == r.array && i == index) {
                continue;
            }
            let row = matches!(self.ty(&r.array), Some(Ty::Array { dims, .. }) if dims.len() == 2);
            found.push((r.array.clone(), index.clone(), form, row));
        }
        found
    }

    /// Whether the chain's item for `part` leaves the derivatives' bits as the index loop's
    /// (see `reads`): its first read unconditional, and no other read of its array (`reads`, in
    /// order) possibly the same element in an iteration.
    pub(super) fn keeps_bits(&self, part: &Part, var: &str, reads: &[Read]) -> bool {
        let Part::Elems { array, index, form } = part else { return true };
        if self.ty(array) == Some(&Ty::Data) || self.constants.contains(array) {
            return true;
        }
        let mine = |r: &&Read| r.array == *array && r.index.as_ref() == Some(index);
        if reads.iter().find(mine).is_none_or(|r| r.conditional) {
            return false;
        }
        reads.iter().filter(|r| r.array == *array && !mine(r)).all(|r| {
            let other = r.index.as_ref().and_then(|i| self.form_of(array, i, var));
            matches!((form, other), (Affine::Fwd { a, c }, Some(Affine::Fwd { a: b, c: d })) if *a == b && *c != d)
        })
    }

    /// Whether `windows(k)` of `array`, its first element at offset `first`, fits a loop from
    /// `lo` of `trips` iterations: every window it visits exists.
    fn window_fits(
        &self,
        array: &str,
        first: i64,
        k: usize,
        lo: &Int,
        trips: &Option<Len>,
    ) -> bool {
        let (Some(lo), Some((t_sym, t))) = (self.eval(lo), trips.clone()) else { return false };
        let (l_sym, l) = self.length(array);
        let start = lo + first;
        // The last window ends at `start + t - 1 + k - 1`, in the array (of length `l` plus the
        // symbol the trip count also has).
        start >= 0 && t_sym == l_sym && start + t + k as i64 - 1 <= l
    }

    /// The parts of a chain for `reads`: some of them, a run of consecutive offsets of one
    /// array sometimes as `windows`, and sometimes one offset as an element of a window.
    pub(super) fn parts(
        &mut self,
        reads: Vec<(String, Int, Affine, bool)>,
        lo: &Int,
        trips: &Option<Len>,
    ) -> Vec<Part> {
        let mut parts = Vec::new();
        let mut used = vec![false; reads.len()];
        for (k, (array, _, form, row)) in reads.iter().enumerate() {
            let Affine::Fwd { a: 1, c } = *form else { continue };
            if used[k] || *row || !self.rng.chance(40) {
                continue;
            }
            // The offsets `c, c + 1, ..` of the same array, up to three.
            let mut indices = Vec::new();
            for d in 0..3 {
                let at = reads.iter().position(|(b, _, f, _)| {
                    b == array && *f == Affine::Fwd { a: 1, c: c + d as i64 }
                });
                match at {
                    Some(at) if !used[at] => indices.push((at, d)),
                    _ => break,
                }
            }
            if indices.len() < 2 {
                continue;
            }
            indices.iter().for_each(|&(at, _)| used[at] = true);
            let k = indices.len();
            let indices = indices.into_iter().map(|(at, d)| (reads[at].1.clone(), d)).collect();
            parts.push(Part::Windows { array: array.clone(), first: c, k, indices });
        }
        for (k, (array, index, form, row)) in reads.into_iter().enumerate() {
            if used[k] || !self.rng.chance(75) {
                continue;
            }
            // `x[i + c]` as `w[1]` of `x.windows(2)` from `c - 1`, or `w[0]` from `c`.
            if let (Affine::Fwd { a: 1, c }, false, true) = (form, row, self.rng.chance(25)) {
                let first = c - self.rng.below(2) as i64;
                if self.window_fits(&array, first, 2, lo, trips) {
                    let d = (c - first) as usize;
                    parts.push(Part::Windows { array, first, k: 2, indices: vec![(index, d)] });
                    continue;
                }
            }
            parts.push(Part::Elems { array, index, form });
        }
        parts.truncate(4);
        parts
    }

    /// The length of an array or data.
    fn length(&self, array: &str) -> Len {
        match self.ty(array) {
            Some(Ty::Array { dims, .. }) => (None, dims[0] as i64),
            _ => (Some(format!("{array}.len()")), 0),
        }
    }

    /// How many items the chain of `part` gives in a loop from `lo`, if known.
    pub(super) fn part_len(&self, part: &Part, lo: &Int) -> Option<Len> {
        let (array, skip, step) = match part {
            Part::Elems { array, form: Affine::Fwd { a, c }, .. } => {
                let start = if *a == 2 { self.twice(lo) } else { lo.clone() };
                (array, int_add(&start, *c), *a == 2)
            }
            Part::Elems { array, form: Affine::Rev, .. } => (array, lo.clone(), false),
            Part::Windows { array, first, k, .. } => {
                let (s, n) = self.length(array);
                let start = self.eval(&int_add(lo, *first))?;
                return Some((s, n - *k as i64 + 1 - start));
            }
        };
        let (s, n) = self.length(array);
        let n = n - self.eval(&skip)?;
        match (step, s) {
            (false, s) => Some((s, n)),
            (true, None) => Some((None, (n + 1) / 2)),
            (true, Some(_)) => None,
        }
    }

    /// The chain of `part` for a loop from `lo` (`bare`: it may be `&x` or `x` itself, an
    /// argument of `zip`), the pattern of its items, which bind `name`, and its type.
    pub(super) fn part_chain(
        &mut self,
        part: &Part,
        lo: &Int,
        bare: bool,
        name: &str,
    ) -> (Iter, Pat, Ty) {
        let name = name.to_string();
        let (array, skip, step, rev) = match part {
            Part::Elems { array, form: Affine::Fwd { a, c }, .. } => {
                let start = if *a == 2 { self.twice(lo) } else { lo.clone() };
                (array, int_add(&start, *c), (*a == 2).then_some(2usize), false)
            }
            Part::Elems { array, form: Affine::Rev, .. } => (array, lo.clone(), None, true),
            Part::Windows { array, first, k, .. } => {
                let mut it = Iter::Source(array.clone(), Source::Windows(*k));
                let start = int_add(lo, *first);
                if start != Int::Lit(0) {
                    it = adapt(it, Adaptor::Skip(start));
                }
                return (it, Pat::Name(name), Ty::Other);
            }
        };
        let (owned, dims) = match self.ty(array) {
            Some(Ty::Array { owned, dims }) => (*owned, dims.clone()),
            _ => (false, Vec::new()),
        };
        let row = dims.len() == 2;
        let mut adaptors = Vec::new();
        if rev {
            adaptors.push(Adaptor::Rev);
        }
        if skip != Int::Lit(0) {
            adaptors.push(Adaptor::Skip(skip.clone()));
        }
        if let Some(s) = step {
            adaptors.push(Adaptor::StepBy(s));
        }
        // How the chain starts, and whether its items are values (else references).
        let mut choices = vec![(Source::Iter, None), (Source::Iter, Some(Adaptor::Copied))];
        choices.push((Source::Iter, Some(Adaptor::Cloned)));
        if owned && !(bare && adaptors.is_empty()) {
            choices.push((Source::IntoIter, None));
        }
        if bare && adaptors.is_empty() {
            choices.push((Source::Plain, None));
            if owned {
                choices.push((Source::Borrow, None));
            }
        }
        let (source, copy) = choices[self.rng.below(choices.len())].clone();
        let values =
            copy.is_some() || source == Source::IntoIter || (source == Source::Plain && owned);
        let mut it = Iter::Source(array.clone(), source);
        if let Some(c) = copy {
            it = adapt(it, c);
        }
        for a in adaptors {
            it = adapt(it, a);
        }
        let ty = match row {
            true => Ty::Array { dims: dims[1..].to_vec(), owned: true },
            false => Ty::Real,
        };
        let pat = match values {
            true => Pat::Name(name),
            false => Pat::Ref(Box::new(Pat::Name(name))),
        };
        (it, pat, ty)
    }

    /// `2 * i` as an index bound, folded.
    fn twice(&self, i: &Int) -> Int {
        match self.eval(i) {
            Some(n) => Int::Lit(2 * n as usize),
            None => Int::Bin(IntOp::Mul, Box::new(i.clone()), Box::new(Int::Lit(2))),
        }
    }

    /// The body with the reads that `parts` give replaced by the items' names.
    pub(super) fn substitute(body: &[Stmt], parts: &[Part], names: &[String]) -> Vec<Stmt> {
        let replace = |e: &Expr| -> Option<Expr> {
            let (array, index, rest) = match e {
                Expr::Elem(x, ix) => (x, &ix[0], &ix[1..]),
                Expr::Data(d, i) => (d, i, &[][..]),
                _ => return None,
            };
            for (part, name) in parts.iter().zip(names) {
                match part {
                    Part::Elems { array: a, index: i, .. } if a == array && i == index => {
                        return Some(match rest.is_empty() {
                            true => Expr::Var(name.clone()),
                            false => Expr::Elem(name.clone(), rest.to_vec()),
                        });
                    }
                    Part::Windows { array: a, indices, .. } if a == array => {
                        if let Some((_, d)) = indices.iter().find(|(i, _)| i == index) {
                            return Some(Expr::Elem(name.clone(), vec![Int::Lit(*d)]));
                        }
                    }
                    _ => {}
                }
            }
            None
        };
        map_stmts(body, &replace)
    }
}
