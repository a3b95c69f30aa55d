// Macro bug 49: a slice read in a checkpointed loop (over its run-time length) on one side of an
// `if` inside another `if`, and read on the other side of the outer one. The inner branch's
// result is the gradient's buffer, which the checkpointed sweep was lent (`&mut *x_bar`) and
// updated in place; the outer branch assigned it back to itself (`x_bar = x_bar;` in the
// checkpointed variant's closure), which rustc refuses (E0594, the parameter is not `mut`;
// E0521 and E0716 for the borrow). Found by the fuzzer's slice twin (`f_sl`, seed 555, count
// 80, program p28, where the slice was named `f_vjp` beside an `f64` named `f_vjp_bar`: not the
// cause, the same function with other names failed the same way). A region's result that holds
// the same buffer as what it yields is no longer assigned.
use autodiff_runtime::grad;

#[grad(wrt(x, c), hvp)]
fn nested(x: &[f64], c: f64) -> f64 {
    let mut s = c;
    if s.cos() < 1.5 {
        if c >= 0.3 {
            s += 1.0;
        } else {
            for i in 0..x.len() {
                s = s.sin() + x[i];
            }
        }
    } else {
        s += x[0];
    }
    s
}

/// `nested`, always checkpointed.
#[grad(wrt(x, c), hvp, checkpoint)]
fn checkpointed(x: &[f64], c: f64) -> f64 {
    let mut s = c;
    if s.cos() < 1.5 {
        if c >= 0.3 {
            s += 1.0;
        } else {
            for i in 0..x.len() {
                s = s.sin() + x[i];
            }
        }
    } else {
        s += x[0];
    }
    s
}

/// `nested` under the fuzzer's names: a `&Vec<f64>` named `f_vjp` and an `f64` named `f_vjp_bar`
/// (the buffer is named apart, `f_vjp_bar_1`).
#[grad(wrt(f_vjp, f_vjp_bar), hvp)]
#[allow(clippy::ptr_arg)]
fn named(f_vjp: &Vec<f64>, f_vjp_bar: f64) -> f64 {
    let mut s = f_vjp_bar;
    if s.cos() < 1.5 {
        if f_vjp_bar >= 0.3 {
            s += 1.0;
        } else {
            for i in 0..f_vjp.len() {
                s = s.sin() + f_vjp[i];
            }
        }
    } else {
        s += f_vjp[0];
    }
    s
}

/// `nested` (for `c < 0.3`, where `cos(c) < 1.5` always holds) and its gradient (x's, then c's),
/// by a hand-written adjoint: `s₀ = c`, `sᵢ₊₁ = sin(sᵢ) + xᵢ`.
fn by_hand(x: &[f64], c: f64) -> (f64, Vec<f64>, f64) {
    let mut s = vec![c];
    for xi in x {
        let last = s[s.len() - 1];
        s.push(last.sin() + xi);
    }
    let mut g = vec![0.0; x.len()];
    let mut s_bar = 1.0;
    for i in (0..x.len()).rev() {
        g[i] = s_bar;
        s_bar *= s[i].cos();
    }
    (s[x.len()], g, s_bar)
}

fn close(a: &[f64], b: &[f64], tol: f64) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(p, q)| (p - q).abs() <= tol * (1.0 + q.abs()))
}

fn main() {
    // Stored (4 steps) and past the stack budget (checkpointed in `nested` too).
    for n in [4, 40_000] {
        let x: Vec<f64> = (0..n).map(|i| 0.1 + 0.01 * (i % 7) as f64).collect();
        let v: Vec<f64> = (0..n).map(|i| 1.0 - 0.02 * (i % 5) as f64).collect();
        for c in [0.1, -0.4] {
            let (value, want, want_c) = by_hand(&x, c);
            let mut g = vec![f64::NAN; n];
            let (y, gc) = nested_grad(&x, c, &mut g);
            assert_eq!(y, value);
            assert!(close(&g, &want, 1e-14) && close(&[gc], &[want_c], 1e-14), "n = {n}");
            // H·v (with c's direction 0.5) against central differences of the gradient.
            let (mut g2, mut hv) = (vec![f64::NAN; n], vec![f64::NAN; n]);
            let (y2, gc2, hc) = nested_hvp(&x, c, &v, 0.5, &mut g2, &mut hv);
            assert_eq!((y2, gc2), (y, gc));
            assert_eq!(g2, g);
            let h = 1e-5;
            let at = |t: f64| {
                let xs: Vec<f64> = x.iter().zip(&v).map(|(a, b)| a + t * b).collect();
                let (_, mut g, gc) = by_hand(&xs, c + t * 0.5);
                g.push(gc);
                g
            };
            let (up, down) = (at(h), at(-h));
            let fd: Vec<f64> = up.iter().zip(&down).map(|(a, b)| (a - b) / (2.0 * h)).collect();
            assert!(close(&hv, &fd[..n], 1e-7) && close(&[hc], &fd[n..], 1e-7), "n = {n}");
            // The checkpointed twin and the renamed one, to the bit.
            let (mut cg, mut chv) = (vec![f64::NAN; n], vec![f64::NAN; n]);
            assert_eq!(checkpointed_hvp(&x, c, &v, 0.5, &mut cg, &mut chv), (y, gc, hc));
            assert_eq!((&cg, &chv), (&g, &hv));
            let (mut ng, mut nhv) = (vec![f64::NAN; n], vec![f64::NAN; n]);
            assert_eq!(named_hvp(&x, c, &v, 0.5, &mut ng, &mut nhv), (y, gc, hc));
            assert_eq!((&ng, &nhv), (&g, &hv));
        }
    }
}
