// Macro bug 37: a slice's gradient set to a constant (`x[0]` in the value: `x_bar[0] = 1.0`)
// and then added into under one side of a branch (`x[1]`, read only there): in `f_hvp`, the
// tangents of the constant store and of the branch each started from zeros of their own, none
// of them H·v's buffer, so the expansion stopped at an internal error ("a buffer that does not
// start zeroed"). A buffer's tangent now follows it through every store, branch and loop.
// Found by the fuzzer's slice twin (`f_sl`).
use autodiff_runtime::grad;

#[grad(wrt(a, x), hvp)]
fn f(a: f64, x: &[f64]) -> f64 {
    let mut s = a;
    if s < 0.3 {
        s += x[1];
    }
    s = s.atan();
    x[0] + s
}

fn main() {
    let x = [0.5, -0.25];
    let v = [1.0, 2.0];
    let (mut g, mut hv) = ([f64::NAN; 2], [f64::NAN; 2]);
    // The branch taken: s = a + x₁, f = x₀ + atan s; with u = 1 / (1 + s²), ∂f/∂s = u and
    // ∂²f/∂s² = −2 s u².
    let (a, a_dot) = (0.1, 0.5);
    let s: f64 = a + x[1];
    let u = 1.0 / (1.0 + s * s);
    let (y, a_bar, a_bar_dot) = f_hvp(a, &x, a_dot, &v, &mut g, &mut hv);
    let near = |p: f64, q: f64| (p - q).abs() <= 1e-15;
    assert!(near(y, x[0] + s.atan()));
    let second = -2.0 * s * u * u * (a_dot + v[1]);
    assert!(near(a_bar, u) && near(a_bar_dot, second), "{a_bar} {a_bar_dot}");
    assert!(g[0] == 1.0 && near(g[1], u) && hv[0] == 0.0 && near(hv[1], second), "{g:?} {hv:?}");
    // Not taken: x₁ has no part.
    let (_, _, _) = f_hvp(0.5, &x, a_dot, &v, &mut g, &mut hv);
    assert_eq!((g, hv), ([1.0, 0.0], [0.0, 0.0]));
}
