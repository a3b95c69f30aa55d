//! Calls between differentiated functions, each differentiated through its callee's derivative
//! functions; checked in `tests/calls.rs`.

use autodiff_runtime::grad;

/// `h(x) = x sin x`, the innermost of a chain of calls.
#[grad(jvp, hvp)]
pub fn h(x: f64) -> f64 {
    x * x.sin()
}

/// `g(x, y) = h(x y) + eʸ`, which calls `h`.
#[grad(jvp, hvp)]
pub fn g(x: f64, y: f64) -> f64 {
    h(x * y) + y.exp()
}

/// `f(x, y) = ln(1 + g(x, y)²) · h(y)`, which calls `g` (which calls `h`) and `h`.
#[grad(jvp, hvp, hessian)]
pub fn f(x: f64, y: f64) -> f64 {
    let s = g(x, y);
    (s * s).ln_1p() * h(y)
}

/// `log(Σ exp(xᵢ))`, computed stably (it overflows for no finite input), with its derivatives
/// written by hand below: the way to give `#[grad]` a derivative it cannot derive (or should
/// not: `max` would make its second derivative wrong at ties).
pub fn log_sum_exp(x: [f64; 4]) -> f64 {
    let m = x.iter().fold(f64::NEG_INFINITY, |a, b| a.max(*b));
    m + x.iter().map(|e| (e - m).exp()).sum::<f64>().ln()
}

/// The softmax of `x`, the gradient of [`log_sum_exp`].
fn softmax(x: [f64; 4]) -> [f64; 4] {
    let m = x.iter().fold(f64::NEG_INFINITY, |a, b| a.max(*b));
    let e = x.map(|e| (e - m).exp());
    let total: f64 = e.iter().sum();
    e.map(|e| e / total)
}

/// Value and gradient of [`log_sum_exp`] (hand-written: the softmax).
pub fn log_sum_exp_grad(x: [f64; 4]) -> (f64, [f64; 4]) {
    (log_sum_exp(x), softmax(x))
}

/// Value and derivative of [`log_sum_exp`] along `x_dot` (hand-written).
pub fn log_sum_exp_jvp(x: [f64; 4], x_dot: [f64; 4]) -> (f64, f64) {
    let p = softmax(x);
    (log_sum_exp(x), p.iter().zip(&x_dot).map(|(a, b)| a * b).sum())
}

/// Value, gradient and H·v of [`log_sum_exp`] (hand-written): `H v = p ⊙ v − p (p · v)`.
pub fn log_sum_exp_hvp(x: [f64; 4], x_dot: [f64; 4]) -> (f64, [f64; 4], [f64; 4]) {
    let p = softmax(x);
    let pv: f64 = p.iter().zip(&x_dot).map(|(a, b)| a * b).sum();
    let hv = std::array::from_fn(|i| p[i] * (x_dot[i] - pv));
    (log_sum_exp(x), p, hv)
}

/// A caller of the hand-written [`log_sum_exp`]: `t · lse(x) + t²`.
#[grad(jvp, hvp)]
pub fn tempered(x: [f64; 4], t: f64) -> f64 {
    t * log_sum_exp(x) + t * t
}

/// `softplus(z) = ln(1 + eᶻ)`.
#[grad(jvp, hvp)]
pub fn softplus(z: f64) -> f64 {
    (1.0 + z.exp()).ln()
}

/// `Σᵢ softplus(xᵢ) · xᵢ₊₁` (cyclic): a call inside a loop.
#[grad(jvp, hvp)]
#[allow(clippy::needless_range_loop)]
pub fn softplus_ring(x: [f64; 5]) -> f64 {
    let mut s = 0.0;
    for i in 0..5 {
        s += softplus(x[i]) * x[(i + 1) % 5];
    }
    s
}

/// `Σᵢ wᵢ · softplus(xᵢ) · xᵢ₋₁` (cyclic) over weights `w` left out of `wrt`: a call inside a
/// ring whose derivatives split off the wrap-around iteration.
#[grad(jvp, hvp, wrt(x))]
#[allow(clippy::needless_range_loop)]
pub fn weighted_softplus_ring<const M: usize>(x: [f64; M], w: &[f64; M]) -> f64 {
    let mut s = 0.0;
    for i in 0..M {
        s += w[i] * softplus(x[i]) * x[(i + M - 1) % M];
    }
    s
}

