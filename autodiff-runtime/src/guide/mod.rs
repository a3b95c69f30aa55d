//! The reference of `#[grad]`: what it takes, what it writes, and how it differentiates.
//!
//! One page per topic. Every Rust snippet on these pages is a doctest that compiles and checks
//! the numbers it shows against closed forms or finite differences (`cargo test --doc -p
//! autodiff-runtime`); the refusals are `compile_fail` doctests, and excerpts of generated code
//! are plain text that the macro's unit tests compare with its expansion.
//!
//! | page | what it says |
//! | --- | --- |
//! | [`options`] | every option of `#[grad(...)]` |
//! | [`generated`] | the generated functions and their signatures, their attributes, reading the expansion |
//! | [`conventions`] | which parameters are differentiated, the shapes of gradients and directions, the numbering of Hessians and Jacobians |
//! | [`numbers`] | `f32`, generic floats `T: Float`, slices `&[f64]` |
//! | [`subset`] | the Rust that a differentiated body may use, and what is refused |
//! | [`nondiff`] | derivatives at non-differentiable points, and of branches |
//! | [`loops`] | loops without a tape: what the sweep recomputes, what it stores, the stack budget |
//! | [`memory`] | checkpointing: loops too long to store, loops of unknown length, loops differentiated at their fixed point |
//! | [`calls`] | calls of other functions and methods, and derivatives written by hand |
//! | [`structs`] | `#[derive(Differentiable)]`, struct parameters and values, methods |
//! | [`argmin`] | `#[grad(argmin)]`: an annotated function as an argmin problem |
//! | [`limits`] | the known limits, and very long functions |
//!
//! # Where the proofs are
//!
//! In the repository, beside these doctests: `src/` is a corpus of annotated functions built
//! with `#![deny(warnings, clippy::all)]` and `#![forbid(unsafe_code)]` (so any warning in the
//! generated code fails the build), and `tests/` checks it by topic against closed forms,
//! hand-written derivatives and finite differences: `conventions.rs` (shapes, signatures),
//! `floats.rs` (`f32` and generic functions, to the bit against their `f64` twins), `slices.rs`,
//! `idioms.rs` (iterator chains, `match`, closures), `branch_sides.rs` (the side not taken),
//! `loops.rs`, `checkpoint.rs`, `whiles.rs` (online checkpointing, `implicit`), `calls.rs` and
//! `vcalls.rs` (hand-written rules, vector callees), `structs.rs`, `argmin.rs`, `alloc.rs`
//! (nothing on the heap, counted), `hygiene.rs`, a differential fuzzer (`fuzz.rs`), and `ui/`,
//! one trybuild case per refusal with its message.
//!
//! # How it works
//!
//! `autodiff-macros` is a pipeline, each phase in its own module, whose order only its
//! `expand.rs` knows:
//!
//! 1. `args`: the attribute's options; `lower`: syn to an IR in A-normal form (one primitive per
//!    statement, single assignment; `let mut` and `+=` are renamed), with structured regions (a
//!    `for` loop with its carried values, an `if` with the values its sides yield, calls) and
//!    array values updated by `store`, reporting every unsupported construct with its span.
//!    Iterator chains, `match`, closures, `while` loops and early exits are desugared in front of
//!    it into the regions the IR has.
//! 2. `rules`: one table of partial derivatives per primitive, built as IR from primitives only.
//! 3. `transform`, each IR to IR: activity analysis; `sink` (a value read only inside an `if` is
//!    computed in the side that reads it); `wrap` (a reduction over a ring split at its
//!    wrap-around, so that the rest indexes `i - k`); `calls` (a call's value and partials from
//!    one `g_grad`); `plan` (for each loop: what its sweep recomputes, stores, or checkpoints);
//!    `reverse` (the forward pass with its stores, then the adjoint sweep: a loop runs
//!    backwards, a branch takes the side the forward pass took, a checkpointed loop becomes a
//!    `Checkpoint` region); `fuse` (a reduction's sweep joins its forward loop), `first_touch`
//!    (in a loop, the first contribution to an element of a zeroed adjoint array is assigned,
//!    `x̄[i + 1] = ā`, where no earlier iteration can have reached that element: decided on
//!    indices `i + c`), `cse`, `hoist` (loop-invariant code out of loops), dead-code
//!    elimination; and `forward`, which handles every region, `Checkpoint` included. `hvp` is
//!    `forward(reverse(f))`, nothing special-cased: every primitive the rules emit has a rule
//!    itself.
//! 4. `codegen`: IR to tokens with readable names: values that can share a mutable variable (a
//!    loop's carried value, the versions of an array updated in place) share one.
//!
//! The IR verifier runs after every pass.

pub mod argmin;
pub mod calls;
pub mod conventions;
pub mod generated;
pub mod limits;
pub mod loops;
pub mod memory;
pub mod nondiff;
pub mod numbers;
pub mod options;
pub mod structs;
pub mod subset;
