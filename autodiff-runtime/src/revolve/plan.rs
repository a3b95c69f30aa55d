//! The revolve schedule as a sequence of moves, computed one at a time with no heap: the one
//! sequence that both `revolve` and `schedule_steps` follow.

use super::split::{Reps, Split, split};

/// A segment of the schedule: the steps from `start` to the first step already reversed, with
/// `free` free snapshots (besides the one holding the state before `start`).
#[derive(Clone, Copy, Debug)]
pub(super) struct Segment {
    /// Its first step.
    pub(super) start: usize,
    /// The free snapshots it may use.
    pub(super) free: usize,
    /// A repetition number for `free + 1` snapshots near the segment's own, from its parent.
    reps: Reps,
}

/// What the schedule does next. `slot` holds the state before step `from`.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Move {
    /// Advance from the state in `slot` over steps `from..to`, into `slot + 1`.
    Advance { slot: usize, from: usize, to: usize },
    /// Reverse steps `from..to` with the free slots after `slot`, at least `to − from − 2` of
    /// them: advance once, keeping each state but the last in a slot, then sweep back. (Revolve
    /// would split such a segment one step at a time, making the same steps in the same order.)
    Store { slot: usize, from: usize, to: usize },
    /// Reverse steps `from..to` with no free snapshot: each step's state is recomputed from the
    /// one in `slot`, last first.
    Recompute { slot: usize, from: usize, to: usize },
    /// Every step is reversed.
    Done,
}

/// The schedule of reversing `n` steps with `slots ≤ N` snapshots, move by move.
pub(super) struct Plan<const N: usize> {
    slots: usize,
    /// The first part of each segment split so far whose rest is being reversed, the latest on
    /// top; their `free` decrease from the bottom, so fewer than `slots` wait at once.
    pending: [Segment; N],
    top: usize,
    /// The segment being reversed.
    pub(super) current: Segment,
    /// The first step already reversed: where `current` ends.
    pub(super) end: usize,
}

impl<const N: usize> Plan<N> {
    /// The plan for `n` steps, with `1 ≤ slots ≤ N` snapshots.
    pub(super) const fn new(n: usize, slots: usize) -> Self {
        let current = Segment { start: 0, free: slots - 1, reps: Reps::ZERO };
        Plan { slots, pending: [current; N], top: 0, current, end: n }
    }

    /// Makes this the plan for `n` steps with `1 ≤ slots ≤ N` snapshots, as [`Plan::new`] would,
    /// without writing the `N` waiting segments again (each is written before it is read).
    pub(super) const fn restart(&mut self, n: usize, slots: usize) {
        self.slots = slots;
        self.top = 0;
        self.current = Segment { start: 0, free: slots - 1, reps: Reps::ZERO };
        self.end = n;
    }

    /// The next move; [`Move::Done`] from the end on.
    pub(super) const fn next(&mut self) -> Move {
        let Segment { start: from, free, reps } = self.current;
        let to = self.end;
        let slot = self.slots - 1 - free;
        let len = to - from;
        if len == 0 {
            return Move::Done;
        }
        if len <= free + 2 || free == 0 {
            // The segment is reversed now; then the first part that waits, if any.
            self.end = from;
            if self.top > 0 {
                self.top -= 1;
                self.current = self.pending[self.top];
            }
            return if len <= free + 2 {
                Move::Store { slot, from, to }
            } else {
                Move::Recompute { slot, from, to }
            };
        }
        let Split { advance, first, rest } = split(len, free, reps);
        let m = from + advance;
        self.pending[self.top] = Segment { start: from, free, reps: first };
        self.top += 1;
        self.current = Segment { start: m, free: free - 1, reps: rest };
        Move::Advance { slot, from, to: m }
    }
}
