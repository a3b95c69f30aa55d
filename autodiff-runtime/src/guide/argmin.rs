//! `#[grad(argmin)]`: an annotated function as an [argmin](https://argmin-rs.org) problem.
//!
//! With the `argmin` feature of `autodiff-runtime`
//! (`autodiff-runtime = { version = "0.1", features = ["argmin"] }`), the option `argmin` makes
//! a function an argmin problem: `#[grad(wrt(x), hessian, argmin)]` on `ext_rosenbrock` writes
//! `ExtRosenbrockProblem`, which implements `CostFunction` (calls `f`), `Gradient` (`f_grad`)
//! and, with `hessian`, `Hessian` (`f_hessian`), all over `Vec<f64>` (the Hessian as
//! `Vec<Vec<f64>>`, what argmin-math's `vec` backend takes). Without the feature, one error at
//! `argmin` names it.
//!
//! - The function has one differentiated parameter, which argmin optimises: a slice `&[f64]`
//!   (or `&Vec<f64>`), which gets argmin's vector as it is, or an array `[f64; N]` / `&[f64; N]`
//!   (`N` a literal, a `const` or a const generic), into which the vector is copied; a vector of
//!   another length is argmin's `Error`, not a panic. `hessian` needs the array (see
//!   [`numbers`](super::numbers#slices)).
//! - Every other parameter is a field of the problem, named as the parameter, in order:
//!   `ExtRosenbrockProblem::<100>::new(100.0)`. A reference is held for the problem's lifetime
//!   (`data: &[f64]` becomes `data: &'data [f64]`); the problem passes fields by value, so they
//!   are `Copy` (references are). The problem has `f`'s visibility and const generics.
//! - Refused, each with a compile error at its span: several differentiated parameters, a
//!   differentiated `f64`, a function returning `f32`, a vector or a generic float, a constant
//!   written `_`, a reference below the top of a constant's type.
//!
//! What the problem hands argmin is `f`'s, `f_grad`'s and `f_hessian`'s output, to the bit:
//!
//! ```
//! # #[cfg(feature = "argmin")]
//! # fn main() {
//! use argmin::core::{CostFunction, Gradient, Hessian};
//! use autodiff_runtime::grad;
//!
//! #[grad(wrt(x), hessian, argmin)]
//! fn rosenbrock<const K: usize>(x: &[f64; K], c: f64) -> f64 {
//!     let mut f = 0.0;
//!     for i in 0..K - 1 {
//!         let a = x[i + 1] - x[i] * x[i];
//!         let b = 1.0 - x[i];
//!         f += c * a * a + b * b;
//!     }
//!     f
//! }
//!
//! let problem = RosenbrockProblem::<4>::new(100.0); // c is a field of the problem
//! let x = vec![-1.2, 1.0, -1.2, 1.0];
//! let a = [-1.2, 1.0, -1.2, 1.0];
//! assert_eq!(problem.cost(&x).unwrap(), rosenbrock(&a, 100.0));
//! assert_eq!(problem.gradient(&x).unwrap(), rosenbrock_grad(&a, 100.0).1.to_vec());
//! let h = problem.hessian(&x).unwrap();
//! assert_eq!(h[1], rosenbrock_hessian(&a, 100.0)[1].to_vec());
//! assert!(problem.cost(&vec![1.0; 3]).is_err()); // a vector of another length
//! # }
//! # #[cfg(not(feature = "argmin"))]
//! # fn main() {}
//! ```
//!
//! `examples/argmin.rs` minimises the extended Rosenbrock function in 100 parameters from
//! (−1.2, 1, −1.2, 1, …) with argmin's L-BFGS and its trust-region Newton method on one
//! problem type (`cargo run --release --example argmin`; the iteration counts are in
//! `BENCHMARKS.md`).
