// Macro bug 12: an `f64` parameter left out of `wrt(...)` passed to a called function was given a
// partial, as a local is, and a tangent it does not have. It is a constant like any constant
// parameter: under the per-callee contract (issue 20, bug 7) `g_grad(x, c)` returns both
// partials, and the caller drops the constant's and passes zero for its direction.
// Macro bug 13: a constant parameter read only by a call's constant argument (`c[1]` here) was
// renamed `_c` in the derivative functions, which then did not compile.
use autodiff_runtime::grad;

fn scaled_tanh(x: f64, c: f64) -> f64 {
    (c * x).tanh()
}

fn scaled_tanh_grad(x: f64, c: f64) -> (f64, (f64, f64)) {
    let t = (c * x).tanh();
    let s = 1.0 - t * t;
    (t, (c * s, x * s))
}

fn scaled_tanh_jvp(x: f64, c: f64, dx: f64, dc: f64) -> (f64, f64) {
    let (t, (gx, gc)) = scaled_tanh_grad(x, c);
    (t, gx * dx + gc * dc)
}

fn scaled_tanh_hvp(x: f64, c: f64, dx: f64, dc: f64) -> (f64, (f64, f64), (f64, f64)) {
    let (t, g) = scaled_tanh_grad(x, c);
    let s = 1.0 - t * t;
    let k = -2.0 * t * s;
    let (hxx, hxc, hcc) = (k * c * c, s + k * c * x, k * x * x);
    (t, g, (hxx * dx + hxc * dc, hxc * dx + hcc * dc))
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
    let d = scaled_tanh_grad(a + c, c).1.0 * k;
    assert_eq!(constant_scalar_grad(c, a), (constant_scalar(c, a), d));
    assert_eq!(constant_scalar_jvp(c, a, 1.0).1, d);
    assert_eq!(constant_scalar_hvp(c, a, 1.0).1, d);
    let d = scaled_tanh_grad(a, 0.5).1.0;
    assert_eq!(constant_array_grad(&[0.0, 0.5], a), (scaled_tanh(a, 0.5), d));
    assert_eq!(constant_array_jvp(&[0.0, 0.5], a, 1.0).1, d);
}
