//! Bug 53 (fuzz seed 9219): a differentiated `&[f64; N]` parameter passed to a call as `*y`
//! (the callee takes the array by value) was passed as the reference `y`, and the expansion did
//! not compile (E0308). `*y` now passes the array, `y` still passes the reference. Checked
//! against the closed forms of the gradient and of the Hessian.

#![deny(warnings, clippy::all)]
#![forbid(unsafe_code)]

use autodiff_runtime::grad;

#[grad(jvp, hvp)]
pub fn g(a: f64, b: [f64; 2]) -> f64 {
    a * b[0].sin() + b[1] * b[1]
}

#[grad(jvp, hvp)]
pub fn r(z: &[f64; 2]) -> f64 {
    z[0] * z[1]
}

/// `x (1.25 sin y₀ + y₁²) + y₀ y₁`: `y` dereferenced into `g`, and passed as it is to `r`.
#[grad(jvp, hvp, hessian)]
pub fn s(x: f64, y: &[f64; 2]) -> f64 {
    x * g(1.25, *y) + r(y)
}

/// The same value as the second element of a vector function.
#[grad(jvp)]
pub fn v(x: f64, y: &[f64; 2]) -> [f64; 2] {
    [x, g(1.25, *y) + r(y)]
}

fn main() {
    let (x, y): (f64, [f64; 2]) = (0.7, [0.4, -1.3]);
    let (c, sn) = (y[0].cos(), y[0].sin());
    let value = x * (1.25 * sn + y[1] * y[1]) + y[0] * y[1];
    let grad = [1.25 * sn + y[1] * y[1], 1.25 * x * c + y[1], 2.0 * x * y[1] + y[0]];
    let hess = [
        [0.0, 1.25 * c, 2.0 * y[1]],
        [1.25 * c, -1.25 * x * sn, 1.0],
        [2.0 * y[1], 1.0, 2.0 * x],
    ];
    let close = |a: f64, b: f64| assert!((a - b).abs() <= 1e-12 * (1.0 + b.abs()), "{a} != {b}");
    let (f, (gx, gy)) = s_grad(x, &y);
    close(f, value);
    for (a, b) in [gx, gy[0], gy[1]].iter().zip(&grad) {
        close(*a, *b);
    }
    let d = [0.3, -0.2, 0.5];
    let (_, fd) = s_jvp(x, &y, d[0], &[d[1], d[2]]);
    close(fd, (0..3).map(|k| grad[k] * d[k]).sum());
    let (_, _, (hx, hy)) = s_hvp(x, &y, d[0], &[d[1], d[2]]);
    let hv: Vec<f64> = (0..3).map(|i| (0..3).map(|j| hess[i][j] * d[j]).sum()).collect();
    for (a, b) in [hx, hy[0], hy[1]].iter().zip(&hv) {
        close(*a, *b);
    }
    let (y_out, (bx, by)) = v_vjp(x, &y, [0.0, 1.0]);
    close(y_out[1], 1.25 * sn + y[1] * y[1] + y[0] * y[1]);
    close(bx, 0.0);
    close(by[0], 1.25 * c + y[1]);
    close(by[1], 2.0 * y[1] + y[0]);
}
