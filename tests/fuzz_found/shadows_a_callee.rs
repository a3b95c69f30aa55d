// Macro bug 27: a variable of the user's named like a function that the generated code calls
// by its bare name (`g_grad`, `g_jvp`, `g_hvp` for a call of `g`) shadowed that function in the
// derivatives: `f_grad` called the user's `f64` `g_grad` ("expected function, found `f64`").
// Parameters (`f64` and arrays), `let`s and loop indices of such names are now named apart in
// the generated code (and integer and data parameters too: bug 44,
// `constant_named_like_a_callee.rs`).
use autodiff_runtime::grad;

#[grad(jvp, hvp)]
fn g(x: f64) -> f64 {
    x.sin() * x
}

// A parameter `g_grad`, a `let` `g_hvp`, a loop index `g_jvp`.
#[grad(jvp, hvp, hessian)]
#[allow(clippy::needless_range_loop)]
fn f(g_grad: f64, g_vjp: [f64; 2]) -> f64 {
    let g_hvp = g(g_grad) * 2.0;
    let mut s = g_hvp;
    for g_jvp in 0..2 {
        s += g(g_vjp[g_jvp]) * g_hvp;
    }
    s
}

// The same function with plain names.
#[grad(jvp, hvp, hessian)]
#[allow(clippy::needless_range_loop)]
fn plain(a: f64, x: [f64; 2]) -> f64 {
    let b = g(a) * 2.0;
    let mut s = b;
    for i in 0..2 {
        s += g(x[i]) * b;
    }
    s
}

fn main() {
    let (a, x, da, dx) = (0.7, [0.3, -1.1], 0.5, [1.0, -2.0]);
    assert_eq!(f(a, x), plain(a, x));
    assert_eq!(f_grad(a, x), plain_grad(a, x));
    assert_eq!(f_jvp(a, x, da, dx), plain_jvp(a, x, da, dx));
    assert_eq!(f_hvp(a, x, da, dx), plain_hvp(a, x, da, dx));
    assert_eq!(f_hessian(a, x), plain_hessian(a, x));
    // ∂f/∂a = 2 g'(a) (1 + g(x₀) + g(x₁)), g'(t) = sin t + t cos t: against the closed form.
    let dg = |t: f64| t.sin() + t * t.cos();
    let want = 2.0 * dg(a) * (1.0 + g(x[0]) + g(x[1]));
    assert!((f_grad(a, x).1.0 - want).abs() < 1e-12);
}
