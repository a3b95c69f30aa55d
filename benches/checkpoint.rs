//! Checkpointed against stored reverse sweeps of a long loop, at 10⁴ and 10⁵ steps with 4, 16
//! and 64 snapshots: gradient/primal time ratios, interleaved, beside the recomputation that
//! revolve's schedule predicts (see `benches/oscillator/mod.rs` for what is counted).
//! `benches/checkpoint_long.rs` does the same at 10⁶ steps.
//!
//! Run with `cargo bench --bench checkpoint` (about a minute).

mod interleave;
mod oscillator;

use std::time::Duration;

use oscillator::{Variants, compare, oscillator};

// 10⁴ steps: storing x, v and a takes 240 kB, within the default budget of 512 KiB.
oscillator!(stored_1e4, 10_000, wrt(x0, v0, gamma, dt));
oscillator!(s4_1e4, 10_000, checkpoint(s = 4));
oscillator!(s16_1e4, 10_000, checkpoint(s = 16));
oscillator!(s64_1e4, 10_000, checkpoint(s = 64));

// 10⁵ steps: 2.4 MB stored.
oscillator!(stored_1e5, 100_000, stack = 2_500_000);
oscillator!(s4_1e5, 100_000, checkpoint(s = 4));
oscillator!(s16_1e5, 100_000, checkpoint(s = 16));
oscillator!(s64_1e5, 100_000, checkpoint(s = 64));

fn main() {
    compare(
        Variants {
            n: 10_000,
            primal: stored_1e4,
            stored: stored_1e4_grad,
            checkpointed: [(4, s4_1e4_grad), (16, s16_1e4_grad), (64, s64_1e4_grad)],
        },
        Duration::from_secs(15),
        20,
    );
    compare(
        Variants {
            n: 100_000,
            primal: stored_1e5,
            stored: stored_1e5_grad,
            checkpointed: [(4, s4_1e5_grad), (16, s16_1e5_grad), (64, s64_1e5_grad)],
        },
        Duration::from_secs(20),
        20,
    );
}
