//! Online checkpointing: the placement against Wang, Moin & Iaccarino's rule written naively, the
//! gradient to the bit against a stored sweep and against `revolve` given the length, `back`
//! once per step in order, the `step` calls against `online_steps` and its bounds.

use std::cell::{Cell, RefCell};

use super::super::online::online_steps;
use super::super::places::{NONE, Places};
use super::super::{Online, binomial, repetitions, revolve, schedule_steps};

/// The kept states' steps by Wang, Moin & Iaccarino's rule as they state it, with a search for
/// the latest dispensable state at every step: after each of `n` steps, in the order of steps.
fn naive(slots: usize, n: usize) -> Vec<Vec<usize>> {
    let mut kept: Vec<(usize, usize)> = Vec::new(); // (step, level), in order
    let mut out = Vec::new();
    for k in 0..n {
        if kept.len() < slots {
            kept.push((k, if k == 0 { usize::MAX } else { 0 }));
        } else if slots > 1 {
            // Dispensable: a later state has a higher level. The latest such gives way.
            let mut highest = 0;
            let mut dispensable = None;
            for (i, &(_, level)) in kept.iter().enumerate().rev() {
                if level < highest {
                    dispensable = Some(i);
                    break;
                }
                highest = highest.max(level);
            }
            match dispensable {
                Some(i) => {
                    kept.remove(i);
                    kept.push((k, 0));
                }
                None => {
                    let (_, level) = kept.pop().unwrap_or((0, 0));
                    kept.push((k, level + 1));
                }
            }
        }
        out.push(kept.iter().map(|&(step, _)| step).collect());
    }
    out
}

/// The kept states' steps in `places`, in order.
fn kept<const N: usize>(places: &Places<N>) -> Vec<usize> {
    let mut out = Vec::new();
    let mut slot = places.last;
    while slot != NONE {
        out.push(places.pos[slot]);
        slot = places.prev[slot];
    }
    out.reverse();
    out
}

/// Griewank's count for `len` steps with `slots` snapshots, and the repetition number: `r len −
/// C(slots + r, r − 1)`, the binomials by their recurrence in `r` (not by `schedule_steps`).
fn griewank(len: usize, slots: usize) -> (usize, usize) {
    if len <= 1 {
        return (0, 0);
    }
    // reach = C(slots + r, slots) for the least r with reach >= len.
    let (mut r, mut reach) = (0usize, 1usize);
    while reach < len {
        reach = reach * (slots + r + 1) / (r + 1);
        r += 1;
    }
    // C(slots + r, r - 1) = C(slots + r, slots + 1) = reach · r / (slots + 1).
    (r * len - reach * r / (slots + 1), r)
}

/// Σ over the segments between kept states of Griewank's count with the slots of the states
/// before each, and the highest repetition number of a segment.
fn layout_cost(kept: &[usize], n: usize, slots: usize) -> (usize, usize) {
    let ends = kept.iter().skip(1).copied().chain([n]);
    let segments = kept.iter().zip(ends).enumerate();
    segments
        .map(|(j, (&start, end))| griewank(end - start, slots - j))
        .fold((0, 0), |(total, most), (t, r)| (total + t, most.max(r)))
}

#[test]
fn the_placement_is_wangs_rule() {
    for slots in (1..=12).chain([16, 17, 33, 64]) {
        let n = 3000;
        let expected = naive(slots, n);
        let mut places = Places::<64>::new(slots);
        for (k, kept_then) in expected.iter().enumerate() {
            places.push();
            assert_eq!(&kept(&places), kept_then, "{slots} slots, after {} steps", k + 1);
            let (cost, _) = layout_cost(kept_then, k + 1, slots);
            assert_eq!(places.cost(), cost, "{slots} slots, after {} steps", k + 1);
        }
    }
}

#[test]
fn the_first_and_the_latest_states_are_kept_and_every_slot_is_used() {
    for slots in [1usize, 2, 3, 5, 16, 64] {
        let mut places = Places::<64>::new(slots);
        for n in 1..5000 {
            places.push();
            let kept = kept(&places);
            assert_eq!(kept.len(), n.min(slots));
            assert_eq!(kept[0], 0);
            assert!(kept.windows(2).all(|w| w[0] < w[1]), "{kept:?}");
            assert_eq!(*kept.last().unwrap_or(&0), if slots == 1 { 0 } else { n - 1 });
        }
    }
}

