//! Binomial checkpointing (Griewank & Walther's revolve): the reverse sweep of a loop of `n` steps
//! with `S` snapshots of its state, in fixed-size stack storage, recomputing the segments between
//! snapshots. With each step recomputed at most `r` times, `S` snapshots (one of them holding the
//! initial state) cover `C(S + r, S)` steps, and the schedule makes `r n − C(S + r, r − 1)` steps
//! in all, the fewest possible.
//!
//! The schedule is a function of `n` and `S` alone: [`schedule_steps`] gives its length at compile
//! time, and [`revolve`] follows it with a few integers of bookkeeping, no heap and no tape: the
//! schedule move by move in `plan`, where to split each segment in `split` (in word arithmetic,
//! from the repetition number that the segment's parent carries down).
//!
//! For a loop whose number of steps is known only when it ends (`while`, `loop` with `break`),
//! [`Online`] keeps `S` snapshots while the loop runs, placed online (`places`: Wang, Moin &
//! Iaccarino's dynamic checkpointing), and once it has ended reverses the segments between them
//! with the same schedule, for the lengths then known (`online`); [`online_steps`] counts its
//! recomputation, which is revolve's at most.

mod online;
mod places;
mod plan;
mod split;
#[cfg(test)]
mod tests;

pub use online::{Online, online_steps};
use plan::{Move, Plan};

/// `C(n, k)`, saturating at `usize::MAX`.
pub const fn binomial(n: usize, k: usize) -> usize {
    if k > n {
        return 0;
    }
    let k = if k > n - k { n - k } else { k };
    let mut c: usize = 1;
    let mut i = 0;
    while i < k {
        // c · (n - i) / (i + 1) is exact at every step: c = C(n, i).
        c = match c.checked_mul(n - i) {
            Some(p) => p / (i + 1),
            None => return usize::MAX,
        };
        i += 1;
    }
    c
}

/// The number of steps that `free` free snapshots (besides the one holding the first state)
/// reverse when every step is recomputed at most `r` times: `C(free + 1 + r, free + 1)`.
const fn reach(free: usize, r: usize) -> usize {
    binomial(free + 1 + r, free + 1)
}

/// The smallest number of recomputations `r` with which `free` free snapshots reverse `n` steps.
pub const fn repetitions(n: usize, free: usize) -> usize {
    let mut r = 0;
    while reach(free, r) < n {
        r += 1;
    }
    r
}

/// `C(len, 2)`, the steps of [`Move::Recompute`], saturating at `usize::MAX`.
const fn triangle(len: usize) -> usize {
    let (a, b) =
        if len.is_multiple_of(2) { (len / 2, len.saturating_sub(1)) } else { (len, len / 2) };
    a.saturating_mul(b)
}

/// The most snapshots [`schedule_steps`] counts for (`revolve` itself takes any number).
pub const MAX_SLOTS: usize = 1024;

/// The number of steps (`step` calls) that [`revolve`] makes to reverse `n` steps with `slots`
/// snapshots: the recomputation the schedule costs, at compile time (`usize::MAX` beyond
/// [`MAX_SLOTS`]).
pub const fn schedule_steps(n: usize, slots: usize) -> usize {
    if slots == 0 {
        return 0;
    }
    if slots > MAX_SLOTS {
        return usize::MAX;
    }
    let mut plan = Plan::<MAX_SLOTS>::new(n, slots);
    let mut count: usize = 0;
    loop {
        let steps = match plan.next() {
            Move::Advance { from, to, .. } => to - from,
            Move::Store { from, to, .. } => to - from - 1,
            Move::Recompute { from, to, .. } => triangle(to - from),
            Move::Done => return count,
        };
        count = count.saturating_add(steps);
    }
}

/// Reverses the `n` steps of a loop with binomial checkpointing in `S` snapshots.
///
/// The loop's `k`-th step (from 0) has index `index(k)`; `step(i, x)` is the loop's step at index
/// `i` from the state `x` (the values the loop carries) to the next state, and `back(i, x, a)` is
/// the reverse sweep of that step: from the state before it and the adjoint after it, the adjoint
/// before it. Starting from the state `init` before the first step and the adjoint `adjoint`
/// after the last, `revolve` returns the adjoint before the first step, calling `back` once per
/// step in reverse order and `step` [`schedule_steps`]`(n, S)` times. Every state it passes to
/// `back` is recomputed by `step` from `init`, so the result is the same, to the bit, as a sweep
/// that stored every state.
///
/// For a loop whose number of steps is known only when it ends (`while`, `loop` with `break`),
/// see [`Online`].
pub fn revolve<const S: usize, X: Copy, A>(
    n: usize,
    index: impl Fn(usize) -> usize,
    init: X,
    adjoint: A,
    step: impl Fn(usize, X) -> X,
    back: impl Fn(usize, X, A) -> A,
) -> A {
    const { assert!(S >= 1, "revolve needs at least one snapshot, for the initial state") };
    let mut snapshots = [init; S];
    let mut plan = Plan::<S>::new(n, S);
    sweep(&mut plan, &mut snapshots, &index, adjoint, &step, &back)
}

/// Follows `plan`, made for `snapshots.len()` snapshots, with the state before its first step in
/// `snapshots[0]` and the others free: the sweep of [`revolve`], and of each segment between the
/// states that [`Online`] kept.
fn sweep<const N: usize, X: Copy, A>(
    plan: &mut Plan<N>,
    snapshots: &mut [X],
    index: &impl Fn(usize) -> usize,
    adjoint: A,
    step: &impl Fn(usize, X) -> X,
    back: &impl Fn(usize, X, A) -> A,
) -> A {
    let mut adjoint = adjoint;
    let advance = |x: X, from: usize, to: usize| (from..to).fold(x, |x, k| step(index(k), x));
    loop {
        match plan.next() {
            Move::Advance { slot, from, to } => {
                snapshots[slot + 1] = advance(snapshots[slot], from, to);
            }
            Move::Store { slot, from, to } => {
                // The state before step k goes to slot + (k - from); the last one, before step
                // to - 1, straight to its sweep.
                let mut x = snapshots[slot];
                for k in from..to - 1 {
                    snapshots[slot + (k - from)] = x;
                    x = step(index(k), x);
                }
                adjoint = back(index(to - 1), x, adjoint);
                for k in (from..to - 1).rev() {
                    adjoint = back(index(k), snapshots[slot + (k - from)], adjoint);
                }
            }
            Move::Recompute { slot, from, to } => {
                for k in (from..to).rev() {
                    let x = advance(snapshots[slot], from, k);
                    adjoint = back(index(k), x, adjoint);
                }
            }
            Move::Done => return adjoint,
        }
    }
}
