//! Functions that mix `f32` and `f64` with `as` casts: a piece of an `f32` function computed in
//! `f64`, a piece of an `f64` function computed in `f32`, in straight-line code, in branches, in
//! loops whose values of the other type are stored for the sweep, in a checkpointed loop, and a
//! vector function. `tests/casts.rs` checks them in every mode against closed forms and central
//! finite differences.

use autodiff_runtime::grad;

/// An `f32` function with a piece in `f64`: `sin(x) · y`, the sine computed in `f64`.
#[grad(jvp, hvp, hessian)]
pub fn sin_in_f64(x: f32, y: f32) -> f32 {
    let s = (x as f64).sin() as f32;
    s * y
}

/// An `f64` function with a piece in `f32`: `2 x · y`, the product `2 x` computed in `f32`.
#[grad(jvp, hvp, hessian)]
pub fn double_in_f32(x: f64, y: f64) -> f64 {
    let z = (x as f32) * 2.0_f32;
    z as f64 * y
}

/// An `f32` function whose `f64` piece reads literals that `f32` cannot hold (`0.1`), and
/// compares in `f64`: `0.1 x² + exp(x)` where `x > 0.3`, else `1.7 x`.
#[grad(jvp, hvp, hessian)]
pub fn literals_in_f64(x: f32) -> f32 {
    let w = x as f64;
    let v = if w > 0.3 { w * w * 0.1 + f64::exp(w) } else { w * 1.7 };
    v as f32
}

/// An `f64` function with a branch on an `f32` value: `x³` computed in `f32` where
/// `x > 1`, else `x` (in `f64`).
#[grad(jvp, hvp, hessian)]
pub fn branch_in_f32(x: f64) -> f64 {
    let w = x as f32;
    if w > 1.0 { w.powi(3) as f64 } else { x }
}

/// An `f32` loop that carries an `f64` state and stores it for its sweep:
/// `s ← sin(xᵢ s) + xᵢ₊₁ s` from `s = 1`, in `f64`.
#[grad(jvp, hvp, hessian)]
pub fn loop_in_f64(x: [f32; 4]) -> f32 {
    let mut s = 1.0_f64;
    for i in 0..4 {
        s = (x[i] as f64 * s).sin() + s * x[(i + 1) % 4] as f64;
    }
    s as f32
}

/// An `f64` loop whose body computes in `f32`: `p ← p · cos(xᵢ xᵢ₊₁)` from `p = a`, the cosine
/// in `f32`.
#[grad(jvp, hvp, hessian)]
pub fn loop_in_f32(x: [f64; 3], a: f64) -> f64 {
    let mut p = a;
    for i in 0..3 {
        let c = (x[i] as f32 * x[(i + 1) % 3] as f32).cos() as f64;
        p *= c;
    }
    p
}

/// An `f64` oscillator whose state is carried in `f32` through a checkpointed loop of 1 000
/// steps (4 snapshots of `f32` values): `x'' = -x - c x'`, explicit Euler, `x(T)² + v(T)`.
#[grad(hvp, checkpoint(s = 4))]
pub fn oscillator_in_f32(x0: f64, v0: f64, c: f64) -> f64 {
    let mut x = x0 as f32;
    let mut v = v0 as f32;
    let c = c as f32;
    for _ in 0..1000 {
        let a = -x - c * v;
        v += 0.001 * a;
        x += 0.001 * v;
    }
    (x * x + v) as f64
}

/// A vector `f32` function with its pieces in `f64`: `(x y, sin(x) + y²)`.
#[grad(jvp, hvp, jacobian)]
pub fn vector_in_f64(x: f32, y: f32) -> [f32; 2] {
    let (a, b) = (x as f64, y as f64);
    [(a * b) as f32, (a.sin() + b * b) as f32]
}

/// Newton's iteration for `√a`, in `f64` in an `f32` function, run while its step is larger
/// than `1e-12` (a loop whose length is decided while it runs, its `f64` values on a tape).
#[grad(jvp, hvp)]
pub fn sqrt_in_f64(a: f32) -> f32 {
    let a = a as f64;
    let mut r = a;
    let mut step = 1.0_f64;
    while step.abs() > 1e-12 {
        let next = 0.5 * (r + a / r);
        step = next - r;
        r = next;
    }
    r as f32
}
