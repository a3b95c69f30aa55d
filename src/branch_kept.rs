//! Values that a side of a branch computes with a square root or a libm call, and that its
//! sweep reads again: the forward branch carries them out and the sweep reads them rather than
//! computing them again (`transform/reverse/replay.rs`). Checked in `tests/branch_kept.rs`
//! against closed forms and central finite differences, in every mode.
// Index loops are the macro's subset (the loops read `w[i]` as the generated code does).
#![allow(clippy::needless_range_loop)]

use autodiff_runtime::grad;

/// `x cos|a| − y sin|a|` for `a ≠ 0` (a rotation of `(x, y)` by the angle `|a|`, read through
/// `a²` and its root, as ADBench's Rodrigues rotation does), `x − y a` at `a = 0`.
#[grad(jvp, hvp, hessian)]
pub fn rotated_x(x: f64, y: f64, a: f64) -> f64 {
    let sq = a * a;
    if sq != 0.0 {
        let t = sq.sqrt();
        let c = t.cos();
        let s = t.sin();
        x * c - y * s
    } else {
        x - y * a
    }
}

/// `eˣ √y` for `x, y > 0`, `eˣ y` for `x > 0 ≥ y`, `x y` for `x ≤ 0`: a branch inside a
/// branch, each computing what its sweep reads (`eˣ`, `√y`).
#[grad(jvp, hvp, hessian)]
pub fn nested_roots(x: f64, y: f64) -> f64 {
    if x > 0.0 {
        let e = x.exp();
        if y > 0.0 {
            let r = y.sqrt();
            e * r
        } else {
            e * y
        }
    } else {
        x * y
    }
}

/// `sin √a + √a` above 1, `a + √a` below: the root computed inside the branch is computed
/// again after it, where the side that computed it may not have run (the kept root must not
/// stand in for it).
#[grad(jvp, hvp, hessian)]
pub fn root_twice(a: f64) -> f64 {
    let mut y = a;
    if a > 1.0 {
        let r = a.sqrt();
        y = r.sin();
    }
    y + a.sqrt()
}

/// The point at radius `√r` and angle `a`, `(√r cos a, √r sin a)`, for `r > 0`; `(r, r a)`
/// otherwise. A vector function: its VJP, one-pass Jacobian, JVP and H·v.
#[grad(jacobian, hvp)]
pub fn root_polar(r: f64, a: f64) -> (f64, f64) {
    let mut x = r;
    let mut y = r * a;
    if r > 0.0 {
        let s = r.sqrt();
        x = s * a.cos();
        y = s * a.sin();
    }
    (x, y)
}

/// `x y + x` at the point `(x, y)` of [`root_polar`]: its sweep calls `root_polar_rev` with the
/// residuals `root_polar_fwd` returned, the kept values among them.
#[grad(jvp, hvp, hessian)]
pub fn through_root_polar(r: f64, a: f64) -> f64 {
    let (x, y) = root_polar(r, a);
    x * y + x
}

/// Four steps of `x ← √x (sin wᵢ + 1)` while `x > 0`, `x ← eˣ + wᵢ` otherwise: the branch reads
/// the carried value, so the loop's sweep recomputes it from the value saved each iteration.
#[grad(jvp, hvp)]
pub fn root_steps(x0: f64, w: [f64; 4]) -> f64 {
    let mut x = x0;
    for i in 0..4 {
        if x > 0.0 {
            let r = x.sqrt();
            x = r * (w[i].sin() + 1.0);
        } else {
            x = x.exp() + w[i];
        }
    }
    x
}

/// [`root_steps`], its loop checkpointed: the sweep recomputes the states from snapshots.
#[grad(checkpoint(s = 2), jvp, hvp)]
pub fn root_steps_checkpointed(x0: f64, w: [f64; 4]) -> f64 {
    let mut x = x0;
    for i in 0..4 {
        if x > 0.0 {
            let r = x.sqrt();
            x = r * (w[i].sin() + 1.0);
        } else {
            x = x.exp() + w[i];
        }
    }
    x
}
