//! Aims a ball with air drag at a target: the launch velocity `(vx0, vy0)` that puts it on the
//! target after 10⁵ integration steps, found by BFGS on the gradient of a checkpointed loop.
//!
//! Run with `cargo run --release --example trajectory` (in a debug build the timings mean little).
//!
//! The ball (a baseball: drag coefficient 0.35, 7.3 cm across, 145 g) starts at the origin and
//! flies for `T = 5 s` under gravity and quadratic drag, `v′ = −g ŷ − k |v| v`, integrated by
//! semi-implicit Euler in `STEPS = 100 000` steps of `50 µs`. `miss` is the squared distance
//! between where it is at `T` and the target `(100 m, 0)`, on the ground: at the optimum it lands
//! on the target at `T`. A reverse sweep that stored the values of every step would need 1.6 MB of
//! stack, over the macro's default budget of 512 KiB; `checkpoint(s = 16)` keeps 16 snapshots of
//! the state the sweep reads instead (`vx`, `vy`: 256 bytes) and recomputes the steps between them (binomial
//! checkpointing, Griewank & Walther's revolve), giving the same gradient to the bit.
//!
//! The example checks the gradient once against central differences, times one gradient against
//! one evaluation of `miss`, and prints the memory each sweep needs.

use std::hint::black_box;
use std::time::{Duration, Instant};

use autodiff_runtime::grad;
use autodiff_runtime::revolve::schedule_steps;

/// Integration steps.
const STEPS: usize = 100_000;
/// Snapshots of the checkpointed sweep: the `s` of `checkpoint(s = 16)` on [`miss`] (the
/// attribute takes a literal, not this constant).
const SNAPSHOTS: usize = 16;
/// Values a snapshot holds: of what the loop carries (`x`, `y`, `vx`, `vy`), the state that the
/// sweep of a step reads (`vx`, `vy`); `x` and `y` are only accumulated, so the checkpointed sweep
/// neither keeps nor recomputes them. The doc comment of `miss_grad` says the
/// same: 16 snapshots, 256 bytes.
const STATE_VALUES: usize = 2;
/// Values per step that the sweep would store without checkpointing: `vx` and `vy`, the carried
/// values that its reverse step reads (it never reads `x` and `y`, and it recomputes the speed
/// from `vx` and `vy`). Read off the expansion of `miss` with `stack = 2_000_000` in place of
/// `checkpoint(s = 16)`: two arrays `vx_saved`, `vy_saved` of `[f64; STEPS]`.
const STORED_VALUES_PER_STEP: usize = 2;
/// Bytes of one `f64`.
const F64_BYTES: usize = std::mem::size_of::<f64>();

/// Time step, s: `STEPS` steps make a flight of 5 s.
const DT: f64 = 5e-5;
/// Gravity, m/s².
const G: f64 = 9.81;
/// Air density, kg/m³.
const AIR_DENSITY: f64 = 1.2;
/// Drag coefficient of a baseball.
const DRAG_COEFFICIENT: f64 = 0.35;
/// Cross-section of a baseball (7.3 cm across), m².
const AREA: f64 = std::f64::consts::PI * 0.0365 * 0.0365;
/// Mass of a baseball, kg.
const MASS: f64 = 0.145;
/// The drag's `k` in `v′ = −g ŷ − k |v| v`: `ρ C_d A / 2m`, per metre.
const DRAG: f64 = AIR_DENSITY * DRAG_COEFFICIENT * AREA / (2.0 * MASS);
/// Where the ball must be after `STEPS` steps, m.
const TARGET: (f64, f64) = (100.0, 0.0);

/// The first guess at the launch velocity, m/s.
const START: [f64; 2] = [20.0, 20.0];
/// Success: the ball passes within this distance of the target, m.
const MISS_TOLERANCE: f64 = 1e-6;
/// Iteration cap of BFGS.
const MAX_ITERATIONS: usize = 100;
/// Armijo constant of the sufficient-decrease condition.
const ARMIJO: f64 = 1e-4;
/// Largest relative difference accepted between the gradient and central differences.
const FD_TOLERANCE: f64 = 1e-6;