/// `|v|²` of an array.
#[grad(jvp, hvp)]
pub fn norm2(v: [f64; 3]) -> f64 {
    v[0] * v[0] + v[1] * v[1] + v[2] * v[2]
}

/// `|a|² s + sin s + |offset|²`: an array argument, and a call of constants only (a constant).
#[grad(jvp, hvp, wrt(a, s))]
pub fn scaled_norm(a: [f64; 3], s: f64, offset: &[f64; 3]) -> f64 {
    norm2(a) * s + s.sin() + norm2(*offset)
}

/// A model whose functions call each other inside an `impl` block.
pub struct Model;

impl Model {
    /// `x²`.
    #[grad(hvp)]
    pub fn square(x: f64) -> f64 {
        x * x
    }

    /// `(x − y)² + y²`, through `Self::square`.
    #[grad(hvp)]
    pub fn loss(x: f64, y: f64) -> f64 {
        Self::square(x - y) + Self::square(y)
    }
}

/// [`f`] with `g` and `h` written out in its body: what [`f`] costs without calls, for
/// `benches/interleaved_calls.rs`.
#[grad(jvp, hvp)]
pub fn f_inlined(x: f64, y: f64) -> f64 {
    let t = x * y;
    let s = t * t.sin() + y.exp();
    (s * s).ln_1p() * (y * y.sin())
}

/// [`softplus_ring`] with `softplus` written out in its body.
#[grad(jvp, hvp)]
#[allow(clippy::needless_range_loop)]
pub fn softplus_ring_inlined(x: [f64; 5]) -> f64 {
    let mut s = 0.0;
    for i in 0..5 {
        s += (1.0 + x[i].exp()).ln() * x[(i + 1) % 5];
    }
    s
}

/// The log density of a normal distribution with mean `mean` and standard deviation `sd` at
/// `x`, up to the constant `−½ ln 2π`. Its derivative functions have one partial and one
/// direction per parameter, and its callers pass it values and constants in any position.
#[grad(jvp, hvp)]
pub fn normal_lpdf(x: f64, mean: f64, sd: f64) -> f64 {
    let z = (x - mean) / sd;
    -0.5 * z * z - sd.ln()
}

/// The log density of a hierarchical model (the "eight schools", four of them), issue 20's bug
/// 7: `θⱼ ~ N(μ, τ)`, `yⱼ ~ N(θⱼ, σ)` with data `y`, a known `σ` and a prior `μ ~ N(0, 5)`.
/// `normal_lpdf` is called with values in every position, with the constants `y[j]` and `sigma`
/// in the first and last, and with two literals.
#[grad(jvp, hvp, hessian, wrt(theta, mu, tau))]
#[allow(clippy::needless_range_loop)]
pub fn schools(theta: [f64; 4], mu: f64, tau: f64, y: &[f64; 4], sigma: f64) -> f64 {
    let mut lp = normal_lpdf(mu, 0.0, 5.0);
    for j in 0..4 {
        lp += normal_lpdf(theta[j], mu, tau);
        lp += normal_lpdf(y[j], theta[j], sigma);
    }
    lp
}

/// A copy of a constant parameter passed to a call, `let c2 = c;`: it was passed by its own
/// name, which the derivatives do not have (they read the parameter `c`).
#[grad(jvp, hvp, wrt(x))]
pub fn copied_constant(x: f64, c: f64) -> f64 {
    let c2 = c;
    normal_lpdf(x, c2, 1.5) + c2
}

/// `c · xⁿ`, with its derivatives written by hand below: a rule with an integer parameter `n`
/// (no partial, no direction) and two differentiated ones.
pub fn scaled_powi(x: f64, c: f64, n: i32) -> f64 {
    c * x.powi(n)
}

/// Value and the partials `(∂/∂x, ∂/∂c)` of [`scaled_powi`] (hand-written).
pub fn scaled_powi_grad(x: f64, c: f64, n: i32) -> (f64, (f64, f64)) {
    let dx = c * f64::from(n) * x.powi(n - 1);
    (scaled_powi(x, c, n), (dx, x.powi(n)))
}

/// Value and derivative of [`scaled_powi`] along `(dx, dc)` (hand-written).
pub fn scaled_powi_jvp(x: f64, c: f64, n: i32, dx: f64, dc: f64) -> (f64, f64) {
    let (y, (gx, gc)) = scaled_powi_grad(x, c, n);
    (y, gx * dx + gc * dc)
}

