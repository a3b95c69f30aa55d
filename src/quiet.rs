//! Functions used only through their derivatives, in a private module: `#[grad]` must not make
//! rustc's `dead_code` lint fire on them (this crate denies warnings), while a function of the
//! module that nothing uses still would.

use autodiff_runtime::grad;

/// `x² + 1`, used only through `loss_grad`.
#[grad]
fn loss(x: f64) -> f64 {
    x * x + 1.0
}

/// `x³`, used only through `cube_hvp`: `cube_grad`, generated with it, is unused too.
#[grad(hvp)]
pub fn cube(x: f64) -> f64 {
    x * x * x
}

/// `(r cos t, r sin t)`, used only through `polar_jacobian` (and not `polar_jacobian_mode`).
#[grad(jacobian)]
fn polar(r: f64, t: f64) -> [f64; 2] {
    [r * t.cos(), r * t.sin()]
}

/// `sin x`, used only through `wave_jvp`, with the user's own `#[expect(dead_code)]`, which must
/// stay fulfilled.
#[grad(jvp)]
#[expect(dead_code)]
fn wave(x: f64) -> f64 {
    x.sin()
}

/// What the derivatives give at fixed points, so that each is used once.
pub fn used() -> [f64; 4] {
    let (_, d) = loss_grad(2.0);
    let (_, _, h) = cube_hvp(1.0, 1.0);
    let (_, j) = polar_jacobian(1.0, 0.0);
    let (_, s) = wave_jvp(0.0, 1.0);
    [d, h, j[1][1], s]
}
