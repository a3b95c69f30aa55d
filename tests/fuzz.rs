//! Differential fuzzing of `#[grad]`: random programs with loops, branches and arrays, each
//! differentiated by the macro and checked against an independent evaluation.
//!
//! The build script (`build.rs`, generator in `build/fuzz/`) writes `AUTODIFF_FUZZ_COUNT`
//! programs (40 by default) from the seed `AUTODIFF_FUZZ_SEED` (fixed by default) into
//! `$OUT_DIR/fuzz_programs.rs`, which this file includes. Each program is one random tree printed
//! twice, and most a third time:
//! - as `f`, a function over `f64` and arrays under `#[grad(jvp, hvp)]` (a quarter with
//!   `hessian`), or, returning `[f64; M]` or a tuple, under `#[grad(jvp, jacobian)]` (half of
//!   them forcing `jacobian(forward)` or `jacobian(reverse)`);
//! - as `f_dual`, the same body over the hyper-dual numbers of `fuzz/dual.rs`: the oracle, which
//!   shares no code with the macro and is itself checked against finite differences below;
//! - as `f_it`, its iterator twin (`build/fuzz/idiom/`), when the rewrite changed something:
//!   the same tree with some loops over iterator chains (`x.iter()`, `&x`, `x`, `into_iter`,
//!   `copied`, `cloned`, `enumerate`, `zip` as in `x.iter().zip(x.iter().skip(1))`, `rev`,
//!   `skip`, `take`, `step_by(2)` for `x[2 * i]`, `windows(k)` over arrays and data, rows of
//!   matrices, ranges), a body that is one `if` on the elements as `filter`, reductions as
//!   `map(..).sum::<f64>()` (for an accumulator that starts at `-0.0`, where `sum` starts) or
//!   `fold(s, |acc, ..| acc + e)`, a loop that updates state as a `fold` whose accumulator is
//!   that state (a tuple when it is several variables, arrays included), `if` chains on an
//!   integer as `match` (patterns `3`, `..3`, `..=3`, `4..`, guards), and subexpressions as
//!   closures bound with `let` and called. Each rewrite keeps the arithmetic and its order.
//!
//! The programs take `f64`, `[f64; N]`, `[[f64; K]; M]` and `&[f64; N]` parameters, constants
//! left out of `wrt(...)`, `&[f64]` data, read in loops over `data.len()` (as reductions:
//! the macro accepts nothing else over a length known at run time), and a trip count
//! `steps: usize` (loops `0..steps`, which the macro checkpoints), with lengths written as
//! literals or `const` items. Their bodies have `let` and `let mut` scalars and arrays (zeros,
//! literals, copies, rows), integer `let`s, element updates `y[i] op= e`, and state that `for`
//! loops carry (literal or `const` bounds, `..=`, `.rev()`, nested, triangular `i + 1..N`,
//! reductions over `0..i`), updated by `+=`, `-=`, `*=`, `/=` and nonlinear reassignment; `if` /
//! `else if` / `else` as statements and as values, on `f64` and integer comparisons joined by
//! `&&`, `||`, `!`, inside and outside loops, some on carried state, some the whole body of a
//! loop and reading only the elements it visits (a `filter` in iterator form); accumulators
//! starting at `0.0` or `-0.0`; indices `i + c`, `i - c`, `2 * i + c`, `N - 1 - i`,
//! `(i + N - k) % N`; loops over `data.len()` from 0 or from 1 (`data[i - 1]`); every supported
//! `f64` method, its arguments kept in its domain (`ln` of `1 + e·e`, `exp` of a bounded value),
//! and kinks (`abs`, `max`, `min`, `hypot`, branches).
//!
//! Programs call functions defined before them (up to two, each of which may call the one
//! before it): small random programs under `#[grad(jvp, hvp)]`, which differentiate all their
//! `f64` and array parameters (no `wrt`, as a callee's derivative functions must fit every
//! call) and sometimes take a trip count `steps: usize`, and closed forms whose `g_grad`,
//! `g_jvp` and `g_hvp` are written by hand (`build/fuzz/manual.rs`), the custom-derivative
//! path, one of them with an integer parameter. Call by call, each `f64` or array parameter of a
//! callee gets a value or a constant in any position (a literal, a constant parameter or an
//! element of one, an integer cast, data, a constant array whole, as `c` or `*c`), so that the
//! caller keeps some partials, drops others and passes zero directions for them; an integer
//! parameter gets an integer. The oracle calls the callees' hyper-dual twins `g_dual`, which
//! share nothing with the hand-written derivatives. A program with loops may have a twin
//! `f_ck` under `#[grad(checkpoint)]` or `checkpoint(s = N)` (every program with `steps` has
//! one): its `f_grad` and `f_hvp` (or `f_vjp`) must equal the stored sweep's to the bit.
//!
//! At a few random points per program (`AUTODIFF_FUZZ_POINTS`, 3 by default) the test checks:
//! - `f_grad`, `f_jvp`, `f_hvp` (or `f_vjp`, `f_jvp`, `f_jacobian`) return `f`'s value bit for
//!   bit, and so does the oracle;
//! - the gradient (or Jacobian) equals the oracle's along the unit directions, to rounding, and
//!   central differences, except within 10⁻³ of a kink (the oracle records how close every
//!   comparison came) or where two step sizes disagree;
//! - `f_jvp` is `∇f·v` (or `J·v`) and the oracle's, `f_vjp` is `uᵀJ`, `f_hvp`'s gradient is
//!   `f_grad`'s, `f_jacobian_mode` is the forced mode or the one the shape gives;
//! - `f_hvp` is the oracle's `H·w`, the Hessian built from `f_hvp` by columns is symmetric,
//!   equals `f_hessian`, and gives the oracle's `vᵀHw`;
//! - the checkpointed twin's derivatives are the stored ones, bit for bit;
//! - the iterator twin's value and derivatives (`f_it`, `f_it_grad`, `f_it_jvp`, `f_it_hvp`,
//!   `f_it_hessian`; or `f_it_vjp`, `f_it_jvp`, `f_it_jacobian`) are `f`'s, bit for bit. Where a
//!   chain's item loads an element where the index loop did not (its first read in a branch or
//!   an inner loop, or another read of the array that may be the same element), the reverse
//!   sweep adds that element's adjoint in another order: the generator says so, and then the
//!   derivatives are compared to rounding (the values still to the bit). It mostly leaves such
//!   reads to the index, so that most twins are compared to the bit; the run prints how many;
//! - the options twin `f_opt` (half of the programs, `build/fuzz/options.rs`): the same function
//!   under another combination of options in another order (`#[grad]` alone, `jvp`, `hvp`,
//!   `hessian` without `hvp`, `jacobian` without `jvp`, `jacobian(forward)`,
//!   `jacobian(reverse)`, `wrt` when nothing needs it, `stack = ..`); each function it has equals
//!   `f`'s to the bit (its Jacobian to rounding when computed in the other mode).
//!
//! - the loop-exit twin `f_wh` (every program with a loop, `build/fuzz/print_while.rs`): its
//!   loops written to stop when they are done, running the same iterations, as `for i in
//!   lo..hi + k { if i >= hi { break; } .. }` (`k = 0`: a `break` never taken), as `while w <
//!   hi as f64 { w += 1.0; .. }`, `loop { if w >= hi as f64 { break; } .. }` or `loop {
//!   w += 1.0; if w > hi as f64 { break; } .. }` on a float counter where the body does not
//!   read the index, as `let mut i = lo; while i < hi { .. i += 1; }` or `loop { if i >= hi {
//!   break; } .. i += 1; }` on an integer counter where it does, and with a loop's last `if c {
//!   a } else ..` as `if c { a; continue; } ..` or `if !c { continue; } a`; exit tests
//!   sometimes through a `bool` (`let stop = i >= hi; if stop { break; }`), some loops labelled
//!   and their own exits naming them (`break 'l3;`, `continue 'l3;`). The macro reads these as
//!   loops of unknown length and checkpoints them online; half the twins are under
//!   `checkpoint(s = 1..=4)` so that the online tape moves its snapshots. Its value and every
//!   function it has are `f`'s (stored, or offline-checkpointed in `f_ck`, itself `f`'s), bit
//!   for bit.
//!
//! - the struct twin `f_st` (a quarter of the programs, `build/fuzz/structs.rs`): some of the
//!   differentiated parameters (scalars and arrays, by value or `&`) packed into a
//!   `#[derive(Differentiable)]` struct `FSt`, sometimes some of them in a nested `FStInner`,
//!   sometimes constants as `#[no_grad]` fields; the struct passed by value, by `&`, or as `self`
//!   or `&self` of the method `FSt::f_st`; the body reading fields (`s0.x1[i]`, `&s0.inner.x2`).
//!   Its value and every derivative are `f`'s to the bit: the gradient's fields are `f_grad`'s
//!   components (its `#[no_grad]` fields zero), the Hessian and Jacobian renumbered from
//!   `Differentiable`'s order; a direction's `#[no_grad]` fields are NaN, which must not be read.
//!   A parameter the body copies whole, passes by value, or reads by row is not packed (the macro
//!   types a field from its uses and gets those wrong, see the issue's report); its names are
//!   varied as `f`'s are, locals shadowing the struct and named like its direction included;
//! - the array-of-structs twin `f_ao` (a quarter of the programs, `build/fuzz/arrays.rs`): one or
//!   two differentiated one-dimensional arrays of the same length, read only by element with one
//!   index and never written, packed into `ps0: [FAo; R]` or `ps0: &[FAo; R]` with
//!   `#[derive(Differentiable)] struct FAo { a: f64, b: f64 }`, every read `x1[i]` printed
//!   `ps0[i].a`. Its value and every derivative are `f`'s to the bit, the gradient's `[FAo; R]`
//!   read back field by field into `f_grad`'s components, the Hessian and Jacobian renumbered from
//!   `Differentiable`'s order (element by element). Its names are varied as `f`'s are, locals
//!   shadowing the array included (bug 70);
//! - the call twin `f_call` (a quarter of the programs, where a piece fits,
//!   `build/fuzz/calls.rs`): a run of top-level `let`s and assignments, or the body of a top-level
//!   loop (not one over `data.len()`, which must stay a reduction), moved into a
//!   `#[grad(jvp, hvp)]` helper `g90` returning an array or a tuple (of `f64`s, or with arrays,
//!   written with its type), or, for two in five, a `#[derive(Differentiable)]` struct `G90Out`
//!   (bound with its type, `let t9000: G90Out = g90(..);`, and read by field, an array field
//!   bound without its type where the rest indexes it, bug 48), called and its parts assigned. Values, `_jvp` and a forward-mode Jacobian are `f`'s to the bit. Reverse
//!   mode goes through `g90_vjp`, whose contract sums each input's cotangent over the piece before
//!   the caller adds it: where the piece reads a value more than once (and `f` reads it after the
//!   piece, or in every iteration), shares an expression with the rest (`x[k]` read in both,
//!   which the macro loads once) or copies an input read after it (`let y = x;`, `x` itself to
//!   the macro), `f`'s sweep sums in another order, and the gradient, H·w, Hessian and a
//!   reverse-mode Jacobian are compared to rounding; elsewhere to the bit. Where the piece calls
//!   a function, H·w and the Hessian are compared to rounding too: `f_hvp` gives the call's value
//!   the tangent `∂g/∂x · ẋ` from `g_hvp`'s partials, `f_call_hvp` takes `g90_jvp`'s, that is
//!   `g_jvp`'s (seed 300354). The run prints how many points were compared to rounding.
//! - the fusion twin `f_nf` (half of the programs with a loop, `build/fuzz/unfused.rs`, issue
//!   18): `f` under its own options and the hidden `__unfused`, which turns off loop fusion (a
//!   sweep that only accumulates run in one body with the forward loop over the same indices).
//!   Fusion moves and merges computations but keeps every sum's order (such a sweep runs in its
//!   loop's order, fused or not), so every function of the twin is `f`'s, bit for bit.
//! - the number-type twins (`build/fuzz/floats.rs`, issue 16; `fuzz/floats.rs`), each chosen
//!   by a generator of its own: `f_gen<T: Float>`, the program over `T` (literals as
//!   `T::from(c).unwrap()`, `T::zero()`, `T::one()`, integers and data through `T::from`, `s op=
//!   e` as `s = s op (e)`), and `f_32`, the program over `f32` (literals rounded once to `f32`,
//!   as `T::from` rounds them), for programs that call no function (60%): `f_gen` at `f64` is `f`
//!   bit for bit in every mode (value, `f_grad`, `f_jvp`, `f_hvp`, `f_hessian`; or `f_vjp`,
//!   `f_jvp`, `f_jacobian`), at `f32` it is `f_32` bit for bit, and `f_32` is `f` at the point
//!   rounded to `f32` within 10⁻³ of the largest component (2¹³ of `f32`'s rounding), where the
//!   point is well conditioned: away from kinks (10⁻²), with no intermediate past 10³ times the
//!   results, and results that move by less than a quarter of that when every input moves by
//!   2⁻¹⁷ of itself (the run prints how many points were skipped, and the largest error seen as a
//!   fraction of the tolerance); and the slice twin `f_sl` (`build/fuzz/sliced.rs`; 70% of the
//!   programs with a differentiated array read by element only): some of those arrays as
//!   `&[f64]`, `&Vec<f64>` or `&[[f64; K]]` named in `wrt(...)`, loops bounded by their length
//!   (`0..N`, `i + 1..N`, `0..N - 1`) mostly to `x.len()` (run-time trip counts: a loop that
//!   carries state is checkpointed), gradients and H·v in the caller's buffers, filled with NaN
//!   first; its value, `f_grad`, `f_jvp`, `f_hvp` (or `f_vjp`, `f_jvp`) are `f`'s bit for bit.
//!
//! Signatures and names vary too (issue 20; `build/fuzz/vary.rs`, decided from each program's
//! seed by a generator of its own): 12% of the programs take 13 to 20 parameters; in half of
//! them every name is renamed, one to one, to a name the generated code uses (`x_bar`, `t0`,
//! `out_bar`, `saved`, `value`, `hessian`, `f_grad`, `g0_hvp`, `__private`, index names, names
//! derived from the renamed ones such as `a_bar_dot`), and the `const` items to `M`, `ROWS`,
//! `COLS`, `N`, `T0`; in 40% loop variables and `let`s shadow parameters (where the scope does
//! not read the parameter); in 40% the `const` items that size parameters are const generic
//! parameters of the function. These rewrite the printed text and keep its meaning, so every
//! check above applies unchanged.
//!
//! Points whose values or first derivatives, final or intermediate, pass 10⁶ are not checked: a
//! huge intermediate that cancels leaves the oracle only rounding. A failure prints the
//! program's seed, source and point.
//!
//! The macro bugs the fuzzer found are minimal reproducers in `tests/fuzz_found.rs`; the
//! generator does not steer clear of any. To run other programs:
//!
//! ```sh
//! AUTODIFF_FUZZ_SEED=7 AUTODIFF_FUZZ_COUNT=200 cargo test --test fuzz
//! AUTODIFF_FUZZ_POINTS=10 cargo test --test fuzz
//! ```
//!
//! A campaign runs chunks of seeds, each a build of its own (a separate target directory keeps
//! the default build's programs):
//!
//! ```sh
//! for s in 100000 100150 100300; do
//!   CARGO_TARGET_DIR=target/fuzz AUTODIFF_FUZZ_SEED=$s AUTODIFF_FUZZ_COUNT=150 \
//!     cargo test --test fuzz -- --nocapture
//! done
//! ```
//!
//! Program `k` of a run comes from the seed `AUTODIFF_FUZZ_SEED + k` alone, so
//! `AUTODIFF_FUZZ_SEED=<its seed> AUTODIFF_FUZZ_COUNT=1` regenerates just that program. Clippy
//! runs on the programs too (`cargo clippy --all-targets`), under `deny(warnings, clippy::all)`
//! with no allowance for the macro's expansion: the generated code is lint-free.

