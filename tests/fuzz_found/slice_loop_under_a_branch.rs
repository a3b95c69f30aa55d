// Macro bug 50: two slices read in a checkpointed loop (over a run-time length) under an `if`,
// one of them also read after the branch. `_grad` stopped at an internal error ("a buffer that
// does not start zeroed": the branch's result, the gradient's buffer as either side yields it,
// was not known to be that buffer, the cause of bug 39); with that fixed, at E0282 ("type
// annotations needed"): the checkpointed sweep declared a variable for a buffer's result
// (`let x_bar;`), which a buffer never binds, and lent that unset variable (`&mut *x_bar`) to
// its closures. Found by the fuzzer's slice twin (`f_sl`, seed 300483).
use autodiff_runtime::grad;

#[grad(wrt(x, y), hvp)]
fn f(x: &[f64], y: &[f64], c: f64) -> f64 {
    let mut s = c;
    if c > 0.0 {
        for i in 0..y.len() {
            s = s.sin() * y[i] + x[i];
        }
    }
    s * x[1]
}

/// `f` and its gradient (x's then y's), carried by hand in forward mode.
fn by_hand(x: &[f64], y: &[f64], c: f64) -> (f64, Vec<f64>) {
    let n = x.len();
    // s and its derivatives along x₀..xₙ₋₁, y₀..yₙ₋₁.
    let (mut s, mut ds) = (c, vec![0.0; 2 * n]);
    if c > 0.0 {
        for i in 0..n {
            let slope = s.cos() * y[i];
            for d in ds.iter_mut() {
                *d *= slope;
            }
            ds[n + i] += s.sin();
            ds[i] += 1.0;
            s = s.sin() * y[i] + x[i];
        }
    }
    let mut g: Vec<f64> = ds.iter().map(|d| d * x[1]).collect();
    g[1] += s;
    (s * x[1], g)
}

fn close(a: &[f64], b: &[f64], tol: f64) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(p, q)| (p - q).abs() <= tol * (1.0 + q.abs()))
}

fn main() {
    let x = [0.3, -0.7, 1.1];
    let y = [0.9, 1.4, -0.6];
    for c in [0.8, -0.5] {
        let (value, g) = by_hand(&x, &y, c);
        let (mut gx, mut gy) = ([f64::NAN; 3], [f64::NAN; 3]);
        assert_eq!(f_grad(&x, &y, c, &mut gx, &mut gy), value);
        assert!(close(&gx, &g[..3], 1e-14) && close(&gy, &g[3..], 1e-14), "{gx:?} {gy:?}");
        // H·v against central differences of the gradient along v.
        let (vx, vy) = ([0.5, -1.0, 0.25], [1.0, 0.5, -2.0]);
        let (mut hx, mut hy) = ([f64::NAN; 3], [f64::NAN; 3]);
        let (mut gx2, mut gy2) = ([f64::NAN; 3], [f64::NAN; 3]);
        assert_eq!(f_hvp(&x, &y, c, &vx, &vy, &mut gx2, &mut gy2, &mut hx, &mut hy), value);
        assert_eq!((gx2, gy2), (gx, gy));
        let h = 1e-5;
        let at = |t: f64| {
            let xs: Vec<f64> = x.iter().zip(&vx).map(|(a, v)| a + t * v).collect();
            let ys: Vec<f64> = y.iter().zip(&vy).map(|(a, v)| a + t * v).collect();
            by_hand(&xs, &ys, c).1
        };
        let (up, down) = (at(h), at(-h));
        let fd: Vec<f64> = up.iter().zip(&down).map(|(a, b)| (a - b) / (2.0 * h)).collect();
        assert!(close(&hx, &fd[..3], 1e-7) && close(&hy, &fd[3..], 1e-7), "{hx:?} {hy:?} {fd:?}");
    }
}
