//! The shared corpus of differentiated functions used by the tests, examples and benchmarks.
//!
//! This crate is also the lint check of the generated code: it denies every rustc warning and every
//! `clippy::all` lint and forbids `unsafe`, so any warning in what `#[grad]` emits fails the build
//! (`cargo test`) or the lint run (`cargo clippy --workspace --all-targets -- -D warnings`).
#![deny(warnings, clippy::all)]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod adbench;
pub mod bench_fns;
pub mod branch_kept;
pub mod branch_sides;
pub mod calls;
pub mod casts;
pub mod checkpoint;
pub mod control_sugar;
pub mod counters;
pub mod floats;
pub mod hunt;
pub mod hygiene;
pub mod idioms;
pub mod loops;
pub mod methods;
pub mod methods_more;
pub mod oracles;
pub mod programs;
mod quiet;
pub mod regressions;
pub mod slices;
pub mod solvers;
pub mod struct_arrays;
pub mod struct_calls;
pub mod struct_chains;
pub mod struct_fields;
pub mod struct_rows;
pub mod structs;
pub mod vcalls;
pub mod vcalls_untyped;
pub mod whiles;
pub mod worked;

/// The README's Rust snippets, compiled and run as doctests (`cargo test --doc -p autodiff-suite`),
/// so that the front page cannot drift from the macro.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

/// The derivatives of the functions in the private module `quiet`, which are otherwise unused.
pub fn quiet_derivatives() -> [f64; 4] {
    quiet::used()
}
