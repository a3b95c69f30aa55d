//! Interleaved timing of calls: a `#[grad]` function that calls other `#[grad]` functions,
//! differentiated through their `_grad` and `_hvp`, against the same body with the callees
//! written out by hand, both generated. The ratios say what a call costs a gradient.
//!
//! The kernels take turns in short blocks, round after round (`benches/interleave/`), and each
//! ratio is the median over rounds of the ratio within a round.
//!
//! Run with `cargo bench --bench interleaved_calls` (about ten seconds).

use std::hint::black_box;
use std::time::Duration;

use autodiff_suite::calls;

mod interleave;
use interleave::{Clock, Kernel, interleave, load_average};

/// The ratios each pair reports: the caller over its written-out twin, and gradient over primal.
const RATIOS: [(&str, &str, &str); 5] = [
    ("calls/written_primal", "primal_calls", "primal_written"),
    ("calls/written_grad", "grad_calls", "grad_written"),
    ("calls/written_hvp", "hvp_calls", "hvp_written"),
    ("grad/primal_calls", "grad_calls", "primal_calls"),
    ("grad/primal_written", "grad_written", "primal_written"),
];

fn time(workload: &str, kernels: &[Kernel]) {
    let timings =
        interleave(kernels, Duration::from_micros(20), Duration::from_secs(4), 20, Clock::Wall);
    timings.report(workload, &RATIOS);
}

fn main() {
    println!("load average {}", load_average());
    let (x, y, vx, vy) = (0.7, 1.3, 0.6, -1.1);
    let bb = black_box::<f64>;
    time(
        "f->g->h",
        &[
            Kernel::new("primal_calls", || {
                black_box(calls::f(bb(x), bb(y)));
            }),
            Kernel::new("grad_calls", || {
                black_box(calls::f_grad(bb(x), bb(y)));
            }),
            Kernel::new("hvp_calls", || {
                black_box(calls::f_hvp(bb(x), bb(y), bb(vx), bb(vy)));
            }),
            Kernel::new("primal_written", || {
                black_box(calls::f_inlined(bb(x), bb(y)));
            }),
            Kernel::new("grad_written", || {
                black_box(calls::f_inlined_grad(bb(x), bb(y)));
            }),
            Kernel::new("hvp_written", || {
                black_box(calls::f_inlined_hvp(bb(x), bb(y), bb(vx), bb(vy)));
            }),
        ],
    );

    let p = [0.3, -1.0, 0.5, 2.0, -0.2];
    let v = [1.0, 0.5, -0.5, 0.25, 2.0];
    let ba = black_box::<[f64; 5]>;
    time(
        "softplus_ring",
        &[
            Kernel::new("primal_calls", || {
                black_box(calls::softplus_ring(ba(p)));
            }),
            Kernel::new("grad_calls", || {
                black_box(calls::softplus_ring_grad(ba(p)));
            }),
            Kernel::new("hvp_calls", || {
                black_box(calls::softplus_ring_hvp(ba(p), ba(v)));
            }),
            Kernel::new("primal_written", || {
                black_box(calls::softplus_ring_inlined(ba(p)));
            }),
            Kernel::new("grad_written", || {
                black_box(calls::softplus_ring_inlined_grad(ba(p)));
            }),
            Kernel::new("hvp_written", || {
                black_box(calls::softplus_ring_inlined_hvp(ba(p), ba(v)));
            }),
        ],
    );
}
