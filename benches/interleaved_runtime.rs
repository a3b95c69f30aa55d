//! Loops of run-time length (`0..n`) stored in capacity tiers (issue 18), interleaved: the
//! gradient of `x ← x + h·p·sin x` over `n` steps, `n` a parameter, against
//! - `checkpointed`: the same under `#[grad(checkpoint)]` (32 snapshots), what a run-time trip
//!   count always was before;
//! - `untiered`: the stored variant with one capacity, the budget's (32 768 steps of 16 bytes in
//!   512 KiB), zero-filled whatever `n` is: the generated stored closure of `drift_grad`, pasted
//!   with that capacity (what branch `runtime-store` generated before the tiers);
//! - `exact`: the same loop over `0..N`, `N` a const generic equal to `n`, stored in arrays of
//!   exactly `N` steps (the least storage a stored sweep can have);
//! - `objective`: the loop itself.
//!
//! At n = 4 and 16 (the first tier, 64 steps), at the tiers' edges 64 and 1024 and one past them
//! (65 and 1025, the next tier's 16 times as much storage to fill: the worst case of the tier
//! ratio). Every gradient is checked against the tiered one to the bit before timing.
//!
//! Run with `cargo bench --bench interleaved_runtime` (about 20 seconds). The LSTM's run-time
//! length is in `benches/interleaved_adbench.rs` (`-- lstm`).

mod interleave;

use std::hint::black_box;
use std::time::Duration;

use autodiff_runtime::grad;
use interleave::{Clock, Kernel, interleave, load_average};

/// The loop, `n` steps: stored in the smallest tier that holds `n`.
#[grad(wrt(x0, p))]
fn drift(x0: f64, p: f64, h: f64, n: usize) -> f64 {
    let mut x = x0;
    for _ in 0..n {
        x += h * p * x.sin();
    }
    x
}

/// The same, always checkpointed.
#[grad(wrt(x0, p), checkpoint)]
fn drift_checkpointed(x0: f64, p: f64, h: f64, n: usize) -> f64 {
    let mut x = x0;
    for _ in 0..n {
        x += h * p * x.sin();
    }
    x
}

/// The same over `0..N`, stored in arrays of `N` steps.
#[grad(wrt(x0, p))]
fn drift_exact<const N: usize>(x0: f64, p: f64, h: f64) -> f64 {
    let mut x = x0;
    for _ in 0..N {
        x += h * p * x.sin();
    }
    x
}

/// The budget's capacity of [`drift`]'s steps: 512 KiB over 16 bytes (`x` and `sin x`).
const CAPACITY: usize = 32_768;

/// [`drift_grad`]'s stored variant with the one capacity [`CAPACITY`], as the macro wrote it
/// before the tiers (its expansion, pasted, run out of line as the macro's variants now are),
/// and the checkpointed variant past it.
#[allow(clippy::needless_range_loop)] // the expansion's, as it is
fn drift_untiered_grad(x0: f64, p: f64, h: f64, n: usize) -> (f64, (f64, f64)) {
    if n <= CAPACITY {
        let stored = || {
            let mut x_saved = [0.0_f64; CAPACITY];
            let mut saved = [0.0; CAPACITY];
            let t0 = h * p;
            let mut x = x0;
            for i in 0..n {
                x_saved[i] = x;
                let t1 = x.sin();
                saved[i] = t1;
                x += t0 * t1;
            }
            let mut x_bar = 1.0;
            let mut p_bar = 0.0;
            for i in (0..n).rev() {
                let x_1 = x_saved[i];
                let t2 = x_bar * saved[i] * h;
                x_bar += x_bar * t0 * x_1.cos();
                p_bar += t2;
            }
            (x, (x_bar, p_bar))
        };
        autodiff_runtime::__private::variant(stored)
    } else {
        drift_checkpointed_grad(x0, p, h, n)
    }
}

const RATIOS: [(&str, &str, &str); 6] = [
    ("tiered/checkpointed", "tiered", "checkpointed"),
    ("tiered/untiered", "tiered", "untiered"),
    ("tiered/exact", "tiered", "exact"),
    ("untiered/exact", "untiered", "exact"),
    ("checkpointed/exact", "checkpointed", "exact"),
    ("tiered/objective", "tiered", "objective"),
];

/// The gradients at `N` steps, checked, then timed.
fn steps<const N: usize>() {
    let (x0, p, h) = (0.4, 1.3, 1e-3);
    let tiered = drift_grad(x0, p, h, N);
    for (what, other) in [
        ("checkpointed", drift_checkpointed_grad(x0, p, h, N)),
        ("untiered", drift_untiered_grad(x0, p, h, N)),
        ("exact", drift_exact_grad::<N>(x0, p, h)),
    ] {
        assert_eq!(tiered, other, "n = {N}: {what} differs from the tiered gradient");
    }
    let kernels = [
        Kernel::new("objective", || {
            black_box(drift(black_box(x0), black_box(p), black_box(h), black_box(N)));
        }),
        Kernel::new("tiered", || {
            black_box(drift_grad(black_box(x0), black_box(p), black_box(h), black_box(N)));
        }),
        Kernel::new("checkpointed", || {
            black_box(drift_checkpointed_grad(
                black_box(x0),
                black_box(p),
                black_box(h),
                black_box(N),
            ));
        }),
        Kernel::new("untiered", || {
            black_box(drift_untiered_grad(black_box(x0), black_box(p), black_box(h), black_box(N)));
        }),
        Kernel::new("exact", || {
            black_box(drift_exact_grad::<N>(black_box(x0), black_box(p), black_box(h)));
        }),
    ];
    let t = interleave(
        &kernels,
        Duration::from_millis(1),
        Duration::from_secs(3),
        20,
        Clock::ThreadCpu,
    );
    t.report(&format!("drift_n{N}"), &RATIOS);
}

fn run() {
    println!("load average before: {}", load_average());
    steps::<4>();
    steps::<16>();
    steps::<64>();
    steps::<65>();
    steps::<1024>();
    steps::<1025>();
    println!("load average after: {}", load_average());
}

fn main() {
    // The untiered variant keeps 512 KiB on the stack, the const-length one up to 16 KiB.
    std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(run)
        .expect("a thread")
        .join()
        .expect("the benchmark");
}
