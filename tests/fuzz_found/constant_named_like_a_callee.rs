// Macro bug 44: a parameter passed through as a constant (an integer, data) named like a
// function the generated code calls by its bare name (`g_grad: usize` with a call of `g`)
// shadowed that function in the derivatives: `f_grad` called the user's `usize` (E0618,
// "expected function, found `usize`"). Bug 27 named apart the `f64` and array parameters
// only; such parameters are now named apart too, and the user's tokens that read them (loop
// bounds, indices, casts) read the new names.
use autodiff_runtime::grad;

#[grad(jvp, hvp)]
fn g(x: f64) -> f64 {
    x.sin() * x
}

// An integer `g_grad` (a loop bound and a cast), an integer `g_jvp` (an index), data `g_hvp`.
#[grad(jvp, hvp, hessian)]
#[allow(clippy::needless_range_loop)]
fn f(g_grad: usize, g_jvp: usize, g_hvp: &[f64], a: f64, x: [f64; 2]) -> f64 {
    let mut s = g(a) * (g_grad as f64);
    for i in 0..g_grad {
        s += g(x[(i + g_jvp) % 2]) * g_hvp[0];
    }
    s
}

// The same function with plain names.
#[grad(jvp, hvp, hessian)]
#[allow(clippy::needless_range_loop)]
fn plain(n: usize, k: usize, data: &[f64], a: f64, x: [f64; 2]) -> f64 {
    let mut s = g(a) * (n as f64);
    for i in 0..n {
        s += g(x[(i + k) % 2]) * data[0];
    }
    s
}

fn main() {
    let (n, k, data, a, x, da, dx) = (3, 1, [0.5], 0.7, [0.3, -1.1], 0.5, [1.0, -2.0]);
    assert_eq!(f(n, k, &data, a, x), plain(n, k, &data, a, x));
    assert_eq!(f_grad(n, k, &data, a, x), plain_grad(n, k, &data, a, x));
    assert_eq!(f_jvp(n, k, &data, a, x, da, dx), plain_jvp(n, k, &data, a, x, da, dx));
    assert_eq!(f_hvp(n, k, &data, a, x, da, dx), plain_hvp(n, k, &data, a, x, da, dx));
    assert_eq!(f_hessian(n, k, &data, a, x), plain_hessian(n, k, &data, a, x));
    // ∂f/∂a = n g'(a), ∂f/∂x₀ = 0.5 g'(x₀) (i = 1 reads x₀), ∂f/∂x₁ = 2 · 0.5 g'(x₁) (i = 0 and
    // i = 2), against the closed form, g'(t) = sin t + t cos t.
    let dg = |t: f64| t.sin() + t * t.cos();
    let (_, (ga, gx)) = f_grad(n, k, &data, a, x);
    assert!((ga - 3.0 * dg(a)).abs() < 1e-12);
    assert!((gx[0] - 0.5 * dg(x[0])).abs() < 1e-12 && (gx[1] - dg(x[1])).abs() < 1e-12);
}
