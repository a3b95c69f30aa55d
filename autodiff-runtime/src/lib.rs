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
mod problem;
mod residuals;
pub mod revolve;
mod stack;

/// Plumbing for the generated code; not part of the API.
#[doc(hidden)]
pub mod __private {
    pub use crate::__argmin_problem as argmin_problem;
    pub use crate::differentiable::{Shape, Tangent, add_flat, flat, len_at};
    pub use crate::flat::{Flat, Zeros, scalar, set_unit, write_parts, zero, zeros};
    pub use crate::missing::{HvpGenerated, JvpGenerated, ScalarCallee};
    #[cfg(feature = "argmin")]
    pub use crate::problem::{argmin_array, argmin_matrix};
    pub use crate::residuals::Residuals;
    pub use crate::revolve::{Online, revolve};
    pub use crate::stack::{check_len, check_size, check_stack};
    /// argmin itself, whose traits the problem of `#[grad(argmin)]` implements.
    #[cfg(feature = "argmin")]
    pub use ::argmin;
}

pub use autodiff_macros::{Differentiable, grad};
pub use check::{
    GradientMismatch, Tolerance, central_difference, check_close, check_gradient, check_hvp,
    numeric_gradient, numeric_hvp,
};
pub use differentiable::Differentiable;
/// The numeric traits crate, whose [`Float`] bounds generic functions under [`grad`].
pub use num_traits;
/// The bound of a generic function under [`grad`], `fn f<T: Float>(x: T) -> T`: its one scalar
/// type, in which the derivatives are computed too (they are generic over the same bound).
pub use num_traits::Float;
