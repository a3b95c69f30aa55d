//! Loop fission: a loop that carries a scalar sum and, independently of it, updates an array
//! (`s += a[i] * b[j]; ḡ[j] += a[i] * c;`, the sweep of a matrix-vector product) becomes two
//! loops over the same range, the sum first, then the array's updates. The carried sum keeps
//! the combined loop scalar; on its own, the array's loop has no carried scalar and vectorises.
//! Every value is computed by the same operations in the same order (the two parts share no
//! carried value, and what both read, each computes): to the bit.
//!
//! What it buys was measured on ADBench's GMM at d = 64 (BENCHMARKS.md, "GMM at d = 64 on the
//! Intel Xeon: subnormal numbers"): there the sweep's seeds underflow, and an Intel core takes a
//! microcode assist for each instruction with a subnormal operand; a vector instruction takes one
//! for two lanes. With normal numbers the split loops cost as much as the one or somewhat more
//! (1.03 × in one timing of the loop alone, 1.08–1.20 × in an earlier one).
//!
//! A split pays only for long loops: at a few iterations, two loops cost their start-up twice
//! where LLVM unrolled the one. So the split loops run when the trip count is at least
//! [`SPLIT_AT`], and the loop as it was otherwise, behind a test of the range (`hi >= lo + 16`)
//! that rustc folds when the bounds are constants; the macro decides alone when it knows both.
//!
//! Applied to loops with no loops, branches or calls inside, whose carried values fall into
//! independent groups (no statement reads two), where the groups of carried `f64` sums
//! ([`super::additive()`]) go first, and the rest, all arrays that the loop adds into
//! (`ḡ[j] += e`), second; and only where what both parts need is loads (`ā[i]` above), which
//! each part does again: a computation (an `exp`, a product) both need is not made twice, and
//! such a loop stays whole. A plain store (`y[i] = e`) waits on no load: not split for.
//! Run last, on the gradient as it is emitted, for the variants of `f_grad` only.

use std::collections::{HashMap, HashSet};

use super::additive::additive;
use super::loops::replace_loops;
use super::wrap::copy_loop;
use crate::ir::{Block, Branch, Cmp, Cond, Func, Loop, Name, Operand, Stmt, Ty, Var, reads};

/// The least trip count at which the split loops run. The sweep of ADBench's GMM (a triangular
/// loop of `D - c - 1` iterations, `D` up to 64) measured: BENCHMARKS.md, "GMM on the Intel Xeon
/// machine" (at d = 10, rows of at most 9, always splitting cost 2 to 6 times the one loop).
pub const SPLIT_AT: u64 = 16;

/// `f` with every loop that carries a sum and an independent array update split in two.
pub fn fission(f: &Func) -> Func {
    replace_loops(f, &mut |f, l| match parts(f, &l) {
        Some((sums, rest)) => split(f, l, &sums, &rest),
        None => vec![Stmt::For(Box::new(l))],
    })
}

/// The carried values of `l` in two independent parts, the sums and the rest (by position,
/// each in order), when the loop splits.
fn parts(f: &Func, l: &Loop) -> Option<(Vec<usize>, Vec<usize>)> {
    let simple = l.body.iter().all(|s| {
        matches!(s, Stmt::Op { .. } | Stmt::Load { .. } | Stmt::Store { .. } | Stmt::Test { .. })
    });
    if !simple || l.carried.len() < 2 {
        return None;
    }
    let n = l.carried.len();
    let params: HashMap<Var, usize> =
        l.carried.iter().enumerate().map(|(k, c)| (c.param, k)).collect();
    let slices: Vec<(HashSet<usize>, HashSet<usize>)> =
        (0..n).map(|k| slice(&l.body, l.yields[k], &params)).collect();
    // Union the carried values that one's slice reads from another.
    let mut group: Vec<usize> = (0..n).collect();
    for (k, (_, deps)) in slices.iter().enumerate() {
        for &j in deps {
            let (a, b) = (root(&group, k), root(&group, j));
            group[a] = b;
        }
    }
    let sum = |k: usize| *f.ty(l.carried[k].param) == Ty::F64 && additive(l, k);
    let sums_only = |g: usize| (0..n).filter(|&k| root(&group, k) == g).all(sum);
    let (sums, rest): (Vec<usize>, Vec<usize>) = (0..n).partition(|&k| sums_only(root(&group, k)));
    // The rest adds into arrays (`ḡ[j] += …`), each element read, then written.
    let updates = |k: usize| matches!(f.ty(l.carried[k].param), Ty::Array(_)) && additive(l, k);
    let union = |ks: &[usize]| -> HashSet<usize> {
        ks.iter().flat_map(|&k| slices[k].0.iter().copied()).collect()
    };
    let (first, second) = (union(&sums), union(&rest));
    // What both parts need, each computes: only loads, which cost no more twice.
    let shared_loads = first.intersection(&second).all(|&i| matches!(l.body[i], Stmt::Load { .. }));
    let covered = first.union(&second).count() == l.body.len();
    let splits = !sums.is_empty() && !rest.is_empty() && rest.iter().all(|&k| updates(k));
    (splits && shared_loads && covered).then_some((sums, rest))
}

