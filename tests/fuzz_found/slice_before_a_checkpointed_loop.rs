// Macro bug 34: a differentiated slice read both before a loop over `0..x.len()` that carries
// state (checkpointed) and inside it: the sweep lends the gradient's buffer to `revolve`'s
// closures and drops what it gives back, then added the read before the loop into the name of
// that returned buffer, bound nowhere (E0425, "cannot find value `x_bar_2`"; in `f_hvp`,
// `x_bar_dot_1` too). Every variable holding a buffer is now written by the buffer's name.
// Found by the fuzzer's slice twin (`f_sl`).
use autodiff_runtime::grad;

#[grad(wrt(x), jvp, hvp)]
fn f(x: &[f64]) -> f64 {
    let mut s = x[0];
    for _ in 0..x.len() {
        s = s.cos() + x[1];
    }
    s
}

fn main() {
    let x = [0.3, -0.7, 1.1];
    // By hand: s ← cos s + x₁ three times from s = x₀, its derivatives carried along.
    let (mut s, mut d0, mut d1): (f64, f64, f64) = (x[0], 1.0, 0.0);
    for _ in 0..3 {
        let slope = -s.sin();
        (s, d0, d1) = (s.cos() + x[1], slope * d0, slope * d1 + 1.0);
    }
    let mut g = [f64::NAN; 3];
    let value = f_grad(&x, &mut g);
    assert_eq!(value, s);
    let near = |a: f64, b: f64| (a - b).abs() <= 1e-14;
    assert!(near(g[0], d0) && near(g[1], d1) && g[2] == 0.0, "{g:?}");
    let (mut gh, mut hv) = ([f64::NAN; 3], [f64::NAN; 3]);
    let v = [1.0, -0.5, 2.0];
    assert_eq!(f_hvp(&x, &v, &mut gh, &mut hv), value);
    assert_eq!(gh, g);
    // H·v against central differences of the gradient.
    let h = 1e-5;
    let grad_at = |t: f64| {
        let xt = [x[0] + t * v[0], x[1] + t * v[1], x[2] + t * v[2]];
        let mut gt = [0.0; 3];
        f_grad(&xt, &mut gt);
        gt
    };
    let (gp, gm) = (grad_at(h), grad_at(-h));
    for k in 0..3 {
        assert!((hv[k] - (gp[k] - gm[k]) / (2.0 * h)).abs() <= 1e-8, "{hv:?}");
    }
}