// The generated programs and the macro's expansion of them are lint-free: no allowance for what
// the macro emits.
#![deny(warnings, clippy::all)]

mod fuzz {
    pub mod check;
    pub mod exits;
    pub mod floats;
    pub mod twins;
    // The programs of a run use only some of the operations.
    #[allow(dead_code)]
    pub mod dual;
}

use std::fmt::Write;
use std::panic::{AssertUnwindSafe, catch_unwind};

use autodiff_runtime::__private::Flat;
use autodiff_runtime::grad;
use fuzz::check;
use fuzz::floats::Floats;
#[allow(unused_imports)] // a run with few programs may have no number-type twin
use fuzz::floats::Twin;
// The generated programs use these through `use super::*`; a run with few programs may not
// need every one.
#[allow(unused_imports)]
use fuzz::dual::{Hd, constant, lit, seed};
// The generic twins' bound.
#[allow(unused_imports)]
use autodiff_runtime::Float;

/// The inputs of one evaluation.
pub struct Point<'a> {
    /// The differentiated parameters, flattened in parameter order (arrays row-major).
    pub x: &'a [f64],
    /// The constant parameters, flattened.
    pub c: &'a [f64],
    /// The `&[f64]` data, if the program takes some.
    pub data: &'a [f64],
    /// The trip count `steps: usize`, if the program takes one.
    pub steps: usize,
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
        checkpointed: Option<Checkpointed>,
        iterated: Option<Iterated>,
        optioned: Option<Optioned>,
        exited: Option<Exited>,
        /// The struct twin `f_st`, the array-of-structs twin `f_ao` and the call twin `f_call`
        /// (`fuzz/twins.rs`).
        structed: Option<fuzz::twins::Twin>,
        arrayed: Option<fuzz::twins::Twin>,
        called: Option<fuzz::twins::Twin>,
        /// The fusion twin `f_nf`, its loops not fused (`build/fuzz/unfused.rs`).
        unfused: Option<fuzz::twins::Twin>,
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
        /// `f_vjp` of the checkpointed twin.
        checkpointed: Option<fn(&Point, &[f64]) -> Values>,
        iterated: Option<IteratedVector>,
        optioned: Option<OptionedVector>,
        exited: Option<ExitedVector>,
        structed: Option<fuzz::twins::TwinVector>,
        arrayed: Option<fuzz::twins::TwinVector>,
        called: Option<fuzz::twins::TwinVector>,
        unfused: Option<fuzz::twins::TwinVector>,
    },
}