/// The toy loop: `x ← x + h·sin(x + k/1000)·p` and a count of steps (the loop's condition: `i <
/// n`, which the tape does not see), the adjoint `(x̄, p̄)`.
type State = (f64, usize);
type Adjoint = (f64, f64);
const H: f64 = 0.01;
const P: f64 = 0.75;

fn step(k: usize, (x, i): State) -> State {
    (x + H * (x + k as f64 * 1e-3).sin() * P, i + 1)
}

fn back(k: usize, (x, _): State, (dx, dp): Adjoint) -> Adjoint {
    let y = x + k as f64 * 1e-3;
    (dx * (1.0 + H * y.cos() * P), dp + dx * H * y.sin())
}

/// The forward loop with a tape, to `n` steps: the final state.
fn forward<const S: usize>(tape: &mut Online<S, State>, x0: f64, n: usize) -> State {
    let mut state = (x0, 0);
    while state.1 < n {
        let k = tape.push(&state);
        state = step(k, state);
    }
    state
}

/// The gradient of the final `x` in `(x0, p)` three ways: stored, offline `revolve` given `n`,
/// online; with the `step` calls of the last two.
fn three_ways<const S: usize>(x0: f64, n: usize) -> [(Adjoint, usize); 3] {
    let mut states = vec![(x0, 0)];
    for k in 0..n {
        states.push(step(k, states[k]));
    }
    let stored = (0..n).rev().fold((1.0, 0.0), |a, k| back(k, states[k], a));
    let calls = Cell::new(0);
    let counted = |k, x| {
        calls.set(calls.get() + 1);
        step(k, x)
    };
    let offline = revolve::<S, _, _>(n, |k| k, (x0, 0), (1.0, 0.0), counted, back);
    let offline_calls = calls.replace(0);
    let mut tape = Online::<S, State>::new((x0, 0));
    let last = forward(&mut tape, x0, n);
    assert_eq!(last, states[n], "the forward loop, n = {n}");
    assert_eq!(tape.steps(), n);
    let online = tape.reverse((1.0, 0.0), counted, back);
    [(stored, 0), (offline, offline_calls), (online, calls.get())]
}

fn bits((a, b): Adjoint) -> (u64, u64) {
    (a.to_bits(), b.to_bits())
}

fn check_bits<const S: usize>(lengths: &[usize]) {
    for &n in lengths {
        let [(stored, _), (offline, offline_calls), (online, calls)] = three_ways::<S>(0.3, n);
        assert_eq!(bits(online), bits(stored), "n = {n}, {S} snapshots: online against stored");
        assert_eq!(bits(offline), bits(stored), "n = {n}, {S} snapshots: offline against stored");
        assert_eq!(offline_calls, schedule_steps(n, S));
        assert_eq!(calls, online_steps(n, S), "n = {n}, {S} snapshots: the step calls");
        assert!(calls <= offline_calls, "n = {n}, {S} snapshots: {calls} > {offline_calls}");
    }
    // A gradient that depends on every step: not a vacuous equality.
    let [(stored, _), ..] = three_ways::<S>(0.3, 50);
    assert!(stored.0 != 1.0 && stored.1 != 0.0);
}

fn lengths(s: usize, large: &[usize]) -> Vec<usize> {
    let small = [0, 1, 2, s.saturating_sub(1), s, s + 1, 2 * s, 3 * s + 7];
    small.into_iter().chain(large.iter().copied()).collect()
}

#[test]
fn online_gradients_are_the_stored_and_offline_ones_to_the_bit() {
    check_bits::<1>(&lengths(1, &[100, 1000]));
    check_bits::<2>(&lengths(2, &[100, 1000, 10_000]));
    check_bits::<3>(&lengths(3, &[1000, 100_000]));
    check_bits::<5>(&lengths(5, &[1000, 100_000]));
    check_bits::<16>(&lengths(16, &[1000, 12_345, 100_000]));
    check_bits::<64>(&lengths(64, &[1000, 12_345, 100_000]));
}

/// Every `back` call, in order: the index and the state's bits.
fn back_calls<const S: usize>(n: usize) -> (Vec<(usize, u64)>, Vec<usize>) {
    let visited = RefCell::new(Vec::new());
    let recomputed = RefCell::new(vec![0usize; n]);
    let mut tape = Online::<S, State>::new((0.3, 0));
    forward(&mut tape, 0.3, n);
    let counted = |k: usize, x| {
        recomputed.borrow_mut()[k] += 1;
        step(k, x)
    };
    let logged = |k: usize, x: State, a| {
        visited.borrow_mut().push((k, x.0.to_bits()));
        back(k, x, a)
    };
    tape.reverse((1.0, 0.0), counted, logged);
    (visited.into_inner(), recomputed.into_inner())
}

