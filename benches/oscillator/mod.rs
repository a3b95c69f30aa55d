//! The damped oscillator of `autodiff_suite::checkpoint` at the sizes the checkpointing
//! benchmarks need, and the interleaved comparison they share (`benches/checkpoint.rs` at 10⁴ and
//! 10⁵ steps, `benches/checkpoint_long.rs` at 10⁶).
//!
//! For one number of steps `n`, [`compare`] times the primal, the gradient of the fully stored
//! sweep (every step's state on the stack; `#[grad(stack = …)]` raises the budget where it is
//! over 512 KiB, and the whole comparison runs in a thread with stack for it) and the
//! gradients checkpointed with `s` = 4, 16 and 64 snapshots (`#[grad(checkpoint(s = …))]`), and
//! prints the measured gradient/primal ratios beside the recomputation that the schedule
//! predicts.
//!
//! What is counted, in forward steps of the loop (one step = the loop body once) per step:
//! - the primal pass of the gradient: 1 (the generated `_grad` runs the loop once for the value
//!   and the final state, storing the states in the stored version);
//! - revolve's schedule: `R = schedule_steps(n, s) / n` (it advances from the initial state
//!   again, so the first snapshots are recomputed too, not taken from the primal pass);
//! - the sweep: 1, since `back` recomputes the step's intermediates (`x + dt v + …`, `half`,
//!   `next`) from the state before it, in both versions (the stored version stores the carried
//!   state only);
//! - plus the adjoint arithmetic of one step, `a` forward steps' worth, the same in both.
//!
//! So the stored gradient costs `2 + a` primal steps per step and the checkpointed one `2 + R + a`:
//! with `a` read off the measured stored ratio, the predicted checkpointed ratio is
//! `stored/primal + R`, printed beside the measured one.

use std::hint::black_box;
use std::time::Duration;

use autodiff_runtime::revolve::{repetitions, schedule_steps};

use crate::interleave::{Clock, Kernel, interleave, load_average};

pub(crate) use autodiff_suite::oscillator;

/// A primal: `(x0, v0, gamma, dt) -> energy`.
pub type Primal = fn(f64, f64, f64, f64) -> f64;
/// A gradient: `(x0, v0, gamma, dt) -> (energy, gradient)`.
pub type Gradient = fn(f64, f64, f64, f64) -> (f64, (f64, f64, f64, f64));

/// The variants at one number of steps.
pub struct Variants {
    /// The number of steps.
    pub n: usize,
    pub primal: Primal,
    /// The fully stored sweep.
    pub stored: Gradient,
    /// `(s, gradient)`: the checkpointed sweeps, with `s` = 4, 16 and 64 snapshots.
    pub checkpointed: [(usize, Gradient); 3],
}

/// The point: a trajectory of `n · dt` = 10 to 1000 time units, damped by at most `e⁻⁵`, so
/// every number stays far from the subnormals.
const POINT: (f64, f64, f64, f64) = (1.0, 0.5, 0.01, 1e-3);

/// The stack the comparison's thread gets: the stored sweep of 10⁶ steps keeps 24 MB.
const STACK: usize = 64 << 20;

const NAMES: [&str; 3] = ["s4", "s16", "s64"];

/// Checks that every checkpointed gradient is the stored one to the bit, then times them all
/// interleaved (rounds of about `budget / min_rounds`, at least `min_rounds` of them) and prints
/// the ratios and the prediction.
pub fn compare(v: Variants, budget: Duration, min_rounds: usize) {
    std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(move || compare_here(&v, budget, min_rounds))
        .expect("a thread")
        .join()
        .expect("no panic");
}

fn compare_here(v: &Variants, budget: Duration, min_rounds: usize) {
    let (x0, v0, gamma, dt) = POINT;
    let stored = (v.stored)(x0, v0, gamma, dt);
    assert_eq!(stored.0, (v.primal)(x0, v0, gamma, dt), "value, n = {}", v.n);
    for (s, grad) in v.checkpointed {
        assert_eq!(grad(x0, v0, gamma, dt), stored, "n = {}, s = {s}: not the stored sweep", v.n);
    }
    let call = |f: Gradient| {
        move || {
            black_box(f(black_box(x0), black_box(v0), black_box(gamma), black_box(dt)));
        }
    };
    let primal = v.primal;
    let mut kernels = vec![
        Kernel::new("primal", move || {
            black_box(primal(black_box(x0), black_box(v0), black_box(gamma), black_box(dt)));
        }),
        Kernel::new("stored", call(v.stored)),
    ];
    for ((_, grad), name) in v.checkpointed.iter().zip(NAMES) {
        kernels.push(Kernel::new(name, call(*grad)));
    }
    println!("n = {}: load average before {}", v.n, load_average());
    let t = interleave(&kernels, Duration::from_millis(1), budget, min_rounds, Clock::ThreadCpu);
    let workload = format!("oscillator_{}", v.n);
    t.report(
        &workload,
        &[
            ("stored/primal", "stored", "primal"),
            ("s4/primal", "s4", "primal"),
            ("s16/primal", "s16", "primal"),
            ("s64/primal", "s64", "primal"),
        ],
    );
    let stored_ratio = t.ratio("stored", "primal")[1];
    println!(
        "{workload}: s | schedule_steps | R = steps/n | r (most recomputations of a step) | forward steps per step 2 + R | predicted grad/primal (stored + R) | measured"
    );
    for ((s, _), name) in v.checkpointed.iter().zip(NAMES) {
        let steps = schedule_steps(v.n, *s);
        let r = steps as f64 / v.n as f64;
        let measured = t.ratio(name, "primal")[1];
        println!(
            "{workload}: {s} | {steps} | {r:.2} | {} | {:.2} | {:.2} | {measured:.2}",
            repetitions(v.n, s - 1),
            2.0 + r,
            stored_ratio + r,
        );
        println!("THEORY {workload} {s} {steps} {r:.4} {:.4} {measured:.4}", stored_ratio + r);
    }
    println!("n = {}: load average after {}", v.n, load_average());
}
