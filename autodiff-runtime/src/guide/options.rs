//! Every option of `#[grad(...)]`.
//!
//! Options are separated by commas and combine freely, in any order:
//! `#[grad(wrt(x), jvp, hvp, hessian, checkpoint(s = 8))]`. An unknown or repeated option is a
//! compile error at the option that lists the known ones. `f` itself is always kept unchanged;
//! the options say what is written next to it ([`generated`](super::generated) has the
//! signatures).
//!
//! | option | writes, or changes | see |
//! | --- | --- | --- |
//! | (none), `#[grad]` | `f_grad` (for a function returning one scalar), `f_vjp` (for a vector function) | [`generated`](super::generated) |
//! | `jvp` | `f_jvp`, forward (tangent) mode | [`generated`](super::generated) |
//! | `hvp` | `f_hvp`: forward mode over the reverse sweep (H·v; for a vector function, the derivative of `f_vjp`; also writes `f_jvp` then) | [`generated`](super::generated) |
//! | `hessian` | `f_hessian`, one `f_hvp` per unit direction (also writes `f_hvp`); needs a function returning one scalar | [`generated`](super::generated) |
//! | `jacobian` | `f_jacobian` and `f_jacobian_mode()`: by rows when `m ≤ n`, else by columns; up to 8 rows (columns) in one pass, one sweep carrying every row's adjoints (one forward sweep every column's tangents), more by one `f_vjp` per row (`f_jvp` per column); needs a vector function | [`generated`](super::generated) |
//! | `jacobian(forward)`, `jacobian(reverse)` | the same, by the mode named | [`generated`](super::generated) |
//! | `wrt(a, b)` | differentiates `a` and `b` only; the other parameters are constants | [`conventions`](super::conventions) |
//! | `wrt(m.w)`, `wrt(m.inner.c)` | differentiates those fields of a struct parameter only (its gradient is still the struct, the other fields zero) | [`structs`](super::structs) |
//! | `checkpoint` | checkpoints every loop that would store values, with 32 snapshots | [`memory`](super::memory) |
//! | `checkpoint(s = 16)` | the same with 16 snapshots (also the snapshots of loops of unknown length) | [`memory`](super::memory) |
//! | `stack = 2_000_000` | the stack budget, in bytes, for the values the sweeps store (default 512 KiB) | [`loops`](super::loops) |
//! | `implicit('solve)` | the `loop` or `while` labelled `'solve:` differentiated at its fixed point, not through its iterations (several labels: `implicit('a, 'b)`) | [`memory`](super::memory#convergence-loops-differentiated-at-their-fixed-point) |
//! | `accumulate` | the buffers of differentiated slices (`x_bar: &mut [f64]`) are added into instead of overwritten; needs a differentiated slice | [`numbers`](super::numbers#slices) |
//! | `into` | also `f_grad_into(params…, x_bar: &mut [f64; N]…) -> f64`: the gradient of each differentiated array written into the caller's array (overwritten), not returned; needs a function returning one scalar whose differentiated parameters are arrays (slices too, with their buffers), one at least an array; not with `accumulate` | [`generated`](super::generated#the-gradient-into-the-callers-arrays) |
//! | `argmin` (feature `argmin`) | `FProblem`, a type implementing argmin's `CostFunction`, `Gradient` and (with `hessian`) `Hessian` | [`argmin`](super::argmin) |
//!
//! `hessian` needs a function returning one scalar (the second derivatives of a vector function
//! form a tensor), and `jacobian` a vector function; either mistake is a compile error that says
//! so. `hessian` and `jacobian` need the number of differentiated scalars at compile time, and
//! are refused when a slice is differentiated (use `hvp` or `jvp`, see
//! [`numbers`](super::numbers)).
//!
//! ```
//! use autodiff_runtime::grad;
//!
//! // f(x, k) = x₀ x₁ (1 - k)¹⁰, differentiated in x only; its loop is checkpointed in 4
//! // snapshots, and its stores may use 4 KiB of stack.
//! #[grad(wrt(x), jvp, hvp, hessian, checkpoint(s = 4), stack = 4096)]
//! fn decay(x: [f64; 2], k: f64) -> f64 {
//!     let mut s = x[0] * x[1];
//!     for _ in 0..10 {
//!         s *= 1.0 - k;
//!     }
//!     s
//! }
//!
//! let (x, k) = ([3.0, 0.5], 0.1_f64);
//! let c = (1.0 - k).powi(10);
//! let close = |a: f64, b: f64| (a - b).abs() <= 1e-12 * b.abs().max(1.0);
//!
//! let (value, g) = decay_grad(x, k); // g: [f64; 2], the gradient in x alone
//! assert!(close(value, 1.5 * c) && close(g[0], 0.5 * c) && close(g[1], 3.0 * c));
//!
//! let (_, slope) = decay_jvp(x, k, [1.0, 1.0]); // ∇f·v with v = (1, 1)
//! assert!(close(slope, 3.5 * c));
//!
//! let (_, _, hv) = decay_hvp(x, k, [1.0, 0.0]); // H·e₀ = (0, c)
//! assert!(close(hv[0], 0.0) && close(hv[1], c));
//!
//! let h: [[f64; 2]; 2] = decay_hessian(x, k); // [[0, c], [c, 0]]
//! assert!(close(h[0][1], c) && close(h[1][0], c) && close(h[0][0], 0.0));
//! ```
//!
//! An option the macro does not know is an error that lists those it does:
//!
//! ```compile_fail
//! use autodiff_runtime::grad;
//!
//! #[grad(gradient)] // error: unknown option `gradient`
//! fn f(x: f64) -> f64 {
//!     x * x
//! }
//! ```
