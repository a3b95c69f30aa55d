// Macro bug 12: an `f64` parameter left out of `wrt(...)` passed to a called function was given a
// partial, as a local is: the caller wanted `(f64, (f64, f64))` from `g_grad(x, c)`, which by
// the calling convention returns one partial (for `x`), a type error at the call. It is a
// constant like any constant parameter, with no partial and no direction.
// Macro bug 13: a constant parameter read only by a call's constant argument (`c[1]` here) was
// renamed `_c` in the derivative functions, which then did not compile.
use autodiff_runtime::grad;

fn scaled_tanh(x: f64, c: f64) -> f64 {
    (c * x).tanh()
}

fn scaled_tanh_grad(x: f64, c: f64) -> (f64, f64) {
    let t = (c * x).tanh();
    (t, c * (1.0 - t * t))
}

fn scaled_tanh_jvp(x: f64, c: f64, dx: f64) -> (f64, f64) {
    let (t, d) = scaled_tanh_grad(x, c);
    (t, d * dx)
}

fn scaled_tanh_hvp(x: f64, c: f64, dx: f64) -> (f64, f64, f64) {
    let (t, d) = scaled_tanh_grad(x, c);
    (t, d, -2.0 * c * t * d * dx)
}

// Bug 12: `c` directly, and in an expression; a call of constants only is a constant.
#[grad(wrt(a), jvp, hvp)]
fn constant_scalar(c: f64, a: f64) -> f64 {
    scaled_tanh(a + c, c) * scaled_tanh(0.5 * c, 2.0 * c)
}

// Bug 13: `c` is read by the call's second argument only.
#[grad(wrt(a), jvp, hvp)]
fn constant_array(c: &[f64; 2], a: f64) -> f64 {
    scaled_tanh(a, c[1])
}

fn main() {
    let (c, a) = (0.7, 0.3);
    let k = scaled_tanh(0.5 * c, 2.0 * c);
    let d = scaled_tanh_grad(a + c, c).1 * k;
    assert_eq!(constant_scalar_grad(c, a), (constant_scalar(c, a), d));
    assert_eq!(constant_scalar_jvp(c, a, 1.0).1, d);
    assert_eq!(constant_scalar_hvp(c, a, 1.0).1, d);
    let d = scaled_tanh_grad(a, 0.5).1;
    assert_eq!(constant_array_grad(&[0.0, 0.5], a), (scaled_tanh(a, 0.5), d));
    assert_eq!(constant_array_jvp(&[0.0, 0.5], a, 1.0).1, d);
}
