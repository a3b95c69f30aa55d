//! Differential fuzzing of `#[grad]`: random programs with loops, branches and arrays, each
//! differentiated by the macro and checked against an independent evaluation.
//!
//! The build script (`build.rs`, generator in `build/fuzz/`) writes `AUTODIFF_FUZZ_COUNT`
//! programs (40 by default) from the seed `AUTODIFF_FUZZ_SEED` (fixed by default) into
//! `$OUT_DIR/fuzz_programs.rs`. Each program is one random tree printed twice:
//! - as `f`, a function over `f64` and arrays under `#[grad(jvp, hvp)]` (some with `hessian`), or
//!   for vector outputs `#[grad(jvp, jacobian)]` (sometimes forcing the mode);
//! - as `f_dual`, the same body over the hyper-dual numbers of `fuzz/dual.rs`, the oracle.
//!
//! The programs mix `f64`, `[f64; N]`, `[[f64; K]; M]` and `&[f64; N]` parameters, constants left
//! out of `wrt(...)`, `&[f64]` data read in loops over `data.len()` (reductions, which is what the
//! macro accepts there), `const` lengths; `let` and `let mut` scalars and arrays, element updates;
//! `for` loops over literal or `const` ranges, `..=`, `.rev()`, nested and triangular, carrying
//! state updated by `+=`, `*=`, `/=` and nonlinear reassignment; `if` / `else if` / `else` on
//! `f64` and integer conditions, as statements and as values, inside and outside loops; the `f64`
//! methods with arguments kept in their domains, and kinks (`abs`, `max`, `min`, `hypot`,
//! branches). Vectors come out as `[f64; M]` or tuples.
//!
//! At a few random points per program the test checks that
//! - `f_grad`, `f_jvp`, `f_hvp` (and `f_vjp`, `f_jacobian`) return `f`'s value bit for bit;
//! - the gradient (or Jacobian) equals the hyper-dual one (unit seeds) to rounding, and central
//!   differences, except across a kink (the oracle records how close each comparison came);
//! - `f_jvp` is `∇f·v`, `f_vjp` is `uᵀJ`, `f_hvp`'s gradient is `f_grad`'s;
//! - `f_hvp` is the hyper-dual `H·w` (its mixed parts along each unit direction), the Hessian
//!   from `f_hvp` by columns is symmetric, equals `f_hessian`, and gives `vᵀHw` as the
//!   hyper-dual number does.
//!
//! A failure prints the program's seed, source and point. To run other programs:
//!
//! ```sh
//! AUTODIFF_FUZZ_SEED=7 AUTODIFF_FUZZ_COUNT=200 cargo test --test fuzz
//! AUTODIFF_FUZZ_POINTS=10 cargo test --test fuzz   # more points per program
//! ```
//!
//! Program `k` of a run comes from seed `AUTODIFF_FUZZ_SEED + k` alone, so
//! `AUTODIFF_FUZZ_SEED=<its seed> AUTODIFF_FUZZ_COUNT=1` regenerates just that program.

mod fuzz {
    pub mod check;
    // The programs of a run use only some of the operations.
    #[allow(dead_code)]
    pub mod dual;
}

use std::fmt::Write;
use std::panic::{AssertUnwindSafe, catch_unwind};

use autodiff_runtime::__private::Flat;
use autodiff_runtime::grad;
use fuzz::check;
// The generated programs use these through `use super::*`; a run with few programs may not
// need every one.
#[allow(unused_imports)]
use fuzz::dual::{Hd, constant, lit, seed};

/// The inputs of one evaluation.
pub struct Point<'a> {
    /// The differentiated parameters, flattened in parameter order (arrays row-major).
    pub x: &'a [f64],
    /// The constant parameters, flattened.
    pub c: &'a [f64],
    /// The `&[f64]` data, if the program takes some.
    pub data: &'a [f64],
}

/// Value, gradient and H·w of a scalar program, flattened.
pub type Hvp = (f64, Vec<f64>, Vec<f64>);
/// Values and a derivative of a vector program, flattened (a Jacobian row-major).
pub type Values = (Vec<f64>, Vec<f64>);

/// A program's generated functions, called through flat slices.
pub enum Fns {
    /// A function returning one `f64`.
    Scalar {
        value: fn(&Point) -> f64,
        grad: fn(&Point) -> (f64, Vec<f64>),
        jvp: fn(&Point, &[f64]) -> (f64, f64),
        hvp: fn(&Point, &[f64]) -> Hvp,
        hessian: Option<fn(&Point) -> Vec<f64>>,
        dual: fn(&Point, &[f64], &[f64]) -> Hd,
    },
    /// A function returning `m` values.
    Vector {
        value: fn(&Point) -> Vec<f64>,
        vjp: fn(&Point, &[f64]) -> Values,
        jvp: fn(&Point, &[f64]) -> Values,
        jacobian: fn(&Point) -> Values,
        mode: fn() -> &'static str,
        forced: Option<&'static str>,
        dual: fn(&Point, &[f64], &[f64]) -> Vec<Hd>,
    },
}

/// One generated program.
pub struct Program {
    pub seed: u64,
    /// The `#[grad]` function as generated, with the `const` items it reads.
    pub source: &'static str,
    /// How many differentiated and constant `f64`s it takes, how many it returns.
    pub n: usize,
    pub nc: usize,
    pub m: usize,
    /// Whether it takes `&[f64]` data.
    pub data: bool,
    pub fns: Fns,
}

/// Every `f64` of `x`, in order.
pub fn flat<T: Flat>(x: &T) -> Vec<f64> {
    (0..T::LEN).map(|k| x.get(k)).collect()
}

/// The value of type `T` holding `xs`.
pub fn unflat<T: Flat>(xs: &[f64]) -> T {
    let mut t = T::zero();
    for (k, x) in xs.iter().enumerate() {
        t.set(k, *x);
    }
    t
}

include!(concat!(env!("OUT_DIR"), "/fuzz_programs.rs"));

#[test]
fn random_programs_agree_with_hyper_dual_numbers_and_finite_differences() {
    let points: usize =
        std::env::var("AUTODIFF_FUZZ_POINTS").ok().and_then(|s| s.trim().parse().ok()).unwrap_or(3);
    let programs = programs();
    let mut stats = check::Stats::default();
    let mut failures = Vec::new();
    for prog in &programs {
        for k in 0..points {
            let sample = check::Sample::new(prog, k as u64);
            let outcome =
                catch_unwind(AssertUnwindSafe(|| check::program(prog, &sample, &mut stats)));
            let message = match outcome {
                Ok(Ok(())) => continue,
                Ok(Err(m)) => m,
                Err(panic) => {
                    let text = panic
                        .downcast_ref::<String>()
                        .cloned()
                        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_default();
                    format!("panicked: {text}")
                }
            };
            let mut report = String::new();
            let _ = write!(
                report,
                "program from seed {} (AUTODIFF_FUZZ_SEED={} AUTODIFF_FUZZ_COUNT=1), point {k}: {message}\n{}\n{sample}",
                prog.seed, prog.seed, prog.source
            );
            failures.push(report);
            break;
        }
    }
    eprintln!("{} programs: {stats}", programs.len());
    assert!(failures.is_empty(), "{} failure(s):\n\n{}", failures.len(), failures.join("\n\n"));
    assert!(
        stats.checked * 2 >= stats.points,
        "most points gave values too large to check: the generator needs tuning ({stats})"
    );
}
