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
