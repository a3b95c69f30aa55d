//! Integer expressions as polynomials in names and loop indices (`j * M + k`, `N * M + j`,
//! `i * N + j + 1`), and the two facts about them that a transform can prove: that one is never
//! negative, and, over the ranges of the loops whose indices it reads, its least and greatest
//! values.
//!
//! Every name (a `const`, a const generic, an integer parameter) and every loop index is a
//! `usize`, so never negative: a polynomial whose coefficients are all at least zero is at least
//! zero. That is all the proofs use; a polynomial they cannot decide is simply not proved.

use std::collections::BTreeMap;

use super::LoopId;

/// A factor of a monomial: a name or a loop index, both `usize`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Atom {
    /// A loop's index.
    Index(LoopId),
    /// A `const` item, a const generic or an integer parameter.
    Name(String),
}

/// The most terms, and the highest degree, a polynomial keeps: integer expressions in indices
/// are small, and beyond these the macro stops reading them (a bound on its own work).
const MAX_TERMS: usize = 16;
const MAX_DEGREE: usize = 4;

/// `Σ c·m`: integer coefficients of monomials (sorted products of atoms; the empty one is the
/// constant term). Two expressions with equal polynomials have equal values.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Poly {
    terms: BTreeMap<Vec<Atom>, i64>,
}

/// A loop index's range as polynomials: `lo ≤ i ≤ last` when the loop runs (`last` is `hi − 1`
/// for an exclusive end).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// The loop.
    pub index: LoopId,
    /// Its first index.
    pub lo: Poly,
    /// Its last index.
    pub last: Poly,
}

impl Poly {
    /// The constant `c`.
    pub fn constant(c: u64) -> Option<Poly> {
        let c = i64::try_from(c).ok()?;
        let mut terms = BTreeMap::new();
        if c != 0 {
            terms.insert(Vec::new(), c);
        }
        Some(Poly { terms })
    }

    /// The name `n`.
    pub fn name(n: String) -> Poly {
        Poly { terms: BTreeMap::from([(vec![Atom::Name(n)], 1)]) }
    }

    /// The index of loop `l`.
    pub fn index(l: LoopId) -> Poly {
        Poly { terms: BTreeMap::from([(vec![Atom::Index(l)], 1)]) }
    }

    fn bounded(self) -> Option<Poly> {
        (self.terms.len() <= MAX_TERMS).then_some(self)
    }

    /// `self + k · other`.
    fn add_scaled(&self, other: &Poly, k: i64) -> Option<Poly> {
        let mut terms = self.terms.clone();
        for (m, c) in &other.terms {
            let sum = terms.get(m).copied().unwrap_or(0).checked_add(c.checked_mul(k)?)?;
            match sum {
                0 => terms.remove(m),
                _ => terms.insert(m.clone(), sum),
            };
        }
        Poly { terms }.bounded()
    }

    /// `self + other`.
    pub fn add(&self, other: &Poly) -> Option<Poly> {
        self.add_scaled(other, 1)
    }

    /// `self − other`.
    pub fn sub(&self, other: &Poly) -> Option<Poly> {
        self.add_scaled(other, -1)
    }

    /// `self · other`.
    pub fn mul(&self, other: &Poly) -> Option<Poly> {
        let mut out = Poly::default();
        for (m, c) in &other.terms {
            let mut scaled = BTreeMap::new();
            for (n, d) in &self.terms {
                let mut product: Vec<Atom> = n.iter().chain(m).cloned().collect();
                if product.len() > MAX_DEGREE {
                    return None;
                }
                product.sort();
                scaled.insert(product, d.checked_mul(*c)?);
            }
            out = out.add(&Poly { terms: scaled })?;
        }
        Some(out)
    }

    /// `self` with the index of loop `from` read as that of loop `to`.
    pub fn relabel(&self, from: LoopId, to: LoopId) -> Poly {
        let swap = |a: &Atom| match a {
            Atom::Index(l) if *l == from => Atom::Index(to),
            other => other.clone(),
        };
        let mut terms = BTreeMap::new();
        for (m, c) in &self.terms {
            let mut m: Vec<Atom> = m.iter().map(swap).collect();
            m.sort();
            *terms.entry(m).or_insert(0) += c;
        }
        terms.retain(|_, c| *c != 0);
        Poly { terms }
    }

    /// Whether it reads the index of `l`.
    pub fn reads(&self, l: LoopId) -> bool {
        self.terms.keys().any(|m| m.contains(&Atom::Index(l)))
    }

    /// Whether it reads the index of any of `loops`.
    pub fn reads_any(&self, loops: &[Bounds]) -> bool {
        loops.iter().any(|b| self.reads(b.index))
    }

    /// `self` as `c · i + rest`, for the index `i` of `l`: `(c, rest)`, with neither reading
    /// `i`; `None` when a monomial has `i` more than once.
    pub fn split(&self, l: LoopId) -> Option<(Poly, Poly)> {
        let (mut coefficient, mut rest) = (Poly::default(), Poly::default());
        for (m, c) in &self.terms {
            let at = Atom::Index(l);
            match m.iter().filter(|a| **a == at).count() {
                0 => {
                    rest.terms.insert(m.clone(), *c);
                }
                1 => {
                    let others: Vec<Atom> = m.iter().filter(|a| **a != at).cloned().collect();
                    coefficient.terms.insert(others, *c);
                }
                _ => return None,
            }
        }
        Some((coefficient, rest))
    }

    /// Its value, when it reads no atom.
    pub fn as_constant(&self) -> Option<i64> {
        match self.terms.len() {
            0 => Some(0),
            1 => self.terms.get(&Vec::new()).copied(),
            _ => None,
        }
    }

    /// Whether it is at least zero for every value of its atoms: every coefficient is.
    pub fn nonneg(&self) -> bool {
        self.terms.values().all(|c| *c >= 0)
    }

    /// Whether it is at most zero for every value of its atoms.
    pub fn nonpos(&self) -> bool {
        self.terms.values().all(|c| *c <= 0)
    }

    /// Its least value (`least`) or greatest over the ranges of `loops`, innermost last, as a
    /// polynomial in what remains: each index, from the innermost loop out, replaced by the end
    /// of its range that its coefficient's sign picks (the bounds of an inner loop may read an
    /// outer index, replaced after it). `None` when a sign is not known.
    pub fn extreme(&self, loops: &[Bounds], least: bool) -> Option<Poly> {
        let mut p = self.clone();
        for b in loops.iter().rev() {
            let (c, rest) = p.split(b.index)?;
            if c.terms.is_empty() {
                continue;
            }
            let low = if c.nonneg() {
                least
            } else if c.nonpos() {
                !least
            } else {
                return None;
            };
            let end = if low { &b.lo } else { &b.last };
            p = rest.add(&c.mul(end)?)?;
        }
        Some(p)
    }
}
