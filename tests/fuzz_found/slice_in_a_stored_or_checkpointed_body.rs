// Macro bug 38: a slice differentiated by a function whose loops run to a const generic `N` (the
// macro emits its body twice, stored and checkpointed, each in a closure, and rustc picks one
// from `N`): the closures write into the gradient's buffer, so they are `FnMut`, and their
// bindings were not `mut` (E0596, "cannot borrow as mutable"). Found by the fuzzer's slice twin
// (`f_sl`).
use autodiff_runtime::grad;

#[grad(wrt(x), hvp)]
fn f<const N: usize>(x: &[f64]) -> f64 {
    let mut s = x[0];
    for _ in 0..N {
        s = s.cos() + x[1];
    }
    s
}

fn main() {
    let x = [0.3, -0.7];
    // By hand: s ← cos s + x₁ three times from s = x₀, its derivatives carried along.
    let (mut s, mut d0, mut d1): (f64, f64, f64) = (x[0], 1.0, 0.0);
    for _ in 0..3 {
        let slope = -s.sin();
        (s, d0, d1) = (s.cos() + x[1], slope * d0, slope * d1 + 1.0);
    }
    let (mut g, mut hv) = ([f64::NAN; 2], [f64::NAN; 2]);
    assert_eq!(f_hvp::<3>(&x, &[1.0, 0.0], &mut g, &mut hv), s);
    assert!((g[0] - d0).abs() <= 1e-14 && (g[1] - d1).abs() <= 1e-14, "{g:?}");
}
