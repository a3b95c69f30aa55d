//! Calls of functions returning arrays and tuples, differentiated through the halves of the
//! callee's VJP (`_fwd` in the forward pass, `_rev` in the reverse sweep), `_jvp` (forward mode)
//! and `_hvp` (the forward mode of its VJP); checked in `tests/vcalls.rs`.

use autodiff_runtime::grad;

/// Polar to Cartesian coordinates: `(r cos t, r sin t)`.
#[grad(hvp)]
pub fn polar(r: f64, t: f64) -> (f64, f64) {
    (r * t.cos(), r * t.sin())
}

/// `x y² + sin x` at the Cartesian point `(x, y)` of `(r, t)`, through [`polar`].
#[grad(jvp, hvp, hessian)]
pub fn through_polar(r: f64, t: f64) -> f64 {
    let (x, y) = polar(r, t);
    x * y * y + x.sin()
}

/// `x` of [`polar`] with a constant radius, the other part unused: `2 cos t · t`.
#[grad(jvp, hvp)]
pub fn polar_x_only(t: f64) -> f64 {
    let (x, _) = polar(2.0, t);
    x * t
}

/// Calls in branches: a tuple variable assigned the value of [`polar`] when `r > 1`, and a
/// branch's value computed from the point at twice the angle when `t > 0`.
#[grad(jvp, hvp)]
pub fn polar_in_branch(r: f64, t: f64) -> f64 {
    let mut p = (r, t);
    if r > 1.0 {
        p = polar(r, t);
    }
    let q = if t > 0.0 {
        let (x, y): (f64, f64) = polar(r, 2.0 * t);
        x - y
    } else {
        t
    };
    p.0 * p.1 + r * q
}

/// One dense layer, `tanh(W x + b)`.
#[grad(hvp)]
pub fn layer(w: &[[f64; 4]; 4], b: &[f64; 4], x: &[f64; 4]) -> [f64; 4] {
    let mut h = [0.0; 4];
    for i in 0..4 {
        let mut z = b[i];
        for j in 0..4 {
            z += w[i][j] * x[j];
        }
        h[i] = z.tanh();
    }
    h
}

/// A two-layer perceptron's loss `½ |layer₂(layer₁(x))|²` on the data `x`, through [`layer`]
/// twice.
#[grad(wrt(w1, b1, w2, b2), jvp, hvp)]
pub fn mlp(
    w1: &[[f64; 4]; 4],
    b1: &[f64; 4],
    w2: &[[f64; 4]; 4],
    b2: &[f64; 4],
    x: &[f64; 4],
) -> f64 {
    let h: [f64; 4] = layer(w1, b1, x);
    let o: [f64; 4] = layer(w2, b2, &h);
    let mut loss = 0.0;
    for v in o {
        loss += v * v;
    }
    0.5 * loss
}

/// [`mlp`] written inline, without calls: the same network and the same operations.
#[grad(wrt(w1, b1, w2, b2), hvp)]
pub fn mlp_inline(
    w1: &[[f64; 4]; 4],
    b1: &[f64; 4],
    w2: &[[f64; 4]; 4],
    b2: &[f64; 4],
    x: &[f64; 4],
) -> f64 {
    let mut h = [0.0; 4];
    for i in 0..4 {
        let mut z = b1[i];
        for j in 0..4 {
            z += w1[i][j] * x[j];
        }
        h[i] = z.tanh();
    }
    let mut o = [0.0; 4];
    for i in 0..4 {
        let mut z = b2[i];
        for j in 0..4 {
            z += w2[i][j] * h[j];
        }
        o[i] = z.tanh();
    }
    let mut loss = 0.0;
    for v in o {
        loss += v * v;
    }
    0.5 * loss
}

/// `½ |h₆|²` for `h₀ = x` and `hₜ₊₁ = layer(w, b, hₜ)`: a vector call in a stored loop, whose
/// residuals (the `tanh` of each step) the loop keeps for its sweep.
#[grad(wrt(w, b), hvp)]
pub fn recurrent(w: &[[f64; 4]; 4], b: &[f64; 4], x: &[f64; 4]) -> f64 {
    let mut h = [x[0], x[1], x[2], x[3]];
    for _ in 0..6 {
        h = layer(w, b, &h);
    }
    let mut loss = 0.0;
    for v in h {
        loss += v * v;
    }
    0.5 * loss
}

/// [`recurrent`] with its loop checkpointed in 2 snapshots: the sweep runs the steps again from
/// the snapshots, `layer_fwd` included, and each step's `layer_rev` reads its residuals.
#[grad(wrt(w, b), hvp, checkpoint(s = 2))]
pub fn recurrent_checkpointed(w: &[[f64; 4]; 4], b: &[f64; 4], x: &[f64; 4]) -> f64 {
    let mut h = [x[0], x[1], x[2], x[3]];
    for _ in 0..6 {
        h = layer(w, b, &h);
    }
    let mut loss = 0.0;
    for v in h {
        loss += v * v;
    }
    0.5 * loss
}

