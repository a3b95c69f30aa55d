//! The `#[grad]` attribute: compile-time automatic differentiation of `f64` functions by source
//! transformation. This crate is re-exported by `autodiff-runtime`; depend on that one.
//!
//! The pipeline is in `expand`: the attribute's options, lowering to IR, the reverse and forward
//! transforms (IR to IR, sharing one derivative rule table), and codegen.
#![forbid(unsafe_code)]

mod args;
mod codegen;
mod ctxt;
mod expand;
mod ir;
mod lower;
mod rules;
mod symbol;
mod transform;

#[cfg(test)]
mod tests;

use proc_macro::TokenStream;

/// Differentiates an `f64` function at compile time.
///
/// Keeps the function unchanged and writes next to it, with the same visibility:
/// - `f_grad(params...) -> (f64, gradient)`: the value and the whole gradient from one forward
///   pass and one reverse sweep (a bare `f64` for one parameter, a tuple otherwise);
/// - with `jvp`: `f_jvp(params..., directions...) -> (f64, f64)`, the value and the directional
///   derivative, by forward mode;
/// - with `hvp`: `f_hvp(params..., directions...) -> (f64, gradient, gradient)`, the value, the
///   gradient and the Hessian-vector product H·v, by forward mode over the reverse sweep;
/// - with `hessian`: `f_hessian(params...) -> [[f64; n]; n]`, one `f_hvp` call per unit direction
///   (it also emits `f_hvp`).
///
/// `wrt(a, b)` differentiates only the named parameters; the others, and every parameter that is
/// not `f64` (or written `_`), are constants passed through.
///
/// When `n` is an expression of the function's const generics that stable Rust does not take as
/// an array length in a type (`N + 1` for `x: [f64; N], y: f64`), `f_hessian` takes it as one
/// more const generic parameter, `M`, which the caller gives through the result's type (and
/// `f_jacobian` its sizes as `ROWS` and `COLS`); a wrong one fails `cargo build` with the number
/// it must be:
///
/// ```
/// use autodiff_runtime::grad;
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
/// ```
/// use autodiff_runtime::grad;
///
/// #[grad(hvp)]
/// fn g(x1: f64, x2: f64) -> f64 {
///     x1.ln() + x1 * x2 - x2.sin()
/// }
///
/// let (value, (d1, d2), (h1, h2)) = g_hvp(2.0, 5.0, 1.0, 0.0);
/// assert_eq!((d1, h1, h2), (5.5, -0.25, 1.0));
/// # let _ = (value, d2);
/// ```
#[proc_macro_attribute]
pub fn grad(attr: TokenStream, item: TokenStream) -> TokenStream {
    expand::expand(attr.into(), item.into()).into()
}