/// `f_jvp` of a scalar program, through flat slices.
pub type Jvp = fn(&Point, &[f64]) -> (f64, f64);

/// The options twin `f_opt` of a scalar program (`build/fuzz/options.rs`): the same function
/// under other options; the functions they give must equal the program's to the bit.
pub struct Optioned {
    /// Its options, as written.
    pub options: &'static str,
    pub grad: fn(&Point) -> (f64, Vec<f64>),
    pub jvp: Option<Jvp>,
    pub hvp: Option<fn(&Point, &[f64]) -> Hvp>,
    pub hessian: Option<fn(&Point) -> Vec<f64>>,
}

/// The options twin `f_opt` of a vector program.
pub struct OptionedVector {
    pub options: &'static str,
    pub vjp: fn(&Point, &[f64]) -> Values,
    pub jvp: Option<fn(&Point, &[f64]) -> Values>,
    pub jacobian: Option<fn(&Point) -> Values>,
    pub mode: Option<fn() -> &'static str>,
    /// The mode its options force, if they do.
    pub forced: Option<&'static str>,
}

/// The iterator form `f_it` of a scalar program: its value and derivatives must equal the
/// program's to the bit.
pub struct Iterated {
    pub value: fn(&Point) -> f64,
    pub grad: fn(&Point) -> (f64, Vec<f64>),
    pub jvp: fn(&Point, &[f64]) -> (f64, f64),
    pub hvp: fn(&Point, &[f64]) -> Hvp,
    pub hessian: Option<fn(&Point) -> Vec<f64>>,
    /// Whether its derivatives are the program's to the bit (else to rounding: a chain's item
    /// loads an element where the index loop did not, so the sweep adds in another order).
    pub exact: bool,
}

