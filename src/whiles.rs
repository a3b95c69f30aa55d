//! Loops that stop when they are done: `while`, `loop` with `break`, `break` and `continue` in
//! `for` loops, and `return` from inside a loop, differentiated through the iterations that ran
//! (their sweeps from a tape of snapshots placed online, on the stack). Each beside a twin with
//! the same arithmetic in the same order over a length given in advance, stored or checkpointed
//! offline, which `tests/whiles.rs` checks them against bit for bit, and all against closed forms
//! and finite differences.

use autodiff_runtime::grad;

/// A pendulum `θ″ = −g sin θ` integrated by semi-implicit Euler from rest at `theta0`, while the
/// time, accumulated in floating point, is below `t_end`: the angle at the end.
#[grad(hvp)]
pub fn pendulum(theta0: f64, g: f64, dt: f64, t_end: f64) -> f64 {
    let mut t = 0.0;
    let mut theta = theta0;
    let mut omega = 0.0;
    while t < t_end {
        omega -= dt * g * theta.sin();
        theta += dt * omega;
        t += dt;
    }
    theta
}

/// The number of steps [`pendulum`] runs, counted in an `f64`.
#[grad]
pub fn pendulum_steps(dt: f64, t_end: f64) -> f64 {
    let mut t = 0.0;
    let mut n = 0.0;
    while t < t_end {
        t += dt;
        n += 1.0;
    }
    n
}

/// [`pendulum`] over a number of steps given at run time (checkpointed offline, by revolve).
#[grad(hvp, wrt(theta0, g, dt, t_end))]
pub fn pendulum_for(theta0: f64, g: f64, dt: f64, t_end: f64, steps: usize) -> f64 {
    let mut t = 0.0;
    let mut theta = theta0;
    let mut omega = 0.0;
    for _ in 0..steps {
        omega -= dt * g * theta.sin();
        theta += dt * omega;
        t += dt;
    }
    theta + 0.0 * (t - t_end)
}

/// [`pendulum`] over 2001 steps, stored.
#[grad(hvp)]
pub fn pendulum_stored(theta0: f64, g: f64, dt: f64, t_end: f64) -> f64 {
    let mut t = 0.0;
    let mut theta = theta0;
    let mut omega = 0.0;
    for _ in 0..2001 {
        omega -= dt * g * theta.sin();
        theta += dt * omega;
        t += dt;
    }
    theta + 0.0 * (t - t_end)
}

/// The eccentric anomaly `E` of Kepler's equation `E − e sin E = M`, by Newton's method from
/// `E = M` until the step is below `1e-14`.
#[grad(hvp)]
pub fn kepler(m: f64, e: f64) -> f64 {
    let mut big_e = m;
    loop {
        let step = (big_e - e * big_e.sin() - m) / (1.0 - e * big_e.cos());
        big_e -= step;
        if step.abs() < 1e-14 {
            break;
        }
    }
    big_e
}

/// `Σ xᵢ²` over the first elements, until the sum passes `limit`: a `for` with `break`.
#[grad(hvp)]
pub fn sum_until(x: [f64; 8], limit: f64) -> f64 {
    let mut s = 0.0;
    for v in x {
        s += v * v;
        if s > limit {
            break;
        }
    }
    s
}

/// `Σ sin xᵢ` over the positive elements: a `for` with `continue`.
#[grad(hvp)]
pub fn sum_positive(x: [f64; 8]) -> f64 {
    let mut s = 0.0;
    for v in x {
        if v < 0.0 {
            continue;
        }
        s += v.sin();
    }
    s
}

/// The root of `x³ = a` in `[lo, hi]` by bisection until the bracket is below `1e-12`: the root
/// is a weighted mean of `lo` and `hi`, whose weights the comparisons decide.
#[grad]
pub fn bisection(a: f64, lo: f64, hi: f64) -> f64 {
    let mut l = lo;
    let mut h = hi;
    while h - l > 1e-12 {
        let mid = 0.5 * (l + h);
        if mid * mid * mid > a {
            h = mid;
        } else {
            l = mid;
        }
    }
    0.5 * (l + h)
}

/// [`bisection`] as a `for` loop over at most 100 halvings, with `break`.
#[grad]
pub fn bisection_for(a: f64, lo: f64, hi: f64) -> f64 {
    let mut l = lo;
    let mut h = hi;
    for _ in 0..100 {
        let mid = 0.5 * (l + h);
        if mid * mid * mid > a {
            h = mid;
        } else {
            l = mid;
        }
        if h - l <= 1e-12 {
            break;
        }
    }
    0.5 * (l + h)
}

/// `x ← k x + 0.1` until `x` passes 1 (then `2x`), or 100 steps: `return` from a loop.
#[grad(hvp)]
pub fn first_crossing(x0: f64, k: f64) -> f64 {
    let mut x = x0;
    for _ in 0..100 {
        x = k * x + 0.1;
        if x > 1.0 {
            return 2.0 * x;
        }
    }
    x
}