/// [`recurrent`] written inline, without calls.
#[grad(wrt(w, b))]
pub fn recurrent_inline(w: &[[f64; 4]; 4], b: &[f64; 4], x: &[f64; 4]) -> f64 {
    let mut h = [x[0], x[1], x[2], x[3]];
    for _ in 0..6 {
        let mut next = [0.0; 4];
        for i in 0..4 {
            let mut z = b[i];
            for j in 0..4 {
                z += w[i][j] * h[j];
            }
            next[i] = z.tanh();
        }
        h = next;
    }
    let mut loss = 0.0;
    for v in h {
        loss += v * v;
    }
    0.5 * loss
}

/// A pendulum, `(θ, ω)' = (ω, −k sin θ)`.
#[grad(hvp)]
pub fn rhs(state: [f64; 2], k: f64) -> [f64; 2] {
    [state[1], -k * state[0].sin()]
}

/// The pendulum's state after 100 classical Runge–Kutta steps of `dt = 0.05` from `s0`, through
/// [`rhs`] four times a step; the value is `θ² + ω²` at the end.
#[grad(jvp, hvp)]
pub fn rk4(s0: [f64; 2], k: f64) -> f64 {
    let dt = 0.05;
    let mut s = s0;
    for _ in 0..100 {
        let k1: [f64; 2] = rhs(s, k);
        let k2: [f64; 2] = rhs([s[0] + 0.5 * dt * k1[0], s[1] + 0.5 * dt * k1[1]], k);
        let k3: [f64; 2] = rhs([s[0] + 0.5 * dt * k2[0], s[1] + 0.5 * dt * k2[1]], k);
        let k4: [f64; 2] = rhs([s[0] + dt * k3[0], s[1] + dt * k3[1]], k);
        s = [
            s[0] + dt / 6.0 * (k1[0] + 2.0 * k2[0] + 2.0 * k3[0] + k4[0]),
            s[1] + dt / 6.0 * (k1[1] + 2.0 * k2[1] + 2.0 * k3[1] + k4[1]),
        ];
    }
    s[0] * s[0] + s[1] * s[1]
}

/// [`rk4`] with its loop checkpointed in 4 snapshots: the sweep recomputes the steps, calls
/// included.
#[grad(hvp, checkpoint(s = 4))]
pub fn rk4_checkpointed(s0: [f64; 2], k: f64) -> f64 {
    let dt = 0.05;
    let mut s = s0;
    for _ in 0..100 {
        let k1: [f64; 2] = rhs(s, k);
        let k2: [f64; 2] = rhs([s[0] + 0.5 * dt * k1[0], s[1] + 0.5 * dt * k1[1]], k);
        let k3: [f64; 2] = rhs([s[0] + 0.5 * dt * k2[0], s[1] + 0.5 * dt * k2[1]], k);
        let k4: [f64; 2] = rhs([s[0] + dt * k3[0], s[1] + dt * k3[1]], k);
        s = [
            s[0] + dt / 6.0 * (k1[0] + 2.0 * k2[0] + 2.0 * k3[0] + k4[0]),
            s[1] + dt / 6.0 * (k1[1] + 2.0 * k2[1] + 2.0 * k3[1] + k4[1]),
        ];
    }
    s[0] * s[0] + s[1] * s[1]
}

/// One explicit Euler step of [`rhs`], `s + h · rhs(s, k)`: a vector function calling one.
#[grad(hvp)]
pub fn euler(s: [f64; 2], k: f64, h: f64) -> [f64; 2] {
    let [ds, dw] = rhs(s, k);
    [s[0] + h * ds, s[1] + h * dw]
}

/// [`rhs`] itself, as the value of a vector function.
#[grad(hvp)]
pub fn rhs_again(s: [f64; 2], k: f64) -> [f64; 2] {
    rhs(s, k)
}

/// Three Euler steps assigned in place, then `θ ω + rhs_again(s, k)[1]`.
#[grad(jvp, hvp)]
pub fn euler_flow(s0: [f64; 2], k: f64) -> f64 {
    let mut s = s0;
    for _ in 0..3 {
        s = euler(s, k, 0.1);
    }
    let d: [f64; 2] = rhs_again(s, k);
    s[0] * s[1] + d[1]
}

/// The mean of `x` and its deviations from it: a tuple of an `f64` and an array.
#[grad(hvp)]
pub fn centered(x: &[f64; 3]) -> (f64, [f64; 3]) {
    let m = (x[0] + x[1] + x[2]) / 3.0;
    (m, [x[0] - m, x[1] - m, x[2] - m])
}

