//! Calls of array-returning functions whose value is bound without its type (`let h =
//! layer(..);`) or indexed where it is (`rhs_again(s, k)[1]`): `#[grad]` reads the array's
//! lengths from the callee's `_shape` constant. The twins of `vcalls.rs`'s and `structs.rs`'s
//! typed forms, which `tests/vcalls_untyped.rs` compares to the bit, and shapes they do not
//! have (two dimensions, `f32`, a generic caller, iterators) against finite differences.

use autodiff_runtime::grad;

use crate::structs::Quat;
use crate::vcalls::*;

/// [`mlp`] with both layers bound without their type.
#[grad(wrt(w1, b1, w2, b2), jvp, hvp)]
pub fn mlp_untyped(
    w1: &[[f64; 4]; 4],
    b1: &[f64; 4],
    w2: &[[f64; 4]; 4],
    b2: &[f64; 4],
    x: &[f64; 4],
) -> f64 {
    let h = layer(w1, b1, x);
    let o = layer(w2, b2, &h);
    let mut loss = 0.0;
    for v in o {
        loss += v * v;
    }
    0.5 * loss
}

/// [`rk4`] with its four stages bound without their type.
#[grad(jvp, hvp)]
pub fn rk4_untyped(s0: [f64; 2], k: f64) -> f64 {
    let dt = 0.05;
    let mut s = s0;
    for _ in 0..100 {
        let k1 = rhs(s, k);
        let k2 = rhs([s[0] + 0.5 * dt * k1[0], s[1] + 0.5 * dt * k1[1]], k);
        let k3 = rhs([s[0] + 0.5 * dt * k2[0], s[1] + 0.5 * dt * k2[1]], k);
        let k4 = rhs([s[0] + dt * k3[0], s[1] + dt * k3[1]], k);
        s = [
            s[0] + dt / 6.0 * (k1[0] + 2.0 * k2[0] + 2.0 * k3[0] + k4[0]),
            s[1] + dt / 6.0 * (k1[1] + 2.0 * k2[1] + 2.0 * k3[1] + k4[1]),
        ];
    }
    s[0] * s[0] + s[1] * s[1]
}

/// [`rk4_checkpointed`] with its four stages bound without their type.
#[grad(hvp, checkpoint(s = 4))]
pub fn rk4_untyped_checkpointed(s0: [f64; 2], k: f64) -> f64 {
    let dt = 0.05;
    let mut s = s0;
    for _ in 0..100 {
        let k1 = rhs(s, k);
        let k2 = rhs([s[0] + 0.5 * dt * k1[0], s[1] + 0.5 * dt * k1[1]], k);
        let k3 = rhs([s[0] + 0.5 * dt * k2[0], s[1] + 0.5 * dt * k2[1]], k);
        let k4 = rhs([s[0] + dt * k3[0], s[1] + dt * k3[1]], k);
        s = [
            s[0] + dt / 6.0 * (k1[0] + 2.0 * k2[0] + 2.0 * k3[0] + k4[0]),
            s[1] + dt / 6.0 * (k1[1] + 2.0 * k2[1] + 2.0 * k3[1] + k4[1]),
        ];
    }
    s[0] * s[0] + s[1] * s[1]
}

/// [`euler_flow`] with the call's element read where it is: `rhs_again(s, k)[1]`.
#[grad(jvp, hvp)]
pub fn euler_flow_untyped(s0: [f64; 2], k: f64) -> f64 {
    let mut s = s0;
    for _ in 0..3 {
        s = euler(s, k, 0.1);
    }
    s[0] * s[1] + rhs_again(s, k)[1]
}

/// [`Quat::rotate_by_methods`] written as a free function, the products' arrays bound without
/// their type (`<Quat>::times_shape` gives their length).
#[grad(jvp, hvp, jacobian)]
pub fn rotate_untyped(q: &Quat, v: [f64; 3]) -> [f64; 3] {
    let p = Quat { w: 0.0, x: v[0], y: v[1], z: v[2] };
    let [w, x, y, z] = q.times(&p);
    let qp = Quat { w, x, y, z };
    let [cw, cx, cy, cz] = q.conjugate();
    let c = Quat { w: cw, x: cx, y: cy, z: cz };
    let r = qp.times(&c);
    let n = q.norm2();
    [r[1] / n, r[2] / n, r[3] / n]
}

/// The outer product `a bᵀ` scaled by `sin a₀`: a function returning a two-dimensional array.
#[grad(hvp)]
pub fn outer(a: [f64; 2], b: [f64; 3]) -> [[f64; 3]; 2] {
    let mut m = [[0.0; 3]; 2];
    for i in 0..2 {
        for j in 0..3 {
            m[i][j] = a[i] * b[j] * a[0].sin();
        }
    }
    m
}

