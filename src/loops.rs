//! Loops, branches and fixed-size arrays under `#[grad]`: the workloads of the lessons and of the
//! benchmarks, each checked in `tests/loops.rs` against the closed forms and hand-written
//! derivatives of [`crate::oracles`] and against finite differences.

use autodiff_runtime::grad;

/// The size of the lessons' function in its `const` form.
pub const N: usize = 1000;

/// The lessons' function f(x) = Σᵢ sin(xᵢ)·xᵢ₋₁ (cyclic), for any size.
#[grad(jvp, hvp)]
pub fn lessons<const M: usize>(x: [f64; M]) -> f64 {
    let mut s = 0.0;
    for i in 0..M {
        s += x[i].sin() * x[(i + M - 1) % M];
    }
    s
}

/// The lessons' function over `N = 1000` elements, with `N` a `const` item.
#[grad(hvp)]
pub fn lessons_1000(x: [f64; N]) -> f64 {
    let mut s = 0.0;
    for i in 0..N {
        s += x[i].sin() * x[(i + N - 1) % N];
    }
    s
}

/// The lessons' function with the second neighbour, f(x) = Σᵢ sin(xᵢ)·xᵢ₋₂ (cyclic, `M ≥ 2`):
/// its sweep splits off two wrap-around iterations.
#[grad(jvp, hvp)]
pub fn second_neighbours<const M: usize>(x: [f64; M]) -> f64 {
    let mut s = 0.0;
    for i in 0..M {
        s += x[i].sin() * x[(i + M - 2) % M];
    }
    s
}

/// A ring with a branch and a weight read from the index: Σᵢ (i + 1)·φ(xᵢ − xᵢ₋₁), with
/// φ(d) = d² for d > 0 and 2(eᵈ − d − 1) otherwise.
#[grad(hvp)]
pub fn weighted_ring<const M: usize>(x: [f64; M]) -> f64 {
    let mut s = 0.0;
    for i in 0..M {
        let d = x[i] - x[(i + M - 1) % M];
        let w = (i + 1) as f64;
        if d > 0.0 {
            s += w * d * d;
        } else {
            s += w * 2.0 * (d.exp() - d - 1.0);
        }
    }
    s
}

/// The extended (chained) Rosenbrock function Σᵢ 100 (xᵢ₊₁ − xᵢ²)² + (1 − xᵢ)².
#[grad(jvp, hvp, hessian)]
pub fn ext_rosenbrock<const M: usize>(x: [f64; M]) -> f64 {
    let mut f = 0.0;
    for i in 0..M - 1 {
        let a = x[i + 1] - x[i] * x[i];
        let b = 1.0 - x[i];
        f += 100.0 * a * a + b * b;
    }
    f
}

/// A 16×16 dense layer with `tanh` and a squared loss: Σᵢ (tanh(Σⱼ wᵢⱼ xⱼ + bᵢ) − yᵢ)².
#[grad(wrt(w, b), jvp, hvp)]
pub fn layer(w: [[f64; 16]; 16], b: [f64; 16], x: &[f64; 16], y: &[f64; 16]) -> f64 {
    let mut loss = 0.0;
    for i in 0..16 {
        let mut z = b[i];
        for j in 0..16 {
            z += w[i][j] * x[j];
        }
        let e = z.tanh() - y[i];
        loss += e * e;
    }
    loss
}

/// The Lennard-Jones energy of 8 atoms, Σᵢ<ⱼ 4ε((σ/r)¹² − (σ/r)⁶), over the positions.
#[grad(wrt(p), hvp)]
pub fn lennard_jones(p: [[f64; 3]; 8], epsilon: f64, sigma: f64) -> f64 {
    let mut e = 0.0;
    for i in 0..8 {
        for j in i + 1..8 {
            let dx = p[i][0] - p[j][0];
            let dy = p[i][1] - p[j][1];
            let dz = p[i][2] - p[j][2];
            let r2 = dx * dx + dy * dy + dz * dz;
            let s6 = (sigma * sigma / r2).powi(3);
            e += 4.0 * epsilon * (s6 * s6 - s6);
        }
    }
    e
}

/// Explicit Euler for x′ = −kx over 1000 steps of `dt`: every step's `x` is stored for the sweep.
#[grad(hvp)]
pub fn euler(x0: f64, k: f64, dt: f64) -> f64 {
    let mut x = x0;
    for _ in 0..1000 {
        x = x - dt * k * x;
    }
    x
}

/// The Gaussian negative log-likelihood of `data` (of any length): a reduction, which stores
/// nothing.
#[grad(hvp)]
#[allow(clippy::needless_range_loop)]
pub fn gaussian_nll(mu: f64, sigma: f64, data: &[f64]) -> f64 {
    let mut nll = 0.0;
    for i in 0..data.len() {
        let z = (data[i] - mu) / sigma;
        nll += 0.5 * z * z + sigma.ln();
    }
    nll
}

/// Huber's loss: quadratic within `delta` of zero, linear outside.
#[grad(jvp, hvp, hessian)]
pub fn huber(r: f64, delta: f64) -> f64 {
    if r.abs() <= delta { 0.5 * r * r } else { delta * (r.abs() - 0.5 * delta) }
}

