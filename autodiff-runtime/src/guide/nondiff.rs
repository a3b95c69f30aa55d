//! Derivatives at non-differentiable points, and of branches.
//!
//! # The table
//!
//! The same convention holds in `_grad`, `_jvp` and `_hvp` (they share one rule table), and the
//! tests check each of them:
//!
//! | function | at | derivative |
//! | --- | --- | --- |
//! | `x.abs()` | `x = 0` (either sign) | `0` |
//! | `a.min(b)`, `a.max(b)` | anywhere | follows the operand whose value is returned |
//! | `a.min(b)`, `a.max(b)` | a tie `a == b` | all of it to the receiver `a`, none to `b` |
//! | `x.clamp(lo, hi)` | anywhere | follows the operand returned: `lo` where `x < lo`, `hi` where `x > hi`, `x` otherwise |
//! | `x.clamp(lo, hi)` | a bound, `x == lo` or `x == hi` (also `lo == hi`) | all of it to the receiver `x`, none to `lo` or `hi` (as `x.max(lo).min(hi)` gives with ties to the receiver) |
//! | `x.sqrt()` | `x = +0` | `+∞` (that is `1 / (2·√0)`; at `-0`, `-∞`, since `√-0 = -0`) |
//! | `x.hypot(y)` | `(0, 0)` | `(0, 0)`, as for `abs` at 0 |
//! | `signum`, `floor`, `ceil`, `round`, `trunc` | everywhere, jumps included | `0` |
//! | `x.powi(0)`, `x.powf(0.0)` | everywhere | `0` |
//! | `x.powi(n)`, integer constant `n` | `x = 0` with `n = 0` or `1` | as for a literal exponent: a term whose factor is 0 is 0, never `0·∞` (`d/dx x⁰ = 0`, `d²/dx² x¹ = 0`) |
//! | `x.powf(c)`, constant `c` | `x = 0` | `c·0^(c-1)`; `ln x` is never computed |
//! | `x.powf(y)`, differentiated `y` | `x ≤ 0` | `∂/∂y = xʸ ln x`, NaN as IEEE gives it |
//! | `if c { a } else { b }` | anywhere, on the boundary of `c` too | the derivative of the side taken |
//!
//! ```
//! use autodiff_runtime::grad;
//!
//! // At x = 0 and at the tie a = b = 0: abs → 0; min → all to the receiver a; clamp at its
//! // bounds → all to x; floor → 0; x¹ → 1; x⁰ → 0.
//! #[grad(jvp, hvp)]
//! fn corners(x: f64, a: f64, b: f64) -> f64 {
//!     x.abs() + a.min(b) + x.clamp(a, b) + x.floor() + x.powi(1) + x.powf(0.0)
//! }
//!
//! let (_, (dx, da, db)) = corners_grad(0.0, 0.0, 0.0);
//! assert_eq!((dx, da, db), (0.0 + 1.0 + 0.0 + 1.0, 1.0, 0.0));
//! let (_, slope) = corners_jvp(0.0, 0.0, 0.0, 1.0, 1.0, 1.0); // the same rules forward
//! assert_eq!(slope, dx + da + db);
//! let (_, _, hv) = corners_hvp(0.0, 0.0, 0.0, 1.0, 0.0, 0.0); // d²/dx² x¹ = 0, never 0·∞
//! assert_eq!(hv, (0.0, 0.0, 0.0));
//! ```
//!
//! # Branches
//!
//! A branch is differentiated as the code runs: the sweeps take the side the forward pass took,
//! and the other side is never evaluated, in any sweep. So `if x > 0.0 { x.sqrt() } else { 0.0 }`
//! at `x = −1` has value 0 and gradient 0 (not NaN), and Huber's loss written with `if` has second
//! derivative exactly 1 at `r = 0` (written with `min`/`max`/`abs` it would be 0 there).
//!
//! That holds for what feeds only the other side too: a value computed before the `if` and read
//! only inside it is computed inside the side that reads it (inside both sides when both do but
//! one of them not on every path, as two arms of an `else if` chain), so
//! `let r = (1.0 - x * x).sqrt();` followed by `if x.abs() < 1.0 { r } else { 0.0 }` has gradient
//! 0 at `x = 2` in every mode, not NaN (JAX's `where` gives NaN there, the "double where" trap).
//! This covers arithmetic, comparisons, loads, stores and array literals, whole chains of them,
//! in loop bodies too. A value also read after the `if` or by a second `if` (even on the same
//! condition: write one `if`), one computed before a loop and read in a branch inside it, and a
//! call (`g(x)` would run `g_grad` twice: write the call inside the side) stay where they are
//! written, and a partial of theirs that is NaN where the side reading them is not taken still
//! reaches the derivatives.
//!
//! Only values on a path from a differentiated parameter to the output get adjoints: an unused
//! intermediate, even a NaN one, never touches the gradient, and is not computed by `_grad`.
//!
//! ```
//! use autodiff_runtime::grad;
//!
//! #[grad(jvp, hvp)]
//! fn root(x: f64) -> f64 {
//!     if x > 0.0 { x.sqrt() } else { 0.0 }
//! }
//! assert_eq!(root_grad(-1.0), (0.0, 0.0));
//!
//! #[grad(jvp, hvp)]
//! fn huber(r: f64, delta: f64) -> f64 {
//!     if r.abs() <= delta { 0.5 * r * r } else { delta * (r.abs() - 0.5 * delta) }
//! }
//! let (_, _, (h_rr, _)) = huber_hvp(0.0, 1.0, 1.0, 0.0);
//! assert_eq!(h_rr, 1.0);
//!
//! #[grad(jvp, hvp)]
//! fn disc(x: f64) -> f64 {
//!     let r = (1.0 - x * x).sqrt(); // NaN at x = 2, but read only where |x| < 1
//!     if x.abs() < 1.0 { r } else { 0.0 }
//! }
//! assert_eq!(disc_grad(2.0), (0.0, 0.0));
//! assert_eq!(disc_jvp(2.0, 1.0), (0.0, 0.0));
//! assert_eq!(disc_hvp(2.0, 1.0), (0.0, 0.0, 0.0));
//! ```
