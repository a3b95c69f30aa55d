//! Binomial checkpointing (Griewank & Walther's revolve): the reverse sweep of a loop of `n` steps
//! with `S` snapshots of its state, in fixed-size stack storage, recomputing the segments between
//! snapshots. With each step recomputed at most `r` times, `S` snapshots (one of them holding the
//! initial state) cover `C(S + r, S)` steps, and the schedule makes `r n − C(S + r, r − 1)` steps
//! in all, the fewest possible.
//!
//! The schedule is a function of `n` and `S` alone: [`schedule_steps`] gives its length at compile
//! time, and [`revolve`] follows it with a few integers of bookkeeping, no heap and no tape.

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

/// How many of `n ≥ 2` steps to advance before the next snapshot, with `free ≥ 1` free ones:
/// revolve's choice (Griewank & Walther, Algorithm 799), which makes the whole schedule take the
/// fewest steps.
const fn split(n: usize, free: usize) -> usize {
    let (l, snaps) = (n as u128, free as u128 + 1);
    // range = C(snaps + reps, snaps) for the least reps with range >= l.
    let (mut reps, mut range) = (0u128, 1u128);
    while range < l {
        reps += 1;
        range = range * (reps + snaps) / reps;
    }
    let bino1 = range * reps / (snaps + reps);
    let bino2 = if snaps > 1 { bino1 * snaps / (snaps + reps - 1) } else { 1 };
    let bino3 = match snaps {
        1 => 0,
        2 => 1,
        _ => bino2 * (snaps - 1) / (snaps + reps - 2),
    };
    let bino4 = bino2 * (reps - 1) / snaps;
    let bino5 = match snaps {
        0..=2 => 0,
        3 => 1,
        _ => bino3 * (snaps - 2) / reps,
    };
    let advance = if l <= bino1 + bino3 {
        bino4
    } else if l + bino5 >= range {
        bino1
    } else {
        l - bino2 - bino3
    };
    // At least one step, and at least one left for the rest.
    let advance = if advance < 1 {
        1
    } else if advance > l - 1 {
        l - 1
    } else {
        advance
    };
    advance as usize
}

/// The most snapshots [`schedule_steps`] counts for (`revolve` itself takes any number).
pub const MAX_SLOTS: usize = 1024;

