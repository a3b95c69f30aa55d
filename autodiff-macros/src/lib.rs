//! The `#[grad]` attribute: compile-time automatic differentiation of `f64`, `f32` and generic
//! float functions by source transformation, and `#[derive(Differentiable)]`. This crate is
//! re-exported by `autodiff-runtime`; depend on that one, whose `guide` module is the reference.
//!
//! The pipeline is in `expand`: the attribute's options, lowering to IR, the reverse and forward
//! transforms (IR to IR, sharing one derivative rule table), and codegen.
#![forbid(unsafe_code)]

mod aggregate;
mod args;
mod codegen;
mod ctxt;
mod derive;
mod expand;
mod ir;
mod lower;
mod rules;
mod symbol;
mod transform;

#[cfg(test)]
mod tests;

use proc_macro::TokenStream;

/// Differentiates a numeric function at compile time: its derivatives, written next to it as
/// plain Rust (no tape, no heap, no dual numbers).
///
/// `#[grad(options…)]` on `fn f(params…) -> R` keeps `f` unchanged and writes, with `f`'s
/// visibility and a doc comment each, the functions below. `f` computes in `f64`, `f32` (when it
/// returns `f32`s) or one type parameter `T: Float`, and so do its derivatives; `f64` below
/// stands for that type. Use it through `autodiff-runtime`, which re-exports it
/// (`use autodiff_runtime::grad;`). The reference, one page per topic, is the
/// [`guide`](https://docs.rs/autodiff-runtime/latest/autodiff_runtime/guide/index.html) module of `autodiff-runtime`.
///
/// # Generated functions
///
/// | option | generated function | returns |
/// | --- | --- | --- |
/// | (none) | `f_grad(params…)` | `(value, gradient)`: one forward pass and one reverse sweep |
/// | `jvp` | `f_jvp(params…, directions…)` | `(value, ∇f·v)`, by forward mode |
/// | `hvp` | `f_hvp(params…, directions…)` | `(value, gradient, H·v)`, forward mode over the reverse sweep |
/// | `into` | `f_grad_into(params…, x_bar: &mut [f64; N]…)` | the value; the gradient of each differentiated array written into the caller's array (overwritten), bit for bit `f_grad`'s |
/// | `hessian` | `f_hessian(params…)` | `[[f64; n]; n]`, one `f_hvp` per unit direction (also emits `f_hvp`) |
/// | (none), vector `f` | `f_vjp(params…, out_bar)` | `(value, cotangents)`: one reverse sweep seeded with `out_bar` |
/// | (none), vector `f` | `f_fwd(params…)`, `f_rev(params…, residuals, out_bar)` | `(value, residuals)`, `cotangents`: `f_vjp` split at the end of its forward pass, for callers |
/// | `jvp`, vector `f` | `f_jvp(params…, directions…)` | `(value, value_dot)` |
/// | `hvp`, vector `f` | `f_hvp(params…, out_bar, directions…, out_bar_dot)` | `(value, cotangents, value_dot, cotangents_dot)` (also emits `f_jvp`) |
/// | `jacobian` | `f_jacobian(params…)`, `f_jacobian_mode()` | `(value, [[f64; n]; m])`: by rows when `m ≤ n`, else by columns; up to 8 of them known to the macro in one pass (one sweep carrying every row's adjoints, or one forward sweep every column's tangents), otherwise one `f_vjp` per row or `f_jvp` per column |
/// | `argmin` (feature `argmin` of `autodiff-runtime`) | `FProblem`, a type | argmin's `CostFunction`, `Gradient` and (with `hessian`) `Hessian` |
/// | (none), `f` returning an array | `const f_shape: [usize; R]` | the dimensions of `f`'s value, outermost first (not when they read a const generic of `f`), for callers that bind it without its type |
/// | (none), free non-generic `f` returning a struct `S` | `type f_value = S;` | for callers that bind its value without its type and read it as a struct |
///
/// A vector function returns an array of floats (nested too), a tuple of them, or a struct
/// deriving [`Differentiable`](derive@Differentiable). See [`guide::generated`](https://docs.rs/autodiff-runtime/latest/autodiff_runtime/guide/generated/index.html).
///
/// # Options
///
/// - `wrt(a, b)`: differentiate only these parameters (or fields, `wrt(m.w)`); the others are
///   constants.
/// - `jvp`, `hvp`, `hessian`, `jacobian`, `jacobian(forward)`, `jacobian(reverse)`: the
///   functions above. `hessian` needs a function returning one scalar, `jacobian` a vector
///   function.
/// - `checkpoint`, `checkpoint(s = N)`: checkpoint every loop that would store values, with 32
///   or `N` snapshots.
/// - `stack = BYTES`: the stack budget for the values the sweeps store (default 512 KiB).
/// - `implicit('label)`: differentiate the loop so labelled at its fixed point.
/// - `argmin`: the argmin problem type.
/// - `accumulate`: the buffers of differentiated slices are added into, not overwritten.
/// - `into`: also `f_grad_into`, which writes the gradient into one `&mut [f64; N]` per
///   differentiated parameter (after the parameters, in their order) instead of returning it:
///   no copy of a large gradient. Every differentiated parameter must be an array (a slice
///   keeps its `&mut [f64]` buffer), on a function returning one scalar; not with `accumulate`.
///
/// An unknown or repeated option is a compile error. See [`guide::options`](https://docs.rs/autodiff-runtime/latest/autodiff_runtime/guide/options/index.html).
///
/// # Conventions
///
/// - Differentiated (unless `wrt` says otherwise): every float, array of floats (by value or
///   `&`, nested) and struct parameter deriving `Differentiable` (`self` and `&self` too). A
///   slice `&[f64]` is differentiated when `wrt` names it, its gradient written into a buffer
///   `x_bar: &mut [f64]` passed last (overwritten, or added into with `accumulate`). Every other parameter (integers, `bool`, data, `_`) is a
///   constant passed through.
/// - The gradient mirrors the differentiated parameters: a bare value for one, a tuple in
///   parameter order for several, each component of its parameter's shape, owned (`[f64; N]`
///   for `&[f64; N]`, `Model` for `&Model`). H·v has the gradient's shape.
/// - Directions come after all the original arguments, one per differentiated parameter, each
///   of its parameter's type (`&Self` for a receiver).
/// - `f_hessian` and `f_jacobian` number the differentiated scalars in parameter order, arrays
///   in row-major order, structs in declaration order; row `i` of the Jacobian is the `i`-th
///   output scalar.
/// - When `n` is an expression of the function's const generics that stable Rust does not take
///   as an array length (`N + 1` for `x: [f64; N], y: f64`), `f_hessian` takes it as one more
///   const generic parameter, `M`, which the caller gives through the result's type (and
///   `f_jacobian` its sizes as `ROWS` and `COLS`); a wrong one fails `cargo build` with the
///   number it must be.
///
/// See [`guide::conventions`](https://docs.rs/autodiff-runtime/latest/autodiff_runtime/guide/conventions/index.html) and, for `f32`, generic floats and
/// slices, [`guide::numbers`](https://docs.rs/autodiff-runtime/latest/autodiff_runtime/guide/numbers/index.html).
///
/// ```
/// use autodiff_runtime::grad;
///
/// #[grad(jvp, hvp, hessian)]
/// fn g(x1: f64, x2: f64) -> f64 {
///     x1.ln() + x1 * x2 - x2.sin()
/// }
///
/// let (value, (d1, d2)) = g_grad(2.0, 5.0);
/// assert_eq!((value, d1, d2), (g(2.0, 5.0), 5.5, 2.0 - 5.0_f64.cos()));
/// let (_, slope) = g_jvp(2.0, 5.0, 1.0, 0.0);
/// assert_eq!(slope, d1);
/// let (_, _, (h1, h2)) = g_hvp(2.0, 5.0, 1.0, 0.0);
/// assert_eq!((h1, h2), (-0.25, 1.0));
/// assert_eq!(g_hessian(2.0, 5.0), [[-0.25, 1.0], [1.0, 5.0_f64.sin()]]);
///
/// #[grad(hessian)]
/// fn f<const N: usize>(x: [f64; N], y: f64) -> f64 {
///     let mut s = y * y;
///     for i in 0..N {
///         s += x[i] * x[i] * y;
///     }
///     s
/// }
///
/// let h: [[f64; 4]; 4] = f_hessian([1.0, 2.0, 3.0], 0.5); // M = N + 1 = 4
/// assert_eq!(h[3], [2.0, 4.0, 6.0, 2.0]);
/// ```
///
/// # The body
///
/// `let` and `let mut` with compound assignment, arithmetic and the float methods, `if`/`else`,
/// `match` on integers, floats and `bool`s, patterns, closures, iterator chains, `for` loops over ranges,
/// `while`, `loop` with `break`, calls of other differentiated functions and methods, struct
/// values: see [`guide::subset`](https://docs.rs/autodiff-runtime/latest/autodiff_runtime/guide/subset/index.html) for the list and what is refused. Every
/// unsupported construct is a compile error at its span that says what to write instead; all of
/// a function's errors are reported at once, and `f` is still emitted. Derivatives at kinks
/// follow [`guide::nondiff`](https://docs.rs/autodiff-runtime/latest/autodiff_runtime/guide/nondiff/index.html); loops keep what their sweep needs on the
/// stack, or are checkpointed ([`guide::loops`](https://docs.rs/autodiff-runtime/latest/autodiff_runtime/guide/loops/index.html),
/// [`guide::memory`](https://docs.rs/autodiff-runtime/latest/autodiff_runtime/guide/memory/index.html)).
///
/// # Calls and custom derivatives
///
/// A call of another function `g` is differentiated through `g_grad`, `g_jvp` and `g_hvp` (or,
/// for a vector `g`, `g_fwd` and `g_rev`, `g_jvp`, `g_hvp`), generated by `#[grad]` on `g` or written by
/// hand, which take one partial and one direction per parameter of `g` that is a float, an array
/// of floats or a struct, whatever the call passes: the caller drops the partials of its
/// constant arguments and passes them zero directions. So a callee's `#[grad]` has no `wrt`. A
/// call's value bound without its type (`let h = layer(w, x);`) and read as an array (`h[i]`,
/// `for v in h`, `g(&h)`) takes its lengths from `layer_shape`; read as a struct (`r.w`,
/// `r.mul(&q)`), its type from `make_value` (a free function) or the receiver's (a method). See
/// [`guide::calls`](https://docs.rs/autodiff-runtime/latest/autodiff_runtime/guide/calls/index.html) for the contract.
///
/// ```
/// use autodiff_runtime::grad;
///
/// #[grad(hvp)]
/// fn g(x1: f64, x2: f64) -> f64 {
///     x1.ln() + x1 * x2 - x2.sin()
/// }
///
/// #[grad(hvp)]
/// fn caller(x: f64) -> f64 {
///     g(x, 5.0) * x // 5.0 is a constant: its partial is dropped
/// }
///
/// let (value, d, h) = caller_hvp(2.0, 1.0);
/// let (gv, (g1, _), (h11, _)) = g_hvp(2.0, 5.0, 1.0, 0.0);
/// assert_eq!((value, d), (gv * 2.0, g1 * 2.0 + gv));
/// assert_eq!(h, h11 * 2.0 + 2.0 * g1);
/// ```
///
/// On a function returning an array or a tuple (a vector function), `#[grad]` writes
/// `f_vjp(params..., out_bar) -> (value, cotangents)` in place of `f_grad`, and its two halves,
/// which a caller's gradient calls: `f_fwd(params...) -> (value, residuals)` in its forward pass
/// and `f_rev(params..., residuals, out_bar) -> cotangents` in its sweep (JAX's `custom_vjp`
/// `fwd` and `bwd`). They are the statements of `f_vjp` split at the end of its forward pass, the
/// residuals being the values of the forward pass that the sweep reads, so `f` runs once per call
/// and `f_rev` computes `f_vjp`'s cotangents by the same operations. A hand-written rule for a
/// vector `g` writes `g_fwd` and `g_rev` too (with no residuals, `(g(..), ())` and
/// `g_vjp(.., out_bar).1`); a caller generic over its float type calls `g` and `g_vjp` instead.
/// See [`guide::calls`](https://docs.rs/autodiff-runtime/latest/autodiff_runtime/guide/calls/index.html).
///
/// ```
/// use autodiff_runtime::grad;
///
/// #[grad]
/// fn polar(r: f64, t: f64) -> (f64, f64) {
///     (r * t.cos(), r * t.sin())
/// }
///
/// let (value, residuals) = polar_fwd(2.0, 0.5);
/// let cotangents = polar_rev(2.0, 0.5, residuals, (1.0, 0.0));
/// assert_eq!((value, cotangents), polar_vjp(2.0, 0.5, (1.0, 0.0)));
/// ```
#[proc_macro_attribute]
pub fn grad(attr: TokenStream, item: TokenStream) -> TokenStream {
    expand::expand(attr.into(), item.into()).into()
}

