// Macro bug 45 (fuzzer seed 201246, its loop-exit twin): a call inside a loop of unknown length
// (a `for` with `break`, `while`, `loop`) was not seen when the generated code named apart the
// user's names that shadow a called derivative function, so a loop index `g_jvp` and
// parameters `g_grad: usize` and `g_hvp: [f64; 2]` shadowed `g_jvp`, `g_grad` and `g_hvp` in
// the derivatives (E0618, "expected function, found `usize`"). The calls in such loops are
// now seen as those in `for` loops are.
use autodiff_runtime::grad;

#[grad(jvp, hvp)]
fn g(x: f64) -> f64 {
    x.sin() * x
}

#[grad(jvp, hvp)]
#[allow(clippy::needless_range_loop)]
fn f(g_grad: usize, g_hvp: [f64; 2], a: f64) -> f64 {
    let mut s = a;
    for g_jvp in 0..g_grad + 2 {
        if g_jvp >= g_grad {
            break;
        }
        s += g(g_hvp[g_jvp % 2] * s);
    }
    s
}

// The same function with plain names and a `for` loop over its range.
#[grad(jvp, hvp)]
#[allow(clippy::needless_range_loop)]
fn plain(n: usize, x: [f64; 2], a: f64) -> f64 {
    let mut s = a;
    for i in 0..n {
        s += g(x[i % 2] * s);
    }
    s
}

fn main() {
    let (n, x, a, dx, da) = (3, [0.4, -0.9], 0.7, [1.0, 0.5], -0.3);
    assert_eq!(f(n, x, a), plain(n, x, a));
    assert_eq!(f_grad(n, x, a), plain_grad(n, x, a));
    assert_eq!(f_jvp(n, x, a, dx, da), plain_jvp(n, x, a, dx, da));
    assert_eq!(f_hvp(n, x, a, dx, da), plain_hvp(n, x, a, dx, da));
    // One step: f = a + g(x₀ a), ∂f/∂a = 1 + x₀ g'(x₀ a), g'(t) = sin t + t cos t.
    let dg = |t: f64| t.sin() + t * t.cos();
    let (_, (_, ga)) = f_grad(1, x, a);
    assert!((ga - (1.0 + x[0] * dg(x[0] * a))).abs() < 1e-12);
}
