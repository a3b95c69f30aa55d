//! Checkpointing: loops too long to store, loops of unknown length, and loops differentiated at
//! their fixed point.
//!
//! # Checkpointed loops
//!
//! `#[grad(checkpoint)]` (32 snapshots) or `#[grad(checkpoint(s = 16))]` checkpoints every loop
//! that would store values; loops whose storage cannot be sized or does not fit are
//! checkpointed with 32 snapshots (fewer if 32 do not fit the budget) without asking (see
//! [`loops`](super::loops)). A checkpointed loop stores nothing per step. Its sweep is a call of
//! [`revolve`](crate::revolve::revolve) with two closures, one iteration of the loop and the
//! sweep of one iteration, which runs Griewank and Walther's binomial schedule (revolve): it
//! keeps `s` snapshots of the loop's carried state in a fixed-size array on the stack and
//! rebuilds each step's state by running forward from the nearest snapshot. For a loop of `n`
//! steps whose carried state is `b` bytes:
//!
//! - memory: `s × b` bytes of snapshots (an oscillator's state `(x, v, a)` is 24 bytes: 16
//!   snapshots are 384 bytes, against 24 MB to store 10⁶ steps);
//! - recomputation: with `r` the smallest number such that `C(s + r, s) ≥ n`, revolve runs
//!   `r·n − C(s + r, r − 1)` forward steps in all (at most `r` per step), and the sweep of each
//!   step reruns that step once more. [`schedule_steps(n, s)`](crate::revolve::schedule_steps)
//!   gives the count; the generated function's doc comment states both numbers for each
//!   checkpointed loop;
//! - the same numbers: recomputation replays the same operations, so a checkpointed gradient
//!   equals the stored one to the bit (tested, for `_grad` and `_hvp`), up to the sign of a
//!   zero: a derivative that is exactly zero may be `0.0` in one sweep and `-0.0` in the other
//!   (an adjoint assigned at its first touch keeps the sign of the product assigned to it, one
//!   zeroed and then added into comes out `+0.0`). The same holds between the other forms said
//!   to agree to the bit (an iterator chain and its index loop, `_hessian` and `_jacobian` rows);
//! - composition: `hvp` through a checkpointed loop is `forward(reverse(f))` as always (the
//!   tangent state rides in the snapshots); a checkpointed outer loop may contain inner loops,
//!   whose storage then lives in the closure for one step;
//! - a loop whose sweep only accumulates (its differentiated state is only added to, `s += …`,
//!   `y[i] += …`; state that is not differentiated may change as it likes) needs its states in
//!   no particular order: checkpointed, it is one loop in its own order that runs the sweep of
//!   each step from its state and then steps to the next, with no snapshots and no
//!   recomputation (the stored sweep of such a loop runs in the same order, so the two still
//!   agree to the bit).
//!
//! A run-time trip count (`for _ in 0..steps`, `for t in 1..xs.len()`, its end an expression of
//! the parameters) is stored when it fits. Its storage is a fixed-size array, which Rust
//! zero-fills, so the macro writes the stored sweep several times, once per **capacity tier**:
//! 64, 1024, 16 384 and 262 144 steps, those below the capacity the budget holds of its steps
//! (`stack = ...` or the default 512 KiB, half of it with `hvp`, over the bytes one step stores),
//! and that capacity itself. When the function starts, and the length is known, it runs the
//! smallest tier that holds the length, so that the zero-fill is at most 16 times what the run
//! needs (past 64 steps), and the checkpointed sweep past them all, with the schedule computed
//! for that length; storage and snapshots are fixed-size arrays either way, so no heap. Each
//! variant is a closure, called out of line, so that only the one taken takes stack (a stored
//! one of a page or less is called in line); the function's shared references it reads are the
//! closure's parameters, passed on as parameters of the out-of-line call, so that the compiler
//! still knows nothing writes behind them. The doc
//! comment gives the tiers. A step whose size depends on a const generic (the LSTM's
//! `[[f64; B]; L]` state) has no capacity the macro can compute, but each tier's storage is an
//! array rustc can size: such a loop gets the tiers, each taken when rustc finds its storage
//! within the budget. Several run-time loops in one function share the tiers (each loop's
//! capacity at most the tier's), and are checkpointed when their storage together exceeds the
//! budget. All the sweeps agree to the bit (`tests/whiles.rs` counts the steps on each side of
//! each tier's capacity, and compares them with an always checkpointed twin, a const-length
//! stored sweep and finite differences). `BENCHMARKS.md` ("Run-time trip counts") has the times
//! and the code each tier costs.
//!
//! The trip count of a `const` item (`0..STEPS`) or of a const generic is not readable by the
//! macro, but rustc knows it: the generated function holds both sweeps, each in a closure, and
//! chooses, by a condition on the constants that rustc folds at compile time, the stored one
//! when its storage fits the budget and the checkpointed one otherwise (the doc comment gives
//! the condition). `const STEPS: usize = 100;` is stored and `1_000_000` checkpointed, with no
//! option written (`tests/whiles.rs` counts the steps of each;
//! `tests/ui/pass/const_trip_count.rs`).
//!
//! ```
//! use autodiff_runtime::grad;
//! use autodiff_runtime::revolve::schedule_steps;
//!
//! // A damped oscillator by semi-implicit Euler, its sweep stored and checkpointed.
//! #[grad(hvp)]
//! fn stored(x0: f64, k: f64) -> f64 {
//!     let (mut x, mut v) = (x0, 0.0);
//!     for _ in 0..1000 {
//!         v -= 0.01 * (k * x.sin() + 0.1 * v);
//!         x += 0.01 * v;
//!     }
//!     x
//! }
//!
//! #[grad(hvp, checkpoint(s = 8))]
//! fn checkpointed(x0: f64, k: f64) -> f64 {
//!     let (mut x, mut v) = (x0, 0.0);
//!     for _ in 0..1000 {
//!         v -= 0.01 * (k * x.sin() + 0.1 * v);
//!         x += 0.01 * v;
//!     }
//!     x
//! }
//!
//! // A run-time trip count: stored, as 1000 steps fit the budget.
//! #[grad(hvp)]
//! fn steps(x0: f64, k: f64, n: usize) -> f64 {
//!     let (mut x, mut v) = (x0, 0.0);
//!     for _ in 0..n {
//!         v -= 0.01 * (k * x.sin() + 0.1 * v);
//!         x += 0.01 * v;
//!     }
//!     x
//! }
//!
//! assert_eq!(checkpointed_grad(0.5, 2.0), stored_grad(0.5, 2.0)); // to the bit
//! assert_eq!(steps_grad(0.5, 2.0, 1000), stored_grad(0.5, 2.0));
//! assert_eq!(checkpointed_hvp(0.5, 2.0, 1.0, 0.0), stored_hvp(0.5, 2.0, 1.0, 0.0));
//!
//! // 8 snapshots of (x, v), 16 bytes each: 128 bytes instead of 16 000. The price, in steps
//! // recomputed: r = 5, the least with C(8 + r, 8) ≥ 1000, and 5·1000 − C(13, 4) steps.
//! assert_eq!(schedule_steps(1000, 8), 5 * 1000 - 715);
//! ```
//!
//! `examples/trajectory.rs` aims a projectile with drag through a 10⁵-step loop on a
//! checkpointed gradient (its numbers are in `BENCHMARKS.md`).
//!
//! # Loops of unknown length: online checkpointing
//!
//! A `while` loop, a `loop` with `break`, or a `for` loop that may leave early, runs a number of
//! steps `n` that is known only when it ends. Its forward pass hands the loop's carried state to
//! an [`Online`](crate::revolve::Online) tape of `s` snapshots before each step (32 by default,
//! fewer if 32 do not fit the budget, or `checkpoint(s = N)`), a fixed-size array on the stack:
//! the runtime keeps the state or not, moving the snapshots as the count grows (Wang, Moin &
//! Iaccarino's dynamic checkpointing; Stumm & Walther). When the loop has ended, the sweep takes
//! the segments between the kept states, last first, each by revolve's schedule for its length,
//! now known. For `n` steps and a carried state of `b` bytes:
//!
//! - memory: `s × b` bytes of snapshots and `56 s + 48` bytes of bookkeeping, for any `n`: no
//!   heap, and no stack that grows with `n` (a 10⁶-step `while` loop's gradient and H·v run in a
//!   thread with a 256 KiB stack with no heap allocation, counted in the workspace's
//!   `tests/whiles.rs`). Past `usize::MAX` steps the tape panics, saying so;
//! - recomputation: [`online_steps(n, s)`](crate::revolve::online_steps) forward steps in the
//!   sweep, exactly: none while `n ≤ s`, and past that no step more than `r` times and no more
//!   in all than offline revolve's optimum for the same length, `schedule_steps(n, s) = r·n −
//!   C(s + r, r − 1)`, `r` the least with `C(s + r, s) ≥ n` (which offline revolve reaches only
//!   after a run to count `n`; checked for every `n ≤ 10⁶` with 2 to 16, 32 and 64 snapshots).
//!   The sweep of each step reruns that step once more. The generated doc comment states both,
//!   and the memory; `BENCHMARKS.md` tabulates them;
//! - the same numbers: the online, offline and stored sweeps of the same run give the same
//!   value, gradient and H·v to the bit (tested at 1, 2, `s`, `s + 1` and longer runs);
//! - a loop whose sweep only accumulates (see above) runs again in the sweep instead, with no
//!   tape.
//!
//! ```
//! use autodiff_runtime::grad;
//! use autodiff_runtime::revolve::{online_steps, schedule_steps};
//!
//! // Doubles x, scaled by a, until it passes 1000: x·(2a)ⁿ for the n steps that ran.
//! #[grad(hvp, checkpoint(s = 4))]
//! fn grow(x: f64, a: f64) -> f64 {
//!     let mut y = x;
//!     while y < 1000.0 {
//!         y *= 2.0 * a;
//!     }
//!     y
//! }
//!
//! let (x, a) = (0.3_f64, 1.1_f64);
//! let n = ((1000.0_f64 / x).ln() / (2.0 * a).ln()).ceil() as i32; // the steps that ran
//! let (value, (dx, da)) = grow_grad(x, a);
//! let close = |p: f64, q: f64| (p - q).abs() <= 1e-12 * q.abs();
//! assert!(close(value, x * (2.0 * a).powi(n)));
//! assert!(close(dx, (2.0 * a).powi(n)));
//! assert!(close(da, x * n as f64 * 2.0 * (2.0 * a).powi(n - 1)));
//!
//! // The recomputation is never more than offline revolve's, which would need n in advance.
//! assert!(online_steps(1_000_000, 4) <= schedule_steps(1_000_000, 4));
//! ```
//!
//! # Convergence loops differentiated at their fixed point
//!
//! `#[grad(implicit('solve))]` differentiates the `loop` or `while` loop labelled `'solve:` at
//! its fixed point instead of through its iterations. By marking it you promise that the loop
//! iterates `x ← g(x, p)` on what it carries (`x`, the `f64` variables it assigns) until `x` no
//! longer moves: that its result is a fixed point `x* = g(x*, p)` whatever it started from. The
//! sweep then uses Christianson's two-phase method (ADOL-C's `fp_iteration`; JAX's
//! `custom_fixed_point`): it iterates `ā ← x̄ + (∂g/∂x)ᵀ ā` with the sweep of one iteration of
//! the body at `x*` until `ā` repeats (at most 1 000 times), then sweeps one iteration once more
//! for `p̄ = (∂g/∂p)ᵀ ā`. Memory: one iteration, no tape; cost: a few adjoint iterations,
//! however many iterations the loop ran. The starting values get no derivative (a fixed point
//! does not depend on them).
//!
//! It is exact when `g` is a contraction in `x` near `x*` (then the adjoint iteration
//! converges, at the same rate as the loop) and the loop ran to tolerance: the derivative is
//! that of the exact fixed point, which the derivative through the iterations approaches as
//! they converge. A loop that stops early, or is not a contraction, gets the derivative of a
//! fixed point it did not reach. A loop whose carried values are not all `f64`s, or that only
//! accumulates, is differentiated through its iterations even when named.
//!
//! Kepler's equation `E − e sin E = M` by Newton's method, against the implicit function
//! theorem, `dE/dM = 1/(1 − e cos E)` and `dE/de = sin E/(1 − e cos E)`:
//!
//! ```
//! use autodiff_runtime::grad;
//!
//! #[grad(hvp, implicit('newton))]
//! fn kepler(m: f64, e: f64) -> f64 {
//!     let mut big_e = m;
//!     'newton: loop {
//!         let step = (big_e - e * big_e.sin() - m) / (1.0 - e * big_e.cos());
//!         big_e -= step;
//!         if step.abs() < 1e-14 {
//!             break;
//!         }
//!     }
//!     big_e
//! }
//!
//! let (m, e) = (1.0_f64, 0.3_f64);
//! let (big_e, (d_m, d_e)) = kepler_grad(m, e);
//! assert!((big_e - e * big_e.sin() - m).abs() < 1e-14);
//! let denominator = 1.0 - e * big_e.cos();
//! assert!((d_m - 1.0 / denominator).abs() < 1e-12);
//! assert!((d_e - big_e.sin() / denominator).abs() < 1e-12);
//! ```