/// The iterator form `f_it` of a vector program.
pub struct IteratedVector {
    pub value: fn(&Point) -> Vec<f64>,
    pub vjp: fn(&Point, &[f64]) -> Values,
    pub jvp: fn(&Point, &[f64]) -> Values,
    pub jacobian: fn(&Point) -> Values,
    pub exact: bool,
}

/// The loop-exit twin `f_wh` of a scalar program (`build/fuzz/print_while.rs`): its loops as
/// `for` with `break`, `while`, `loop` and `continue`, running the same iterations; its value and
/// derivatives must equal the program's to the bit.
pub struct Exited {
    pub value: fn(&Point) -> f64,
    pub grad: fn(&Point) -> (f64, Vec<f64>),
    pub jvp: fn(&Point, &[f64]) -> (f64, f64),
    pub hvp: fn(&Point, &[f64]) -> Hvp,
    pub hessian: Option<fn(&Point) -> Vec<f64>>,
    /// The snapshots of its `checkpoint(s = ..)`, if its attribute adds one.
    pub snapshots: Option<usize>,
}

/// The loop-exit twin `f_wh` of a vector program.
pub struct ExitedVector {
    pub value: fn(&Point) -> Vec<f64>,
    pub vjp: fn(&Point, &[f64]) -> Values,
    pub jvp: fn(&Point, &[f64]) -> Values,
    pub jacobian: fn(&Point) -> Values,
    pub snapshots: Option<usize>,
}

/// `f_grad` and `f_hvp` of a scalar program's checkpointed twin (`#[grad(checkpoint)]`), which
/// must equal the program's to the bit.
pub struct Checkpointed {
    pub grad: fn(&Point) -> (f64, Vec<f64>),
    pub hvp: fn(&Point, &[f64]) -> Hvp,
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
    /// Whether it takes `&[f64]` data, and a trip count `steps: usize`.
    pub data: bool,
    pub steps: bool,
    pub fns: Fns,
    /// Its number-type twins (`fuzz/floats.rs`).
    pub floats: Floats,
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
    eprintln!("{}", fuzz::floats::programs(&programs));
    assert!(failures.is_empty(), "{} failure(s):\n\n{}", failures.len(), failures.join("\n\n"));
    assert!(
        stats.checked * 2 >= stats.points,
        "most points gave values too large to check: the generator needs tuning ({stats})"
    );
}
