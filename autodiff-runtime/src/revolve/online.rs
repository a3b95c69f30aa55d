//! Online checkpointing: the reverse sweep of a loop whose number of steps is known only when it
//! ends (`while`, `loop` with `break`), from `S` snapshots of its state in a fixed-size array,
//! placed while the loop runs (which states, in `places`) and swept back, once the loop has
//! ended, segment by segment with revolve's schedule for the length then known.

use super::places::{NONE, Places};
use super::{MAX_SLOTS, Plan, sweep};

/// The snapshots of a loop of unknown length, placed while it runs, and its reverse sweep.
///
/// The loop drives itself (its condition and its `break`s are its own): before each step it
/// hands the state it carries to [`push`](Online::push), which keeps it or not; after the loop,
/// [`reverse`](Online::reverse) runs the reverse sweep from the kept states, calling `back` once
/// per step, last step first, with the state before that step, recomputed by `step` from the
/// nearest kept state before it. So the result is, to the bit, that of a sweep that stored every
/// state, and that of [`revolve`](super::revolve) given the same number of steps.
///
/// ```
/// use autodiff_runtime::revolve::Online;
///
/// // x ← x + h·sin(x)·p while t < 1, t ← t + h: the derivatives of the last x in x₀ and p.
/// let (h, p, x0) = (0.01, 0.5, 1.0);
/// let step = |_k: usize, (x, t): (f64, f64)| (x + h * x.sin() * p, t + h);
/// let back = |_k: usize, (x, _t): (f64, f64), (dx, dp): (f64, f64)| {
///     (dx * (1.0 + h * x.cos() * p), dp + dx * h * x.sin())
/// };
/// let mut tape = Online::<8, (f64, f64)>::new((x0, 0.0));
/// let mut state = (x0, 0.0);
/// let mut stored = Vec::new(); // the sweep that stores every state, for comparison
/// while state.1 < 1.0 {
///     let k = tape.push(&state);
///     stored.push(state);
///     state = step(k, state);
/// }
/// assert_eq!(tape.steps(), 100); // a hundred additions of 0.01 make t ≥ 1
/// let gradient = tape.reverse((1.0, 0.0), step, back);
/// let expected = (0..stored.len()).rev().fold((1.0, 0.0), |a, k| back(k, stored[k], a));
/// assert_eq!(gradient, expected);
/// ```
///
/// Memory: the `S` snapshots, `[X; S]`, and three words of bookkeeping per snapshot and six more,
/// in the value itself (on the stack where it lives: `size_of::<Online<S, X>>()` is `S ×
/// size_of::<X>() + 24 S + 48` bytes on a 64-bit target); the reverse sweep takes four words per
/// snapshot more on the stack while it runs. No heap, for any number of steps.
///
/// Cost, for a loop of `n` steps: `push` copies the state into a snapshot at every step (with
/// `S = 1`, at the first only) and does a few integer operations. `reverse` calls `step`
/// [`online_steps`]`(n, S)` times: none while `n ≤ S` (every state is kept), and past that no
/// step more than `r` times, with `r` the least such that `C(S + r, S) ≥ n` (the most that
/// revolve recomputes a step given `n`), in all no more than revolve's
/// [`schedule_steps`](super::schedule_steps)`(n, S) = r·n − C(S + r, r − 1)`, and fewer, since
/// the loop itself placed the snapshots (both bounds checked for every `n` up to 10⁶ with 2 to 16,
/// 32 and 64 snapshots, in the runtime's tests; with one snapshot the count is revolve's). There
/// is no limit to `n` but `usize::MAX`, and no panic before it: the recomputation grows as
/// revolve's does.
///
/// Where the snapshots go: the dynamic checkpointing of Wang, Moin & Iaccarino (2009). Each kept
/// state has a level; the first `S` states are kept, the first of all at level ∞, the others at
/// 0; then each new state takes the place of the latest kept state that a later one of higher
/// level makes dispensable, at level 0, or, when there is none, of the latest kept state, one
/// level above it. The reverse sweep then takes the segments between kept states from the last
/// to the first, each by revolve's schedule for its length, with the snapshots of the segments
/// after it as free slots.
#[derive(Clone, Debug)]
pub struct Online<const S: usize, X> {
    /// The kept states, in the slots `places` says.
    pub(super) snapshots: [X; S],
    /// Which steps' states the snapshots hold, and which to replace next.
    pub(super) places: Places<S>,
}