/// `√x` for positive `x`, `0` otherwise: an early `return` (a guard clause).
#[grad(hvp)]
pub fn guarded_sqrt(x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    x.sqrt()
}

/// `x ← x + h·p·sin x` while `t < n`, `t ← t + 1`: `⌈n⌉` steps from `x0`, its sweep from 4
/// snapshots placed online (none recomputed up to 4 steps).
#[grad(hvp, checkpoint(s = 4))]
pub fn drift_online(x0: f64, p: f64, h: f64, n: f64) -> f64 {
    let mut x = x0;
    let mut t = 0.0;
    while t < n {
        x += h * p * x.sin();
        t += 1.0;
    }
    x
}

/// [`drift_online`] over `steps` steps given at run time: checkpointed offline (revolve).
#[grad(hvp, checkpoint(s = 4), wrt(x0, p, h))]
pub fn drift_offline(x0: f64, p: f64, h: f64, steps: usize) -> f64 {
    let mut x = x0;
    let mut t = 0.0;
    for _ in 0..steps {
        x += h * p * x.sin();
        t += 1.0;
    }
    x + 0.0 * t
}

/// [`drift_online`] over `N` steps: stored.
#[grad(hvp)]
pub fn drift_stored<const N: usize>(x0: f64, p: f64, h: f64) -> f64 {
    let mut x = x0;
    let mut t = 0.0;
    for _ in 0..N {
        x += h * p * x.sin();
        t += 1.0;
    }
    x + 0.0 * t
}

std::thread_local! {
    /// The calls of [`tick`]'s derivative functions on this thread.
    static TICKS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// The calls of [`tick`]'s derivative functions on this thread since the last [`reset_ticks`].
pub fn ticks() -> usize {
    TICKS.with(std::cell::Cell::get)
}

/// Counts from zero again.
pub fn reset_ticks() {
    TICKS.with(|t| t.set(0));
}

fn count_tick() {
    TICKS.with(|t| t.set(t.get() + 1));
}

/// The identity, whose hand-written derivative functions count their calls: one per step a
/// derivative runs, forward or recomputed.
pub fn tick(x: f64) -> f64 {
    x
}

/// [`tick`]'s value and derivative, counted.
pub fn tick_grad(x: f64) -> (f64, f64) {
    count_tick();
    (x, 1.0)
}

/// [`tick`]'s tangent, counted.
pub fn tick_jvp(x: f64, v: f64) -> (f64, f64) {
    count_tick();
    (x, v)
}

/// [`tick`]'s value, derivative and second derivative along `v`, counted.
pub fn tick_hvp(x: f64, _v: f64) -> (f64, f64, f64) {
    count_tick();
    (x, 1.0, 0.0)
}

/// [`drift_online`] with every step counted by [`tick`].
#[grad(checkpoint(s = 4))]
pub fn drift_counted(x0: f64, p: f64, h: f64, n: f64) -> f64 {
    let mut x = x0;
    let mut t = 0.0;
    while t < n {
        x = tick(x + h * p * x.sin());
        t += 1.0;
    }
    x
}

/// A trip count the macro cannot read, small: its storage fits, so it is stored.
pub const FEW: usize = 100;

/// A trip count the macro cannot read, large: 16 MB of storage, so it is checkpointed.
pub const MANY: usize = 1_000_000;

/// `x ← tick(x + h·p·sin x)` for [`FEW`] steps, with no option: rustc chooses the stored sweep.
#[grad(hvp)]
pub fn drift_few(x0: f64, p: f64, h: f64) -> f64 {
    let mut x = x0;
    for _ in 0..FEW {
        x = tick(x + h * p * x.sin());
    }
    x
}

/// The same for [`MANY`] steps: rustc chooses the checkpointed sweep.
#[grad(hvp)]
pub fn drift_many(x0: f64, p: f64, h: f64) -> f64 {
    let mut x = x0;
    for _ in 0..MANY {
        x = tick(x + h * p * x.sin());
    }
    x
}

/// The same for a const generic number of steps.
#[grad(hvp)]
pub fn drift_n<const N: usize>(x0: f64, p: f64, h: f64) -> f64 {
    let mut x = x0;
    for _ in 0..N {
        x = tick(x + h * p * x.sin());
    }
    x
}

/// [`kepler`] differentiated implicitly, at the solution `E` of `E − e sin E = M` (the loop is
/// labelled, and `implicit` names its label).
#[grad(hvp, implicit('newton))]
pub fn kepler_implicit(m: f64, e: f64) -> f64 {
    let mut big_e = m;
    'newton: loop {
        let step = (big_e - e * big_e.sin() - m) / (1.0 - e * big_e.cos());
        big_e -= step;
        if step.abs() < 1e-14 {
            break;
        }
    }
    big_e
}

