//! Minimises Rosenbrock functions by Newton–CG that touches second derivatives only through the
//! generated `_hvp` (the Hessian is never formed), and compares its iteration count with gradient
//! descent on the generated `_grad`.
//!
//! Run with `cargo run --release --example newton_cg`.
//!
//! Newton–CG (after Nocedal & Wright, *Numerical Optimization*, Algorithm 7.1): at each iterate,
//! conjugate gradients solves `H p = -g` approximately, asking only for products `H d`; it stops
//! at the forcing tolerance `|r| <= min(0.5, sqrt|g|) |g|` or on a direction of non-positive
//! curvature. There it returns steepest descent if that is the first direction, and otherwise the
//! step so far plus the negative-curvature direction (oriented downhill, scaled to the step's
//! length), along which the quadratic model keeps decreasing. A backtracking line search then
//! enforces sufficient decrease.
//!
//! On the 2-D function most iterations go to the curved valley: just above it (`y > x² + 0.005`)
//! the Hessian is indefinite. Once past the bend, convergence is quadratic.

use autodiff_runtime::grad;

/// The 2-D Rosenbrock function, minimal (0) at `(1, 1)`.
#[grad(hvp)]
fn rosenbrock(x: f64, y: f64) -> f64 {
    let a = 1.0 - x;
    let b = y - x * x;
    a * a + 100.0 * b * b
}

/// The chained Rosenbrock function of eight parameters,
/// `Σ_{i<7} (1 - x_i)² + 100 (x_{i+1} - x_i²)²`, minimal (0) at `(1, …, 1)`.
#[grad(hvp)]
#[allow(clippy::too_many_arguments)] // one scalar parameter per coordinate: arrays are not supported
fn chained_rosenbrock(
    x0: f64,
    x1: f64,
    x2: f64,
    x3: f64,
    x4: f64,
    x5: f64,
    x6: f64,
    x7: f64,
) -> f64 {
    let mut sum = (1.0 - x0).powi(2) + 100.0 * (x1 - x0 * x0).powi(2);
    sum += (1.0 - x1).powi(2) + 100.0 * (x2 - x1 * x1).powi(2);
    sum += (1.0 - x2).powi(2) + 100.0 * (x3 - x2 * x2).powi(2);
    sum += (1.0 - x3).powi(2) + 100.0 * (x4 - x3 * x3).powi(2);
    sum += (1.0 - x4).powi(2) + 100.0 * (x5 - x4 * x4).powi(2);
    sum += (1.0 - x5).powi(2) + 100.0 * (x6 - x5 * x5).powi(2);
    sum += (1.0 - x6).powi(2) + 100.0 * (x7 - x6 * x6).powi(2);
    sum
}

/// Stop when the gradient's Euclidean norm is below this.
const GRADIENT_TOLERANCE: f64 = 1e-8;
/// Iteration cap of Newton–CG.
const NEWTON_MAX_ITERATIONS: usize = 200;
/// Iteration cap of gradient descent.
const DESCENT_MAX_ITERATIONS: usize = 200_000;
/// Armijo constant of the sufficient-decrease condition.
const ARMIJO: f64 = 1e-4;

/// An objective on `N` coordinates, seen through the generated derivatives.
struct Problem<const N: usize> {
    name: &'static str,
    start: [f64; N],
    value: fn(&[f64; N]) -> f64,
    /// Value and gradient, from the generated `_grad`.
    grad: fn(&[f64; N]) -> (f64, [f64; N]),
    /// Hessian-vector product `H(x) v`, from the generated `_hvp`.
    hvp: fn(&[f64; N], &[f64; N]) -> [f64; N],
}