#[test]
fn back_runs_once_per_step_last_first_from_the_loops_states() {
    fn check<const S: usize>() {
        for n in (0..=3 * S + 40).chain([500, 2081]) {
            let mut states = vec![(0.3, 0)];
            for k in 0..n {
                states.push(step(k, states[k]));
            }
            let expected: Vec<(usize, u64)> =
                (0..n).rev().map(|k| (k, states[k].0.to_bits())).collect();
            let (visited, recomputed) = back_calls::<S>(n);
            assert_eq!(visited, expected, "n = {n}, {S} snapshots");
            // No step is recomputed more often than revolve would, given n.
            let r = repetitions(n, S - 1);
            let most = recomputed.iter().copied().max().unwrap_or(0);
            assert!(most <= r, "n = {n}, {S} snapshots: a step recomputed {most} > {r} times");
            assert_eq!(recomputed.iter().sum::<usize>(), online_steps(n, S));
        }
    }
    check::<1>();
    check::<2>();
    check::<3>();
    check::<4>();
    check::<7>();
    check::<16>();
    check::<64>();
}

#[test]
fn the_count_is_zero_while_the_states_fit_and_at_most_revolves() {
    for slots in (1..=12).chain([16, 17, 31, 64, 65, 200]) {
        for n in 0..=slots + 1 {
            // Past `slots` steps, the state before the last is recomputed once.
            let expected = if n <= slots { 0 } else { 1 };
            assert_eq!(online_steps(n, slots), expected, "n = {n}, {slots} snapshots");
        }
        // (Every n to 10⁶ in the ignored test below.)
        for n in (0..400).chain((400..100_000).step_by(4999)) {
            let online = online_steps(n, slots);
            assert!(online <= schedule_steps(n, slots), "n = {n}, {slots} snapshots");
        }
    }
    assert_eq!(online_steps(100, 0), 0);
    assert_eq!(online_steps(100, super::super::MAX_SLOTS + 1), usize::MAX);
    // At compile time too.
    const STEPS: usize = online_steps(10_000, 16);
    assert_eq!(STEPS, 35_964);
    assert_eq!(schedule_steps(10_000, 16), 44_015);
}

/// For every `n` up to 10⁶ and 2 to 16, 32 and 64 snapshots: the layout's count at most
/// revolve's, and no segment's repetition number above revolve's for `n` (with one snapshot,
/// the one segment is revolve's). About a minute in a release build: `cargo test -p
/// autodiff-runtime --release -- --ignored`.
#[test]
#[ignore]
fn at_most_revolves_count_for_every_length_to_a_million() {
    for slots in (2..=16).chain([32, 64]) {
        let mut places = Places::<64>::new(slots);
        for n in 1..=1_000_000 {
            places.push();
            let kept = kept(&places);
            let (cost, most) = layout_cost(&kept, n, slots);
            let (offline, r) = griewank(n, slots);
            assert!(cost <= offline, "n = {n}, {slots} snapshots: {cost} > {offline}");
            assert!(most <= r, "n = {n}, {slots} snapshots: repetition {most} > {r}");
        }
    }
}

#[test]
fn a_tape_runs_again_after_its_sweep() {
    let mut tape = Online::<4, State>::new((0.0, 0));
    for (x0, n) in [(0.3, 10), (0.7, 3), (0.3, 0), (-0.2, 25)] {
        forward(&mut tape, x0, n);
        let again = tape.reverse((1.0, 0.0), step, back);
        let [(stored, _), ..] = three_ways::<4>(x0, n);
        assert_eq!(bits(again), bits(stored), "x0 = {x0}, n = {n}");
        assert_eq!(tape.steps(), 0);
    }
}

#[test]
fn griewanks_count_is_revolves() {
    for slots in [1, 2, 3, 16, 64] {
        for n in (0..500).chain([2080, 2081, 10_000]) {
            assert_eq!(griewank(n, slots).0, schedule_steps(n, slots), "n = {n}, {slots}");
            let r = griewank(n, slots).1;
            assert!(n <= 1 || binomial(slots + r, slots) >= n);
        }
    }
}

#[test]
#[should_panic(expected = "online checkpointing counts at most usize::MAX steps")]
fn past_usize_max_steps_it_panics() {
    let mut tape = Online::<4, State>::new((0.0, 0));
    tape.places.steps = usize::MAX;
    tape.push(&(0.0, 0));
}