/// `√x` for positive `x`, zero otherwise: the branch not taken (NaN at `x < 0`) is never
/// evaluated, in any sweep.
#[grad(jvp, hvp)]
pub fn sqrt_or_zero(x: f64) -> f64 {
    if x > 0.0 { x.sqrt() } else { 0.0 }
}

/// Polar to Cartesian coordinates: a function with two outputs.
#[grad(jvp, jacobian)]
pub fn polar(r: f64, theta: f64) -> [f64; 2] {
    [r * theta.cos(), r * theta.sin()]
}

/// Polar to Cartesian coordinates as a tuple.
#[grad(jvp, jacobian)]
pub fn polar_tuple(r: f64, theta: f64) -> (f64, f64) {
    (r * theta.cos(), r * theta.sin())
}

/// 3 inputs, 1000 outputs: `yᵢ = a sin(b tᵢ + c)` at `tᵢ = i / 100`. Its Jacobian is made by
/// forward mode (3 sweeps).
#[grad(jacobian)]
#[allow(clippy::needless_range_loop)]
pub fn wave(a: f64, b: f64, c: f64) -> [f64; 1000] {
    let mut y = [0.0; 1000];
    for i in 0..1000 {
        y[i] = a * (b * (i as f64 / 100.0) + c).sin();
    }
    y
}

/// 1000 inputs, 3 outputs: the sum, the sum of squares and the weighted sum. Its Jacobian is
/// made by reverse mode (3 sweeps).
#[grad(jacobian)]
#[allow(clippy::needless_range_loop)]
pub fn moments(x: [f64; 1000]) -> [f64; 3] {
    let mut m = [0.0; 3];
    for i in 0..1000 {
        m[0] += x[i];
        m[1] += x[i] * x[i];
        m[2] += (i as f64) * x[i];
    }
    m
}

/// A running product `p ← p·(1 + xᵢ)` over a reversed range: not a reduction, so every
/// iteration's `p` is stored.
#[grad(hvp)]
pub fn running_product(x: [f64; 6]) -> f64 {
    let mut p = 1.0;
    for i in (0..6).rev() {
        p *= 1.0 + x[i];
    }
    p
}

/// A prefix sum written into a local array, then a weighted sum of it over an inclusive range:
/// element updates `y[i] = …` and `y[i] += …`.
#[grad(hvp)]
#[allow(clippy::needless_range_loop)]
pub fn prefix_sums(x: [f64; 5]) -> f64 {
    let mut y = [0.0; 5];
    y[0] = x[0];
    for i in 1..5 {
        y[i] = y[i - 1] + x[i];
        y[i] += 0.1 * x[i] * x[i];
    }
    let mut s = 0.0;
    for i in 0..=4 {
        s += (i as f64 + 1.0) * y[i].sin();
    }
    s
}

/// A branch inside a loop: a ReLU-like sum Σ max(xᵢ, 0)², with `else if` for a capped part.
#[grad(hvp)]
#[allow(clippy::needless_range_loop)]
pub fn clipped_squares(x: [f64; 6], cap: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..6 {
        if x[i] <= 0.0 {
            s += 0.0;
        } else if x[i] < cap {
            s += x[i] * x[i];
        } else {
            s += cap * (2.0 * x[i] - cap);
        }
    }
    s
}

/// A branch that depends on what the loop carries: `x` doubles until it passes 1, then decays;
/// the branch taken is stored per iteration.
#[grad(hvp)]
pub fn switching(x0: f64, a: f64) -> f64 {
    let mut x = x0;
    for _ in 0..12 {
        if x < 1.0 {
            x *= 2.0 + a;
        } else {
            x = x.sqrt() * a;
        }
    }
    x
}

/// An array literal, a nested array parameter by reference and a row read into a local.
#[grad(hvp)]
#[allow(clippy::needless_range_loop)]
pub fn bilinear(m: &[[f64; 3]; 2], v: [f64; 3]) -> f64 {
    let w = [v[0] * v[1], v[1] * v[2], v[2] * v[0]];
    let mut s = 0.0;
    for i in 0..2 {
        let row = m[i];
        for j in 0..3 {
            s += row[j] * w[j];
        }
    }
    s
}

/// A flat grid `p[i * N + j]`: each row's elements after the first, `p[i * N + j + 1]`, times
/// its left neighbour, plus the rows' first elements squared at `p[i * N]`. The sweep assigns
/// `p̄[i * N + j + 1]` on first touch (no two iterations meet there) and adds into
/// `p̄[i * N + j]` (written by the iteration before).
#[grad(hvp)]
#[allow(clippy::needless_range_loop)]
pub fn flat_grid<const N: usize, const P: usize>(p: [f64; P]) -> f64 {
    let mut s = 0.0;
    for i in 0..N {
        for j in 0..N - 1 {
            s += p[i * N + j + 1].sin() * p[i * N + j];
        }
        s += p[i * N] * p[i * N];
    }
    s
}
