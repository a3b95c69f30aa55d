//! Loops without a tape: what the sweep recomputes, what it stores, and the stack budget.
//!
//! A loop stays a loop: `_grad` runs the forward loop, then the reverse sweep as a loop running
//! backwards over the same range. The generated code's size depends on the loop's body, not on
//! its trip count (a test checks that the expansion of the lessons' function has the same token
//! count for `N = 10` and `N = 1000`). What the sweep needs from each iteration is decided at
//! compile time:
//!
//! - **Reductions store nothing.** When a loop's carried values are only added to
//!   (`s += expr`, `y[i] += expr`, `expr` reading nothing the loop carries), the sweep needs
//!   nothing from the iterations: their adjoints are the same in every iteration. The forward
//!   loop and the sweep are then fused into one loop. Such loops take any trip count,
//!   `data.len()` included.
//! - **A reduction over a ring is split at its wrap-around.** In `for i in 0..N`, an index
//!   `(i + N - k) % N` (`k` up to 4) wraps around in the first `k` iterations only: the
//!   derivatives run those as `for i in 0..::core::cmp::min(N, k)` and the rest as
//!   `for i in k..N`, where the index is `i - k`. Every value is computed in the same order as
//!   before, so to the bit; the sweep of the second loop then assigns each element of the
//!   gradient once instead of adding into zeros, and the wrap-around iterations' sweep runs
//!   last, as a hand-written ring gradient finishes the ring. The `_jvp` keeps your loop as
//!   written, and so does every derivative for the next element, `(i + 1) % N`, which wraps
//!   around in the last iteration. (The expansion: [`generated`](super::generated#reading-the-generated-code).)
//!   The split is made only where moving the wrap-around sweep last leaves every gradient
//!   element's bits as the loop's own order gives them: each array read at one or two such
//!   indices (at two only if it is read nowhere after the loop and the loop is in no other
//!   loop), and no other differentiated value read in the loop. So the same loop written with
//!   a `break`, which is not split, gives the same bits.
//! - **Otherwise the rule is: recompute what is cheap, store the rest.** The sweep of an
//!   iteration recomputes every value that depends only on values fixed before the loop and on
//!   the loop index. A value that depends on what the loop carries is recomputed from the
//!   carried values when it is cheap (no libm call: `+ - * /`, negation, `recip`, `mul_add`,
//!   `powi`, `sqrt`, `abs`, `min`, `max`, the roundings, comparisons), and the carried values it
//!   reads are stored; anything else (a transcendental function, a load, an inner loop's result,
//!   a call) is stored itself, except the result of an inner loop that runs again in the sweep
//!   to fill its own storage. What is stored goes into one array per value,
//!   `x_saved: [f64; TRIP]`, on the stack, sized from the trip count at compile time. A branch
//!   inside a loop takes the same side in the sweep: its condition is a comparison, recomputed
//!   from the stored values.
//! - **Storage has a budget**: 512 KiB of stack by default, raised with
//!   `#[grad(stack = BYTES)]`. Sizes the macro can read (literal trip counts) are checked when
//!   the macro runs; sizes that name a `const` item or a const generic are checked by rustc, in a
//!   `const` block of the generated code. Either way an oversized sweep is a compile error
//!   saying both numbers, never a stack overflow at run time.
//! - **A loop whose storage cannot be sized or does not fit is checkpointed** (see
//!   [`memory`](super::memory)): a trip count known only at run time (`0..steps`), a literal
//!   trip count over the budget, a bound of a const generic other than the parameter itself
//!   (`0..N + 1` cannot size an array on stable Rust), and inner loops whose bounds depend on
//!   outer loop variables. Storage sized by a `const` item or a const generic is chosen by
//!   rustc: stored when it fits, checkpointed otherwise; a checkpointed sweep whose snapshots do
//!   not fit is a compile error that suggests fewer snapshots. A loop whose length is decided
//!   while it runs (`while`, `loop`, `break`) is checkpointed online.
//!
//! A reduction, the ring, and explicit Euler for `x′ = −kx` (which stores `x` at each step),
//! against their closed forms:
//!
//! ```
//! use autodiff_runtime::grad;
//!
//! // Σᵢ sin(xᵢ)·x₍ᵢ₋₁₎ mod M: ∂/∂xⱼ = cos(xⱼ)·xⱼ₋₁ + sin(xⱼ₊₁).
//! #[grad(jvp, hvp)]
//! fn lessons<const M: usize>(x: [f64; M]) -> f64 {
//!     let mut s = 0.0;
//!     for i in 0..M {
//!         s += x[i].sin() * x[(i + M - 1) % M];
//!     }
//!     s
//! }
//!
//! let x = [0.3, -1.2, 2.0, 0.7, 1.1];
//! let (_, g) = lessons_grad(x);
//! for j in 0..5 {
//!     let want = x[j].cos() * x[(j + 4) % 5] + x[(j + 1) % 5].sin();
//!     assert!((g[j] - want).abs() < 1e-14);
//! }
//!
//! // x after n steps of x -= dt·k·x is x₀(1 − k dt)ⁿ.
//! #[grad(hvp)]
//! fn euler(x0: f64, k: f64, dt: f64) -> f64 {
//!     let mut x = x0;
//!     for _ in 0..1000 {
//!         x -= dt * k * x;
//!     }
//!     x
//! }
//!
//! let (x0, k, dt) = (2.0_f64, 0.5_f64, 0.001_f64);
//! let q = 1.0 - k * dt;
//! let (value, (d_x0, d_k, d_dt)) = euler_grad(x0, k, dt);
//! let close = |a: f64, b: f64| (a - b).abs() <= 1e-10 * b.abs();
//! assert!(close(value, x0 * q.powi(1000)));
//! assert!(close(d_x0, q.powi(1000)));
//! assert!(close(d_k, -1000.0 * x0 * dt * q.powi(999)));
//! assert!(close(d_dt, -1000.0 * x0 * k * q.powi(999)));
//! ```
//!
//! A loop of 10 000 steps that stores one `f64` per step would need 80 000 bytes; over a budget
//! of 1 000 bytes it is checkpointed, and 200 snapshots of 8 bytes do not fit either, which is a
//! compile error that says so and suggests fewer:
//!
//! ```compile_fail
//! use autodiff_runtime::grad;
//!
//! #[grad(checkpoint(s = 200), stack = 1000)] // error: 200 snapshots of 8 bytes do not fit
//! fn long(x0: f64) -> f64 {
//!     let mut x = x0;
//!     for _ in 0..10_000 {
//!         x = x.sin();
//!     }
//!     x
//! }
//! ```
