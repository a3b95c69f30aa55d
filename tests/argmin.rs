//! `#[grad(argmin)]`: the problem types argmin's solvers take. On the extended Rosenbrock
//! function at n = 100 (Moré, Garbow & Hillstrom's problem 21) from its standard start
//! (−1.2, 1, …), L-BFGS (on a slice function) and a trust-region Newton method (on an array
//! function with `hessian`) converge to the minimum (1, …, 1); on the chained Rosenbrock function
//! L-BFGS does too, and the trust region ends at its other minimum. What the problems hand argmin
//! is `_grad`'s and `_hessian`'s output to the bit.

use argmin::core::{CostFunction, Executor, Gradient, Hessian, State};
use argmin::solver::linesearch::MoreThuenteLineSearch;
use argmin::solver::quasinewton::LBFGS;
use argmin::solver::trustregion::{Steihaug, TrustRegion};
use autodiff_runtime::grad;

/// The number of parameters.
const N: usize = 100;

/// The extended Rosenbrock function, `n / 2` independent Rosenbrock functions, over a slice, for
/// L-BFGS.
#[grad(wrt(x), argmin)]
fn ext_rosenbrock(x: &[f64]) -> f64 {
    let mut f = 0.0;
    for i in 0..x.len() / 2 {
        let a = x[2 * i + 1] - x[2 * i] * x[2 * i];
        let b = 1.0 - x[2 * i];
        f += 100.0 * a * a + b * b;
    }
    f
}

/// The same over an array of any length, with its Hessian, for Newton's method.
#[grad(wrt(x), hessian, argmin)]
fn ext_rosenbrock_n<const K: usize>(x: &[f64; K]) -> f64 {
    let mut f = 0.0;
    for i in 0..K / 2 {
        let a = x[2 * i + 1] - x[2 * i] * x[2 * i];
        let b = 1.0 - x[2 * i];
        f += 100.0 * a * a + b * b;
    }
    f
}

/// The chained Rosenbrock function over a slice, for L-BFGS.
#[grad(wrt(x), argmin)]
fn chained_rosenbrock(x: &[f64]) -> f64 {
    let mut f = 0.0;
    for i in 0..x.len() - 1 {
        let a = x[i + 1] - x[i] * x[i];
        let b = 1.0 - x[i];
        f += 100.0 * a * a + b * b;
    }
    f
}

/// The chained one over an array of any length, with its Hessian, for Newton's method; `c` (100
/// in the classic function) is a field of the problem.
#[grad(wrt(x), hessian, argmin)]
fn rosenbrock_n<const K: usize>(x: &[f64; K], c: f64) -> f64 {
    let mut f = 0.0;
    for i in 0..K - 1 {
        let a = x[i + 1] - x[i] * x[i];
        let b = 1.0 - x[i];
        f += c * a * a + b * b;
    }
    f
}

/// A weighted sum of squares with its data held by reference, and a by-value array parameter.
#[grad(wrt(x), hessian, argmin)]
fn weighted(x: [f64; 3], w: &[f64], shift: [f64; 3]) -> f64 {
    let mut f = 0.0;
    for i in 0..3 {
        let d = x[i] - shift[i];
        f += w[i] * d * d * d * d + d * d;
    }
    f
}

/// The classic start, `(−1.2, 1, −1.2, 1, …)`.
fn start() -> Vec<f64> {
    (0..N).map(|i| if i % 2 == 0 { -1.2 } else { 1.0 }).collect()
}

/// The distance from `x` to `(1, …, 1)`.
fn distance_to_ones(x: &[f64]) -> f64 {
    x.iter().map(|v| (v - 1.0) * (v - 1.0)).sum::<f64>().sqrt()
}

/// argmin's More–Thuente line search over `Vec<f64>`.
type LineSearch = MoreThuenteLineSearch<Vec<f64>, Vec<f64>, f64>;

/// L-BFGS stopping at a gradient norm of 1e-10.
fn lbfgs() -> LBFGS<LineSearch, Vec<f64>, Vec<f64>, f64> {
    LBFGS::new(MoreThuenteLineSearch::new(), 7)
        .with_tolerance_grad(1e-10)
        .unwrap()
        .with_tolerance_cost(0.0)
        .unwrap()
}

