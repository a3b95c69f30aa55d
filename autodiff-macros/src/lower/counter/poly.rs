//! The closed forms of integer counters: polynomials with integer coefficients over atoms
//! (integer expressions the algebra does not look into: a loop variable, `N`, `data.len()`) and
//! triangular numbers `n (n − 1) / 2`, summed over the iterations of a loop, and written back so
//! that unsigned arithmetic never goes below zero on the way to a value that does not.
//!
//! What it does not know: powers of a loop variable beyond the first cannot be summed (a counter
//! advanced by `i * i` has no closed form here), and an atom that reads a loop variable without
//! being it (`(i + 1) % N`) cannot either.

use std::collections::BTreeMap;

/// An integer expression the algebra does not look into.
pub trait Atom: Clone + Ord {
    /// Whether this atom reads `var` (a loop variable) without being it: it then varies with
    /// `var` in a way the algebra cannot sum.
    fn reads(&self, var: &Self) -> bool;
}

/// A factor of a monomial.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Factor<A> {
    /// An atom, at least zero (integers here are `usize`).
    Atom(A),
    /// The triangular number `n (n − 1) / 2 = Σ_{t<n} t` of a polynomial `n`, at least zero.
    Tri(Box<Poly<A>>),
}

/// `Σ cₘ·m`: monomials `m` (sorted products of factors; the empty product is the constant
/// term) with their non-zero coefficients.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Poly<A> {
    terms: BTreeMap<Vec<Factor<A>>, i64>,
}

/// What is known of a loop variable inside its loop: `lo ≤ var ≤ hi`.
#[derive(Clone, Debug)]
pub struct Fact<A> {
    /// The loop variable.
    pub var: A,
    /// Its first value.
    pub lo: Poly<A>,
    /// Its last value.
    pub hi: Poly<A>,
}

impl<A: Atom> Poly<A> {
    /// `0`.
    pub fn zero() -> Self {
        Poly { terms: BTreeMap::new() }
    }

    /// The constant `c`.
    pub fn constant(c: i64) -> Self {
        let mut p = Poly::zero();
        if c != 0 {
            p.terms.insert(Vec::new(), c);
        }
        p
    }

    /// The atom `a`.
    pub fn atom(a: A) -> Self {
        Poly { terms: BTreeMap::from([(vec![Factor::Atom(a)], 1)]) }
    }

    /// `n (n − 1) / 2`, folded when `n` is a constant.
    pub fn tri(n: Poly<A>) -> Option<Self> {
        match n.as_constant() {
            Some(c) => Some(Poly::constant(c.checked_mul(c.checked_sub(1)?)? / 2)),
            None => Some(Poly { terms: BTreeMap::from([(vec![Factor::Tri(Box::new(n))], 1)]) }),
        }
    }

    /// The value, if it is a constant.
    pub fn as_constant(&self) -> Option<i64> {
        match self.terms.iter().next() {
            None => Some(0),
            Some((m, c)) if m.is_empty() && self.terms.len() == 1 => Some(*c),
            Some(_) => None,
        }
    }

    /// The atom this is, if it is exactly one.
    pub fn as_atom(&self) -> Option<&A> {
        match self.terms.iter().next() {
            Some((m, 1)) if self.terms.len() == 1 => match m.as_slice() {
                [Factor::Atom(a)] => Some(a),
                _ => None,
            },
            _ => None,
        }
    }

    fn add_term(&mut self, m: Vec<Factor<A>>, c: i64) -> Option<()> {
        let sum = self.terms.get(&m).copied().unwrap_or(0).checked_add(c)?;
        match sum {
            0 => self.terms.remove(&m),
            _ => self.terms.insert(m, sum),
        };
        Some(())
    }

    /// `self + other`.
    pub fn add(&self, other: &Self) -> Option<Self> {
        let mut out = self.clone();
        for (m, c) in &other.terms {
            out.add_term(m.clone(), *c)?;
        }
        Some(out)
    }

    /// `self − other`.
    pub fn sub(&self, other: &Self) -> Option<Self> {
        self.add(&other.scale(-1)?)
    }

    /// `c · self`.
    pub fn scale(&self, c: i64) -> Option<Self> {
        let mut out = Poly::zero();
        for (m, d) in &self.terms {
            out.add_term(m.clone(), d.checked_mul(c)?)?;
        }
        Some(out)
    }

    /// `self · other`.
    pub fn mul(&self, other: &Self) -> Option<Self> {
        let mut out = Poly::zero();
        for (m, c) in &self.terms {
            for (n, d) in &other.terms {
                let mut factors: Vec<Factor<A>> = m.iter().chain(n).cloned().collect();
                factors.sort();
                out.add_term(factors, c.checked_mul(*d)?)?;
            }
        }
        Some(out)
    }

    /// Whether the value varies with `var`.
    pub fn mentions(&self, var: &A) -> bool {
        self.terms.keys().flatten().any(|f| match f {
            Factor::Atom(a) => a == var || a.reads(var),
            Factor::Tri(n) => n.mentions(var),
        })
    }

    /// `(r, s)` with `self = r + var · s`, neither mentioning `var`; `None` if `self` is not of
    /// the first degree in `var`.
    pub fn split(&self, var: &A) -> Option<(Self, Self)> {
        let (mut r, mut s) = (Poly::zero(), Poly::zero());
        for (m, c) in &self.terms {
            let mut rest = Vec::new();
            let mut found = false;
            for f in m {
                match f {
                    Factor::Atom(a) if a == var && !found => found = true,
                    Factor::Atom(a) if a == var || a.reads(var) => return None,
                    Factor::Tri(n) if n.mentions(var) => return None,
                    other => rest.push(other.clone()),
                }
            }
            match found {
                true => s.add_term(rest, *c)?,
                false => r.add_term(rest, *c)?,
            }
        }
        Some((r, s))
    }

