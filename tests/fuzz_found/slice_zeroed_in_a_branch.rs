// Macro bug 36: a slice's gradient set to a constant under one side of a branch (`r[2]` read
// as `y += r[2]`): in `f_hvp`, the tangent of that store, zero, was written as a new array of
// the slice's length on that side (`r_bar_dot = [0.0; r.len()]`, E0435), where H·v's buffer
// must be filled in place. Found by the fuzzer's slice twin (`f_sl`).
use autodiff_runtime::grad;

#[grad(wrt(x, r), hvp)]
fn f(x: f64, steps: usize, r: &[f64]) -> f64 {
    let mut y = x;
    if steps < 2 {
        y = r[1].sin();
    } else {
        y += r[2];
    }
    y
}

fn main() {
    let r = [0.0, 0.4, 0.7];
    let v = [0.0, 2.0, -1.0];
    let (mut g, mut hv) = ([f64::NAN; 3], [f64::NAN; 3]);
    // The side that reads `r[1]`: ∂f/∂r₁ = cos r₁, (H·v)₁ = −sin r₁ · v₁.
    let (y, x_bar, x_bar_dot) = f_hvp(0.5, 1, &r, 1.0, &v, &mut g, &mut hv);
    assert_eq!((y, x_bar, x_bar_dot), (0.4_f64.sin(), 0.0, 0.0));
    assert_eq!((g, hv), ([0.0, 0.4_f64.cos(), 0.0], [0.0, -(2.0 * 0.4_f64.sin()), 0.0]));
    // The other side: f = x + r₂, linear.
    let (y, x_bar, x_bar_dot) = f_hvp(0.5, 3, &r, 1.0, &v, &mut g, &mut hv);
    assert_eq!((y, x_bar, x_bar_dot), (1.2, 1.0, 0.0));
    assert_eq!((g, hv), ([0.0, 0.0, 1.0], [0.0; 3]));
}
