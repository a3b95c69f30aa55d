//! The generated functions, their signatures, and what the expansion looks like.
//!
//! # The functions
//!
//! For `f(params…)`, with "directions" one per differentiated parameter and of its type (see
//! [`conventions`](super::conventions)):
//!
//! | option | generated function | returns | how |
//! | --- | --- | --- | --- |
//! | `#[grad]` | `f_grad(params…)` | `(value, gradient)` | one forward pass and one reverse sweep |
//! | `#[grad(into)]` | `f_grad_into(params…, x_bar…)` | `value`, the gradient written into `x_bar: &mut [f64; N]`, one per differentiated array | `f_grad`'s sweep, no copy of the gradient |
//! | `#[grad(jvp)]` | `f_jvp(params…, directions…)` | `(value, ∇f·v)` | forward (tangent) mode, one sweep |
//! | `#[grad(hvp)]` | `f_hvp(params…, directions…)` | `(value, gradient, H·v)` | forward mode over the reverse sweep |
//! | `#[grad(hessian)]` | `f_hessian(params…)` | `[[f64; n]; n]` | `f_hvp` once per unit direction (also emits `f_hvp`) |
//! | `#[grad]`, vector `f` | `f_vjp(params…, out_bar)` | `(value, cotangents)` | one reverse sweep seeded with `out_bar` |
//! | `#[grad]`, vector `f` | `f_fwd(params…)`, `f_rev(params…, residuals, out_bar)` | `(value, residuals)`, `cotangents` | `f_vjp` split at the end of its forward pass, for callers' gradients (see [`calls`](super::calls)) |
//! | `#[grad(jvp)]`, vector `f` | `f_jvp(params…, directions…)` | `(value, value_dot)` | forward mode, one sweep |
//! | `#[grad(hvp)]`, vector `f` | `f_hvp(params…, out_bar, directions…, out_bar_dot)` | `(value, cotangents, value_dot, cotangents_dot)` | forward mode over the VJP's sweep (also emits `f_jvp`) |
//! | `#[grad(jacobian)]` | `f_jacobian(params…)`, `f_jacobian_mode()` | `(value, [[f64; n]; m])` | by rows (`m ≤ n`): one forward pass and one sweep carrying the `m` rows' adjoints; by columns: one forward sweep carrying the `n` columns' tangents |
//! | `#[grad(jacobian(forward))]`, `jacobian(reverse)` | the same | the same | the mode you name |
//! | `#[grad]`, array-returning `f` | `const f_shape: [usize; R]` | `f`'s dimensions, outermost first | read by a caller's `#[grad]` for `let h = f(..);` bound without its type (not for lengths reading a const generic of `f`) |
//! | `#[grad]`, free non-generic `f` returning a struct `S` | `type f_value = S;` | `S` | read by a caller's `#[grad]` for `let r = f(..);` read as a struct (`r.w`, `r.mul(..)`) |
//!
//! `f64` stands for the function's scalar type (`f32`, or `T` in a generic function: see
//! [`numbers`](super::numbers)). A *vector function* is one returning `[f64; M]` (nested arrays
//! too), a tuple of `f64`s, or a struct deriving `Differentiable` (its differentiated scalars
//! are the outputs, see [`structs`](super::structs)). `f_vjp`'s `out_bar` has `f`'s return type.
//! `hvp` on a vector function is the derivative of `f_vjp` along `(directions…, out_bar_dot)`,
//! which is what a caller's H·v needs (see [`calls`](super::calls)).
//!
//! A scalar function, in every mode, against its closed form
//! `g(x₁, x₂) = ln x₁ + x₁ x₂ − sin x₂`:
//!
//! ```
//! use autodiff_runtime::grad;
//!
//! #[grad(jvp, hvp, hessian)]
//! pub fn g(x1: f64, x2: f64) -> f64 {
//!     x1.ln() + x1 * x2 - x2.sin()
//! }
//!
//! let (x1, x2) = (2.0_f64, 5.0_f64);
//! let (value, (d1, d2)) = g_grad(x1, x2);
//! assert_eq!(value, g(x1, x2));
//! assert_eq!((d1, d2), (x2 + 1.0 / x1, x1 - x2.cos()));
//!
//! let (_, slope) = g_jvp(x1, x2, 0.0, 1.0); // ∇g·(0, 1) = ∂g/∂x₂
//! assert_eq!(slope, d2);
//!
//! let (_, _, (h1, h2)) = g_hvp(x1, x2, 1.0, 0.0); // H·(1, 0) = (-1/x₁², 1)
//! assert_eq!((h1, h2), (-1.0 / (x1 * x1), 1.0));
//!
//! let h: [[f64; 2]; 2] = g_hessian(x1, x2); // [[-1/x₁², 1], [1, sin x₂]]
//! assert_eq!(h, [[-0.25, 1.0], [1.0, x2.sin()]]);
//! ```
//!
//! A vector function, `polar(r, t) = (r cos t, r sin t)`, whose Jacobian is
//! `[[cos t, −r sin t], [sin t, r cos t]]`:
//!
//! ```
//! use autodiff_runtime::grad;
//!
//! #[grad(hvp, jacobian)]
//! fn polar(r: f64, t: f64) -> [f64; 2] {
//!     [r * t.cos(), r * t.sin()]
//! }
//!
//! let (r, t) = (2.0_f64, 0.5_f64);
//! let (c, s) = (t.cos(), t.sin());
//! let close = |a: f64, b: f64| (a - b).abs() <= 1e-12;
//!
//! // f_vjp: uᵀJ for a cotangent u of f's return type.
//! let u = [1.0, 3.0];
//! let (value, (r_bar, t_bar)) = polar_vjp(r, t, u);
//! assert_eq!(value, polar(r, t));
//! assert!(close(r_bar, c + 3.0 * s) && close(t_bar, -r * s + 3.0 * r * c));
//!
//! // f_jvp: J·v, a value of f's return type.
//! let (_, value_dot) = polar_jvp(r, t, 1.0, 0.0);
//! assert!(close(value_dot[0], c) && close(value_dot[1], s));
//!
//! // f_hvp: the derivative of f_vjp's cotangents along (r_dot, t_dot, out_bar_dot).
//! let (_, _, _, (r_bar_dot, t_bar_dot)) = polar_hvp(r, t, u, 0.0, 1.0, [0.0, 0.0]);
//! assert!(close(r_bar_dot, -s + 3.0 * c) && close(t_bar_dot, -r * c - 3.0 * r * s));
//!
//! // f_jacobian: row i is output i, column j the j-th differentiated scalar.
//! let (_, jac) = polar_jacobian(r, t);
//! assert!(close(jac[0][0], c) && close(jac[0][1], -r * s));
//! assert!(close(jac[1][0], s) && close(jac[1][1], r * c));
//! assert!(["forward", "reverse"].contains(&polar_jacobian_mode()));
//! ```
//!
//! # The gradient into the caller's arrays
//!
//! `f_grad` returns the gradient by value: for a large array whose elements carry little
//! arithmetic, the copy out costs a good part of the sweep (`f_grad` takes 1.19 times
//! `f_grad_into`'s time at N = 4096, 1.35 to 1.39 at 272, 1.35 to 1.64 at 16 for
//! Σᵢ (xᵢ²/2 + 0.3·xᵢ); see `BENCHMARKS.md`). `#[grad(into)]` also writes
//! `f_grad_into(params…, x_bar…) -> f64`: the same sweep, the gradient of each differentiated
//! array written into the caller's `&mut [f64; N]` (one per differentiated parameter, after the
//! parameters, in their order), overwritten as a slice's buffer is, and the value returned. Its
//! gradient is `f_grad`'s to the bit. Every differentiated parameter must be an array, by value
//! or `&` (nested arrays too), or a slice, which keeps its `&mut [f64]` buffer and its length
//! check; one at least an array. It is an option rather than always written because it is a
//! second copy of the gradient's code: the expansions and compile times of every other function
//! stay as they were. A function returning several values (its `f_vjp` takes a cotangent), a
//! differentiated scalar or struct, and `accumulate` are compile errors with `into`.
//!
//! ```
//! use autodiff_runtime::grad;
//!
//! #[grad(into)]
//! fn quad<const N: usize>(x: &[f64; N]) -> f64 {
//!     let mut s = 0.0;
//!     for i in 0..N {
//!         s += 0.5 * x[i] * x[i] + 0.3 * x[i];
//!     }
//!     s
//! }
//!
//! let x = [1.0, -2.0, 0.5];
//! let mut g = [f64::NAN; 3]; // overwritten
//! let value = quad_grad_into(&x, &mut g);
//! assert_eq!((value, g), quad_grad(&x));
//! assert_eq!(g, [1.3, -1.7, 0.8]); // xᵢ + 0.3
//! ```
//!
//! # What each generated function carries
//!
//! Every generated function has `f`'s visibility, a doc comment of its own (which, for a
//! checkpointed loop, states the snapshots' memory and the recomputation), and `f`'s
//! `#[allow(...)]`, `#[cfg(...)]`, `#[inline]`, `#[cold]`, `#[must_use]`, `#[deprecated]` and
//! `#[doc(hidden)]` attributes; an `#[expect(lint)]` on `f` becomes `#[allow(lint)]` on them,
//! since the lint may or may not fire there. `f` gets `#[allow(dead_code)]`: a function
//! annotated to be used through its derivatives is used when they are (so an annotated
//! function nothing uses goes unreported too). An `extern "C" fn` is accepted; its derivatives
//! are Rust functions (they return tuples). Generic functions (const generics, one `T: Float`)
//! give generic derivatives, over the same parameters and bounds.
//!
//! When a derivative function that `#[grad]` was not asked for could be needed by a caller
//! (`f_jvp` without `jvp`, `f_hvp` without `hvp`), a `#[doc(hidden)]` stand-in of that name is
//! emitted whose call is a compile error saying how to get the real one:
//!
//! ```compile_fail
//! use autodiff_runtime::grad;
//!
//! #[grad]
//! fn f(x: f64) -> f64 {
//!     x * x
//! }
//!
//! let _ = f_jvp(1.0, 1.0); // error: the `_jvp` of `f` is not generated (add `jvp`)
//! ```
//!
//! `f_jacobian_mode()` says `"forward"` or `"reverse"`. There is no limit on the number of
//! parameters or outputs. By rows (reverse mode) over at most 8 rows known to the macro, the
//! Jacobian is computed in one pass (vector reverse mode, Enzyme's "width"): the hidden kernel
//! `f_vjp_rows(params…)` is `f_vjp` taking every row's unit cotangent at once (row `i`'s the
//! `i`-th, built in as literals), its forward pass run once and its sweep traversed once, each
//! adjoint statement repeated per row (`x_bar`, `x_bar_1`, …) while what does not depend on the
//! cotangent (the forward pass, recomputed values, stored values read back, branch conditions,
//! loop bounds) stays single. By columns (forward mode) over at most 8 columns, the hidden
//! `f_jvp_cols(params…)` is `f_jvp` along every unit direction at once (the directions built in
//! as literals), one forward sweep carrying every column's tangent. A row's (column's)
//! statements leave out what the zeros of its unit vector make zero: `0 · x` is not computed
//! (and `x + 0` is `x`), as no derivative is computed of a value that no output depends on. Each
//! row (column) is then what `f_vjp` gives for that cotangent (`f_jvp` along that direction),
//! the same numbers, up to the sign of a zero, wherever the function's values are finite (where
//! an `x` is infinite or NaN, `f_vjp`'s `0 · x` is NaN and the row's entry a number). Otherwise (more rows or columns, sizes known only to rustc, a
//! function returning a struct, a `while` loop, loops whose storage the function chooses when
//! it starts, a branch taken on a cotangent, by columns a struct parameter) `f_jacobian` calls
//! `f_vjp` once per row, or `f_jvp` once per column.
//!
//! ```rust
//! use autodiff_runtime::grad;
//!
//! #[grad(jacobian)]
//! fn polar(r: f64, t: f64) -> [f64; 2] {
//!     [r * t.cos(), r * t.sin()]
//! }
//!
//! let (r, t) = (2.0, 0.5);
//! let (value, jac) = polar_jacobian(r, t);
//! assert_eq!(value, polar(r, t));
//! assert_eq!(polar_jacobian_mode(), "reverse");
//! // One forward pass, one sweep with two adjoints per value: each row is `polar_vjp`'s.
//! for (i, row) in jac.iter().enumerate() {
//!     let mut seed = [0.0; 2];
//!     seed[i] = 1.0;
//!     let (_, (dr, dt)) = polar_vjp(r, t, seed);
//!     assert_eq!(*row, [dr, dt]);
//! }
//! assert_eq!(jac, [[t.cos(), -r * t.sin()], [t.sin(), r * t.cos()]]);
//! ```
//!
//! # Reading the generated code
//!
//! `cargo expand` (`cargo install cargo-expand`) shows the generated functions. The forward pass
//! comes first, in source order, then the adjoint sweep in reverse; adjoints are named after
//! your variables (`x1_bar`), tangents `x1_dot`, tangents of adjoints `x1_bar_dot`; temporaries
//! are `t0`, `t1`, … and are inlined where they are read once, soon after. Generated names never
//! collide with yours (a variable of yours called `x1_bar` makes the adjoint `x1_bar_1`). The
//! generated code compiles warning-free under `#![deny(warnings, clippy::all)]` and
//! `#![forbid(unsafe_code)]` and allocates nothing. The README shows the expansion of the
//! quickstart's `g`; the excerpts below are of the workspace's corpus.
//!
//! Loops read the same way. The lessons' function over `[f64; M]`,
//! `s = Σᵢ sin(xᵢ)·x₍ᵢ₋₁₎ mod M`, is a reduction over a ring: its wrap-around iteration `i = 0`
//! runs first, then the other iterations, each with its own share of the sweep, and the
//! wrap-around iteration's sweep finishes the ring (see [`loops`](super::loops)). Iteration `i`
//! adds into `x_bar[i - 1]` and makes the first contribution to `x_bar[i]`, which the next
//! iteration adds to: that element is carried from one iteration to the next (`x_bar_2`), as a
//! person writes it, so each element is stored once, and the last after the loop. The guard
//! `1 < M` keeps the load before the loop and the store after it from running when the loop does
//! not:
//!
//! ```text
//! pub fn lessons_grad<const M: usize>(x: [f64; M]) -> (f64, [f64; M]) {
//!     let mut saved = [0.0; 1];
//!     let mut s = 0.0;
//!     for i in 0..::core::cmp::min(M, 1) {
//!         let t0 = x[i].sin();
//!         saved[i] = t0;
//!         s += t0 * x[(i + M - 1) % M];
//!     }
//!     let mut x_bar = [0.0; M];
//!     if 1 < M {
//!         let x_bar_1 = x_bar[0];
//!         let mut x_bar_2 = x_bar_1;
//!         for i in 1..M {
//!             let t1 = x[i];
//!             let t2 = t1.sin();
//!             let t3 = x[i - 1];
//!             s += t2 * t3;
//!             x_bar[i - 1] = x_bar_2 + t2;
//!             x_bar_2 = t3 * t1.cos();
//!         }
//!         x_bar[M - 1] = x_bar_2;
//!     }
//!     for i in 0..::core::cmp::min(M, 1) {
//!         x_bar[(i + M - 1) % M] += saved[i];
//!         x_bar[i] += x[(i + M - 1) % M] * x[i].cos();
//!     }
//!     (s, x_bar)
//! }
//! ```
//!
//! Explicit Euler for `x′ = −kx` carries `x` from step to step, so the forward loop stores it
//! and the sweep runs backwards (`dt * k` is hoisted out of both loops):
//!
//! ```text
//! pub fn euler_grad(x0: f64, k: f64, dt: f64) -> (f64, (f64, f64, f64)) {
//!     let mut x_saved = [0.0; 1000];
//!     let t0 = dt * k;
//!     let mut x = x0;
//!     for i in 0..1000 {
//!         x_saved[i] = x;
//!         x -= t0 * x;
//!     }
//!     let mut x_bar = 1.0;
//!     let mut dt_bar = 0.0;
//!     let mut k_bar = 0.0;
//!     for i in (0..1000).rev() {
//!         let x_1 = x_saved[i];
//!         let t1 = x_bar * x_1;
//!         x_bar -= x_bar * t0;
//!         dt_bar -= t1 * k;
//!         k_bar -= t1 * dt;
//!     }
//!     (x, (x_bar, k_bar, dt_bar))
//! }
//! ```
//!
//! A loop over the rows of an array whose body walks each row in a loop (`for k in 0..K { for j
//! in 0..D { … a[k][j] … } }`, forward or swept) starts with
//! `::autodiff_runtime::__private::outer_loop();`, a compiler fence that emits no instruction: it
//! keeps LLVM from vectorizing the outer loop across rows once it has unrolled the inner loops
//! (strided gathers, slower than the scalar loop; BENCHMARKS.md, "GMM at d = 10: outer loops
//! kept scalar").
//!
//! A loop of the sweep that carries a sum and, independently, adds into an array (the
//! transposed product of a matrix-vector product: `a_bar_1 += y_bar[r] * l[…]; l_bar[…] +=
//! y_bar[r] * a[c];`) runs as two loops, the sum's then the array's, when its trip count is at
//! least 16: `let long = 3 >= ((c + 1) + 16); let a_bar_3 = if long { … two loops … } else { …
//! the one loop … };`, a test rustc folds when the bounds are constants. The operations and their
//! order are the same, so the values are the same to the bit. The array's loop vectorises (one
//! microcode assist for two lanes where the adjoints are subnormal numbers on Intel cores;
//! BENCHMARKS.md, "GMM at d = 64 on the Intel Xeon: subnormal numbers").
//!
//! A branch is an `if` in the sweep too, taken the same way; the forward branch and the
//! sweep's, on one condition, are joined into one (Huber's loss):
//!
//! ```text
//! pub fn huber_grad(r: f64, delta: f64) -> (f64, (f64, f64)) {
//!     let t0 = r.abs();
//!     let (t3, r_bar_1, delta_bar_1) = if t0 <= delta {
//!         (0.5 * r * r, r, 0.0)
//!     } else {
//!         let t1 = 0.5 * delta;
//!         let t2 = t0 - t1;
//!         let r_bar = if r > 0.0 { delta } else if r < 0.0 { -delta } else { 0.0 };
//!         let delta_bar = t2 - t1;
//!         (delta * t2, r_bar, delta_bar)
//!     };
//!     (t3, (r_bar_1, delta_bar_1))
//! }
//! ```
//!
//! When the two branches cannot be joined (something between them reads the first one's
//! value), the forward branch also yields what its side computed with a square root or a libm
//! call (zeros on the other side), and the sweep's side reads those values rather than calling
//! `sqrt`, `sin` or `cos` again; the arithmetic it needs it recomputes (`tests/branch_kept.rs`,
//! ADBench's bundle adjustment in `src/adbench/ba.rs`).
//!
//! A checkpointed loop's sweep is one call of [`revolve`](crate::revolve::revolve) with two
//! closures, one step of the loop and the sweep of one step (see [`memory`](super::memory); expand
//! `oscillator_checkpointed` in the workspace's `src/checkpoint.rs`). A
//! struct parameter's gradient is written back field by field into the struct's zero (see
//! [`structs`](super::structs)). Very long functions are declared in blocks (see
//! [`limits`](super::limits)).