    /// `Σ_{t = from}^{to − 1} self(t)`, `self(t)` being `self` with `t` for `var`, for `from ≤ to`
    /// (which may read `var`: the iterations before the one at `var`); `None` when `self` is not
    /// of the first degree in `var`.
    pub fn sum_over(&self, var: &A, from: &Self, to: &Self) -> Option<Self> {
        let (r, s) = self.split(var)?;
        // Σ (r + t·s) = r·(to − from) + s·(Σ_{t<to} t − Σ_{t<from} t).
        let count = r.mul(&to.sub(from)?)?;
        if s.as_constant() == Some(0) {
            return Some(count);
        }
        let series = Poly::tri(to.clone())?.sub(&Poly::tri(from.clone())?)?;
        count.add(&s.mul(&series)?)
    }

    /// `self` with `var` replaced by `value`; `None` if `self` is not of the first degree in
    /// `var`.
    fn substitute(&self, var: &A, value: &Self) -> Option<Self> {
        let (r, s) = self.split(var)?;
        r.add(&s.mul(value)?)
    }

    /// Whether every coefficient is at least zero: then so is the value, every factor being.
    fn all_positive(&self) -> bool {
        self.terms.values().all(|c| *c >= 0)
    }
}

/// Whether `p ≥ 0` follows from `facts` (innermost loop last; its bounds may read the variables
/// of the loops around it): each loop variable is replaced by the bound that makes `p` smallest,
/// innermost first, until every coefficient is at least zero or a variable cannot be replaced.
pub fn nonneg<A: Atom>(p: &Poly<A>, facts: &[Fact<A>]) -> bool {
    let mut p = p.clone();
    for f in facts.iter().rev() {
        if !p.mentions(&f.var) {
            continue;
        }
        let Some((_, s)) = p.split(&f.var) else { return false };
        let bound = match s.as_constant() {
            Some(c) if c > 0 => &f.lo,
            Some(_) => &f.hi,
            None => return false,
        };
        match p.substitute(&f.var, bound) {
            Some(q) => p = q,
            None => return false,
        }
    }
    p.all_positive()
}

/// How to write an expression: the operations [`Poly::render`] composes.
pub trait Build<A> {
    /// An expression.
    type Out: Clone;
    /// The literal `n`.
    fn lit(&mut self, n: u64) -> Self::Out;
    /// The atom `a`.
    fn atom(&mut self, a: &A) -> Self::Out;
    /// `a + b`.
    fn add(&mut self, a: Self::Out, b: Self::Out) -> Self::Out;
    /// `a - b`.
    fn sub(&mut self, a: Self::Out, b: Self::Out) -> Self::Out;
    /// `a * b`.
    fn mul(&mut self, a: Self::Out, b: Self::Out) -> Self::Out;
    /// `a / 2`.
    fn half(&mut self, a: Self::Out) -> Self::Out;
    /// `a.saturating_sub(1)`.
    fn pred(&mut self, a: Self::Out) -> Self::Out;
    /// Whether `n ≥ 1` is known (then `n - 1` is written as is).
    fn at_least_one(&self, n: &Poly<A>) -> bool;
}

impl<A: Atom> Poly<A> {
    /// The expression, the terms added first and subtracted last, so that no partial result is
    /// below the final one, which is at least zero: unsigned arithmetic cannot underflow.
    pub fn render<B: Build<A>>(&self, b: &mut B) -> B::Out {
        let (mut plus, mut minus) = (Vec::new(), Vec::new());
        // Constants last among the added terms and among the subtracted ones: `i + 1`, `n - 1`.
        let ordered = self.terms.iter().filter(|(m, _)| !m.is_empty());
        for (m, c) in ordered.chain(self.terms.iter().filter(|(m, _)| m.is_empty())) {
            let out = self.monomial(b, m, c.unsigned_abs());
            if *c > 0 { plus.push(out) } else { minus.push(out) }
        }
        let mut acc = match plus.is_empty() {
            true => b.lit(0),
            false => plus.remove(0),
        };
        for p in plus {
            acc = b.add(acc, p);
        }
        for m in minus {
            acc = b.sub(acc, m);
        }
        acc
    }

    /// `c · Π factors`: `c * a * b`, a triangular number as `n * (n - 1) / 2` (exact, the
    /// product of two consecutive integers being even, whatever multiplies it first).
    fn monomial<B: Build<A>>(&self, b: &mut B, m: &[Factor<A>], c: u64) -> B::Out {
        let mut acc = (c != 1 || m.is_empty()).then(|| b.lit(c));
        for f in m {
            let next = match f {
                Factor::Atom(a) => {
                    let x = b.atom(a);
                    match acc {
                        Some(p) => b.mul(p, x),
                        None => x,
                    }
                }
                Factor::Tri(n) => {
                    let x = n.render(b);
                    let before = match n.sub(&Poly::constant(1)) {
                        Some(p) if b.at_least_one(n) => p.render(b),
                        _ => b.pred(x.clone()),
                    };
                    let first = match acc {
                        Some(p) => b.mul(p, x),
                        None => x,
                    };
                    let product = b.mul(first, before);
                    b.half(product)
                }
            };
            acc = Some(next);
        }
        acc.unwrap_or_else(|| b.lit(c))
    }
}
