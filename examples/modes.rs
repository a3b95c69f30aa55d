//! Forward against reverse mode on the lessons' function `f(x) = Σᵢ sin(xᵢ) x_{i−1}` (cyclic): the
//! whole gradient from `n` forward sweeps of the generated `_jvp`, one per unit direction, and from
//! one reverse sweep of the generated `_grad`. Forward mode costs about `n` times reverse mode.
//!
//! Run with `cargo run --release --example modes` (in a debug build the timings mean little).
//!
//! Each time is the fastest of several batches of calls, each batch long enough for the clock
//! (the fastest is the one least disturbed by other work on the machine). Both gradients are
//! checked against each other and against the closed form `∂f/∂xⱼ = cos(xⱼ) x_{j−1} + sin(x_{j+1})`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use autodiff_runtime::grad;

/// The lessons' function `f(x) = Σᵢ sin(xᵢ) x_{i−1}`, cyclic (`x_{−1} = x_{N−1}`).
#[grad(jvp)]
fn lessons<const N: usize>(x: [f64; N]) -> f64 {
    let mut s = 0.0;
    for i in 0..N {
        s += x[i].sin() * x[(i + N - 1) % N];
    }
    s
}

/// A batch of calls lasts at least this long. Short batches, many of them: on a busy machine
/// some are never interrupted, and the fastest batch is one of those.
const MIN_BATCH: Duration = Duration::from_millis(1);
/// Batches timed per measurement; the fastest counts.
const BATCHES: usize = 50;
/// Largest relative difference accepted between two gradients.
const TOLERANCE: f64 = 1e-12;

/// The gradient by forward mode: one `_jvp` sweep per unit direction `eⱼ`, each giving `∇f·eⱼ`.
fn forward_gradient<const N: usize>(x: [f64; N]) -> [f64; N] {
    let mut gradient = [0.0; N];
    let mut direction = [0.0; N];
    for (j, component) in gradient.iter_mut().enumerate() {
        direction[j] = 1.0;
        // `black_box` makes each sweep start afresh: without it the compiler may use that all
        // but one direction are zero, or compute `sin xᵢ` and `cos xᵢ` once for all sweeps (it
        // did for n = 10), which a sweep of forward mode does not do.
        *component = lessons_jvp(black_box(x), black_box(direction)).1;
        direction[j] = 0.0;
    }
    gradient
}

/// The closed-form gradient `∂f/∂xⱼ = cos(xⱼ) x_{j−1} + sin(x_{j+1})`, cyclic.
fn closed_form_gradient<const N: usize>(x: [f64; N]) -> [f64; N] {
    std::array::from_fn(|j| x[j].cos() * x[(j + N - 1) % N] + x[(j + 1) % N].sin())
}

/// The largest difference between `a` and `b`, relative to the largest component of `b` (at least 1).
fn max_difference<const N: usize>(a: &[f64; N], b: &[f64; N]) -> f64 {
    let scale = b.iter().fold(1.0_f64, |m, v| m.max(v.abs()));
    a.iter().zip(b).map(|(u, v)| (u - v).abs()).fold(0.0, f64::max) / scale
}

/// The time `calls` calls of `f` take.
fn time_batch<T>(f: &mut impl FnMut() -> T, calls: u32) -> Duration {
    let start = Instant::now();
    for _ in 0..calls {
        black_box(f());
    }
    start.elapsed()
}

/// Seconds per call of `f`: the fastest of `BATCHES` batches, each of a number of calls (a power
/// of two) that lasts at least `MIN_BATCH`.
fn seconds_per_call<T>(mut f: impl FnMut() -> T) -> f64 {
    let mut calls: u32 = 1;
    while time_batch(&mut f, calls) < MIN_BATCH {
        calls *= 2;
    }
    let per_call = (0..BATCHES).map(|_| time_batch(&mut f, calls).as_secs_f64() / f64::from(calls));
    per_call.fold(f64::INFINITY, f64::min)
}

/// A duration in the unit that keeps it between 1 and 1000.
fn format_seconds(seconds: f64) -> String {
    match seconds {
        s if s < 1e-6 => format!("{:.1} ns", s * 1e9),
        s if s < 1e-3 => format!("{:.2} µs", s * 1e6),
        s => format!("{:.2} ms", s * 1e3),
    }
}

/// Times both gradients at `n = N`, checks them, and prints one row of the table.
fn compare<const N: usize>() {
    let x: [f64; N] = std::array::from_fn(|i| 2.0 * (0.7 * i as f64 + 0.3).sin());
    let forward = forward_gradient(x);
    let (value, reverse) = lessons_grad(x);
    assert_eq!(value, lessons(x), "n = {N}: the value of lessons_grad");
    let closed_form = closed_form_gradient(x);
    let forward_vs_reverse = max_difference(&forward, &reverse);
    let reverse_vs_closed = max_difference(&reverse, &closed_form);
    assert!(
        forward_vs_reverse <= TOLERANCE && reverse_vs_closed <= TOLERANCE,
        "n = {N}: the gradients disagree ({forward_vs_reverse:e}, {reverse_vs_closed:e})"
    );

    let direction = std::array::from_fn(|i| if i == 0 { 1.0 } else { 0.0 });
    let sweep_time = seconds_per_call(|| lessons_jvp(black_box(x), black_box(direction)));
    let forward_time = seconds_per_call(|| forward_gradient(black_box(x)));
    let reverse_time = seconds_per_call(|| lessons_grad(black_box(x)));
    let ratio = forward_time / reverse_time;
    println!(
        "{N:>5} {:>10} {:>13} {:>10} {ratio:>8.1} {:>7.2} {forward_vs_reverse:>9.1e} {reverse_vs_closed:>9.1e}",
        format_seconds(sweep_time),
        format_seconds(forward_time),
        format_seconds(reverse_time),
        ratio / N as f64,
    );
}

fn main() {
    println!(
        "gradient of f(x) = Σ sin(x_i)·x_(i-1) (cyclic): n forward sweeps against one reverse sweep"
    );
    println!(
        "{:>5} {:>10} {:>13} {:>10} {:>8} {:>7} {:>9} {:>9}",
        "n", "one _jvp", "n × _jvp", "one _grad", "fwd/rev", "ratio/n", "fwd-rev", "rev-exact"
    );
    compare::<1>();
    compare::<10>();
    compare::<100>();
    compare::<1000>();
    println!("fwd/rev: time of the n _jvp sweeps over one _grad sweep, each giving the gradient");
    println!(
        "fwd-rev, rev-exact: largest differences between the two gradients and from the closed"
    );
    println!("form, relative to the largest component");
}