/// Value, partials and H·(dx, dc) of [`scaled_powi`] (hand-written).
pub fn scaled_powi_hvp(x: f64, c: f64, n: i32, dx: f64, dc: f64) -> (f64, (f64, f64), (f64, f64)) {
    let (y, g) = scaled_powi_grad(x, c, n);
    let nf = f64::from(n);
    let (hxx, hxc) = (c * nf * (nf - 1.0) * x.powi(n - 2), nf * x.powi(n - 1));
    (y, g, (hxx * dx + hxc * dc, hxc * dx))
}

/// `a · b` of two arrays taken by reference, with its derivatives written by hand below.
pub fn dot3(a: &[f64; 3], b: &[f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// Value and the partials `(b, a)` of [`dot3`] (hand-written).
pub fn dot3_grad(a: &[f64; 3], b: &[f64; 3]) -> (f64, ([f64; 3], [f64; 3])) {
    (dot3(a, b), (*b, *a))
}

/// Value and derivative of [`dot3`] along `(da, db)` (hand-written).
pub fn dot3_jvp(a: &[f64; 3], b: &[f64; 3], da: &[f64; 3], db: &[f64; 3]) -> (f64, f64) {
    (dot3(a, b), dot3(da, b) + dot3(a, db))
}

/// Value, partials and H·(da, db) = `(db, da)` of [`dot3`] (hand-written).
#[allow(clippy::type_complexity)]
pub fn dot3_hvp(
    a: &[f64; 3],
    b: &[f64; 3],
    da: &[f64; 3],
    db: &[f64; 3],
) -> (f64, ([f64; 3], [f64; 3]), ([f64; 3], [f64; 3])) {
    (dot3(a, b), (*b, *a), (*db, *da))
}

/// Calls of hand-written rules with constants in differentiated positions (`2.5`, `w`, whose
/// directions are zero) and an integer argument: `2.5 x³ + y x² + w·x + x·x`.
#[grad(jvp, hvp, hessian, wrt(x, y))]
pub fn hand_written_callers(x: f64, y: f64, w: &[f64; 3]) -> f64 {
    let v = [x, y, x * y];
    scaled_powi(x, 2.5, 3) + scaled_powi(x, y, 2) + dot3(&v, w) + dot3(&v, &v)
}

/// Calls in both sides of a branch inside a loop, with a constant `c` left out of `wrt` in
/// different positions: `Σᵢ (xᵢ > 0 ? lpdf(xᵢ; c, 1.5) : lpdf(0.5; xᵢ, c + 1))`.
#[grad(jvp, hvp, hessian, wrt(x))]
#[allow(clippy::needless_range_loop)]
pub fn branchy_calls(x: [f64; 3], c: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..3 {
        if x[i] > 0.0 {
            s += normal_lpdf(x[i], c, 1.5);
        } else {
            s += normal_lpdf(0.5, x[i], c + 1.0);
        }
    }
    s
}

/// A relaxation `x ← x + h · lpdf(target; x, k)` for 40 steps, the call's first argument a
/// constant: stored, and checkpointed in 3 snapshots.
#[grad(jvp, hvp, wrt(x0, k))]
pub fn relax_stored(x0: f64, k: f64, target: f64) -> f64 {
    let mut x = x0;
    for _ in 0..40 {
        x += 0.05 * normal_lpdf(target, x, k).exp();
    }
    x * x
}

/// [`relax_stored`], checkpointed.
#[grad(jvp, hvp, wrt(x0, k), checkpoint(s = 3))]
pub fn relax_checkpointed(x0: f64, k: f64, target: f64) -> f64 {
    let mut x = x0;
    for _ in 0..40 {
        x += 0.05 * normal_lpdf(target, x, k).exp();
    }
    x * x
}

/// A vector function calling a scalar helper with mixed constness:
/// `(lpdf(x₀; c, 1), lpdf(1; x₁, x₀), lpdf(x₀ x₁; 0, c))`.
#[grad(jacobian, wrt(x))]
pub fn lpdf_vector(x: [f64; 2], c: f64) -> [f64; 3] {
    [normal_lpdf(x[0], c, 1.0), normal_lpdf(1.0, x[1], x[0]), normal_lpdf(x[0] * x[1], 0.0, c)]
}