/// `x = cos(a x) / 2 + b`, a contraction, iterated from 0 until a step moves `x` by less than
/// 10⁻¹⁵ (in floating point the iterates may end up alternating between two neighbours, so
/// `x != last` need not end): implicitly.
#[grad(hvp, implicit('fixed))]
pub fn cosine_fixed_point(a: f64, b: f64) -> f64 {
    let mut x: f64 = 0.0;
    let mut last: f64 = 1.0;
    'fixed: while (x - last).abs() > 1e-15 {
        last = x;
        x = 0.5 * (a * x).cos() + b;
    }
    x
}

/// [`cosine_fixed_point`] differentiated through its iterations.
#[grad(hvp)]
pub fn cosine_iterated(a: f64, b: f64) -> f64 {
    let mut x: f64 = 0.0;
    let mut last: f64 = 1.0;
    while (x - last).abs() > 1e-15 {
        last = x;
        x = 0.5 * (a * x).cos() + b;
    }
    x
}

/// The same for a number of steps known at run time, with a budget of 16384 bytes (half of it
/// for the plan, with `hvp`): every step's values are stored when `n` is at most the capacity
/// that holds ([`DRIFT_CAPACITY`]), and the loop is checkpointed otherwise.
#[grad(hvp, stack = 16384)]
pub fn drift_len(x0: f64, p: f64, h: f64, n: usize) -> f64 {
    let mut x = x0;
    for _ in 0..n {
        x = tick(x + h * p * x.sin());
    }
    x
}

/// The capacity of [`drift_len`]'s storage: 8192 bytes (half the budget: with `hvp`, each stored
/// value has its tangent) over the 24 a step takes in the plan (the state, `sin x` and the
/// partial of `tick`), 341.
pub const DRIFT_CAPACITY: usize = 341;

/// [`drift_len`] over `K` lanes, whose step's size (`K` values of each kind) only rustc knows:
/// stored in the capacity tiers (64, 1024, 16384 steps) whose storage rustc finds within the
/// budget, and checkpointed past them. A step stores its `K` states (the sweep runs the inner
/// loop again for the rest): at `K = 8`, 64 bytes, so that 1024 steps fit the budget and 16384
/// do not.
#[allow(clippy::needless_range_loop)] // lane by lane, by index
#[grad(hvp)]
pub fn drift_lanes<const K: usize>(x0: [f64; K], p: f64, h: f64, n: usize) -> f64 {
    let mut x = x0;
    for _ in 0..n {
        for k in 0..K {
            x[k] = tick(x[k] + h * p * x[k].sin());
        }
    }
    let mut s = 0.0;
    for k in 0..K {
        s += x[k];
    }
    s
}

/// [`drift_lanes`] always checkpointed.
#[allow(clippy::needless_range_loop)] // lane by lane, by index
#[grad(hvp, checkpoint)]
pub fn drift_lanes_checkpointed<const K: usize>(x0: [f64; K], p: f64, h: f64, n: usize) -> f64 {
    let mut x = x0;
    for _ in 0..n {
        for k in 0..K {
            x[k] = tick(x[k] + h * p * x[k].sin());
        }
    }
    let mut s = 0.0;
    for k in 0..K {
        s += x[k];
    }
    s
}

/// [`drift_lanes`] over a const generic number of steps, stored (the budget raised for it).
#[allow(clippy::needless_range_loop)] // lane by lane, by index
#[grad(hvp, stack = 8_000_000)]
pub fn drift_lanes_n<const K: usize, const N: usize>(x0: [f64; K], p: f64, h: f64) -> f64 {
    let mut x = x0;
    for _ in 0..N {
        for k in 0..K {
            x[k] = tick(x[k] + h * p * x[k].sin());
        }
    }
    let mut s = 0.0;
    for k in 0..K {
        s += x[k];
    }
    s
}

/// [`drift_len`] always checkpointed, for the bitwise comparison of the two sweeps.
#[grad(hvp, checkpoint)]
pub fn drift_len_checkpointed(x0: f64, p: f64, h: f64, n: usize) -> f64 {
    let mut x = x0;
    for _ in 0..n {
        x = tick(x + h * p * x.sin());
    }
    x
}

/// A reduction over an array, then a `while` loop reading the same array: the sweep of the
/// reduction fuses with the reduction, and the sweep of the `while` (from its tape) must stay
/// after the loop that fills the tape (it was moved before it: an internal error).
#[allow(clippy::needless_range_loop)] // the repro's index loop, as it was written
#[grad(hvp)]
pub fn sum_then_grow(x: [f64; 2], a: f64) -> f64 {
    let mut acc = 0.0;
    for i in 0..2 {
        acc += x[i];
    }
    let mut t = a;
    while t < 10.0 {
        t *= 1.5 + x[1];
    }
    acc + t
}
