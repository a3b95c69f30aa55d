//! Iterative solvers as they are usually written: an iteration counter in a loop that stops
//! early (`while err > tol && it < max_iter`, `for` with `break` and a count of the steps that
//! ran), a count kept in a branch (`if v > 0.0 { n += 1; }`), read after the loop as `n as f64`.
//! A counter updated there has no closed form, and `#[grad]` holds it as a number
//! (`lower/counter/held.rs`). And `bool` variables: `let done = err < tol; if done { break; }`,
//! `let inside = x > 0.0 && x < 1.0;`, `let mut converged = false;` set in a branch and read
//! after the loop. `tests/solvers.rs` checks each against closed forms and finite differences.
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

/// The fixed point of `x ← cos(a x) / 2 + b` from 0, the loop ended by a `bool` variable:
/// `let done = …; if done { break; }`.
#[grad(jvp, hvp)]
pub fn fixed_point_done(a: f64, b: f64) -> f64 {
    let mut x = 0.0;
    loop {
        let next = 0.5 * (a * x).cos() + b;
        let done: bool = (next - x).abs() < 1e-14;
        x = next;
        if done {
            break;
        }
    }
    x
}

/// `Σ` of `v²` over the elements inside `(0, 1)` and `10 |v|` over the others: a `bool`
/// variable combining two comparisons, read twice.
#[grad(jvp, hvp)]
pub fn box_penalty(x: [f64; 4]) -> f64 {
    let mut s = 0.0;
    for v in x {
        let inside = v > 0.0 && v < 1.0;
        if inside {
            s += v * v;
        }
        if !inside {
            s += 10.0 * v.abs();
        }
    }
    s
}

/// A `bool` read after what it compared is reassigned: it keeps the value it had at its `let`.
#[grad(jvp, hvp)]
pub fn sign_kept(x: f64) -> f64 {
    let mut y = x * x - 1.0;
    let positive = y > 0.0;
    y *= -3.0;
    if positive { y } else { 2.0 * y * x }
}

/// Gradient descent on `(x − c)²` for 20 steps of 0.3 from `x0`, a `bool` set in a branch when a
/// gradient is small: `x²` at the end, plus `(x − c)²` when it never was.
#[grad(jvp, hvp)]
pub fn descent_converged(x0: f64, c: f64) -> f64 {
    let mut x = x0;
    let mut converged = false;
    for _ in 0..20 {
        let g = 2.0 * (x - c);
        x -= 0.3 * g;
        if g.abs() < 1e-3 {
            converged = true;
        }
    }
    if converged { x * x } else { x * x + (x - c).powi(2) }
}

/// ∛a by Newton's method from `1 + a / 3`, while not converged and fewer than 100 steps ran: a
/// mutable `bool` and a counter in a `while` condition.
#[grad(jvp, hvp)]
pub fn cube_root(a: f64) -> f64 {
    let mut x = 1.0 + a / 3.0;
    let mut converged = false;
    let mut it = 0;
    while !converged && it < 100 {
        let step = (x * x * x - a) / (3.0 * x * x);
        x -= step;
        converged = step.abs() <= 1e-15 * x.abs();
        it += 1;
    }
    x
}

/// The mean of `√aᵢ` (Newton's method for each, from `aᵢ`) over the steps taken by all: a
/// counter advanced in a `while` inside a `for`, read after both.
#[grad(jvp, hvp)]
pub fn sqrt_per_step(a: [f64; 3]) -> f64 {
    let mut total = 0;
    let mut s = 0.0;
    for ai in a {
        let mut x = ai;
        while (x * x - ai).abs() > 1e-12 {
            x = 0.5 * (x + ai / x);
            total += 1;
        }
        s += x;
    }
    s / total as f64
}

/// For each row of `x`, the elements above `t` counted in steps of `step`, and the row's sum
/// scaled by the count through a closure: counters declared in a loop, advanced in a branch by
/// a parameter, captured by a closure.
#[grad(jvp, hvp, wrt(x, t))]
pub fn counted_rows(x: [[f64; 3]; 2], t: f64, step: usize) -> f64 {
    let mut s = 0.0;
    for row in x {
        let mut n = 0;
        let mut sum = 0.0;
        for v in row {
            sum += v;
            if v > t {
                n += step;
            }
        }
        let scaled = |w: f64| w * n as f64;
        s += scaled(sum) + t * (n * n) as f64;
    }
    s
}

/// `s ← s / 2 + xₖ` for `k = 0, 1, …` while `s > 1` and `k < 8`, plus the number of steps: a
/// counter stepped once per iteration of a `while`, read as an index in the loop (its closed
/// form in the iteration's index) and as a number after it.
#[grad(jvp, hvp)]
pub fn halvings(x: [f64; 8], y: f64) -> f64 {
    let mut s = y;
    let mut k = 0;
    while s > 1.0 && k < 8 {
        s = 0.5 * s + x[k];
        k += 1;
    }
    s + k as f64
}

/// `Σ sin(w dᵢ)` over the leading positive elements of `data`, times their number: an index
/// advanced in a `while` that scans, as C code does.
#[grad(jvp, hvp, wrt(w))]
pub fn leading_positive(w: f64, data: &[f64]) -> f64 {
    let mut i = 0;
    let mut s = 0.0;
    while i < data.len() && data[i] > 0.0 {
        s += (w * data[i]).sin();
        i += 1;
    }
    s * i as f64
}

/// `k · Σ_{i<k} xᵢ² xᵢ₊₁`, its terms added while `i < 3` and the sum is at most `cap`, `k` the
/// number added: a `loop` whose body begins with its exit test (through a `bool`) and steps an
/// integer counter, read as an index in the loop and as a number after it (bug 69).
#[grad(jvp, hvp)]
pub fn cubic_terms(x: [f64; 4], cap: f64) -> f64 {
    let mut s = 0.0;
    let mut i = 0;
    loop {
        let stop = i >= 3 || s > cap;
        if stop {
            break;
        }
        s += x[i] * x[i] * x[i + 1];
        i += 1;
    }
    s * i as f64
}

/// `Σ_{i<n} xᵢ xᵢ₊₁`, `i` from 0 stepped by 1 in a labelled `loop` whose exit test comes first
/// and names it.
#[grad(jvp, hvp)]
pub fn neighbour_products(x: [f64; 5]) -> f64 {
    let mut s = 0.0;
    let mut i = 0;
    'terms: loop {
        if i >= 4 {
            break 'terms;
        }
        s += x[i] * x[i + 1];
        i += 1;
    }
    s
}
