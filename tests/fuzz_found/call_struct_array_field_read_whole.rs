// Macro bug 48: an array field of a struct returned by a call, read whole. The call twin of the
// fuzzer (seeds 7100 and 31337 × 80, 75 × 120, 76 × 40: programs p22 and p31, 8081 to 8084)
// binds its helper's `G90Out` and reads its fields as a user would, `let y6 = t9000.out0;` then
// `y6[0]`, or `y3 = t9000.out0;` for an array `y3`; `#[grad]` held the struct laid flat and took
// every field read whole for an `f64` ("this indexes an `f64`", "`y3` holds a value of type
// `[f64; 3]`; this assigns a value of type `f64`"). Such a read is now the field's scalars copied
// out, in the shape of where it goes (the variable assigned, the `let`'s type) or of how the body
// indexes it, with the lengths from the struct's `Differentiable::TREE`.
use autodiff_runtime::{Differentiable, grad};

#[derive(Clone, Copy, Differentiable)]
pub struct G90Out {
    pub out0: [f64; 3],
    pub out1: [[f64; 2]; 2],
    pub s: f64,
}

/// `out0 = [x₁c, x₁, x₂]`, `out1 = [[c, x₀], [x₂², c x₁]]`, `s = sin c`.
#[grad(jvp, hvp)]
pub fn g90(x: [f64; 3], c: f64) -> G90Out {
    let mut y = x;
    y[0] = x[1] * c;
    G90Out { out0: y, out1: [[c, x[0]], [x[2] * x[2], c * x[1]]], s: c.sin() }
}

/// `sin c + c + Σ out0ᵢ² + out1₀₁ out1₁₀ + out1₁₁`
/// `= sin c + c + x₁²c² + x₁² + x₂² + x₀x₂² + c x₁`, its fields read whole every way.
#[grad(jvp, hvp)]
pub fn f_call(x: [f64; 3], c: f64) -> f64 {
    let mut y3 = [c; 3];
    let mut s = y3[2];
    let t9000: G90Out = g90(x, c);
    // Assigned to an array: its type.
    y3 = t9000.out0;
    // Bound, and indexed as a matrix below.
    let y6 = t9000.out1;
    // A row of it.
    let row = t9000.out1[1];
    // Typed.
    let w: [f64; 3] = t9000.out0;
    s += t9000.s;
    for i in 0..3 {
        s += y3[i] * w[i];
    }
    s + y6[0][1] * row[0] + y6[1][1]
}

fn main() {
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-14 * (1.0 + b.abs());
    for (x, c) in [([0.3, -0.7, 1.1], 0.9_f64), ([-1.2, 0.4, 0.25], -0.3)] {
        let [x0, x1, x2] = x;
        let value = c.sin() + c + x1 * x1 * c * c + x1 * x1 + x2 * x2 + x0 * x2 * x2 + c * x1;
        let grad = [
            x2 * x2,
            2.0 * x1 * c * c + 2.0 * x1 + c,
            2.0 * x2 + 2.0 * x0 * x2,
            c.cos() + 1.0 + 2.0 * x1 * x1 * c + x1,
        ];
        let hessian = [
            [0.0, 0.0, 2.0 * x2, 0.0],
            [0.0, 2.0 * c * c + 2.0, 0.0, 4.0 * x1 * c + 1.0],
            [2.0 * x2, 0.0, 2.0 + 2.0 * x0, 0.0],
            [0.0, 4.0 * x1 * c + 1.0, 0.0, -c.sin() + 2.0 * x1 * x1],
        ];
        assert!(close(f_call(x, c), value));
        let (y, (gx, gc)) = f_call_grad(x, c);
        assert_eq!(y, f_call(x, c));
        let got = [gx[0], gx[1], gx[2], gc];
        assert!(got.iter().zip(&grad).all(|(a, b)| close(*a, *b)), "{got:?} {grad:?}");
        let (vx, vc) = ([0.5, -1.0, 0.25], 2.0);
        let v = [vx[0], vx[1], vx[2], vc];
        let (_, slope) = f_call_jvp(x, c, vx, vc);
        assert!(close(slope, (0..4).map(|k| grad[k] * v[k]).sum()));
        let (_, (hgx, hgc), (hx, hc)) = f_call_hvp(x, c, vx, vc);
        assert_eq!((hgx, hgc), (gx, gc));
        let hv = [hx[0], hx[1], hx[2], hc];
        for k in 0..4 {
            let want: f64 = (0..4).map(|j| hessian[k][j] * v[j]).sum();
            assert!(close(hv[k], want), "{k}: {} {want}", hv[k]);
        }
    }
}
