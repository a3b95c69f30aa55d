//! `benches/checkpoint.rs` at 10⁶ steps: the fully stored sweep (24 MB of stack, budget raised
//! with `stack = …`) against checkpointed sweeps with 4, 16 and 64 snapshots.
//!
//! Run with `cargo bench --bench checkpoint_long` (about two minutes: with 4 snapshots a
//! gradient recomputes every step about 60 times).

mod interleave;
mod oscillator;

use std::time::Duration;

use oscillator::{Variants, compare, oscillator};

oscillator!(stored_1e6, 1_000_000, stack = 25_000_000);
oscillator!(s4_1e6, 1_000_000, checkpoint(s = 4));
oscillator!(s16_1e6, 1_000_000, checkpoint(s = 16));
oscillator!(s64_1e6, 1_000_000, checkpoint(s = 64));

fn main() {
    compare(
        Variants {
            n: 1_000_000,
            primal: stored_1e6,
            stored: stored_1e6_grad,
            checkpointed: [(4, s4_1e6_grad), (16, s16_1e6_grad), (64, s64_1e6_grad)],
        },
        Duration::from_secs(60),
        10,
    );
}
