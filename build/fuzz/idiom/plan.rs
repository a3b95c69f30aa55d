//! A loop's chain: its parts (`chain.rs`) zipped, to the right or the left, the loop's variable
//! from `enumerate()` (when the loop starts at 0) or a zipped range `lo..hi` when the body still
//! reads it, and the chain's length the loop's trip count: a part has exactly that many
//! elements, or `take` or a zipped range makes it so. A loop that reads no element a chain can
//! give iterates over its range (`(0..n).map(..)`, `(0..n).fold(..)`).

use super::super::ast::{Adaptor, Int, IntOp, Iter, Pat, Range, Stmt};
use super::super::print::{reads_int, reads_int_stmt};
use super::chain::{Part, adapt, int_add};
use super::reads::Reads;
use super::walk;
use super::{Rewriter, Ty};

/// A loop over a chain: the chain, the pattern of its items, the names the items bind, the
/// loop's body reading the items, and whether the chain is the loop's range alone.
pub(super) struct Plan {
    pub chain: Iter,
    pub item: Pat,
    pub bindings: Vec<(String, Ty)>,
    pub body: Vec<Stmt>,
    pub range_only: bool,
}

impl Rewriter {
    /// The loop's range as its chain: `(lo..hi)`, `(lo..=hi).rev()`.
    fn range_plan(var: &str, range: &Range, body: &[Stmt]) -> Plan {
        let index = body.iter().any(|s| reads_int_stmt(s, var));
        let mut chain = Iter::Range(range.lo.clone(), range.hi.clone(), range.inclusive);
        if range.rev {
            chain = adapt(chain, Adaptor::Rev);
        }
        let (item, bindings) = match index {
            true => (Pat::Name(var.to_string()), vec![(var.to_string(), Ty::Int)]),
            false => (Pat::Wild, Vec::new()),
        };
        Plan { chain, item, bindings, body: body.to_vec(), range_only: true }
    }

    /// A chain for the loop `for var in range { body }`, sometimes `None`.
    pub(super) fn plan(&mut self, var: &str, range: &Range, body: &[Stmt]) -> Option<Plan> {
        let lo = range.lo.clone();
        let end = if range.inclusive { int_add(&range.hi, 1) } else { range.hi.clone() };
        let mut walk = Reads { out: Vec::new() };
        walk.stmts(body, false);
        let reads = walk.out;
        let trips = match (self.len_of(&end), self.len_of(&lo)) {
            (Some((s, e)), Some((None, l))) => Some((s, e - l)),
            (Some((s, e)), Some((t, l))) if s == t => Some((None, e - l)),
            _ => None,
        };
        let candidates = self.candidates(var, body, &reads);
        let mut parts = self.parts(candidates, &lo, &trips);
        // Mostly, only the parts that keep the derivatives' bits; else the twin is compared to
        // rounding. In a loop over a ring (`x[(i + N - 1) % N]`), the macro splits the loop at
        // its wrap-around when its range is `0..N`: a chain's length (`y.len().min(N)`) hides
        // that, and the sweep then adds in another order.
        let ring = |i: &Int| matches!(i, Int::Bin(IntOp::Rem, l, r) if matches!(**r, Int::Var(_)) && reads_int(l, var));
        if !parts.is_empty() && walk::any_int(body, &ring) {
            match self.rng.chance(75) {
                true => parts.clear(),
                false => self.exact = false,
            }
        }
        if parts.iter().any(|p| !self.keeps_bits(p, var, &reads)) {
            match self.rng.chance(75) {
                true => parts.retain(|p| self.keeps_bits(p, var, &reads)),
                false => self.exact = false,
            }
        }
        if parts.is_empty() {
            return self.rng.chance(50).then(|| Self::range_plan(var, range, body));
        }
        // The parts in a random order.
        let shift = self.rng.below(parts.len());
        parts.rotate_left(shift);
        let exact = parts.iter().any(|p| trips.is_some() && self.part_len(p, &lo) == trips);
        let names: Vec<String> = parts
            .iter()
            .map(|p| match p {
                Part::Windows { .. } => self.fresh("w"),
                Part::Elems { array, .. } => match self.ty(array) {
                    Some(Ty::Array { dims, .. }) if dims.len() == 2 => self.fresh("row"),
                    _ => self.fresh("v"),
                },
            })
            .collect();
        let body = Self::substitute(body, &parts, &names);
        let index = body.iter().any(|s| reads_int_stmt(s, var));
        // The trip count: a part has it, or `take` gives it (when it is a constant, or the end
        // of a range from 0), or a range zipped in front (which may also give the variable).
        let take = match &trips {
            Some((None, t)) if !exact => Some(Int::Lit(*t as usize)),
            Some((Some(_), _)) if !exact && lo == Int::Lit(0) => Some(end.clone()),
            _ => None,
        };
        let counted = exact || take.is_some();
        let enumerate = index && counted && lo == Int::Lit(0) && self.rng.chance(65);
        let range_part = (index && !enumerate) || !counted;
        // Zipped to the right (`a.zip(b.zip(c))`) or the left; a part that is an argument of
        // `zip` may be `&x` or `x`.
        let right = !range_part && self.rng.chance(50);
        let mut pieces = Vec::new();
        let mut bindings = Vec::new();
        if range_part {
            let pat = if index { Pat::Name(var.to_string()) } else { Pat::Wild };
            pieces.push((Iter::Range(lo.clone(), end.clone(), false), pat));
            bindings.push((var.to_string(), Ty::Int));
        }
        let first = pieces.len();
        for (k, (part, name)) in parts.iter().zip(&names).enumerate() {
            let at = first + k;
            let receiver = at == 0 || (right && k + 1 < parts.len());
            let (it, pat, ty) = self.part_chain(part, &lo, !receiver, name);
            pieces.push((it, pat));
            bindings.push((name.clone(), ty));
        }
        let (mut chain, mut item) = zip(pieces, right);
        if let (Some(t), false) = (take, range_part) {
            chain = adapt(chain, Adaptor::Take(t));
        }
        if enumerate {
            chain = adapt(chain, Adaptor::Enumerate);
            item = Pat::Tuple(vec![Pat::Name(var.to_string()), item]);
            bindings.push((var.to_string(), Ty::Int));
        }
        if range.rev {
            chain = adapt(chain, Adaptor::Rev);
        }
        Some(Plan { chain, item, bindings, body, range_only: false })
    }
}

/// The pieces zipped, nested to the right (`a.zip(b.zip(c))`) or to the left.
fn zip(mut pieces: Vec<(Iter, Pat)>, right: bool) -> (Iter, Pat) {
    if right {
        let (mut it, mut pat) =
            pieces.pop().unwrap_or((Iter::Range(Int::Lit(0), Int::Lit(0), false), Pat::Wild));
        while let Some((prev, p)) = pieces.pop() {
            it = adapt(prev, Adaptor::Zip(Box::new(it)));
            pat = Pat::Tuple(vec![p, pat]);
        }
        return (it, pat);
    }
    let mut pieces = pieces.into_iter();
    let (mut it, mut pat) =
        pieces.next().unwrap_or((Iter::Range(Int::Lit(0), Int::Lit(0), false), Pat::Wild));
    for (next, p) in pieces {
        it = adapt(it, Adaptor::Zip(Box::new(next)));
        pat = Pat::Tuple(vec![pat, p]);
    }
    (it, pat)
}
