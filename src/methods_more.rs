//! `powi` with an exponent that is an integer constant but not a literal, `clamp`, and
//! `let (s, c) = x.sin_cos();`, alone and inside loops and branches. `tests/methods_more.rs`
//! checks every mode against closed forms and finite differences.

use autodiff_runtime::grad;

/// An exponent given as a `const` item.
pub const K: i32 = 3;

/// The number of terms of the series below.
pub const TERMS: usize = 6;

/// `x.powi(n)` for an `i32` parameter `n`, which is not differentiated.
#[grad(jvp, hvp, hessian)]
pub fn powi_n(x: f64, n: i32) -> f64 {
    x.powi(n)
}

/// A polynomial in `x` and `y` whose powers follow the parameter `n`:
/// `y xⁿ + x^(n+2) / 2 − yⁿ`.
#[grad(jvp, hvp, hessian)]
pub fn poly_n(x: f64, y: f64, n: i32) -> f64 {
    y * x.powi(n) + 0.5 * x.powi(n + 2) - y.powi(n)
}

/// `x^K · x^(K−1)` with the `const` `K = 3`, that is `x⁵`.
#[grad(jvp, hvp, hessian)]
pub fn powi_const(x: f64) -> f64 {
    x.powi(K) * x.powi(K - 1)
}

/// `x.powi(m as i32)` for a `usize` parameter `m`.
#[grad(jvp, hvp, hessian)]
pub fn powi_usize(x: f64, m: usize) -> f64 {
    x.powi(m as i32)
}

/// The geometric series `Σᵢ₌₀⁵ xⁱ`, its powers `x.powi(i as i32)` of the loop variable.
#[grad(jvp, hvp, hessian)]
pub fn geometric(x: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..TERMS {
        s += x.powi(i as i32);
    }
    s
}

/// `Σᵢ₌₀⁵ x^(i+1) y^(−i) / (i + 1)`: exponents of the loop variable plus one and negated.
#[grad(jvp, hvp, hessian)]
pub fn laurent(x: f64, y: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..TERMS {
        let k = i as i32;
        s += x.powi(k + 1) * y.powi(-k) / (i as f64 + 1.0);
    }
    s
}

/// `xⁿ` for `x > 0`, `−|x|^(n+1)` otherwise: `powi` in the arms of a branch.
#[grad(jvp, hvp, hessian)]
pub fn powi_branch(x: f64, n: i32) -> f64 {
    if x > 0.0 { x.powi(n) } else { -(-x).powi(n + 1) }
}

/// `x.clamp(lo, hi)`, all three differentiated.
#[grad(jvp, hvp, hessian)]
pub fn clamp3(x: f64, lo: f64, hi: f64) -> f64 {
    x.clamp(lo, hi)
}

/// `f64::clamp(x², −1, 4) · x`: literal bounds, the UFCS spelling, and a smooth factor so that
/// the Hessian is not zero.
#[grad(jvp, hvp, hessian)]
pub fn clamp_square(x: f64) -> f64 {
    f64::clamp(x * x, -1.0, 4.0) * x
}

/// `Σᵢ₌₀² clamp(xᵢ, −1, xᵢ₊₁)²`: a clamp in a loop, its upper bound differentiated.
#[grad(jvp, hvp, hessian)]
pub fn clamp_chain(x: [f64; 4]) -> f64 {
    let mut s = 0.0;
    for i in 0..3 {
        let c = x[i].clamp(-1.0, x[i + 1]);
        s += c * c;
    }
    s
}

/// `(x cos t − y sin t)²` with `let (s, c) = t.sin_cos();`.
#[grad(jvp, hvp, hessian)]
pub fn rotated_square(x: f64, y: f64, t: f64) -> f64 {
    let (s, c) = t.sin_cos();
    let u = x * c - y * s;
    u * u
}

/// `sin t · cos t` through `f64::sin_cos`, with a type annotation on the pattern.
#[grad(jvp, hvp, hessian)]
pub fn sin_cos_product(t: f64) -> f64 {
    let (s, c): (f64, f64) = f64::sin_cos(t);
    s * c
}

/// `Σₖ₌₁⁶ cos(k t) · xᵏ`: `sin_cos` in a loop, one of its values unused (`_`).
#[grad(jvp, hvp, hessian)]
pub fn cosine_series(t: f64, x: f64) -> f64 {
    let mut s = 0.0;
    for k in 1..=TERMS {
        let (_, c) = (k as f64 * t).sin_cos();
        s += c * x.powi(k as i32);
    }
    s
}

/// `Πᵢ₌₀⁵ (1 + x^(i+1) / (i + 1))`: a product carried through the loop, its sweep storing each
/// iteration's factor.
#[grad(hvp)]
pub fn power_product(x: f64) -> f64 {
    let mut p = 1.0;
    for i in 0..TERMS {
        p *= 1.0 + x.powi(i as i32 + 1) / (i as f64 + 1.0);
    }
    p
}

/// [`power_product`] with its sweep checkpointed: the powers are recomputed from the loop index
/// inside the checkpointed sweep.
#[grad(hvp, checkpoint(s = 2))]
pub fn power_product_checkpointed(x: f64) -> f64 {
    let mut p = 1.0;
    for i in 0..TERMS {
        p *= 1.0 + x.powi(i as i32 + 1) / (i as f64 + 1.0);
    }
    p
}
