// Macro bug 58 (fixed): a vector function (returning a tuple) whose locals are named
// `__private_bar` did not compile: its `f_rev` took the residuals `__private_bar_1` and
// `__private_bar` as `_` (it took every residual whose name starts with `_` for one the sweep
// does not read), then read them (E0425). Found by the fuzzer's call twin returning a struct
// (seed 310027, hostile names); the same cause as bug 55, fixed alike on both branches.
use autodiff_runtime::grad;

#[grad(jvp)]
pub fn f(a: f64, b: f64) -> (f64, f64) {
    let mut __private_bar = a * b;
    __private_bar = __private_bar.sin();
    (__private_bar * a, b)
}

fn main() {
    let (a, b) = (0.5f64, 2.0f64);
    let ((y0, y1), (d0, d1)) = f_jvp(a, b, 1.0, 0.0);
    assert_eq!((y0, y1), f(a, b));
    // d/da of sin(ab)·a = b cos(ab) a + sin(ab).
    assert!((d0 - (b * (a * b).cos() * a + (a * b).sin())).abs() < 1e-14);
    assert_eq!(d1, 0.0);
}
