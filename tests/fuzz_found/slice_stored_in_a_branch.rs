// Macro bug 35: a differentiated slice whose element is read (and so its gradient stored) only
// under one side of a branch: in `f_hvp`, the tangent of the gradient's buffer (H·v's buffer)
// was zeroed only at that store, on that side, so the expansion stopped at an internal error
// ("a buffer that does not start zeroed"). H·v's buffer now starts zeroed where the gradient's
// does. Found by the fuzzer's slice twin (`f_sl`).
use autodiff_runtime::grad;

#[grad(wrt(a, m), hvp)]
fn f(a: f64, m: &[f64]) -> f64 {
    let c = m[2];
    if m[1] > a { a } else { c.cos() }
}

fn main() {
    let v = [0.0, 0.5, 2.0];
    let (mut g, mut hv) = ([f64::NAN; 3], [f64::NAN; 3]);
    // The side that reads `m[2]`: ∂f/∂m₂ = −sin m₂, (H·v)₂ = −cos m₂ · v₂.
    let m = [0.0, 1.0, 0.4];
    let (value, a_bar, a_bar_dot) = f_hvp(1.5, &m, 0.25, &v, &mut g, &mut hv);
    assert_eq!((value, a_bar, a_bar_dot), (0.4_f64.cos(), 0.0, 0.0));
    assert_eq!(g, [0.0, 0.0, -0.4_f64.sin()]);
    assert_eq!(hv, [0.0, 0.0, -(2.0 * 0.4_f64.cos())]);
    // The other side: the buffers are overwritten with zeros.
    let (value, a_bar, _) = f_hvp(0.5, &m, 0.25, &v, &mut g, &mut hv);
    assert_eq!((value, a_bar, g, hv), (0.5, 1.0, [0.0; 3], [0.0; 3]));
}