/// The representative of `k`'s group.
fn root(group: &[usize], mut k: usize) -> usize {
    while group[k] != k {
        k = group[k];
    }
    k
}

/// The statements of `body` that `yielded` depends on (by position), and the carried values
/// (by position) they read.
fn slice(
    body: &Block,
    yielded: Operand,
    params: &HashMap<Var, usize>,
) -> (HashSet<usize>, HashSet<usize>) {
    let defs: HashMap<Var, usize> = body
        .iter()
        .enumerate()
        .flat_map(|(i, s)| crate::ir::stmt_defs(s).into_iter().map(move |v| (v, i)))
        .collect();
    let (mut stmts, mut deps) = (HashSet::new(), HashSet::new());
    let mut work: Vec<Var> = yielded.var().into_iter().collect();
    while let Some(v) = work.pop() {
        if let Some(&k) = params.get(&v) {
            deps.insert(k);
        } else if let Some(&i) = defs.get(&v)
            && stmts.insert(i)
        {
            work.extend(reads(&body[i]).iter().filter_map(|o| o.var()));
        }
    }
    (stmts, deps)
}

/// `l` restricted to the carried values `which` and the statements they need.
fn restricted(l: &Loop, which: &[usize]) -> Loop {
    let params: HashMap<Var, usize> =
        l.carried.iter().enumerate().map(|(k, c)| (c.param, k)).collect();
    let keep: HashSet<usize> =
        which.iter().flat_map(|&k| slice(&l.body, l.yields[k], &params).0).collect();
    let body = l.body.iter().enumerate().filter(|(i, _)| keep.contains(i)).map(|(_, s)| s);
    Loop {
        index: l.index,
        range: l.range.clone(),
        carried: which.iter().map(|&k| l.carried[k].clone()).collect(),
        body: body.cloned().collect(),
        yields: which.iter().map(|&k| l.yields[k]).collect(),
        outs: which.iter().map(|&k| l.outs[k]).collect(),
    }
}

/// The statements that replace `l`: its two parts when its trip count is at least
/// [`SPLIT_AT`], `l` itself when it is less, and a branch between the two when the macro
/// cannot tell.
fn split(f: &mut Func, l: Loop, sums: &[usize], rest: &[usize]) -> Block {
    let r = &l.range;
    // The trip count is at least SPLIT_AT when hi >= lo + SPLIT_AT (one less for `..=`).
    let at = if r.inclusive { SPLIT_AT - 1 } else { SPLIT_AT };
    let (first, second) = (restricted(&l, sums), restricted(&l, rest));
    if let (Some(lo), Some(hi)) = (r.lo.value, r.hi.value) {
        if hi < lo.saturating_add(at) {
            return vec![Stmt::For(Box::new(l))];
        }
        // The first part keeps the loop's variables; the second gets its own.
        let mut second = copy_loop(f, &second, r.clone());
        second.outs = rest.iter().map(|&k| l.outs[k]).collect();
        return vec![Stmt::For(Box::new(first)), Stmt::For(Box::new(second))];
    }
    // `lo + 16` written out; a bare loop index has no tokens to add to (not split).
    let lo_at = match (r.lo.value, r.lo.as_index()) {
        (Some(lo), _) => crate::ir::Int::lit(lo.saturating_add(at)),
        (None, Some(_)) => return vec![Stmt::For(Box::new(l))],
        (None, None) => r.lo.plus(at),
    };
    let (first, second) = (copy_loop(f, &first, r.clone()), copy_loop(f, &second, r.clone()));
    let whole = copy_loop(f, &l, r.clone());
    let mut then_yields = vec![Operand::Lit(0.0); l.outs.len()];
    for (which, part) in [(sums, &first), (rest, &second)] {
        for (&k, out) in which.iter().zip(&part.outs) {
            then_yields[k] = Operand::Var(*out);
        }
    }
    f.names.push(Name::Hint(crate::symbol::HINT_LONG));
    f.types.push(Ty::Bool);
    let long = Var(u32::try_from(f.names.len() - 1).unwrap_or(u32::MAX));
    let cond = Cond::Int(Cmp::Ge, Box::new(r.hi.clone()), Box::new(lo_at));
    let branch = Branch {
        cond: long,
        then: vec![Stmt::For(Box::new(first)), Stmt::For(Box::new(second))],
        then_yields,
        otherwise: vec![],
        else_yields: whole.outs.iter().map(|v| Operand::Var(*v)).collect(),
        outs: l.outs.clone(),
    };
    let otherwise = vec![Stmt::For(Box::new(whole))];
    vec![Stmt::Test { out: long, cond }, Stmt::If(Box::new(Branch { otherwise, ..branch }))]
}