fn dot<const N: usize>(a: &[f64; N], b: &[f64; N]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn norm<const N: usize>(a: &[f64; N]) -> f64 {
    dot(a, a).sqrt()
}

/// `a + alpha b`.
fn add_scaled<const N: usize>(a: &[f64; N], alpha: f64, b: &[f64; N]) -> [f64; N] {
    std::array::from_fn(|i| a[i] + alpha * b[i])
}

/// `-a`.
fn negated<const N: usize>(a: &[f64; N]) -> [f64; N] {
    a.map(|v| -v)
}

/// Truncated conjugate gradients on `H p = -g` at `x`: returns the step and the number of
/// Hessian-vector products it took.
fn truncated_cg<const N: usize>(
    problem: &Problem<N>,
    x: &[f64; N],
    g: &[f64; N],
) -> ([f64; N], usize) {
    let tolerance = norm(g) * norm(g).sqrt().min(0.5);
    let mut p = [0.0; N];
    let mut r = *g; // residual H p + g
    let mut d = negated(g);
    for products in 1..=2 * N {
        let hd = (problem.hvp)(x, &d);
        let curvature = dot(&d, &hd);
        if curvature <= 0.0 {
            // Negative curvature: at the start, steepest descent; later, the step so far plus the
            // direction of negative curvature (oriented downhill, scaled to the step's length),
            // along which the quadratic model keeps decreasing.
            if products == 1 {
                return (negated(g), products);
            }
            let sign = if dot(g, &d) > 0.0 { -1.0 } else { 1.0 };
            return (add_scaled(&p, sign * norm(&p) / norm(&d), &d), products);
        }
        let rr = dot(&r, &r);
        let alpha = rr / curvature;
        p = add_scaled(&p, alpha, &d);
        r = add_scaled(&r, alpha, &hd);
        let rr_next = dot(&r, &r);
        if rr_next.sqrt() <= tolerance {
            return (p, products);
        }
        d = add_scaled(&negated(&r), rr_next / rr, &d);
    }
    (p, 2 * N)
}

/// Backtracking from a unit step until `f(x + t p) <= f(x) + ARMIJO t g·p`; returns the new point,
/// its value and the step length.
fn backtrack<const N: usize>(
    problem: &Problem<N>,
    x: &[f64; N],
    f: f64,
    g: &[f64; N],
    p: &[f64; N],
) -> ([f64; N], f64, f64) {
    let slope = dot(g, p);
    let mut t = 1.0;
    loop {
        let candidate = add_scaled(x, t, p);
        let value = (problem.value)(&candidate);
        if value <= f + ARMIJO * t * slope || t < 1e-16 {
            return (candidate, value, t);
        }
        t *= 0.5;
    }
}

/// Newton–CG from the problem's start, printing every iteration; returns the iteration count.
fn newton_cg<const N: usize>(problem: &Problem<N>) -> usize {
    println!("Newton-CG (second derivatives only through {}_hvp):", problem.name);
    println!("{:>5} {:>14} {:>11} {:>9} {:>7}", "iter", "f", "|grad|", "HVPs", "step");
    let mut x = problem.start;
    let mut total_products = 0;
    for iteration in 0..NEWTON_MAX_ITERATIONS {
        let (f, g) = (problem.grad)(&x);
        if norm(&g) < GRADIENT_TOLERANCE {
            println!("{iteration:>5} {f:>14.6e} {:>11.3e}", norm(&g));
            println!(
                "converged: {iteration} iterations, {total_products} Hessian-vector products, x = {}",
                format_point(&x)
            );
            return iteration;
        }
        let (p, products) = truncated_cg(problem, &x, &g);
        total_products += products;
        let (next, _, step) = backtrack(problem, &x, f, &g, &p);
        println!("{iteration:>5} {f:>14.6e} {:>11.3e} {products:>9} {step:>7.4}", norm(&g));
        x = next;
    }
    println!("no convergence within {NEWTON_MAX_ITERATIONS} iterations, x = {}", format_point(&x));
    NEWTON_MAX_ITERATIONS
}

/// Steepest descent with the same line search, printing only a summary; returns the iteration
/// count.
fn gradient_descent<const N: usize>(problem: &Problem<N>) -> usize {
    let mut x = problem.start;
    for iteration in 0..DESCENT_MAX_ITERATIONS {
        let (f, g) = (problem.grad)(&x);
        if norm(&g) < GRADIENT_TOLERANCE {
            println!(
                "gradient descent ({}_grad): converged in {iteration} iterations, f = {f:.3e}, x = {}",
                problem.name,
                format_point(&x)
            );
            return iteration;
        }
        x = backtrack(problem, &x, f, &g, &negated(&g)).0;
    }
    let (f, g) = (problem.grad)(&x);
    println!(
        "gradient descent ({}_grad): stopped after {DESCENT_MAX_ITERATIONS} iterations with \
         f = {f:.3e}, |grad| = {:.3e}",
        problem.name,
        norm(&g)
    );
    DESCENT_MAX_ITERATIONS
}

fn format_point<const N: usize>(x: &[f64; N]) -> String {
    let coordinates: Vec<String> = x.iter().map(|v| format!("{v:.6}")).collect();
    format!("({})", coordinates.join(", "))
}

fn compare<const N: usize>(problem: &Problem<N>) {
    println!("== {} from {} ==", problem.name, format_point(&problem.start));
    let newton = newton_cg(problem);
    let descent = gradient_descent(problem);
    let capped = if descent == DESCENT_MAX_ITERATIONS { " (capped)" } else { "" };
    println!("iterations: Newton-CG {newton}, gradient descent {descent}{capped}\n");
}

fn rosenbrock_2d() -> Problem<2> {
    Problem {
        name: "rosenbrock",
        start: [-1.2, 1.0],
        value: |x| rosenbrock(x[0], x[1]),
        grad: |x| {
            let (f, (gx, gy)) = rosenbrock_grad(x[0], x[1]);
            (f, [gx, gy])
        },
        hvp: |x, v| {
            let (_, _, (hx, hy)) = rosenbrock_hvp(x[0], x[1], v[0], v[1]);
            [hx, hy]
        },
    }
}

fn chained_8d() -> Problem<8> {
    Problem {
        name: "chained_rosenbrock",
        start: [-1.2, 1.0, -1.2, 1.0, -1.2, 1.0, -1.2, 1.0],
        value: |x| chained_rosenbrock(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7]),
        grad: |x| {
            let (f, g) = chained_rosenbrock_grad(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7]);
            (f, [g.0, g.1, g.2, g.3, g.4, g.5, g.6, g.7])
        },
        hvp: |x, v| {
            let (_, _, h) = chained_rosenbrock_hvp(
                x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], v[0], v[1], v[2], v[3], v[4], v[5],
                v[6], v[7],
            );
            [h.0, h.1, h.2, h.3, h.4, h.5, h.6, h.7]
        },
    }
}

fn main() {
    compare(&rosenbrock_2d());
    compare(&chained_8d());
}