/// `Σ m_ij² + m₁₂ exp(m₀₀)` for `m = outer(a, b)`, bound without its type and indexed where it
/// is.
#[grad(jvp, hvp, hessian)]
pub fn outer_energy(a: [f64; 2], b: [f64; 3]) -> f64 {
    let m = outer(a, b);
    let mut s = 0.0;
    for row in m {
        for v in row {
            s += v * v;
        }
    }
    s + outer(a, b)[1][2] * m[0][0].exp()
}

/// A layer of `f32`: `tanh(W x)`.
#[grad(hvp)]
pub fn layer32(w: [[f32; 2]; 2], x: [f32; 2]) -> [f32; 2] {
    [(w[0][0] * x[0] + w[0][1] * x[1]).tanh(), (w[1][0] * x[0] + w[1][1] * x[1]).tanh()]
}

/// `h₀ h₁ + Σ hᵢ` for `h = layer32(w, x)` in `f32`, summed by an iterator.
#[grad(hvp)]
pub fn layer32_loss(w: [[f32; 2]; 2], x: [f32; 2]) -> f32 {
    let h = layer32(w, x);
    h[0] * h[1] + h.iter().sum::<f32>()
}

/// `Σ zᵢ · layer(w, b, x)ᵢ` over the first `min(N, 4)` outputs: a caller generic over a length.
#[grad(wrt(w, z), hvp)]
pub fn weighted_layer<const N: usize>(w: &[[f64; 4]; 4], b: &[f64; 4], z: [f64; N]) -> f64 {
    let h = layer(w, b, &[0.5, -0.25, 1.0, 0.75]);
    let mut s = 0.0;
    for i in 0..N {
        s += z[i] * h[i % 4];
    }
    s
}

/// `d₀ d₁ + rhs(s, k)₀` for `d = rhs(s, k)` bound without its type, then updated by element
/// (`d[0] += 1`).
#[grad(jvp, hvp)]
pub fn bumped(s: [f64; 2], k: f64) -> f64 {
    let mut d = rhs(s, k);
    d[0] += 1.0;
    d[1] *= d[0];
    d[0] * d[1] + rhs(s, k)[0]
}

/// `Σₜ hₜ₊₁·hₜ` for `h₀ = x`, `hₜ₊₁ = layer(w, b, hₜ)`: each step's value bound without its
/// type, read with the previous one, then assigned to it (a loop that stores both).
#[grad(wrt(w, b), hvp)]
pub fn recurrent_untyped(w: &[[f64; 4]; 4], b: &[f64; 4], x: &[f64; 4]) -> f64 {
    let mut h = [x[0], x[1], x[2], x[3]];
    let mut loss = 0.0;
    for _ in 0..6 {
        let next = layer(w, b, &h);
        for i in 0..4 {
            loss += next[i] * h[i];
        }
        h = next;
    }
    loss
}

/// [`recurrent_untyped`] with its step's type written.
#[grad(wrt(w, b), hvp)]
pub fn recurrent_typed(w: &[[f64; 4]; 4], b: &[f64; 4], x: &[f64; 4]) -> f64 {
    let mut h = [x[0], x[1], x[2], x[3]];
    let mut loss = 0.0;
    for _ in 0..6 {
        let next: [f64; 4] = layer(w, b, &h);
        for i in 0..4 {
            loss += next[i] * h[i];
        }
        h = next;
    }
    loss
}

/// [`recurrent_untyped`] with its loop checkpointed in 2 snapshots.
#[grad(wrt(w, b), hvp, checkpoint(s = 2))]
pub fn recurrent_untyped_checkpointed(w: &[[f64; 4]; 4], b: &[f64; 4], x: &[f64; 4]) -> f64 {
    let mut h = [x[0], x[1], x[2], x[3]];
    let mut loss = 0.0;
    for _ in 0..6 {
        let next = layer(w, b, &h);
        for i in 0..4 {
            loss += next[i] * h[i];
        }
        h = next;
    }
    loss
}