/// The number of steps (`step` calls) that [`revolve`] makes to reverse `n` steps with `slots`
/// snapshots: the recomputation the schedule costs, at compile time (`usize::MAX` beyond
/// [`MAX_SLOTS`]).
pub const fn schedule_steps(n: usize, slots: usize) -> usize {
    if n == 0 || slots == 0 {
        return 0;
    }
    // The schedule's tasks, as `revolve` runs them: (first step, end, free snapshots).
    let mut pending = [(0usize, 0usize, 0usize); MAX_SLOTS];
    let mut top = 0;
    let mut task = (0, n, slots - 1);
    let mut count: usize = 0;
    loop {
        let (a, b, free) = task;
        let len = b - a;
        if len >= 2 && free == 0 {
            count = count.saturating_add(len * (len - 1) / 2);
        } else if len >= 2 {
            let m = a + split(len, free);
            count = count.saturating_add(m - a);
            if top == pending.len() {
                return usize::MAX;
            }
            pending[top] = (a, m, free);
            top += 1;
            task = (m, b, free - 1);
            continue;
        }
        if top == 0 {
            return count;
        }
        top -= 1;
        task = pending[top];
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
pub fn revolve<const S: usize, X: Copy, A>(
    n: usize,
    index: impl Fn(usize) -> usize,
    init: X,
    adjoint: A,
    step: impl Fn(usize, X) -> X,
    back: impl Fn(usize, X, A) -> A,
) -> A {
    const { assert!(S >= 1, "revolve needs at least one snapshot, for the initial state") };
    let mut adjoint = adjoint;
    if n == 0 {
        return adjoint;
    }
    // The snapshot of a task with `free` free snapshots is in slot `S - 1 - free`.
    let mut snapshots = [init; S];
    let advance = |x: X, from: usize, to: usize| (from..to).fold(x, |x, k| step(index(k), x));
    let mut pending = [(0usize, 0usize, 0usize); S];
    let mut top = 0;
    let mut task = (0, n, S - 1);
    loop {
        let (a, b, free) = task;
        let slot = S - 1 - free;
        let len = b - a;
        if len == 1 {
            adjoint = back(index(a), snapshots[slot], adjoint);
        } else if free == 0 {
            // No snapshot left: every step from the one snapshot, last first.
            for k in (a..b).rev() {
                let x = advance(snapshots[slot], a, k);
                adjoint = back(index(k), x, adjoint);
            }
        } else {
            let m = a + split(len, free);
            snapshots[slot + 1] = advance(snapshots[slot], a, m);
            // The first part waits, with `free` snapshots, while the rest is reversed with one
            // snapshot fewer; pending tasks have decreasing `free` from the bottom, so fewer
            // than `S` of them wait at once.
            pending[top] = (a, m, free);
            top += 1;
            task = (m, b, free - 1);
            continue;
        }
        if top == 0 {
            return adjoint;
        }
        top -= 1;
        task = pending[top];
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    /// The fewest steps any schedule needs, by trying every split (small cases only).
    fn optimal(
        n: usize,
        free: usize,
        memo: &mut std::collections::HashMap<(usize, usize), usize>,
    ) -> usize {
        if n <= 1 {
            return 0;
        }
        if free == 0 {
            return n * (n - 1) / 2;
        }
        if let Some(v) = memo.get(&(n, free)) {
            return *v;
        }
        let best =
            (1..n).map(|m| m + optimal(n - m, free - 1, memo) + optimal(m, free, memo)).min();
        let best = best.unwrap_or(0);
        memo.insert((n, free), best);
        best
    }

    #[test]
    fn the_schedule_is_optimal_and_matches_griewanks_formula() {
        let mut memo = std::collections::HashMap::new();
        for slots in 1..6 {
            for n in 1..80 {
                let ours = schedule_steps(n, slots);
                assert_eq!(ours, optimal(n, slots - 1, &mut memo), "n = {n}, {slots} snapshots");
                // Griewank & Walther: t = r n - C(S + r, r - 1) for S snapshots, with r the
                // repetition number, the least with C(S + r, S) >= n.
                let r = repetitions(n, slots - 1);
                let closed = if r == 0 { 0 } else { r * n - binomial(slots + r, r - 1) };
                assert_eq!(ours, closed, "n = {n}, {slots} snapshots: Griewank's formula");
            }
        }
    }

    #[test]
    fn revolve_reverses_every_step_once_in_order_from_the_right_states() {
        for slots_case in [1usize, 2, 3, 5] {
            for n in 0..40 {
                let steps = Cell::new(0usize);
                let visited = std::cell::RefCell::new(Vec::new());
                let run = |n: usize| {
                    let f = |i: usize, x: f64| {
                        steps.set(steps.get() + 1);
                        x * 1.000_001 + i as f64
                    };
                    let b = |i: usize, x: f64, a: f64| {
                        visited.borrow_mut().push((i, x));
                        a + x
                    };
                    match slots_case {
                        1 => revolve::<1, _, _>(n, |k| k, 0.5, 0.0, f, b),
                        2 => revolve::<2, _, _>(n, |k| k, 0.5, 0.0, f, b),
                        3 => revolve::<3, _, _>(n, |k| k, 0.5, 0.0, f, b),
                        _ => revolve::<5, _, _>(n, |k| k, 0.5, 0.0, f, b),
                    }
                };
                let sum = run(n);
                let mut states = vec![0.5_f64];
                for i in 0..n {
                    let x = states[i] * 1.000_001 + i as f64;
                    states.push(x);
                }
                let expected: Vec<(usize, f64)> = (0..n).rev().map(|i| (i, states[i])).collect();
                assert_eq!(*visited.borrow(), expected, "n = {n}, {slots_case} snapshots");
                assert_eq!(sum, expected.iter().map(|(_, x)| x).sum::<f64>());
                assert_eq!(steps.get(), schedule_steps(n, slots_case), "n = {n}");
            }
        }
    }

    #[test]
    fn binomial_reach() {
        assert_eq!(binomial(5, 2), 10);
        assert_eq!(binomial(40, 20), 137_846_528_820);
        // 16 snapshots: C(16 + 7, 16) = 245 157 < 10⁶ ≤ C(16 + 8, 16) = 735 471? no: 10⁶ needs 9.
        let r = repetitions(1_000_000, 15);
        assert!(binomial(16 + r, 16) >= 1_000_000 && binomial(16 + r - 1, 16) < 1_000_000);
        assert_eq!(schedule_steps(1_000_000, 16), r * 1_000_000 - binomial(16 + r, r - 1));
    }
}