impl<const S: usize, X: Copy> Online<S, X> {
    /// No step yet. `fill` fills the snapshot array and is never used as a state: the state
    /// before the loop is a good value to give.
    pub fn new(fill: X) -> Self {
        const { assert!(S >= 1, "online checkpointing needs at least one snapshot") };
        Online { snapshots: [fill; S], places: Places::new(S) }
    }

    /// Records `x`, the state before the next step, and returns that step's index `k` (the
    /// number of steps recorded before it, from 0): call it at the top of every step, before the
    /// step changes the state, including a last step that leaves the loop midway (`break`).
    ///
    /// # Panics
    ///
    /// Past `usize::MAX` steps.
    #[inline]
    pub fn push(&mut self, x: &X) -> usize {
        let k = self.places.steps;
        let slot = self.places.push();
        if slot != NONE {
            self.snapshots[slot] = *x;
        }
        k
    }

    /// The steps recorded so far.
    pub fn steps(&self) -> usize {
        self.places.steps
    }

    /// Runs the reverse sweep of the steps recorded, and forgets them (the value is then as new,
    /// ready for another run of the loop).
    ///
    /// `step(k, x)` is the loop's step `k` (as numbered by [`push`](Online::push)) from the state
    /// `x` before it to the state after it, exactly as the loop computed it; `back(k, x, a)` is
    /// the reverse sweep of step `k`: from the state before it and the adjoint after it, the
    /// adjoint before it. Starting from `adjoint`, the adjoint after the last step, `reverse`
    /// calls `back` once per step, last first, and returns the adjoint before the first step
    /// (`adjoint` itself if no step was recorded); it calls `step` [`online_steps`]`(n, S)`
    /// times for `n` steps.
    pub fn reverse<A>(
        &mut self,
        adjoint: A,
        step: impl Fn(usize, X) -> X,
        back: impl Fn(usize, X, A) -> A,
    ) -> A {
        self.sort();
        let mut adjoint = adjoint;
        let mut plan = Plan::<S>::new(0, S);
        let mut end = self.places.steps;
        for j in (0..self.places.used).rev() {
            // The segment from the j-th kept state, with the slots of the later ones free.
            let start = self.places.pos[j];
            plan.restart(end - start, S - j);
            let index = |i: usize| start + i;
            let snapshots = &mut self.snapshots[j..];
            adjoint = sweep(&mut plan, snapshots, &index, adjoint, &step, &back);
            end = start;
        }
        self.places.clear();
        adjoint
    }

    /// Moves the kept states into the order of their steps: the `j`-th (from 0) into slot `j`,
    /// its step into `places.pos[j]` (the levels and the order of the slots are spent).
    fn sort(&mut self) {
        let p = &mut self.places;
        let m = p.used;
        // at[j]: the slot of the j-th kept state (in `level`); of[slot]: which state is in a slot
        // (in `prev`, once walked). The slots in use are 0..m.
        let (mut slot, mut j) = (p.last, m);
        while j > 0 {
            j -= 1;
            p.level[j] = slot;
            slot = p.prev[slot];
        }
        for j in 0..m {
            p.prev[p.level[j]] = j;
        }
        for j in 0..m {
            let at = p.level[j];
            if at != j {
                // Slots 0..j hold states 0..j, so at > j: swap; the state that was in slot j
                // is now in `at`.
                self.snapshots.swap(j, at);
                p.pos.swap(j, at);
                let moved = p.prev[j];
                p.level[moved] = at;
                p.prev[at] = moved;
            }
        }
    }
}

/// The number of `step` calls that [`Online::reverse`] makes after a loop of `n` steps with
/// `slots` snapshots: none for `n ≤ slots`, and at most revolve's
/// [`schedule_steps`](super::schedule_steps)`(n, slots)` (see [`Online`]). It places the
/// snapshots as the loop would, so it takes time in proportion to `n`; 0 for no snapshot,
/// `usize::MAX` beyond [`MAX_SLOTS`].
pub const fn online_steps(n: usize, slots: usize) -> usize {
    if slots == 0 {
        return 0;
    }
    if slots > MAX_SLOTS {
        return usize::MAX;
    }
    let mut places = Places::<MAX_SLOTS>::new(slots);
    let mut k = 0;
    while k < n {
        places.push();
        k += 1;
    }
    places.cost()
}
