//! `split` in word arithmetic, from whatever pair it starts, against the split of before.

use super::super::binomial;
use super::super::split::{Reps, split, split_wide, split_word};
use super::before;

/// The pair of `r` for `snaps` snapshots.
fn pair(snaps: usize, r: usize) -> Reps {
    Reps { r, reach: binomial(snaps + r, snaps) }
}

/// The least `r` with `C(snaps + r, snaps) ≥ len`.
fn own_r(len: usize, snaps: usize) -> usize {
    (0..).find(|&r| binomial(snaps + r, snaps) >= len).unwrap_or(0)
}

/// Checks `split(len, free, near)` against the split of before, for `near` from zero and from
/// each pair within two of the segment's own, and the pairs it hands to the parts.
fn check(len: usize, free: usize) {
    let snaps = free + 1;
    let expected = before::split(len, free);
    assert_eq!(split_wide(len, free), expected, "len = {len}, free = {free}: the wide split");
    let r = own_r(len, snaps);
    let nears = [Reps::ZERO, pair(snaps, r - 2), pair(snaps, r - 1), pair(snaps, r)];
    for near in nears.into_iter().chain([pair(snaps, r + 1), pair(snaps, r + 2)]) {
        let s = split(len, free, near);
        assert_eq!(s.advance, expected, "len = {len}, free = {free}, from r = {}", near.r);
        let Some(word) = split_word(len, snaps, near) else {
            panic!("overflow at len = {len}, free = {free}")
        };
        assert_eq!(word.advance, expected);
        // The parts' pairs are true pairs, at or above the parts' own repetition numbers.
        let (first, rest) = (s.first, s.rest);
        assert_eq!(first, pair(snaps, first.r), "len = {len}, free = {free}");
        assert_eq!(rest, pair(free, rest.r), "len = {len}, free = {free}");
        assert!(s.advance <= first.reach && len - s.advance <= rest.reach);
    }
}

#[test]
fn short_segments_advance_one_step_as_storing_them_does() {
    // `Plan` stores a segment of len <= free + 2 steps in one pass instead of splitting it: the
    // split of before advanced one step at a time through it.
    for free in 1..=200 {
        for len in 2..=free + 2 {
            assert_eq!(before::split(len, free), 1, "len = {len}, free = {free}");
        }
    }
}

#[test]
fn the_split_is_the_one_of_before_for_every_short_segment() {
    for free in 1..=65 {
        for len in free + 3..=2500 {
            check(len, free);
        }
    }
}

#[test]
fn the_split_is_the_one_of_before_up_to_ten_million_steps() {
    const MAX: usize = 10_000_000;
    // Every boundary of the formula's cases, for every repetition number within 10⁷ steps:
    // around C(s + r, s), C(s + r - 1, s) + C(s + r - 3, s - 2) and C(s + r, s) - C(s + r - 3,
    // s - 3) (see `split_word`).
    for free in 1..=64 {
        let snaps = free + 1;
        // (With one free snapshot, r reaches 4 471: every 50th.)
        for r in (2..).step_by(if free == 1 { 50 } else { 1 }) {
            let reach = binomial(snaps + r, snaps);
            if binomial(snaps + r - 1, snaps) > MAX {
                break;
            }
            let bino1 = binomial(snaps + r - 1, snaps);
            let bino3 = binomial(snaps + r - 3, snaps - 2);
            let bino5 = if snaps >= 3 { binomial(snaps + r - 3, snaps - 3) } else { 0 };
            for edge in [bino1, bino1 + bino3, reach - bino5, reach] {
                for len in edge.saturating_sub(2)..=edge + 2 {
                    if len > free + 2 && len <= MAX {
                        check(len, free);
                    }
                }
            }
        }
    }
    // And a sample in between (xorshift, fixed seed).
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..20_000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let free = 1 + (x % 64) as usize;
        let len = (free + 3).max((x >> 8) as usize % (MAX + 1));
        check(len, free);
    }
}

#[test]
fn huge_segments_split_as_the_wide_formula() {
    // Up to 10¹² steps and 1024 snapshots, the word arithmetic does not overflow.
    for free in [1, 2, 3, 15, 63, 1023] {
        for len in [10_usize.pow(9), 10_usize.pow(12)] {
            assert!(split_word(len, free + 1, Reps::ZERO).is_some(), "len = {len}, free = {free}");
        }
    }
    // Beyond, where it may, `split` takes the wide formula. (Segments this long with one or two
    // free snapshots take billions of the binomials' steps: not tested.)
    let lens = [usize::MAX, usize::MAX - 1, usize::MAX / 3, 1 << 62, 1 << 56, 123_456_789_012];
    for free in (3..=20).chain([63, 64, 1000]) {
        for len in lens {
            let wide = split_wide(len, free);
            assert_eq!(split(len, free, Reps::ZERO).advance, wide, "len = {len}, free = {free}");
            if let Some(s) = split_word(len, free + 1, Reps::ZERO) {
                assert_eq!(s.advance, wide);
            }
        }
    }
}