/// The squared distance (m²) between the target `(tx, ty)` and a ball launched from the origin at
/// `(vx0, vy0)` after `STEPS` semi-implicit Euler steps of `dt` under gravity `g` and quadratic
/// drag `k |v| v`.
#[grad(wrt(vx0, vy0), checkpoint(s = 16))]
fn miss(vx0: f64, vy0: f64, k: f64, g: f64, dt: f64, tx: f64, ty: f64) -> f64 {
    let mut x = 0.0;
    let mut y = 0.0;
    let mut vx = vx0;
    let mut vy = vy0;
    for _ in 0..STEPS {
        // `sqrt`, not `hypot` (which a zero speed would need): the ball is never at rest, and a
        // stored sweep would store `hypot`'s result but recomputes the square root.
        let speed = (vx * vx + vy * vy).sqrt();
        vx -= dt * k * speed * vx;
        vy -= dt * (g + k * speed * vy);
        x += dt * vx;
        y += dt * vy;
    }
    let ex = x - tx;
    let ey = y - ty;
    ex * ex + ey * ey
}

/// Where the ball launched at `(vx0, vy0)` is after `STEPS` steps: the loop of [`miss`], operation
/// for operation.
fn landing(vx0: f64, vy0: f64) -> (f64, f64) {
    let (mut x, mut y, mut vx, mut vy) = (0.0, 0.0, vx0, vy0);
    for _ in 0..STEPS {
        let speed = (vx * vx + vy * vy).sqrt();
        vx -= DT * DRAG * speed * vx;
        vy -= DT * (G + DRAG * speed * vy);
        x += DT * vx;
        y += DT * vy;
    }
    (x, y)
}

/// `miss` at the launch velocity `v`, with this example's constants.
fn loss(v: [f64; 2]) -> f64 {
    miss(v[0], v[1], DRAG, G, DT, TARGET.0, TARGET.1)
}

/// `miss` and its gradient at `v`, from the checkpointed `miss_grad`.
fn loss_grad(v: [f64; 2]) -> (f64, [f64; 2]) {
    let (value, (d0, d1)) = miss_grad(v[0], v[1], DRAG, G, DT, TARGET.0, TARGET.1);
    (value, [d0, d1])
}

fn dot(a: [f64; 2], b: [f64; 2]) -> f64 {
    a[0] * b[0] + a[1] * b[1]
}

/// The product of the 2×2 matrix `h` with `v`.
fn mul(h: [[f64; 2]; 2], v: [f64; 2]) -> [f64; 2] {
    [dot(h[0], v), dot(h[1], v)]
}

/// What BFGS found.
struct Aim {
    velocity: [f64; 2],
    loss: f64,
    iterations: usize,
    gradients: usize,
    values: usize,
}