/// Runs [`lbfgs`] on `problem` from [`start`] for at most 1000 iterations; checks that it ends
/// within 1e-8 of `(1, …, 1)` in fewer than `most` iterations.
fn lbfgs_reaches_the_ones<P>(problem: P, most: u64)
where
    P: CostFunction<Param = Vec<f64>, Output = f64>
        + Gradient<Param = Vec<f64>, Gradient = Vec<f64>>,
{
    let result = Executor::new(problem, lbfgs())
        .configure(|state| state.param(start()).max_iters(1000))
        .run()
        .unwrap();
    let state = result.state();
    let x = state.get_best_param().unwrap();
    assert!(distance_to_ones(x) < 1e-8, "L-BFGS ended {:e} from the minimum", distance_to_ones(x));
    assert!(state.get_iter() < most, "{} iterations", state.get_iter());
}

#[test]
fn lbfgs_converges_on_the_extended_rosenbrock_function() {
    lbfgs_reaches_the_ones(ExtRosenbrockProblem::new(), 100);
}

#[test]
fn trust_region_newton_converges_on_the_extended_rosenbrock_function() {
    // Newton's method in a trust region, its steps by Steihaug's CG on the generated Hessian.
    // argmin 0.11's `TrustRegion` has no gradient test: it stops at a target cost.
    let solver = TrustRegion::new(Steihaug::new()).with_radius(0.1).unwrap();
    let result = Executor::new(ExtRosenbrockNProblem::<N>::new(), solver)
        .configure(|state| state.param(start()).max_iters(400).target_cost(1e-20))
        .run()
        .unwrap();
    let state = result.state();
    let x = state.get_best_param().unwrap();
    assert!(distance_to_ones(x) < 1e-8, "Newton ended {:e} from the minimum", distance_to_ones(x));
    assert!(state.get_iter() < 100, "{} iterations", state.get_iter());
    let x: [f64; N] = x.as_slice().try_into().unwrap();
    let (_, gradient) = ext_rosenbrock_n_grad(&x);
    assert!(gradient.iter().all(|g| g.abs() < 1e-8), "{gradient:?}");
}

#[test]
fn lbfgs_converges_on_the_chained_slice_problem() {
    lbfgs_reaches_the_ones(ChainedRosenbrockProblem::new(), 1000);
}

#[test]
fn trust_region_newton_on_the_chained_array_problem_ends_at_its_other_minimum() {
    // Newton's method in a trust region, its steps by Steihaug's CG on the generated Hessian.
    // From (−1.2, 1, …) it ends at the chained Rosenbrock function's other minimum, near
    // (−1, 1, …, 1) at cost 3.98662 (known for n ≥ 4), with a gradient of 1e-11. (argmin 0.11's
    // `TrustRegion` has no gradient test, so the iteration cap stops it.)
    let solver = TrustRegion::new(Steihaug::new()).with_radius(0.1).unwrap();
    let result = Executor::new(RosenbrockNProblem::<N>::new(100.0), solver)
        .configure(|state| state.param(start()).max_iters(400))
        .run()
        .unwrap();
    let x = result.state().get_best_param().unwrap();
    let x: [f64; N] = x.as_slice().try_into().unwrap();
    let (cost, gradient) = rosenbrock_n_grad(&x, 100.0);
    let norm = gradient.iter().map(|g| g * g).sum::<f64>().sqrt();
    assert!(norm < 1e-8, "the trust region ended with a gradient of {norm:e}");
    assert!((cost - 3.98662).abs() < 1e-5, "at cost {cost}");
    assert!((x[0] + 0.9933).abs() < 1e-3 && distance_to_ones(&x[1..]) < 0.1, "at {x:?}");
}

#[test]
fn the_slice_problem_hands_argmin_the_generated_gradient() {
    let x: Vec<f64> = (0..N).map(|i| 0.3 + 0.01 * i as f64).collect();
    let problem = ChainedRosenbrockProblem::new();
    let mut gradient = vec![0.0; N];
    let value = chained_rosenbrock_grad(&x, &mut gradient);
    assert_eq!(problem.cost(&x).unwrap().to_bits(), value.to_bits());
    assert_eq!(bits(&problem.gradient(&x).unwrap()), bits(&gradient));
}

