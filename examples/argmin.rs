//! The generated derivatives in an optimiser users already have, with one attribute option:
//! `#[grad(argmin)]` makes `ExtRosenbrockProblem`, which implements argmin's `CostFunction`,
//! `Gradient` and (with `hessian`) `Hessian` over `Vec<f64>`. Two of argmin's solvers minimise
//! the extended Rosenbrock function of 100 parameters (Moré, Garbow & Hillstrom's problem 21),
//! `Σᵢ 100 (x_{2i+1} − x_{2i}²)² + (1 − x_{2i})²`, from its standard start `(−1.2, 1, −1.2, 1, …)`:
//! L-BFGS (More–Thuente line search) on the gradient, and Newton's method in a trust region
//! (steps by Steihaug's CG) on the Hessian. Both must end at the minimum `(1, …, 1)`.
//!
//! Run with `cargo run --release --example argmin`.
//!
//! The function takes `x: &[f64; N]` with `N` a const generic: `_hessian` needs the number of
//! parameters at compile time. The problem copies argmin's `Vec<f64>` into the array (a vector of
//! another length is argmin's error, not a panic) and hands `_grad`'s gradient and `_hessian`'s
//! rows back as vectors. `c`, a constant parameter, is a field of the problem.
//!
//! L-BFGS stops on the gradient's norm alone (argmin's other test, a change of cost below machine
//! epsilon, is switched off). argmin's trust region has no gradient test, so it stops at a target
//! cost.

use argmin::core::{Error, Executor, State};
use argmin::solver::linesearch::MoreThuenteLineSearch;
use argmin::solver::quasinewton::LBFGS;
use argmin::solver::trustregion::{Steihaug, TrustRegion};
use autodiff_runtime::grad;

/// The number of parameters.
const N: usize = 100;
/// Pairs of steps and gradient differences L-BFGS keeps.
const HISTORY: usize = 7;
/// L-BFGS stops when the gradient's Euclidean norm is below this.
const GRADIENT_TOLERANCE: f64 = 1e-10;
/// Iteration cap of L-BFGS.
const MAX_ITERATIONS: u64 = 1000;
/// Iteration cap of the trust-region Newton method.
const NEWTON_ITERATIONS: u64 = 400;
/// The trust region stops when the cost is at most this.
const TARGET_COST: f64 = 1e-20;

/// The extended Rosenbrock function `Σᵢ c (x_{2i+1} − x_{2i}²)² + (1 − x_{2i})²` of `K`
/// parameters (`K` even), `K / 2` independent Rosenbrock functions, minimal (0) at `(1, …, 1)`.
#[grad(wrt(x), hessian, argmin)]
fn ext_rosenbrock<const K: usize>(x: &[f64; K], c: f64) -> f64 {
    let mut f = 0.0;
    for i in 0..K / 2 {
        let a = x[2 * i + 1] - x[2 * i] * x[2 * i];
        let b = 1.0 - x[2 * i];
        f += c * a * a + b * b;
    }
    f
}

/// Where a solver ended: its iterations, the cost and gradient norm there; an error unless it is
/// the minimum.
fn report(solver: &str, iterations: u64, x: &[f64]) -> Result<(), Error> {
    let x: [f64; N] =
        x.try_into().map_err(|_| Error::msg("a parameter vector of another length"))?;
    let (cost, gradient) = ext_rosenbrock_grad(&x, 100.0);
    let norm = gradient.iter().map(|g| g * g).sum::<f64>().sqrt();
    let distance = x.iter().map(|v| (v - 1.0) * (v - 1.0)).sum::<f64>().sqrt();
    println!(
        "{solver:<30} iterations {iterations:>4}   cost {cost:.1e}   |gradient| {norm:.1e}   \
         |x - (1, ..., 1)| {distance:.1e}"
    );
    if distance > 1e-8 {
        return Err(Error::msg(format!("{solver} did not reach (1, ..., 1)")));
    }
    Ok(())
}

fn main() -> Result<(), Error> {
    let start: Vec<f64> = (0..N).map(|i| if i % 2 == 0 { -1.2 } else { 1.0 }).collect();
    println!("extended Rosenbrock, n = {N}, from (-1.2, 1, -1.2, 1, ...)");

    let lbfgs = LBFGS::new(MoreThuenteLineSearch::new(), HISTORY)
        .with_tolerance_grad(GRADIENT_TOLERANCE)?
        .with_tolerance_cost(0.0)?;
    let result = Executor::new(ExtRosenbrockProblem::<N>::new(100.0), lbfgs)
        .configure(|state| state.param(start.clone()).max_iters(MAX_ITERATIONS))
        .run()?;
    let state = result.state();
    let best = state.get_best_param().ok_or_else(|| Error::msg("no parameter vector"))?;
    report("L-BFGS (history 7)", state.get_iter(), best)?;

    let newton = TrustRegion::new(Steihaug::new()).with_radius(0.1)?;
    let result = Executor::new(ExtRosenbrockProblem::<N>::new(100.0), newton)
        .configure(|state| state.param(start).max_iters(NEWTON_ITERATIONS).target_cost(TARGET_COST))
        .run()?;
    let state = result.state();
    let best = state.get_best_param().ok_or_else(|| Error::msg("no parameter vector"))?;
    report("trust-region Newton (Steihaug)", state.get_iter(), best)
}