/// `m² + Σ wᵢ dᵢ²` of [`centered`], the weights constant data.
#[grad(wrt(x), jvp, hvp)]
pub fn weighted_spread(x: [f64; 3], w: &[f64; 3]) -> f64 {
    let (m, d): (f64, [f64; 3]) = centered(&x);
    let mut s = m * m;
    for i in 0..3 {
        s += w[i] * d[i] * d[i];
    }
    s
}

/// `x / |x|`, whose derivatives are written by hand below, following the contract of a vector
/// function: `_fwd` and `_rev` (the halves of the VJP), `_vjp`, `_jvp` and `_hvp` (the forward
/// mode of the VJP).
pub fn normalize(x: [f64; 3]) -> [f64; 3] {
    let n = (x[0] * x[0] + x[1] * x[1] + x[2] * x[2]).sqrt();
    x.map(|e| e / n)
}

fn dot3(a: &[f64; 3], b: &[f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// `(v − u (u·v)) / n`, for `u = x / n`: the Jacobian of [`normalize`] (symmetric) applied to `v`.
fn project(u: &[f64; 3], n: f64, v: &[f64; 3]) -> [f64; 3] {
    let uv = dot3(u, v);
    std::array::from_fn(|i| (v[i] - u[i] * uv) / n)
}

/// Value and VJP of [`normalize`] (hand-written): `Jᵀ ȳ = (ȳ − u (u·ȳ)) / |x|`.
pub fn normalize_vjp(x: [f64; 3], out_bar: [f64; 3]) -> ([f64; 3], [f64; 3]) {
    let u = normalize(x);
    let n = dot3(&x, &x).sqrt();
    (u, project(&u, n, &out_bar))
}

/// The forward half of [`normalize_vjp`] (hand-written): the value `u`, and the residuals that
/// [`normalize_rev`] reads, `(u, |x|)`.
pub fn normalize_fwd(x: [f64; 3]) -> ([f64; 3], ([f64; 3], f64)) {
    let u = normalize(x);
    (u, (u, dot3(&x, &x).sqrt()))
}

/// The reverse half of [`normalize_vjp`] (hand-written), from the residuals that
/// [`normalize_fwd`] kept: `Jᵀ ȳ = (ȳ − u (u·ȳ)) / |x|`.
pub fn normalize_rev(_x: [f64; 3], (u, n): ([f64; 3], f64), out_bar: [f64; 3]) -> [f64; 3] {
    project(&u, n, &out_bar)
}

/// Value and JVP of [`normalize`] (hand-written): `J ẋ = (ẋ − u (u·ẋ)) / |x|`.
pub fn normalize_jvp(x: [f64; 3], x_dot: [f64; 3]) -> ([f64; 3], [f64; 3]) {
    let u = normalize(x);
    let n = dot3(&x, &x).sqrt();
    (u, project(&u, n, &x_dot))
}

/// The forward mode of [`normalize_vjp`] (hand-written): with `c = (ȳ − u (u·ȳ)) / n`,
/// `u̇ = J ẋ` and `ṅ = u·ẋ`, `ċ = (ȳ̇ − u̇ (u·ȳ) − u (u̇·ȳ + u·ȳ̇)) / n − c ṅ / n`.
pub fn normalize_hvp(
    x: [f64; 3],
    out_bar: [f64; 3],
    x_dot: [f64; 3],
    out_bar_dot: [f64; 3],
) -> ([f64; 3], [f64; 3], [f64; 3], [f64; 3]) {
    let u = normalize(x);
    let n = dot3(&x, &x).sqrt();
    let c = project(&u, n, &out_bar);
    let u_dot = project(&u, n, &x_dot);
    let n_dot = dot3(&u, &x_dot);
    let (uy, u_dot_y, u_y_dot) =
        (dot3(&u, &out_bar), dot3(&u_dot, &out_bar), dot3(&u, &out_bar_dot));
    let c_dot = std::array::from_fn(|i| {
        (out_bar_dot[i] - u_dot[i] * uy - u[i] * (u_dot_y + u_y_dot)) / n - c[i] * n_dot / n
    });
    (u, c, u_dot, c_dot)
}

/// `|normalize(x) − t|²` scaled by `a`: a caller of the hand-written [`normalize`].
#[grad(wrt(x, a), jvp, hvp)]
pub fn direction_cost(x: [f64; 3], a: f64, t: &[f64; 3]) -> f64 {
    let u: [f64; 3] = normalize(x);
    let mut s = 0.0;
    for i in 0..3 {
        let e = u[i] - t[i];
        s += e * e;
    }
    a * s
}
