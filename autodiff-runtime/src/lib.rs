//! Compile-time automatic differentiation for Rust functions over `f64`, `f32` and generic floats.
//!
//! Annotate a function with [`grad`] and, next to it, the macro writes plain Rust that returns
//! the value and the whole gradient from one forward pass and one backward sweep: no tape, no
//! heap, no dual numbers, no interpreter. `#[grad(jvp, hvp, hessian, jacobian)]` also writes
//! forward-mode directional derivatives, Hessian-vector products (forward mode applied to the
//! reverse-mode gradient program), dense Hessians built from the Hessian-vector kernel, and
//! Jacobians of vector functions.
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
//! The reference is the [`guide`]: the options, the generated functions and their conventions,
//! the supported subset of Rust, derivatives at non-differentiable points, loops, memory and
//! checkpointing, calls and custom derivatives, structs, number types, argmin problems and the
//! known limits, one page each, every snippet a doctest.
//!
//! Besides the macros, this crate has the finite-difference checkers of [`check`], to verify
//! generated (or hand-written) derivatives in your own tests, and the checkpointing schedules of
//! [`revolve`] that checkpointed loops call.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod buffer;
pub mod check;
mod differentiable;
mod flat;
pub mod guide;
mod missing;
mod nest;
mod problem;
mod residuals;
pub mod revolve;
mod stack;

/// Plumbing for the generated code; not part of the API.
#[doc(hidden)]
pub mod __private {
    pub use crate::__argmin_problem as argmin_problem;
    pub use crate::buffer::zero_outside;
    pub use crate::differentiable::{
        ArrayField, Dims, FieldTree, Filled, FlatField, MAX_RANK, Rows, ScalarField, Shape,
        Tangent, ZeroLike, add_field_flat, add_flat, add_flat_at, add_flat_elements, array_field,
        clear_elements, elements_len, field, field_array, field_at, field_dim, field_element,
        field_flat_at, field_flat_len, field_index, field_len, field_path, field_path_at,
        field_path_len, field_row_dim, field_row_len, field_scalar, field_shaped, field_value_len,
        filled_at, flat, flat_at, gather, len_at, rebuildable, rebuilt, scalar_field, scatter,
        shaped, tangent_elements, unflat, zero_elements,
    };
    pub use crate::flat::{Flat, Zeros, scalar, set_unit, write_parts, zero, zeros};
    pub use crate::missing::{HvpGenerated, JvpGenerated, ScalarCallee};
    pub use crate::nest::outer_loop;
    #[cfg(feature = "argmin")]
    pub use crate::problem::{argmin_array, argmin_matrix};
    pub use crate::residuals::Residuals;
    pub use crate::revolve::{Online, revolve};
    pub use crate::stack::{
        Sweep, check_len, check_size, check_stack, variant, variant_inline, variant_with,
    };
    /// argmin itself, whose traits the problem of `#[grad(argmin)]` implements.
    #[cfg(feature = "argmin")]
    pub use ::argmin;
}

/// See [`guide::structs`].
pub use autodiff_macros::Differentiable;
/// The reference of `#[grad]`, one page per topic: [`guide::options`], [`guide::generated`],
/// [`guide::conventions`], [`guide::numbers`], [`guide::subset`], [`guide::nondiff`],
/// [`guide::loops`], [`guide::memory`], [`guide::calls`], [`guide::structs`], [`guide::argmin`],
/// [`guide::limits`].
pub use autodiff_macros::grad;
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
