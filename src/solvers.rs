//! Iterative solvers as they are usually written: an iteration counter in a loop that stops
//! early (`while err > tol && it < max_iter`, `for` with `break` and a count of the steps that
//! ran), a count kept in a branch (`if v > 0.0 { n += 1; }`), read after the loop as `n as f64`.
//! A counter updated there has no closed form, and `#[grad]` holds it as a number
//! (`lower/counter/held.rs`). `tests/solvers.rs` checks each against closed forms and finite
//! differences.
//!
//! This module is also the lint check of what `#[grad]` emits for them: the crate denies every
//! warning and every `clippy::all` lint.

use autodiff_runtime::grad;

/// √a by Newton's method from `a`, until `x²` is within 10⁻¹² of `a` or 50 steps ran.
#[grad(jvp, hvp)]
pub fn newton_sqrt(a: f64) -> f64 {
    let mut x = a;
    let mut it = 0;
    while (x * x - a).abs() > 1e-12 && it < 50 {
        x = 0.5 * (x + a / x);
        it += 1;
    }
    x
}

/// How many steps [`newton_sqrt`] takes for `a`, but at most `max_iter`: the counter read after
/// the loop.
#[grad(jvp)]
pub fn newton_sqrt_steps(a: f64, max_iter: usize) -> f64 {
    let mut x = a;
    let mut it = 0;
    while (x * x - a).abs() > 1e-12 && it < max_iter {
        x = 0.5 * (x + a / x);
        it += 1;
    }
    it as f64
}

/// The mean of the iterates of `x ← cos(a x) / 2 + b` from 0 (Polyak averaging), over the steps
/// that ran: at most `max_iter`, until a step moves `x` by less than 10⁻⁶ (a `for` with `break`,
/// counting its steps).
#[grad(jvp, hvp, wrt(a, b))]
pub fn averaged_iterates(a: f64, b: f64, max_iter: usize) -> f64 {
    let mut x = 0.0;
    let mut sum = 0.0;
    let mut iters = 0;
    for _ in 0..max_iter {
        let next = 0.5 * (a * x).cos() + b;
        let step = (next - x).abs();
        x = next;
        sum += x;
        iters += 1;
        if step < 1e-6 {
            break;
        }
    }
    sum / iters as f64
}

/// The mean of the positive elements of `x` (0 when there is none): a count kept in a branch.
#[grad(jvp, hvp)]
pub fn mean_positive(x: [f64; 6]) -> f64 {
    let mut s = 0.0;
    let mut n = 0;
    for v in x {
        if v > 0.0 {
            s += v;
            n += 1;
        }
    }
    if n == 0 { 0.0 } else { s / n as f64 }
}

/// `Σ xᵢ²` over the elements until the sum passes `limit`, plus `limit` times the number of
/// elements left out: a counter advanced before a `break` and read after the loop, compared
/// with the length.
#[grad(jvp, hvp)]
pub fn squares_until(x: [f64; 5], limit: f64) -> f64 {
    let mut s = 0.0;
    let mut used = 0;
    for v in x {
        s += v * v;
        used += 1;
        if s > limit {
            break;
        }
    }
    s + limit * (x.len() - used) as f64
}
