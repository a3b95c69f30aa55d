//! Compile errors that say what to do when a derivative function a caller needs was not
//! generated: `#[grad]` writes a stand-in for each one it does not generate, bounded by one of
//! these traits, which no type implements, so calling the stand-in fails at the call, with this
//! message.

/// Bounds the stand-in `g_jvp` of a `#[grad]` function without `jvp`.
#[diagnostic::on_unimplemented(
    message = "the `_jvp` of this called function is not generated: a caller's `jvp` differentiates the call through it",
    label = "the callee's `_jvp` is needed here",
    note = "add `jvp` to `#[grad(...)]` on the called function, or write its `_jvp` by hand (and drop `#[grad]` from it): see \"Calls and custom derivatives\" in the README"
)]
pub trait JvpGenerated {}

/// Bounds the stand-in `g_hvp` of a `#[grad]` function without `hvp` or `hessian`.
#[diagnostic::on_unimplemented(
    message = "the `_hvp` of this called function is not generated: a caller's `hvp` and `hessian` differentiate the call through it",
    label = "the callee's `_hvp` is needed here",
    note = "add `hvp` to `#[grad(...)]` on the called function, or write its `_hvp` by hand (and drop `#[grad]` from it): see \"Calls and custom derivatives\" in the README"
)]
pub trait HvpGenerated {}

/// Bounds the stand-in `g_grad` of a `#[grad]` function that returns several values.
#[diagnostic::on_unimplemented(
    message = "a `#[grad]` function can call only functions returning one `f64`: this one returns several values, so it has a `_vjp`, not a `_grad`",
    label = "a call of a function with several outputs",
    note = "compute the outputs you need with functions returning one `f64` each"
)]
pub trait ScalarCallee {}
