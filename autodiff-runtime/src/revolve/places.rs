//! Which states online checkpointing keeps while a loop of unknown length runs: the dynamic
//! checkpointing of Wang, Moin & Iaccarino (SIAM J. Sci. Comput. 31(4), 2009), in a few integers
//! per slot and a constant amount of work per step, with no states (those are [`super::Online`]'s).
//!
//! Every kept state has a level. The first `slots` states are all kept: the first at level ∞ (it
//! is never dropped), the others at level 0. From then on each new state is kept too, in the
//! place of another: a kept state is *dispensable* when a later one has a higher level; the
//! latest dispensable state gives way to the new one, which gets level 0; when none is
//! dispensable, the latest kept state gives way to the new one, one level above it. So the latest
//! state is always kept, and the first.
//!
//! The dispensable states are always one run of equal levels, consumed from its latest back, so
//! the latest of them is at hand without a search. By induction: when none is dispensable, the
//! levels never increase from the first kept state to the last; the latest one, at level `l`,
//! gives way to a state at `l + 1`, and the run of states at level `l` just before it becomes
//! dispensable (those before the run are above `l`). While the run gives way, state after state,
//! the states appended at level 0 after the one at `l + 1` leave the rest non-increasing, so that
//! once the run is spent, none is dispensable again.

use super::schedule_steps;

/// No slot.
pub(super) const NONE: usize = usize::MAX;

/// The kept states' steps and levels, in `slots ≤ N` slots, and the order of the slots.
#[derive(Clone, Debug)]
pub(super) struct Places<const N: usize> {
    /// The slots in use, at most `N`.
    pub(super) slots: usize,
    /// The states pushed so far: the steps of the loop.
    pub(super) steps: usize,
    /// Slots `0..used` hold a state (all of them once `slots` states were pushed).
    pub(super) used: usize,
    /// The slot of the latest kept state.
    pub(super) last: usize,
    /// The slot of the latest dispensable state, [`NONE`] if none is.
    run: usize,
    /// The slot of the state just after the dispensable run: the one that made it dispensable.
    after: usize,
    /// The step before which the state in a slot was pushed (its index in the loop).
    pub(super) pos: [usize; N],
    /// The level of the state in a slot.
    pub(super) level: [usize; N],
    /// The slot of the kept state before the one in a slot, [`NONE`] for the first.
    pub(super) prev: [usize; N],
}

impl<const N: usize> Places<N> {
    /// No state yet, with `1 ≤ slots ≤ N` slots.
    pub(super) const fn new(slots: usize) -> Self {
        Places {
            slots,
            steps: 0,
            used: 0,
            last: NONE,
            run: NONE,
            after: NONE,
            pos: [0; N],
            level: [0; N],
            prev: [NONE; N],
        }
    }

    /// Forgets every state, as [`Places::new`].
    pub(super) const fn clear(&mut self) {
        (self.steps, self.used, self.last, self.run, self.after) = (0, 0, NONE, NONE, NONE);
    }

    /// Records the state before the next step: returns the slot to keep it in (whose state it
    /// replaces), or [`NONE`] with a single slot past the first step (that slot keeps the first
    /// state).
    ///
    /// # Panics
    ///
    /// Past `usize::MAX` steps.
    pub(super) const fn push(&mut self) -> usize {
        let k = self.steps;
        self.steps = match k.checked_add(1) {
            Some(steps) => steps,
            None => panic!("online checkpointing counts at most usize::MAX steps"),
        };
        if self.used < self.slots {
            let slot = self.used;
            self.used += 1;
            self.level[slot] = if k == 0 { usize::MAX } else { 0 };
            return self.append(slot, k);
        }
        if self.slots == 1 {
            return NONE;
        }
        let slot = self.run;
        if slot != NONE {
            // The latest dispensable state gives way; the one before it is next if it has its
            // level (the one before the run has a higher level, the first state ∞).
            let before = self.prev[slot];
            self.prev[self.after] = before;
            self.run = if self.level[before] == self.level[slot] { before } else { NONE };
            self.level[slot] = 0;
            return self.append(slot, k);
        }
        // None is dispensable: the latest gives way, one level up, and those of its level just
        // before it become dispensable. (With two slots or more, the latest is not the first.)
        let slot = self.last;
        let level = self.level[slot];
        self.pos[slot] = k;
        self.level[slot] = level + 1;
        let before = self.prev[slot];
        self.run = if self.level[before] == level { before } else { NONE };
        self.after = slot;
        slot
    }

    /// Makes `slot` the latest kept state, that of step `k`.
    const fn append(&mut self, slot: usize, k: usize) -> usize {
        self.pos[slot] = k;
        self.prev[slot] = self.last;
        self.last = slot;
        slot
    }

    /// The `step` calls of reversing the steps so far from the kept states: each segment between
    /// two kept states by revolve's schedule, with the slots of the states before it held and the
    /// others free, the last segment first (saturating at `usize::MAX`).
    pub(super) const fn cost(&self) -> usize {
        let (mut total, mut end, mut slot, mut j) = (0usize, self.steps, self.last, self.used);
        while slot != NONE {
            j -= 1;
            let start = self.pos[slot];
            total = total.saturating_add(schedule_steps(end - start, self.slots - j));
            (end, slot) = (start, self.prev[slot]);
        }
        total
    }
}