#[test]
fn the_array_problem_hands_argmin_the_generated_gradient_and_hessian() {
    let x: [f64; N] = std::array::from_fn(|i| -0.5 + 0.013 * i as f64);
    let problem = RosenbrockNProblem::<N>::new(100.0);
    let (value, gradient) = rosenbrock_n_grad(&x, 100.0);
    let hessian = rosenbrock_n_hessian(&x, 100.0);
    let p = x.to_vec();
    assert_eq!(problem.cost(&p).unwrap().to_bits(), value.to_bits());
    assert_eq!(bits(&problem.gradient(&p).unwrap()), bits(&gradient));
    let from_argmin = problem.hessian(&p).unwrap();
    assert_eq!(from_argmin.len(), N);
    for (row, expected) in from_argmin.iter().zip(&hessian) {
        assert_eq!(bits(row), bits(expected));
    }
}

#[test]
fn the_extended_problems_hand_argmin_the_generated_derivatives() {
    let x: [f64; N] = std::array::from_fn(|i| -0.7 + 0.017 * i as f64);
    let p = x.to_vec();
    let (value, gradient) = ext_rosenbrock_n_grad(&x);
    let hessian = ext_rosenbrock_n_hessian(&x);
    let slice = ExtRosenbrockProblem::new();
    let array = ExtRosenbrockNProblem::<N>::new();
    assert_eq!(bits(&slice.gradient(&p).unwrap()), bits(&gradient));
    assert_eq!(bits(&array.gradient(&p).unwrap()), bits(&gradient));
    assert_eq!(slice.cost(&p).unwrap().to_bits(), value.to_bits());
    assert_eq!(array.cost(&p).unwrap().to_bits(), value.to_bits());
    let from_argmin = array.hessian(&p).unwrap();
    for (row, expected) in from_argmin.iter().zip(&hessian) {
        assert_eq!(bits(row), bits(expected));
    }
    // The Hessian by hand: a 2 × 2 block per pair (x, y) of 100 (y − x²)² + (1 − x)².
    for (i, row) in hessian.iter().enumerate() {
        for (j, entry) in row.iter().enumerate() {
            let (a, b) = (x[i - i % 2], x[i - i % 2 + 1]);
            let expected = match (i / 2 == j / 2, i % 2, j % 2) {
                (false, _, _) => 0.0,
                (true, 0, 0) => 1200.0 * a * a - 400.0 * b + 2.0,
                (true, 1, 1) => 200.0,
                _ => -400.0 * a,
            };
            assert!((entry - expected).abs() < 1e-9, "H[{i}][{j}] = {entry}, not {expected}");
        }
    }
}

#[test]
fn constants_are_fields_held_by_reference_or_value() {
    let w = vec![0.5, 2.0, 3.0];
    let problem = WeightedProblem::new(&w, [1.0, -1.0, 0.5]);
    assert_eq!(problem.shift, [1.0, -1.0, 0.5]);
    let x = [0.2, 0.4, 0.6];
    let (value, gradient) = weighted_grad(x, &w, problem.shift);
    assert_eq!(problem.cost(&x.to_vec()).unwrap().to_bits(), value.to_bits());
    assert_eq!(bits(&problem.gradient(&x.to_vec()).unwrap()), bits(&gradient));
    // The Hessian is diagonal, 12 w (x − s)² + 2, by hand.
    let h = problem.hessian(&x.to_vec()).unwrap();
    for (i, row) in h.iter().enumerate() {
        for (j, entry) in row.iter().enumerate() {
            let d = x[i] - problem.shift[i];
            let expected = if i == j { 12.0 * w[i] * d * d + 2.0 } else { 0.0 };
            assert!((entry - expected).abs() < 1e-12, "H[{i}][{j}] = {entry}, not {expected}");
        }
    }
}

#[test]
fn a_vector_of_the_wrong_length_is_argmins_error_not_a_panic() {
    let problem = RosenbrockNProblem::<4>::new(100.0);
    let error = problem.gradient(&vec![0.0; 3]).unwrap_err();
    assert_eq!(
        error.to_string(),
        "the argmin problem of `rosenbrock_n` takes a parameter vector of length 4, not 3"
    );
}

/// The bits of each element, to compare exactly (and tell 0.0 from −0.0).
fn bits(v: &[f64]) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}
