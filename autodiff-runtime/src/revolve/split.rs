//! Where revolve splits a segment: Griewank & Walther's choice of the steps to advance before the
//! next snapshot, in word arithmetic from the repetition number of the segment's parent, with the
//! same formula in `u128` from scratch for segments whose binomials overflow a word.

/// A repetition number `r` and the number of steps `C(snaps + r, snaps)` that `snaps` snapshots
/// reverse with it: a segment's own, or a pair near it that [`split`] starts from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Reps {
    /// The repetition number: the most times a step is recomputed.
    pub(super) r: usize,
    /// `C(snaps + r, snaps)`.
    pub(super) reach: usize,
}

impl Reps {
    /// `r = 0`, reaching `C(snaps, snaps) = 1` step: a valid start for any number of snapshots.
    pub(super) const ZERO: Reps = Reps { r: 0, reach: 1 };
}

/// Where revolve splits a segment: the steps to advance before the next snapshot, and repetition
/// numbers near those of the two parts, for splitting them in turn.
#[derive(Debug)]
pub(super) struct Split {
    /// The steps to advance before the next snapshot, at least one and fewer than the segment's.
    pub(super) advance: usize,
    /// Near the first `advance` steps' own, with the same snapshots.
    pub(super) first: Reps,
    /// Near the rest's own, with one snapshot fewer.
    pub(super) rest: Reps,
}

/// How to split a segment of `len` steps with `free ≥ 1` free snapshots, `len > free + 2` (a
/// shorter one is reversed without splitting): revolve's choice (Griewank & Walther, Algorithm
/// 799), which makes the whole schedule take the fewest steps. `near` is a repetition number for
/// `free + 1` snapshots, with its reach, near the segment's own: the part's pair from its
/// parent's [`Split`], so that finding the segment's own takes a step or two of the binomials'
/// recurrence, not `r` of them from zero.
pub(super) const fn split(len: usize, free: usize, near: Reps) -> Split {
    match split_word(len, free + 1, near) {
        Some(split) => split,
        // Only where a product, at most `reach · (free + 1 + r)`, overflows a word: for segments
        // of well over 10¹² steps with up to 1024 snapshots. Their parts start from zero again.
        None => Split { advance: split_wide(len, free), first: Reps::ZERO, rest: Reps::ZERO },
    }
}

/// `a · b / c`, `None` if `a · b` overflows.
const fn mul_div(a: usize, b: usize, c: usize) -> Option<usize> {
    match a.checked_mul(b) {
        Some(p) => Some(p / c),
        None => None,
    }
}

/// [`split_wide`] in word arithmetic, with `snaps = free + 1 ≥ 2`, the binomials taken from
/// `near` by their recurrence in `r` instead of from `C(snaps, snaps)`; `None` where a product
/// overflows.
pub(super) const fn split_word(l: usize, snaps: usize, near: Reps) -> Option<Split> {
    // Find reach = C(snaps + r, snaps) for the least r with reach >= l, and below = C(snaps + r -
    // 1, snaps) < l. Up: C(s + r, s) = C(s + r - 1, s) (s + r) / r; down: the inverse. Each
    // quotient is exact.
    let Reps { mut r, mut reach } = near;
    while reach < l {
        r += 1;
        let Some(sr) = snaps.checked_add(r) else { return None };
        let Some(next) = mul_div(reach, sr, r) else { return None };
        reach = next;
    }
    let below = loop {
        let Some(below) = mul_div(reach, r, snaps + r) else { return None };
        if below < l {
            break below;
        }
        (r, reach) = (r - 1, below);
    };
    // l > snaps + 1 = C(snaps + 1, snaps), so r >= 2. As `split_wide` names them (s = snaps):
    // bino1 = C(s + r - 1, s), bino2 = C(s + r - 2, s - 1), bino3 = C(s + r - 3, s - 2),
    // bino4 = C(s + r - 2, s) (Pascal's rule), bino5 = C(s + r - 3, s - 3); each quotient is
    // exact, and each product is at most reach · (s + r).
    let bino1 = below;
    let Some(bino2) = mul_div(bino1, snaps, snaps + r - 1) else { return None };
    let bino3 = if snaps == 2 {
        1
    } else {
        let Some(b) = mul_div(bino2, snaps - 1, snaps + r - 2) else { return None };
        b
    };
    let advance = if l - bino1 <= bino3 {
        bino1 - bino2
    } else {
        let bino5 = match snaps {
            2 => 0,
            3 => 1,
            _ => {
                let Some(b) = mul_div(bino3, snaps - 2, r) else { return None };
                b
            }
        };
        if bino5 >= reach - l { bino1 } else { l - bino2 - bino3 }
    };
    // At least one step, and at least one left for the rest.
    let advance = if advance < 1 {
        1
    } else if advance > l - 1 {
        l - 1
    } else {
        advance
    };
    // The first part has at most bino1 steps (r - 1 repetitions reach them), the rest at most
    // reach - bino1 = C(s - 1 + r, s - 1) (r repetitions of one snapshot fewer reach them).
    Some(Split {
        advance,
        first: Reps { r: r - 1, reach: bino1 },
        rest: Reps { r, reach: reach - bino1 },
    })
}

/// How many of `n ≥ 2` steps to advance before the next snapshot, with `free ≥ 1` free ones, as
/// Griewank & Walther's Algorithm 799 computes it, from zero and in `u128`: for segments whose
/// binomials overflow a word.
pub(super) const fn split_wide(n: usize, free: usize) -> usize {
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
