// Bug: "internal error in `#[grad]`: the reverse transform produced invalid IR" for an outer
// loop holding an inner loop whose result is read afterwards by something the sweep needs stored
// (`t += s.sin()`): the outer loop stores the inner loop's result, so the outer sweep's
// recomputation (`transform/reverse/replay.rs`, `recompute`: "all defs mapped → skip") does not
// replay the inner loop, whose own sweep then reads its forward values (`cos %4`) that exist
// nowhere. The common shape of a time loop: update the state, then accumulate a cost from it.
use autodiff_runtime::grad;

// t = sin(a b²) + sin(a b⁴)
#[grad(hvp)]
fn scalar_state(a: f64, b: f64) -> f64 {
    let mut s = a;
    let mut t = 0.0;
    for _ in 0..2 {
        for _ in 0..2 {
            s *= b;
        }
        t += s.sin();
    }
    t
}

// s = Σₖ sin(sin xₖ) + sin(sin(sin xₖ))
#[grad(hvp)]
fn array_state(x: [f64; 2]) -> f64 {
    let mut s = 0.0;
    let mut y = x;
    for _ in 0..2 {
        for j in 0..2 {
            y[j] = y[j].sin();
        }
        for k in 0..2 {
            s += y[k].sin();
        }
    }
    s
}

fn main() {
    let (a, b) = (0.7_f64, 1.1_f64);
    let (u, w) = (a * b * b, a * b.powi(4));
    let (value, (da, db)) = scalar_state_grad(a, b);
    assert_eq!(value, scalar_state(a, b));
    assert!((da - (b * b * u.cos() + b.powi(4) * w.cos())).abs() < 1e-12);
    assert!((db - (2.0 * a * b * u.cos() + 4.0 * a * b.powi(3) * w.cos())).abs() < 1e-12);

    let x = [0.4_f64, 0.9];
    let (value, grad) = array_state_grad(x);
    assert_eq!(value, array_state(x));
    for k in 0..2 {
        let (s1, s2) = (x[k].sin(), x[k].sin().sin());
        let d = s1.cos() * x[k].cos() + s2.cos() * s1.cos() * x[k].cos();
        assert!((grad[k] - d).abs() < 1e-12);
    }
}
