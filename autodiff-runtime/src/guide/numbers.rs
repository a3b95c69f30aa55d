//! Number types: `f32`, generic floats `T: Float`, and slices.
//!
//! A function computes in one scalar type, and so do its derivatives: `f64`; `f32` when it
//! returns `f32`s (a value, an array or a tuple of them); or its type parameter bounded by
//! [`Float`](crate::Float) (`num_traits::Float`, re-exported as `autodiff_runtime::Float`), in
//! the list or in a `where` clause. Everything this guide says of `f64` holds for that type.
//!
//! ```
//! use autodiff_runtime::{Float, grad};
//!
//! #[grad(hvp)]
//! fn loss(x: f32, w: [f32; 3]) -> f32 {
//!     (w[0] * x + w[1]).tanh() * w[2] + 1e-3 * std::f32::consts::PI
//! }
//!
//! #[grad(jvp, hvp, hessian)]
//! fn softplus<T: Float>(x: T, y: [T; 2]) -> T {
//!     (T::one() + (x * y[0]).exp()).ln() + T::from(0.5).unwrap() * y[1] * y[1]
//! }
//!
//! // f32 throughout: ∂loss/∂x = w₀ w₂ (1 − tanh²(w₀x + w₁)).
//! let (value, (x_bar, w_bar)) = loss_grad(0.5, [1.0, 2.0, 3.0]);
//! let th: f32 = 2.5_f32.tanh();
//! assert_eq!(value, loss(0.5, [1.0, 2.0, 3.0]));
//! assert!((x_bar - 3.0 * (1.0 - th * th)).abs() < 1e-6);
//! assert!((w_bar[2] - th).abs() < 1e-6);
//!
//! // Generic, at f32 and at f64: ∂/∂x = y₀ σ(x y₀), ∂/∂y₁ = y₁.
//! let sigmoid = |z: f64| 1.0 / (1.0 + (-z).exp());
//! let (_, (gx, gy)) = softplus_grad(0.5_f32, [1.0, 2.0]);
//! assert!((gx - sigmoid(0.5) as f32).abs() < 1e-6 && gy[1] == 2.0);
//! let h: [[f64; 3]; 3] = softplus_hessian(0.5, [1.0, 2.0]); // numbers x, y[0], y[1]
//! let s = sigmoid(0.5);
//! assert!((h[0][0] - s * (1.0 - s)).abs() < 1e-15 && h[2][2] == 1.0);
//! ```
//!
//! # `f32`
//!
//! Parameters, arrays and `&[f32; N]`; literals (`1.5`, `2.0_f32`, parsed as `f32`),
//! `std::f32::consts`, every method of the rule table (see [`subset`](super::subset)), `f32`
//! outputs. A constant of another type cast with `as` (`data[i] as f32` for `data: &[f64]`,
//! `std::f64::consts::E as f32`) is a constant.
//!
//! # `f32` and `f64` mixed with `as`
//!
//! An `f32` function may compute a piece in `f64` (`(x as f64).sin() as f32`), and an `f64`
//! function a piece in `f32`. Each value keeps its type, and so do its derivatives: the
//! tangent of `x as f64` is `x_dot as f64`, and the adjoint flows back cast the other way
//! (`x_bar = w_bar as f32` for `w = x as f64`), in every mode. A literal takes the type of where
//! it is used: `0.1` multiplying an `f64` value is the `f64` literal `0.1`, not the `f32` one.
//! Loops, branches, storage for the reverse sweep and checkpoints hold values of either type
//! (a loop's `f64` values are stored in `[f64; N]` in an `f32` function).
//!
//! ```
//! use autodiff_runtime::grad;
//!
//! #[grad(hvp)]
//! fn softsign(x: f32) -> f32 {
//!     let w = x as f64; // computed in f64
//!     (w / (1.0 + w * w).sqrt() + 0.1 * w) as f32
//! }
//!
//! #[grad(jvp)]
//! fn halved(x: f64, y: f64) -> f64 {
//!     let z = (x as f32) * 0.5_f32; // computed in f32
//!     z as f64 * y
//! }
//!
//! // d/dx (x/√(1+x²) + 0.1x) = (1+x²)^(-3/2) + 0.1, in f64, then rounded to f32.
//! let (value, x_bar) = softsign_grad(0.5);
//! assert_eq!(value, softsign(0.5));
//! assert!((f64::from(x_bar) - (1.25_f64.powf(-1.5) + 0.1)).abs() < 1e-7);
//! assert_eq!(halved_grad(3.0, 2.0).1, (1.0, 1.5));
//! ```
//!
//! Where a variable starts from a literal and is assigned a value of the other type later,
//! give the literal its type (`let mut s = 0.0_f64;`). What stays refused, each with a message
//! saying what to write: a value of the other type passed to a called function (cast it back,
//! `g(w as f32)`) or returned without a cast; a typed `let` of the other type (write `let w = x
//! as f64;`); casts in a generic function (`T` has no other type: write the function for `f32`
//! or `f64`); and a differentiated value cast to an integer (use `.floor()`, `.round()` or
//! `.trunc()`, whose derivative is zero).
//!
//! # Generic floats
//!
//! `fn f<T: Float>(...)`, with constants written the way generic code writes them:
//! `T::from(0.5).unwrap()` (or `.expect("..")`), `T::one()`, `T::zero()`, and `T`'s other
//! associated functions (`T::epsilon()`, `T::nan()`); methods as `x.sin()`, `T::sin(x)` or
//! `Float::sin(x)`. The generated functions are generic over the same parameters and bounds,
//! `where` clause included. A plain literal (`2.0`) is not a `T` in Rust, so it is refused with
//! what to write. At `f64`, the derivatives are the `f64` function's to the bit, and at `f32`
//! the `f32` function's. One type parameter bounded by `Float` per function (a generic scalar is
//! recognised by its `Float` bound only, not `Real` or `RealField`).
//!
//! ```compile_fail
//! use autodiff_runtime::{Float, grad};
//!
//! #[grad]
//! fn twice<T: Float>(x: T) -> T {
//!     2.0 * x // error: a literal is not a `T`; write `T::from(2.0).unwrap()`
//! }
//! ```
//!
//! # Slices
//!
//! A slice named in `wrt(...)`, `x: &[f64]` (also `&[[f64; K]]` and `&Vec<f64>`), has its
//! gradient written into a buffer the caller owns, as Enzyme's `Duplicated` does. The buffers
//! come after every other argument (directions included): `f_grad(x, c, x_bar: &mut [f64])`,
//! `f_jvp(x, c, x_dot: &[f64])`, `f_hvp(x, c, x_dot, x_bar, x_bar_dot)` with `x_bar_dot`
//! receiving H·v. The function returns the value, with the derivatives of its other
//! differentiated parameters in a tuple as usual (`recurrence_grad(x, y, x_bar) -> (f64,
//! f64)`). Each buffer is overwritten, not added into, and every buffer and direction must have
//! its slice's length: it is checked when the function is entered, which panics at the caller
//! with both lengths (`` `f_grad`: the buffer `x_bar` must have the length of `x`, which is 4,
//! not 3 ``), never a wrong answer. Nothing is allocated on the heap.
//!
//! With `#[grad(accumulate)]`, every buffer of `f_grad`, `f_vjp` and `f_hvp` is added into
//! instead (Enzyme's convention for a `Duplicated` shadow): the gradients of several losses sum
//! into one buffer with no temporary, and the caller zeroes a buffer for one derivative alone.
//! A component that the function's sweep computes as one term is then, to the bit, what
//! overwriting and adding gives; one of several terms is added term by term (`tests/slices.rs`).
//! Without a differentiated slice, `accumulate` is a compile error.
//!
//! ```
//! use autodiff_runtime::grad;
//!
//! #[grad(wrt(x), accumulate)]
//! fn squares(x: &[f64], c: f64) -> f64 {
//!     let mut s = 0.0;
//!     for i in 0..x.len() {
//!         s += c * x[i] * x[i];
//!     }
//!     s
//! }
//!
//! let mut grad = vec![0.0; 2];
//! squares_grad(&[1.0, 2.0], 1.0, &mut grad); // adds 2 c x with c = 1
//! squares_grad(&[1.0, 2.0], 0.5, &mut grad); // adds 2 c x with c = 0.5
//! assert_eq!(grad, [3.0, 6.0]);
//! ```
//!
//! ```
//! use autodiff_runtime::grad;
//!
//! #[grad(wrt(x), jvp, hvp)]
//! fn rosenbrock(x: &[f64], c: f64) -> f64 {
//!     let mut f = 0.0;
//!     for i in 0..x.len() - 1 {
//!         let a = x[i + 1] - x[i] * x[i];
//!         let b = 1.0 - x[i];
//!         f += c * a * a + b * b;
//!     }
//!     f
//! }
//!
//! let x = vec![-1.2, 1.0, -1.2, 1.0];
//! let mut x_bar = vec![0.0; x.len()];
//! let value = rosenbrock_grad(&x, 100.0, &mut x_bar); // the gradient goes into x_bar
//! assert_eq!(value, rosenbrock(&x, 100.0));
//! // ∂f/∂x₀ = −400 x₀ (x₁ − x₀²) − 2 (1 − x₀) at (−1.2, 1): −215.6; ∂f/∂x₁ = 200 (x₁ − x₀²) − 400 x₁ (x₂ − x₁²) − 2 (1 − x₁)
//! assert!((x_bar[0] + 215.6).abs() < 1e-9);
//! assert!((x_bar[1] - (-88.0 + 880.0)).abs() < 1e-9);
//!
//! let v = vec![1.0, 0.0, 0.0, 0.0];
//! let (mut g, mut hv) = (vec![0.0; 4], vec![0.0; 4]);
//! let value = rosenbrock_hvp(&x, 100.0, &v, &mut g, &mut hv); // H·e₀ into hv
//! assert_eq!((value, g), (rosenbrock(&x, 100.0), x_bar));
//! // ∂²f/∂x₀² = 1200 x₀² − 400 x₁ + 2, ∂²f/∂x₀∂x₁ = −400 x₀
//! assert!((hv[0] - 1330.0).abs() < 1e-9 && (hv[1] - 480.0).abs() < 1e-9);
//! ```
//!
//! Loops over `0..x.len()` are loops with a run-time trip count: a reduction stores nothing, and
//! a loop that carries state from step to step is stored when its length fits the stack budget,
//! and checkpointed past it (see [`memory`](super::memory)).
//! `hessian` and `jacobian` need the number of differentiated scalars at compile time and are
//! refused with a slice (use `hvp` or `jvp`); so is passing a differentiated slice to a called
//! function (pass its elements). A `Vec` of floats taken by value is refused unless `wrt(...)`
//! leaves it out (then it is constant data): take `&[f64]` or `&Vec<f64>`.
//! `#[grad(argmin)]` hands argmin's `Vec<f64>` parameters straight to `f` and `f_grad` this way
//! (see [`argmin`](super::argmin)). `BENCHMARKS.md` ("Number types") times the slice and `f32`
//! gradients against hand-written ones.