/// BFGS on the inverse Hessian (Nocedal & Wright, Algorithm 6.1) with a backtracking (Armijo)
/// line search, from `START` until the ball passes within `MISS_TOLERANCE` of the target. The
/// first inverse Hessian is the identity, rescaled by `yᵀs / yᵀy` after the first step (their
/// equation 6.20). Prints one line per iteration.
fn aim() -> Aim {
    let mut v = START;
    let (mut f, mut g) = loss_grad(v);
    let mut h = [[1.0, 0.0], [0.0, 1.0]];
    let (mut gradients, mut values) = (1, 0);
    println!(
        "{:>4} {:>14} {:>14} {:>12} {:>10}",
        "iter", "vx0 (m/s)", "vy0 (m/s)", "miss (m)", "|∇miss|"
    );
    for iteration in 0..=MAX_ITERATIONS {
        println!(
            "{iteration:>4} {:>14.9} {:>14.9} {:>12.3e} {:>10.3e}",
            v[0],
            v[1],
            f.sqrt(),
            dot(g, g).sqrt()
        );
        if f.sqrt() <= MISS_TOLERANCE {
            return Aim { velocity: v, loss: f, iterations: iteration, gradients, values };
        }
        let hg = mul(h, g);
        let p = [-hg[0], -hg[1]];
        let slope = dot(g, p);
        let mut t = 1.0;
        let next = loop {
            let trial = [v[0] + t * p[0], v[1] + t * p[1]];
            values += 1;
            if loss(trial) <= f + ARMIJO * t * slope {
                break trial;
            }
            assert!(t > 1e-12, "the line search found no decrease along the BFGS direction");
            t *= 0.5;
        };
        let (f_next, g_next) = loss_grad(next);
        gradients += 1;
        let s = [next[0] - v[0], next[1] - v[1]];
        let y = [g_next[0] - g[0], g_next[1] - g[1]];
        let ys = dot(y, s);
        if iteration == 0 && ys > 0.0 {
            let scale = ys / dot(y, y);
            h = [[scale, 0.0], [0.0, scale]];
        }
        if ys > 0.0 {
            // H ← (I − ρ s yᵀ) H (I − ρ y sᵀ) + ρ s sᵀ, ρ = 1 / yᵀs.
            let rho = 1.0 / ys;
            let hy = mul(h, y);
            let yhy = dot(y, hy);
            for (i, row) in h.iter_mut().enumerate() {
                for (j, entry) in row.iter_mut().enumerate() {
                    *entry += -rho * (s[i] * hy[j] + hy[i] * s[j])
                        + (rho * rho * yhy + rho) * s[i] * s[j];
                }
            }
        }
        (v, f, g) = (next, f_next, g_next);
    }
    panic!(
        "BFGS did not bring the ball within {MISS_TOLERANCE} m of the target in {MAX_ITERATIONS} iterations"
    );
}

/// The gradient of `miss` at `v` by central differences, with a step of `1e-4` m/s: both the
/// `h²` term of the error and the rounding of 10⁵ steps divided by `2h` stay far below
/// `FD_TOLERANCE` (at the first guess the two gradients agree to about 1e-9).
fn central_differences(v: [f64; 2]) -> [f64; 2] {
    let h = 1e-4;
    let d0 = (loss([v[0] + h, v[1]]) - loss([v[0] - h, v[1]])) / (2.0 * h);
    let d1 = (loss([v[0], v[1] + h]) - loss([v[0], v[1] - h])) / (2.0 * h);
    [d0, d1]
}

/// A batch of calls lasts at least this long.
const MIN_BATCH: Duration = Duration::from_millis(10);
/// Batches timed per measurement; the fastest counts.
const BATCHES: usize = 40;

/// Seconds per call of `f`: the fastest of `BATCHES` batches of calls, each lasting at least
/// `MIN_BATCH` (the fastest is the one least disturbed by other work on the machine).
fn seconds_per_call<T>(mut f: impl FnMut() -> T) -> f64 {
    let mut best = f64::INFINITY;
    for _ in 0..BATCHES {
        let (start, mut calls) = (Instant::now(), 0u32);
        while start.elapsed() < MIN_BATCH {
            black_box(f());
            calls += 1;
        }
        best = best.min(start.elapsed().as_secs_f64() / f64::from(calls));
    }
    best
}

/// Bytes in the unit that keeps them between 1 and 1000.
fn format_bytes(bytes: usize) -> String {
    match bytes {
        b if b < 1_000 => format!("{b} B"),
        b if b < 1_000_000 => format!("{:.1} kB", b as f64 / 1e3),
        b => format!("{:.1} MB", b as f64 / 1e6),
    }
}

