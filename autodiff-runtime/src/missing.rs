//! Compile errors that say what to do when a derivative function a caller needs was not
//! generated: `#[grad]` writes a stand-in for each one it does not generate, bounded by one of
//! these traits, which no type implements, so calling the stand-in fails at the call, with this
//! message.

/// Bounds the stand-in `g_jvp` of a `#[grad]` function without `jvp`.
#[diagnostic::on_unimplemented(
    message = "the `_jvp` of this called function is not generated: a caller's `jvp` differentiates the call through it",
    label = "the callee's `_jvp` is needed here",
    note = "add `jvp` to `#[grad(...)]` on the called function, or write its `_jvp` by hand (and drop `#[grad]` from it): see `autodiff_runtime::guide::calls`"
)]
pub trait JvpGenerated {}

/// Bounds the stand-in `g_hvp` of a `#[grad]` function without `hvp` or `hessian`.
#[diagnostic::on_unimplemented(
    message = "the `_hvp` of this called function is not generated: a caller's `hvp` and `hessian` differentiate the call through it",
    label = "the callee's `_hvp` is needed here",
    note = "add `hvp` to `#[grad(...)]` on the called function, or write its `_hvp` by hand (and drop `#[grad]` from it): see `autodiff_runtime::guide::calls`"
)]
pub trait HvpGenerated {}

/// Bounds the stand-in `g_grad` of a `#[grad]` function that returns several values: a caller
/// calls it when it took the call's value to be one `f64` (its type not written).
#[diagnostic::on_unimplemented(
    message = "this called function returns an array or a tuple, but `#[grad]` took the value of the call to be one `f64`, as it does unless the type is written where the value is bound",
    label = "the value of this call is bound without its type",
    note = "write the type where the call's value is bound, as in `let y: [f64; 3] = g(x);` or `let (a, b) = g(x);`: see `autodiff_runtime::guide::calls`"
)]
pub trait ScalarCallee {}
