//! Integers: indices that stay in bounds, whatever the loop variables they read, and integer
//! conditions that are neither always true nor always false.

use super::super::ast::{Cmp, Cond, Int, IntOp, Size};
use super::{Gen, Kind};

/// The integer expression of a length.
pub(super) fn size_int(s: &Size) -> Int {
    match &s.name {
        Some(name) => Int::Var(name.clone()),
        None => Int::Lit(s.n),
    }
}

pub(super) fn ibin(op: IntOp, l: Int, r: Int) -> Int {
    Int::Bin(op, Box::new(l), Box::new(r))
}

impl Gen {
    /// The integer variables in scope: name, smallest and largest value.
    pub(super) fn ints(&self) -> Vec<(String, usize, Option<usize>)> {
        self.visible()
            .filter_map(|v| match v.kind {
                Kind::Int { lo, hi } => Some((v.name.clone(), lo, hi)),
                _ => None,
            })
            .collect()
    }

    /// An index into a dimension of length `len`, always in bounds.
    pub(super) fn index(&mut self, len: &Size) -> Int {
        let n = len.n;
        if n == 1 {
            return Int::Lit(0);
        }
        let ints = self.ints();
        for _ in 0..8 {
            let choice = self.rng.weighted(&[2, 8, 3, 2, 2, 1, 1, 1, 3]);
            if choice == 0 || ints.is_empty() {
                return Int::Lit(self.rng.below(n));
            }
            let (v, lo, hi) = ints[self.rng.below(ints.len())].clone();
            let var = Int::Var(v.clone());
            let fits = hi.is_some_and(|h| h < n);
            let index = match choice {
                1 if fits => var,
                2 => {
                    let c = self.rng.between(1, n - 1);
                    let shifted = match &len.name {
                        // `(i + N - k) % N`: the k-th previous element of a ring of named length.
                        Some(_) if self.rng.chance(50) => {
                            let ring = ibin(IntOp::Add, var, size_int(len));
                            ibin(IntOp::Sub, ring, Int::Lit(n - c))
                        }
                        _ => ibin(IntOp::Add, var, Int::Lit(c)),
                    };
                    ibin(IntOp::Rem, shifted, size_int(len))
                }
                3 if !fits => ibin(IntOp::Rem, var, size_int(len)),
                4 if fits => {
                    let last = match &len.name {
                        Some(_) => ibin(IntOp::Sub, size_int(len), Int::Lit(1)),
                        None => Int::Lit(n - 1),
                    };
                    ibin(IntOp::Sub, last, var)
                }
                5 if hi.is_some_and(|h| h + 1 < n) => {
                    let room = n - 1 - hi.unwrap_or(n);
                    ibin(IntOp::Add, var, Int::Lit(self.rng.between(1, room)))
                }
                6 if lo >= 1 && hi.is_some_and(|h| h - 1 < n) => {
                    ibin(IntOp::Sub, var, Int::Lit(self.rng.between(1, lo.min(2))))
                }
                // `i * 2 + c`: every other element, which `step_by(2)` visits.
                8 if hi.is_some_and(|h| 2 * h < n) => {
                    let twice = ibin(IntOp::Mul, var, Int::Lit(2));
                    let room = n - 1 - 2 * hi.unwrap_or(0);
                    match self.rng.below(room + 1) {
                        0 => twice,
                        c => ibin(IntOp::Add, twice, Int::Lit(c)),
                    }
                }
                7 if ints.len() > 1 => {
                    let (u, ..) = ints[self.rng.below(ints.len())].clone();
                    self.read(&u);
                    ibin(IntOp::Rem, ibin(IntOp::Add, var, Int::Var(u)), size_int(len))
                }
                _ => continue,
            };
            self.read(&v);
            return index;
        }
        Int::Lit(self.rng.below(n))
    }

    /// A comparison of integers that is true for some values of its variable, false for others.
    pub(super) fn int_cond(&mut self) -> Option<Cond> {
        let ints = self.ints();
        if ints.is_empty() {
            return None;
        }
        let (v, lo, hi) = ints[self.rng.below(ints.len())].clone();
        let var = Int::Var(v.clone());
        let cond = match self.rng.below(3) {
            // `i % 2 == 0` would be clippy's `manual_is_multiple_of`.
            0 => {
                let m = self.rng.between(2, 3);
                Cond::Int(Cmp::Eq, ibin(IntOp::Rem, var, Int::Lit(m)), Int::Lit(1))
            }
            1 if ints.len() > 1 => {
                let (u, ..) = ints[self.rng.below(ints.len())].clone();
                if u == v {
                    return None;
                }
                self.read(&u);
                Cond::Int(self.cmp(), var, Int::Var(u))
            }
            _ => {
                let top = hi.unwrap_or(4).max(lo + 1);
                let c = self.rng.between(lo.max(1), top);
                let op = [Cmp::Lt, Cmp::Le, Cmp::Gt, Cmp::Ge, Cmp::Eq, Cmp::Ne][self.rng.below(6)];
                Cond::Int(op, var, Int::Lit(c))
            }
        };
        self.read(&v);
        Some(cond)
    }
}
