//! The generated gradient in an optimiser users already have: argmin's L-BFGS, with a More–Thuente
//! line search, minimises the extended (chained) Rosenbrock function of 100 parameters,
//! `Σᵢ 100 (x_{i+1} − xᵢ²)² + (1 − xᵢ)²`, from the classic start `(−1.2, 1, −1.2, 1, …)`.
//!
//! Run with `cargo run --release --example argmin`.
//!
//! argmin asks for the cost and the gradient through two traits, `CostFunction` and `Gradient`,
//! on its own parameter type (here `Vec<f64>`). The function takes a slice `&[f64]`, which
//! `wrt(x)` differentiates, so argmin's vectors go straight to it and to its generated `_grad`,
//! which writes the gradient into a vector of the same length (its length is checked). argmin has
//! no trait for the value and the gradient at once, so `Gradient` drops the value that `_grad`
//! returns.
//!
//! L-BFGS stops on the gradient's norm alone (argmin's other test, a change of cost below machine
//! epsilon, is switched off: it stopped at a gradient of 4e-7). The example fails unless it ends
//! at the global minimum `(1, …, 1)`.

use argmin::core::{CostFunction, Error, Executor, Gradient, State};
use argmin::solver::linesearch::MoreThuenteLineSearch;
use argmin::solver::quasinewton::LBFGS;
use autodiff_runtime::grad;

/// The number of parameters.
const N: usize = 100;
/// Pairs of steps and gradient differences L-BFGS keeps.
const HISTORY: usize = 7;
/// L-BFGS stops when the gradient's Euclidean norm is below this.
const GRADIENT_TOLERANCE: f64 = 1e-10;
/// Iteration cap.
const MAX_ITERATIONS: u64 = 1000;

/// The extended (chained) Rosenbrock function `Σᵢ 100 (x_{i+1} − xᵢ²)² + (1 − xᵢ)²`, minimal (0)
/// at `(1, …, 1)`, of as many parameters as `x` has.
#[grad(wrt(x))]
fn ext_rosenbrock(x: &[f64]) -> f64 {
    let mut f = 0.0;
    for i in 0..x.len() - 1 {
        let a = x[i + 1] - x[i] * x[i];
        let b = 1.0 - x[i];
        f += 100.0 * a * a + b * b;
    }
    f
}

/// `ext_rosenbrock` as argmin sees it.
struct ExtRosenbrock;

impl CostFunction for ExtRosenbrock {
    type Param = Vec<f64>;
    type Output = f64;

    fn cost(&self, p: &Self::Param) -> Result<Self::Output, Error> {
        Ok(ext_rosenbrock(p))
    }
}

impl Gradient for ExtRosenbrock {
    type Param = Vec<f64>;
    type Gradient = Vec<f64>;

    fn gradient(&self, p: &Self::Param) -> Result<Self::Gradient, Error> {
        let mut gradient = vec![0.0; p.len()];
        ext_rosenbrock_grad(p, &mut gradient);
        Ok(gradient)
    }
}

fn main() -> Result<(), Error> {
    let start: Vec<f64> = (0..N).map(|i| if i % 2 == 0 { -1.2 } else { 1.0 }).collect();
    let linesearch = MoreThuenteLineSearch::new();
    let solver = LBFGS::new(linesearch, HISTORY)
        .with_tolerance_grad(GRADIENT_TOLERANCE)?
        .with_tolerance_cost(0.0)?;
    println!(
        "argmin L-BFGS (history {HISTORY}, More-Thuente line search) on the extended Rosenbrock \
         function, n = {N}, from (-1.2, 1, -1.2, 1, ...)"
    );
    println!("start: f = {:.6e}", ext_rosenbrock(&start));

    let result = Executor::new(ExtRosenbrock, solver)
        .configure(|state| state.param(start).max_iters(MAX_ITERATIONS))
        .run()?;

    let state = result.state();
    let x = state.get_best_param().ok_or_else(|| Error::msg("no parameter vector"))?;
    let mut gradient = vec![0.0; x.len()];
    let cost = ext_rosenbrock_grad(x, &mut gradient);
    let gradient_norm = gradient.iter().map(|g| g * g).sum::<f64>().sqrt();
    let distance = x.iter().map(|v| (v - 1.0) * (v - 1.0)).sum::<f64>().sqrt();
    let count = |name| result.problem().counts.get(name).copied().unwrap_or(0);
    let reason = state.get_termination_reason().map_or("not terminated", |r| r.text());
    println!("stopped: {reason}");
    println!("iterations:               {}", state.get_iter());
    println!("final cost:               {cost:.3e}");
    println!("|gradient|:               {gradient_norm:.3e}");
    println!("distance to (1, ..., 1):  {distance:.3e}");
    println!("cost evaluations:         {}", count("cost_count"));
    println!("gradient evaluations:     {}", count("gradient_count"));
    if distance > 1e-6 {
        return Err(Error::msg(format!("did not reach the minimum at (1, ..., 1): {distance:e}")));
    }
    Ok(())
}