/// Checks `miss_grad` once against central differences, at the first guess.
fn check_gradient() {
    let (value, gradient) = loss_grad(START);
    assert_eq!(value, loss(START), "the value of miss_grad");
    let numeric = central_differences(START);
    let difference = (0..2)
        .map(|i| (gradient[i] - numeric[i]).abs() / numeric[i].abs().max(1.0))
        .fold(0.0, f64::max);
    println!("gradient at ({}, {}) m/s:", START[0], START[1]);
    println!("  miss_grad           ({:.9}, {:.9})", gradient[0], gradient[1]);
    println!("  central differences ({:.9}, {:.9})", numeric[0], numeric[1]);
    println!("  largest relative difference {difference:.1e}");
    assert!(difference <= FD_TOLERANCE, "the gradient disagrees with central differences");
}

/// Prints the stack each reverse sweep needs, and the steps the checkpointed one recomputes.
fn report_memory() {
    let stored = STORED_VALUES_PER_STEP * F64_BYTES * STEPS;
    let snapshots = SNAPSHOTS * STATE_VALUES * F64_BYTES;
    println!("stack for the reverse sweep of {STEPS} steps:");
    println!(
        "  fully stored: {STORED_VALUES_PER_STEP} values (vx, vy) × {F64_BYTES} bytes × {STEPS} steps = {stored} bytes ({})",
        format_bytes(stored)
    );
    println!(
        "  checkpointed: {SNAPSHOTS} snapshots × {STATE_VALUES} values (vx, vy) × {F64_BYTES} bytes = {snapshots} bytes ({:.0} times less)",
        stored as f64 / snapshots as f64
    );
    let recomputed = schedule_steps(STEPS, SNAPSHOTS);
    let total = 2 * STEPS + recomputed;
    println!(
        "recomputation: revolve advances {recomputed} steps ({:.2} per step)",
        recomputed as f64 / STEPS as f64
    );
    println!(
        "  one gradient runs {total} steps ({:.2} per step): {STEPS} for the value, {recomputed} to",
        total as f64 / STEPS as f64
    );
    println!("  rebuild states, {STEPS} as each reverse step recomputes its forward step");
}

/// Times one `miss_grad` against one `miss` at `v`.
fn time_gradient(v: [f64; 2]) {
    let primal = seconds_per_call(|| loss(black_box(v)));
    let gradient = seconds_per_call(|| loss_grad(black_box(v)));
    println!(
        "time: one miss {:.3} ms, one miss_grad {:.3} ms, ratio {:.1}",
        primal * 1e3,
        gradient * 1e3,
        gradient / primal
    );
}

fn main() {
    println!(
        "a baseball (k = {DRAG:.5} /m) launched from the origin: {STEPS} semi-implicit Euler steps"
    );
    println!(
        "of {} µs (T = {} s) to the target ({} m, {} m)",
        DT * 1e6,
        STEPS as f64 * DT,
        TARGET.0,
        TARGET.1
    );
    println!();
    check_gradient();

    println!();
    let found = aim();
    let (x, y) = landing(found.velocity[0], found.velocity[1]);
    let (ex, ey) = (x - TARGET.0, y - TARGET.1);
    assert_eq!(ex * ex + ey * ey, found.loss, "landing and miss disagree");
    println!(
        "converged in {} iterations ({} gradients, {} values of miss in line searches)",
        found.iterations, found.gradients, found.values
    );
    println!("  final loss     {:.3e} m²", found.loss);
    println!(
        "  final velocity (vx0, vy0) = ({:.9}, {:.9}) m/s: {:.6} m/s at {:.6}°",
        found.velocity[0],
        found.velocity[1],
        found.velocity[0].hypot(found.velocity[1]),
        found.velocity[1].atan2(found.velocity[0]).to_degrees()
    );
    println!("  landing point  (x, y) = ({x:.9}, {y:.9}) m at T");

    println!();
    report_memory();
    println!();
    time_gradient(found.velocity);
}
