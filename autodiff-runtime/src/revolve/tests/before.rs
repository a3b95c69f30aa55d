//! The reference for the tests: `split` and `revolve` as they were before the split's bookkeeping
//! was carried from segment to segment (commit `c6f3028`), the split recomputed from zero in `u128`
//! for every segment of two steps or more.

/// How many of `n ≥ 2` steps to advance before the next snapshot, with `free ≥ 1` free ones:
/// revolve's choice (Griewank & Walther, Algorithm 799), which makes the whole schedule take the
/// fewest steps.
pub(super) const fn split(n: usize, free: usize) -> usize {
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

/// Reverses the `n` steps of a loop with binomial checkpointing in `S` snapshots, as `revolve`
/// did: the same contract.
pub(super) fn revolve<const S: usize, X: Copy, A>(
    n: usize,
    index: impl Fn(usize) -> usize,
    init: X,
    adjoint: A,
    step: impl Fn(usize, X) -> X,
    back: impl Fn(usize, X, A) -> A,
) -> A {
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
