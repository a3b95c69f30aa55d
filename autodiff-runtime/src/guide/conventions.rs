//! Which parameters are differentiated, and the shapes of gradients, directions, Hessians and
//! Jacobians.
//!
//! # Which parameters are differentiated
//!
//! Every `f64`, `[f64; N]` and `&[f64; N]` parameter (nested arrays too), and every struct
//! parameter deriving `Differentiable` (`m: Model`, `m: &Model`, `self`, `&self`), and every
//! array of such structs (`ps: [P; N]`, `ps: &[P; N]`, see [`structs`](super::structs)), is
//! differentiated unless `wrt(...)` says otherwise (`f32` or `T` in their place in a function
//! over those, see [`numbers`](super::numbers); a function with struct parameters computes in
//! `f64`). A slice `&[f64]`, `&[[f64; K]]` or `&Vec<f64>` is differentiated when `wrt(...)`
//! names it, and constant data otherwise. Parameters of other types (integers, `bool`, `Option`
//! and the standard library's other types) are constants passed through.
//!
//! A struct left out of `wrt(...)` is a constant too, read through its fields and methods. An
//! `f64` or an array left out of `wrt(...)` is a constant value like any other: it can be copied
//! into a variable and updated (`let mut x = x0; x[0] *= a;`). A float of another type than the
//! function's scalar type, a `Vec` of floats taken by value and tuples of floats are refused,
//! whatever else the signature has, unless `wrt(...)` leaves them out, which makes them
//! constants (the message for a `Vec` suggests a slice, or an array).
//!
//! A parameter written `_` is a constant of any type, never differentiated and not in the
//! gradient. `f_grad`, `f_jvp`, `f_hvp` and `f_vjp` take it as `_` too; `f_hessian` and
//! `f_jacobian`, which pass it on to them, name it `unnamed` (`unnamed_1`, … for more).
//!
//! # Shapes
//!
//! - The gradient mirrors the differentiated parameters: a bare value for one, a tuple in
//!   parameter order for several; each component has its parameter's shape, as an owned value
//!   (`[f64; N]` for `x: [f64; N]` and for `x: &[f64; N]`, `Model` for `m: &Model`,
//!   `[P; N]` for `ps: &[P; N]`). `H·v` has the gradient's shape.
//! - Direction arguments (`x1_dot`, `x2_dot`) come after all the original arguments, one per
//!   differentiated parameter, each of its parameter's type (`&[f64; N]` for `&[f64; N]`,
//!   `&Model` for `&Model`, `&[P; N]` for `&[P; N]`; `&Self` for a receiver, `self` and `&self`
//!   alike). `f_vjp`'s
//!   `out_bar` has `f`'s return type.
//! - A differentiated slice's gradient goes into a buffer the caller passes, after every other
//!   argument (see [`numbers`](super::numbers#slices)).
//!
//! ```
//! use autodiff_runtime::grad;
//!
//! // Σᵢ wᵢ xᵢ² + c·y for an array by value, an array by reference, an f64, a constant
//! // integer and an ignored parameter.
//! #[grad(jvp, hvp, hessian)]
//! fn weighted(x: [f64; 2], w: &[f64; 2], y: f64, n: usize, _: &str) -> f64 {
//!     let mut s = y * n as f64;
//!     for i in 0..2 {
//!         s += w[i] * x[i] * x[i];
//!     }
//!     s
//! }
//!
//! let (x, w, y) = ([1.0, 2.0], [3.0, 4.0], 5.0);
//! // The gradient: ([f64; 2], [f64; 2], f64), one owned component per differentiated parameter.
//! let (value, (x_bar, w_bar, y_bar)) = weighted_grad(x, &w, y, 2, "ignored");
//! assert_eq!(value, 3.0 + 16.0 + 10.0);
//! assert_eq!((x_bar, w_bar, y_bar), ([6.0, 16.0], [1.0, 4.0], 2.0));
//!
//! // Directions after all the arguments, each of its parameter's type (`&[f64; 2]` for `w`).
//! let (_, slope) = weighted_jvp(x, &w, y, 2, "", [1.0, 0.0], &[0.0, 1.0], 0.0);
//! assert_eq!(slope, 6.0 + 4.0);
//! let (_, _, (hx, hw, hy)) = weighted_hvp(x, &w, y, 2, "", [1.0, 0.0], &[0.0, 0.0], 0.0);
//! assert_eq!((hx, hw, hy), ([6.0, 0.0], [2.0, 0.0], 0.0));
//!
//! // The Hessian numbers x[0], x[1], w[0], w[1], y.
//! let h: [[f64; 5]; 5] = weighted_hessian(x, &w, y, 2, "");
//! assert_eq!(h[0], [6.0, 0.0, 2.0, 0.0, 0.0]);
//! assert_eq!(h[3], [0.0, 4.0, 0.0, 0.0, 0.0]);
//! assert_eq!(h[4], [0.0; 5]);
//! ```
//!
//! # Hessians and Jacobians
//!
//! `f_hessian` and `f_jacobian` number the differentiated scalars in parameter order, each
//! array in row-major order (`x[0][0], x[0][1], …`), each struct in `Differentiable`'s order
//! (its differentiated fields in declaration order): `f_hessian` is `[[f64; n]; n]` over all
//! `n` of them (`[[f64; 1]; 1]` for one `f64`); row `i` of the Jacobian belongs to the `i`-th
//! output scalar (a tuple's elements in order, an array's in row-major order), column `j` to
//! the `j`-th differentiated scalar.
//!
//! When `n` (or the Jacobian's number of rows) is an expression of the function's const
//! generics, such as `N + 1` for `fn f<const N: usize>(x: [f64; N], y: f64)`, stable Rust does
//! not take it as an array length in a type: `f_hessian` then takes one more const generic
//! parameter, `M`, and returns `[[f64; M]; M]`, and `f_jacobian` takes `ROWS` and `COLS` for the
//! sizes that need it. The caller gives them through the result's type,
//! `let h: [[f64; 4]; 4] = f_hessian(x, y);` for `N = 3` (or `f_hessian::<3, 4>(x, y)`). A wrong
//! size is a compile error in `cargo build`, at the call, that says the number it must be
//! (`cargo check` does not evaluate it). The generated function's doc comment states the rule. A
//! size that is a literal, a `const` item or a const generic parameter itself is written as it
//! is.
//!
//! ```
//! use autodiff_runtime::grad;
//!
//! #[grad(hessian)]
//! fn f<const N: usize>(x: [f64; N], y: f64) -> f64 {
//!     let mut s = y * y;
//!     for i in 0..N {
//!         s += x[i] * x[i] * y;
//!     }
//!     s
//! }
//!
//! let h: [[f64; 4]; 4] = f_hessian([1.0, 2.0, 3.0], 0.5); // M = N + 1 = 4
//! assert_eq!(h[0], [1.0, 0.0, 0.0, 2.0]); // ∂²f/∂x₀² = 2y, ∂²f/∂x₀∂y = 2x₀
//! assert_eq!(h[3], [2.0, 4.0, 6.0, 2.0]);
//! ```
//!
//! Parameters that are not differentiated are passed to `f_hvp` once per direction by
//! `f_hessian`, so they must be `Copy` (references are); a type that is not is reported at the
//! parameter:
//!
//! ```compile_fail
//! use autodiff_runtime::grad;
//!
//! #[grad(hessian)]
//! fn f(x: f64, label: String) -> f64 { // error: `label` must be `Copy`
//!     x * x * label.len() as f64
//! }
//! ```
