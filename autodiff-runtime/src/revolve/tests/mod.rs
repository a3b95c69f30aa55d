//! The schedule: optimal, Griewank's count, and call for call the one of before; `split` against
//! the split of before in `split`.

mod before;
mod online;
mod split;

use std::cell::{Cell, RefCell};

use super::plan::{Move, Plan};
use super::*;

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
    let best = (1..n).map(|m| m + optimal(n - m, free - 1, memo) + optimal(m, free, memo)).min();
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
    for slots_case in [1usize, 2, 3, 5, 64] {
        for n in (0..40).chain([100, 2080, 2081, 2500]) {
            let steps = Cell::new(0usize);
            let visited = RefCell::new(Vec::new());
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
                    5 => revolve::<5, _, _>(n, |k| k, 0.5, 0.0, f, b),
                    _ => revolve::<64, _, _>(n, |k| k, 0.5, 0.0, f, b),
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

/// A call of `step` (`'s'`) or `back` (`'b'`): the step's index and the state's bits.
type Call = (char, usize, u64);

/// Every call that `revolve`, or that of before, makes for `n` steps with `S` snapshots, in
/// order, and the adjoint it returns.
fn calls<const S: usize>(n: usize, old: bool) -> (Vec<Call>, u64) {
    let calls = RefCell::new(Vec::new());
    let step = |i: usize, x: f64| {
        calls.borrow_mut().push(('s', i, x.to_bits()));
        x * 1.000_001 + i as f64
    };
    let back = |i: usize, x: f64, a: f64| {
        calls.borrow_mut().push(('b', i, x.to_bits()));
        a * 0.999 + x
    };
    let index = |k: usize| 3 * k + 1;
    let adjoint = if old {
        before::revolve::<S, _, _>(n, index, 0.5, 0.25, step, back)
    } else {
        revolve::<S, _, _>(n, index, 0.5, 0.25, step, back)
    };
    (calls.into_inner(), adjoint.to_bits())
}

#[test]
fn revolve_makes_the_calls_of_before_in_the_same_order() {
    fn check<const S: usize>() {
        for n in (0..=300).chain([1000, 2080, 2081, 5000]) {
            if schedule_steps(n, S) <= 1_000_000 {
                assert_eq!(calls::<S>(n, false), calls::<S>(n, true), "n = {n}, {S} snapshots");
            }
        }
    }
    check::<1>();
    check::<2>();
    check::<3>();
    check::<4>();
    check::<5>();
    check::<6>();
    check::<8>();
    check::<16>();
    check::<17>();
    check::<64>();
}

#[test]
fn every_split_of_long_schedules_is_the_one_of_before() {
    for (n, slots) in [(10_000_000, 64), (10_000_000, 16), (1_000_000, 4), (100_000, 2)] {
        let mut plan = Plan::<64>::new(n, slots);
        let mut count: usize = 0;
        loop {
            let (free, end) = (plan.current.free, plan.end);
            match plan.next() {
                Move::Advance { from, to, .. } => {
                    assert_eq!(to - from, before::split(end - from, free), "n = {n}, {slots}");
                    count += to - from;
                }
                Move::Store { from, to, .. } => {
                    assert!(to - from <= free + 2);
                    count += to - from - 1;
                }
                Move::Recompute { from, to, .. } => {
                    assert_eq!(free, 0);
                    count += (to - from) * (to - from - 1) / 2;
                }
                Move::Done => break,
            }
        }
        let r = repetitions(n, slots - 1);
        assert_eq!(count, r * n - binomial(slots + r, r - 1), "n = {n}, {slots} snapshots");
        assert_eq!(count, schedule_steps(n, slots), "n = {n}, {slots} snapshots");
    }
}

/// The steps of the schedule of before: every segment of two or more steps split.
fn split_everywhere(len: usize, free: usize) -> usize {
    match (len, free) {
        (0 | 1, _) => 0,
        (_, 0) => len * (len - 1) / 2,
        _ => {
            let m = before::split(len, free);
            m + split_everywhere(m, free) + split_everywhere(len - m, free - 1)
        }
    }
}

#[test]
fn the_count_is_that_of_before_and_griewanks_formula() {
    for slots in (1..=12).chain([16, 17, 31, 64, 65]) {
        for n in (0..600).chain((600..6000).step_by(97)) {
            let ours = schedule_steps(n, slots);
            assert_eq!(ours, split_everywhere(n, slots - 1), "n = {n}, {slots} snapshots");
            let r = repetitions(n, slots - 1);
            let closed = if r == 0 { 0 } else { r * n - binomial(slots + r, r - 1) };
            assert_eq!(ours, closed, "n = {n}, {slots} snapshots: Griewank's formula");
        }
    }
    assert_eq!(schedule_steps(1000, MAX_SLOTS + 1), usize::MAX);
    // At compile time too.
    const STEPS: usize = schedule_steps(10_000, 16);
    assert_eq!(STEPS, 44_015);
    assert_eq!(triangle(usize::MAX), usize::MAX);
    assert_eq!([0, 1, 2, 3, 4, 5].map(triangle), [0, 0, 1, 3, 6, 10]);
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