/// `Σₜ Σᵢ (hₜ₊₁)ᵢ² (hₜ)ᵢ` for `hₜ₊₁ = ½ layer(w, b, hₜ)`: each step's value, bound without its
/// type, is stored for the sweep (`[[f64; layer_shape[0]]; 3]`), with a budget that rustc
/// evaluates (the stack it needs reads `layer_shape`).
#[grad(wrt(w, b), hvp, stack = 100000)]
pub fn stored_steps_untyped(w: &[[f64; 4]; 4], b: &[f64; 4], x: &[f64; 4]) -> f64 {
    let mut loss = 0.0;
    let mut h = [x[0], x[1], x[2], x[3]];
    for _ in 0..3 {
        let next = layer(w, b, &h);
        for i in 0..4 {
            loss += next[i] * next[i] * h[i];
            h[i] = next[i] * 0.5;
        }
    }
    loss
}

/// [`stored_steps_untyped`] with its step's type written.
#[grad(wrt(w, b), hvp)]
pub fn stored_steps_typed(w: &[[f64; 4]; 4], b: &[f64; 4], x: &[f64; 4]) -> f64 {
    let mut loss = 0.0;
    let mut h = [x[0], x[1], x[2], x[3]];
    for _ in 0..3 {
        let next: [f64; 4] = layer(w, b, &h);
        for i in 0..4 {
            loss += next[i] * next[i] * h[i];
            h[i] = next[i] * 0.5;
        }
    }
    loss
}

/// [`stored_steps_untyped`] checkpointed in 2 snapshots.
#[grad(wrt(w, b), hvp, checkpoint(s = 2))]
pub fn stored_steps_checkpointed(w: &[[f64; 4]; 4], b: &[f64; 4], x: &[f64; 4]) -> f64 {
    let mut loss = 0.0;
    let mut h = [x[0], x[1], x[2], x[3]];
    for _ in 0..3 {
        let next = layer(w, b, &h);
        for i in 0..4 {
            loss += next[i] * next[i] * h[i];
            h[i] = next[i] * 0.5;
        }
    }
    loss
}

/// Five Euler steps from `rhs(s0, k)`, the state bound without its type and assigned an array
/// literal each step (its type is the literal's, `[f64; 2]`).
#[grad(jvp, hvp)]
pub fn euler_steps_untyped(s0: [f64; 2], k: f64) -> f64 {
    let mut s = rhs(s0, k);
    for _ in 0..5 {
        let d = rhs(s, k);
        s = [s[0] + 0.1 * d[0], s[1] + 0.1 * d[1]];
    }
    s[0] * s[1]
}

/// [`euler_steps_untyped`] with the types written.
#[grad(jvp, hvp)]
pub fn euler_steps_typed(s0: [f64; 2], k: f64) -> f64 {
    let mut s: [f64; 2] = rhs(s0, k);
    for _ in 0..5 {
        let d: [f64; 2] = rhs(s, k);
        s = [s[0] + 0.1 * d[0], s[1] + 0.1 * d[1]];
    }
    s[0] * s[1]
}

/// `layer`'s value bound without its type and read by iterators (`map`, `enumerate`, `zip`),
/// and in a loop to `h.len()`.
#[grad(wrt(w, b), hvp)]
pub fn layer_idioms_untyped(w: &[[f64; 4]; 4], b: &[f64; 4], x: &[f64; 4]) -> f64 {
    let h = layer(w, b, x);
    let s: f64 = h.iter().map(|v| v * v).sum();
    let mut t = 0.0;
    for i in 0..h.len() {
        t += h[i] * x[i];
    }
    let mut u = 0.0;
    for (i, v) in h.iter().enumerate() {
        u += v * (i as f64);
    }
    let z: f64 = h.iter().zip(x.iter()).map(|(a, c)| a * c).sum();
    s + t * u + z
}

/// [`layer_idioms_untyped`] with the type written.
#[grad(wrt(w, b), hvp)]
pub fn layer_idioms_typed(w: &[[f64; 4]; 4], b: &[f64; 4], x: &[f64; 4]) -> f64 {
    let h: [f64; 4] = layer(w, b, x);
    let s: f64 = h.iter().map(|v| v * v).sum();
    let mut t = 0.0;
    for i in 0..h.len() {
        t += h[i] * x[i];
    }
    let mut u = 0.0;
    for (i, v) in h.iter().enumerate() {
        u += v * (i as f64);
    }
    let z: f64 = h.iter().zip(x.iter()).map(|(a, c)| a * c).sum();
    s + t * u + z
}

/// `x³`.
#[grad(hvp)]
pub fn cube(x: f64) -> f64 {
    x * x * x
}

/// `4x³`: a scalar call's value lent to a closure taking `&f64` is one `f64` (lent to a
/// closure or a method of another type, it does not say the value is an array).
#[grad(hvp)]
pub fn lent_to_a_closure(x: f64) -> f64 {
    let h = cube(x);
    let triple = |v: &f64| v * 3.0;
    triple(&h) + h
}
