// Macro bug 55: a vector function's `f_rev` took its residuals in one pattern, with `_` for those
// its sweep does not read, told apart by their names: one named with a leading underscore was
// taken for unread. A user's `_s` (`__private_saved` in the fuzzer's call twin of seed 300130,
// its names varied), stored by `f_fwd` for the sweep, was then `_` in `f_rev`'s pattern ("cannot
// find value `_s_1` in this scope"). Which residuals are read is now asked of the sweep. Checked
// against the closed form of the Jacobian and against the forward-mode one.
use autodiff_runtime::grad;

#[grad(jvp, hvp)]
pub fn g(h: f64, x: f64) -> (f64, f64) {
    (x * h, x)
}

// a = p²m, y = pm, s = a + y·a = p²m + p³m² (above 1.5 at the point below).
#[grad(jvp, jacobian(reverse))]
pub fn f(p: f64, m: f64) -> [f64; 2] {
    let mut _s = p * m;
    let (a, y) = g(p, _s);
    _s = a;
    _s += y * _s;
    _s = _s.max(1.5);
    [_s, p]
}

fn main() {
    let (p, m) = (1.2_f64, 0.9_f64);
    let (value, j) = f_jacobian(p, m);
    let s = p * p * m + p.powi(3) * m * m;
    assert!((value[0] - s).abs() < 1e-15 && value[1] == p);
    let ds_dp = 2.0 * p * m + 3.0 * p * p * m * m;
    let ds_dm = p * p + 2.0 * p.powi(3) * m;
    assert!((j[0][0] - ds_dp).abs() < 1e-14 && (j[0][1] - ds_dm).abs() < 1e-14);
    assert_eq!(j[1], [1.0, 0.0]);
    let (_, column_p) = f_jvp(p, m, 1.0, 0.0);
    let (_, column_m) = f_jvp(p, m, 0.0, 1.0);
    assert!((column_p[0] - j[0][0]).abs() < 1e-14 && (column_m[0] - j[0][1]).abs() < 1e-14);
    assert_eq!((column_p[1], column_m[1]), (1.0, 0.0));
}
