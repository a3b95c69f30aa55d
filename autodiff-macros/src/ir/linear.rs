//! Integer expressions as linear forms, `i + Σ cₙ·n + c`, and the wrap-around index
//! `(i + m − k) % m` of a loop over a ring that they let a transform recognise.

use std::collections::BTreeMap;

use super::LoopId;

/// An integer expression as `[i +] Σ cₙ·n + c`: at most one loop index (with coefficient 1),
/// names (`const` items, const generics, integer parameters) with their coefficients, and a
/// constant. Two expressions with equal forms have equal values.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Linear {
    /// The loop index added, if any.
    pub index: Option<LoopId>,
    /// The coefficient of each name (never zero).
    pub names: BTreeMap<String, i64>,
    /// The constant term.
    pub constant: i64,
}

impl Linear {
    /// The constant `c`.
    pub fn constant(c: u64) -> Option<Self> {
        Some(Linear { constant: i64::try_from(c).ok()?, ..Linear::default() })
    }

    /// The name `n`.
    pub fn name(n: String) -> Self {
        Linear { names: BTreeMap::from([(n, 1)]), ..Linear::default() }
    }

    /// The index of loop `l`.
    pub fn index(l: LoopId) -> Self {
        Linear { index: Some(l), ..Linear::default() }
    }

    /// `self + other`; `None` when both read a loop index (or a coefficient overflows).
    pub fn add(&self, other: &Linear) -> Option<Linear> {
        let index = match (self.index, other.index) {
            (Some(_), Some(_)) => return None,
            (a, b) => a.or(b),
        };
        let mut names = self.names.clone();
        for (n, c) in &other.names {
            let sum = names.get(n).copied().unwrap_or(0).checked_add(*c)?;
            match sum {
                0 => names.remove(n),
                _ => names.insert(n.clone(), sum),
            };
        }
        Some(Linear { index, names, constant: self.constant.checked_add(other.constant)? })
    }

    /// `self − other`; `None` when `other` reads a loop index.
    pub fn sub(&self, other: &Linear) -> Option<Linear> {
        if other.index.is_some() {
            return None;
        }
        let mut names = BTreeMap::new();
        for (n, c) in &other.names {
            names.insert(n.clone(), c.checked_neg()?);
        }
        self.add(&Linear { index: None, names, constant: other.constant.checked_neg()? })
    }

    /// `self` with the index of loop `from` read as that of loop `to`.
    pub fn relabel(&self, from: LoopId, to: LoopId) -> Linear {
        let index = self.index.map(|l| if l == from { to } else { l });
        Linear { index, ..self.clone() }
    }
}

/// An index `(i + m − k) % m` of loop `i`: over `0..m` it wraps around in the first `k`
/// iterations (where it is `i + m − k`), and is `i − k` from `i = k` on. `(i + N − 1) % N`, the
/// previous element on a ring, has `k = 1`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wrap {
    /// The loop `i`.
    pub index: LoopId,
    /// `k`, at least 1.
    pub back: u64,
    /// `m`, which reads no loop index.
    pub modulus: Linear,
}

impl Wrap {
    /// `dividend % modulus` as a wrap-around index, if it is one.
    pub fn of(dividend: &Linear, modulus: &Linear) -> Option<Wrap> {
        let index = dividend.index?;
        if modulus.index.is_some() || dividend.names != modulus.names {
            return None;
        }
        let back = u64::try_from(modulus.constant.checked_sub(dividend.constant)?).ok()?;
        (back >= 1).then(|| Wrap { index, back, modulus: modulus.clone() })
    }
}
