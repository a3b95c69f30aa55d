//! Compile-time automatic differentiation for `f64` Rust functions.
//!
//! Annotate a function with [`grad`] and, next to it, the macro writes plain straight-line Rust
//! that returns the value and the whole gradient from one forward pass and one backward sweep:
//! no tape, no heap, no dual numbers, no interpreter. `#[grad(jvp, hvp, hessian)]` also writes
//! forward-mode directional derivatives, Hessian-vector products (forward mode applied to the
//! reverse-mode gradient program) and dense Hessians built from the Hessian-vector kernel.
//!
//! ```
//! use autodiff_runtime::grad;
//!
//! #[grad]
//! pub fn f(t1: f64, t2: f64) -> f64 {
//!     let p = t1 * t2;
//!     p + t1
//! }
//!
//! assert_eq!(f_grad(2.0, 5.0), (12.0, (6.0, 2.0)));
//! ```
//!
//! The [`check`] module holds finite-difference checkers to verify generated derivatives in your
//! own tests.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod check;
mod differentiable;
mod flat;
mod missing;
pub mod revolve;
mod stack;

/// Plumbing for the generated code; not part of the API.
#[doc(hidden)]
pub mod __private {
    pub use crate::differentiable::{Shape, Tangent, add_flat, flat, len_at};
    pub use crate::flat::{Flat, Part, scalar, set_unit, write_parts, zero};
    pub use crate::missing::{HvpGenerated, JvpGenerated, ScalarCallee};
    pub use crate::revolve::{Online, revolve};
    pub use crate::stack::{check_size, check_stack};
}

pub use autodiff_macros::{Differentiable, grad};
pub use check::{
    GradientMismatch, Tolerance, central_difference, check_close, check_gradient, check_hvp,
    numeric_gradient, numeric_hvp,
};
pub use differentiable::Differentiable;
