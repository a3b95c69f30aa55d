//! Values computed before a branch and read only inside it: where the side that reads them is
//! not taken their partial derivatives may be NaN (a square root or a logarithm of a negative
//! number), and must not reach the derivatives of the side that is. Checked in
//! `tests/branch_sides.rs`, against closed forms.

use autodiff_runtime::grad;

/// `√(1 − x²)` on `(−1, 1)`, 0 outside; the root, NaN outside, is computed before the `if`.
#[grad(jvp, hvp, hessian)]
pub fn disk_root(x: f64) -> f64 {
    let r = (1.0 - x * x).sqrt();
    if x.abs() < 1.0 { r } else { 0.0 }
}

/// `x √(x − 10)` above 5 (NaN between 5 and 10), `x²` below; the root is computed before the
/// `if`.
#[grad(jvp, hvp, hessian)]
pub fn shifted_root(x: f64) -> f64 {
    let u = (x - 10.0).sqrt();
    if x > 5.0 { u * x } else { x * x }
}

/// A chain of two statements that feeds one side: `ln(1 − x²)²` on `(−1, 1)`, `x` outside.
#[grad(jvp, hvp, hessian)]
pub fn log_chain(x: f64) -> f64 {
    let a = (1.0 - x * x).ln();
    let b = a * a;
    if x.abs() < 1.0 { b } else { x }
}

/// Loads of array elements that feed one side, whose value is read after the `if`: the square
/// of `y₀ √y₁` where `y₀ > 0`, of `y₀` elsewhere.
#[grad(jvp, hvp, hessian)]
pub fn element_root(y: [f64; 2]) -> f64 {
    let r = y[1].sqrt();
    let w = r * y[0];
    let z = if y[0] > 0.0 { w } else { y[0] };
    z * z
}

/// Arrays built before the `if` (a literal, a fill, an array updated by a store) and read only by
/// one side: `√x ln x + (x − 1) + ln(x − 1)` above 1, `−x` below.
#[grad(jvp, hvp, hessian)]
pub fn built_arrays(x: f64) -> f64 {
    let v = [x.sqrt(), x.ln()];
    let w = [(x - 1.0).sqrt(); 2];
    let mut z = [1.0; 2];
    z[0] = (x - 1.0).ln();
    if x > 1.0 { v[0] * v[1] + w[0] * w[1] + z[0] * z[1] } else { -x }
}

/// A copy of the parameter updated by a store, read only by one side while the parameter is read
/// after the `if`: `√x₀ x₁ + x₀ + x₁` where `x₁ > 0`, `2x₀ + x₁` elsewhere.
#[grad(jvp, hvp, hessian)]
pub fn updated_copy(x: [f64; 2]) -> f64 {
    let mut y = x;
    y[0] = x[0].sqrt();
    let s = if x[1] > 0.0 { y[0] * y[1] } else { x[0] };
    s + x[0] + x[1]
}

/// An `else if` chain whose middle arm alone reads the root: `−x` below −1, `√(1 − x²)` on
/// `[−1, 1)`, `x` from 1.
#[grad(jvp, hvp, hessian)]
pub fn middle_arm(x: f64) -> f64 {
    let r = (1.0 - x * x).sqrt();
    if x < -1.0 {
        -x
    } else if x < 1.0 {
        r
    } else {
        x
    }
}

/// An `else if` chain whose first two arms read the root and the third does not: `x v` above
/// 20, `v` on `(10, 20]`, `x²` up to 10, with `v = √(x − 10) + 1`.
#[grad(jvp, hvp, hessian)]
pub fn two_arms(x: f64) -> f64 {
    let u = (x - 10.0).sqrt();
    let v = u + 1.0;
    if x > 20.0 {
        v * x
    } else if x > 10.0 {
        v
    } else {
        x * x
    }
}

/// Inside a loop body: the sum of `√(1 − xᵢ²)` over the elements in `(−1, 1)`.
#[grad(jvp, hvp, hessian)]
#[allow(clippy::needless_range_loop)] // the index is the subject
pub fn roots_inside(x: [f64; 3]) -> f64 {
    let mut s = 0.0;
    for i in 0..3 {
        let r = (1.0 - x[i] * x[i]).sqrt();
        if x[i].abs() < 1.0 {
            s += r;
        }
    }
    s
}

/// A loop whose branch reads a root of the carried value (NaN while it is below 4) on one side
/// only: `p ← √(p − 4) xᵢ + p` where `p > 4`, `p ← p xᵢ` elsewhere, from `p = 1`
/// (`guarded_steps!(name, options of #[grad])`: stored and checkpointed sweeps).
macro_rules! guarded_steps {
    ($name:ident, $($option:tt)*) => {
        #[doc = concat!("The product of `x`, with a root of it added once above 4 (`", stringify!($($option)*), "`).")]
        #[grad($($option)*)]
        pub fn $name(x: [f64; 4]) -> f64 {
            let mut p: f64 = 1.0;
            for i in 0..4 {
                let u = (p - 4.0).sqrt();
                p = if p > 4.0 { u * x[i] + p } else { p * x[i] };
            }
            p
        }
    };
}

guarded_steps!(guarded_steps, jvp, hvp, hessian);
guarded_steps!(guarded_steps_checkpointed, jvp, hvp, hessian, checkpoint(s = 2));