/// Makes a struct usable by `#[grad]`: as a differentiated parameter (the gradient is a value of
/// the same struct), as a value in the body, and as the receiver of differentiated methods.
///
/// Implements `autodiff_runtime::Differentiable`. The `f64` fields, arrays of `f64` (nested) and
/// fields of structs that derive it are differentiated, numbered in declaration order (each
/// array in row-major order) for `f_hessian` and `f_jacobian`; a field marked `#[no_grad]`, and
/// a field of another type (an integer, a `bool`, a `Vec` of data), is a constant: a gradient
/// leaves it at its `Default`, and a direction's value there is not read. Fields of `f32` and
/// tuples of floats are refused (mark them `#[no_grad]`).
///
/// ```
/// use autodiff_runtime::{Differentiable, grad};
///
/// #[derive(Differentiable)]
/// struct Line {
///     slope: f64,
///     offset: f64,
///     #[no_grad]
///     weight: f64,
/// }
///
/// #[grad]
/// fn residual(line: &Line, x: f64, y: f64) -> f64 {
///     let r = line.slope * x + line.offset - y;
///     line.weight * r * r
/// }
///
/// let (value, (g, _, _)) = residual_grad(&Line { slope: 2.0, offset: 1.0, weight: 0.5 }, 3.0, 6.0);
/// assert_eq!(value, 0.5);
/// assert_eq!((g.slope, g.offset, g.weight), (3.0, 1.0, 0.0));
/// ```
#[proc_macro_derive(Differentiable, attributes(no_grad))]
pub fn derive_differentiable(input: TokenStream) -> TokenStream {
    derive::derive(input.into()).into()
}
