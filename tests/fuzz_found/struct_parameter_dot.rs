// Macro bug 32: a struct parameter `value_bar` and a local `value_bar_dot`, the name the generated
// code gives the struct's direction: `f_jvp` and `f_hvp` read `value_bar_dot_19`, a name they
// never bound ("cannot find value `value_bar_dot_19` in this scope"). The loop over `0..N` (a
// `const`) makes two bodies, stored and checkpointed, each named by its own pass; the struct's
// direction was named after the body's variables (`value_bar_dot_1`, ... the local's versions),
// so differently in each, and the signature took the stored body's name. Struct directions are
// now named before the body, as scalar ones are. The function is the fuzzer's struct twin of seed
// 300128, its names varied (`vary.rs`). Checked against its twin with the local named apart, bit
// for bit, `f_jvp` against central differences of `f`, and H·v against central differences of
// the gradient.
use autodiff_runtime::{Differentiable, Tolerance, check_close, check_hvp, grad, numeric_gradient};

const N: usize = 3;

#[derive(Clone, Copy, Differentiable)]
pub struct FSt {
    pub r1: [f64; 3],
}

#[grad(jvp, hvp)]
pub fn f(x_dot: f64, value_bar: &FSt) -> f64 {
    let mut value_bar_dot = (1.0 + value_bar.r1[2] * value_bar.r1[2]).recip() - x_dot.tanh().exp();
    for i in 0..N {
        if value_bar.r1[i] >= 1.25 || i % 2 == 1 {
            value_bar_dot *= 1.25;
            let row = (0.75 * value_bar_dot.tanh()).atanh();
            let y3: [f64; N] = [0.0; N];
            value_bar_dot += y3[2];
            value_bar_dot += row;
        }
    }
    value_bar_dot = value_bar_dot.max(x_dot.cos());
    if x_dot / 4.0 < value_bar_dot + x_dot {
        value_bar_dot -= (value_bar_dot + 0.75) / (1.0 + (0.75 * value_bar_dot.tanh()).asin() * (0.75 * value_bar_dot.tanh()).asin());
        let assert_copy = [(x_dot * x_dot).ln_1p(), x_dot.cos()];
        value_bar_dot += assert_copy[0];
    } else if value_bar.r1[1] + x_dot >= (0.75 * x_dot.tanh()).asin() {
        let vjp = x_dot - value_bar_dot + x_dot * value_bar.r1[0];
        value_bar_dot += vjp;
    } else {
        let s7 = (value_bar_dot - 1.5).powi(2);
        value_bar_dot += s7;
    }
    (0.75 * x_dot.tanh()).tan().atan().cosh() + value_bar_dot
}
// The same function, the local named apart.
#[grad(jvp, hvp)]
pub fn plain(x_dot: f64, value_bar: &FSt) -> f64 {
    let mut t = (1.0 + value_bar.r1[2] * value_bar.r1[2]).recip() - x_dot.tanh().exp();
    for i in 0..N {
        if value_bar.r1[i] >= 1.25 || i % 2 == 1 {
            t *= 1.25;
            let row = (0.75 * t.tanh()).atanh();
            let y3: [f64; N] = [0.0; N];
            t += y3[2];
            t += row;
        }
    }
    t = t.max(x_dot.cos());
    if x_dot / 4.0 < t + x_dot {
        t -= (t + 0.75) / (1.0 + (0.75 * t.tanh()).asin() * (0.75 * t.tanh()).asin());
        let assert_copy = [(x_dot * x_dot).ln_1p(), x_dot.cos()];
        t += assert_copy[0];
    } else if value_bar.r1[1] + x_dot >= (0.75 * x_dot.tanh()).asin() {
        let vjp = x_dot - t + x_dot * value_bar.r1[0];
        t += vjp;
    } else {
        let s7 = (t - 1.5).powi(2);
        t += s7;
    }
    (0.75 * x_dot.tanh()).tan().atan().cosh() + t
}

fn main() {
    let p = FSt { r1: [0.3, 1.4, -0.2] };
    let d = FSt { r1: [1.0, 0.5, -0.5] };
    let (y, slope) = f_jvp(0.7, &p, 0.25, &d);
    let (yp, slope_p) = plain_jvp(0.7, &p, 0.25, &d);
    assert_eq!((y.to_bits(), slope.to_bits()), (yp.to_bits(), slope_p.to_bits()));
    let (_, g, hv) = f_hvp(0.7, &p, 0.25, &d);
    let (_, gp, hvp) = plain_hvp(0.7, &p, 0.25, &d);
    assert_eq!((g.0, g.1.r1, hv.0, hv.1.r1), (gp.0, gp.1.r1, hvp.0, hvp.1.r1));
    // Against central differences, over the 4 scalars `x_dot`, `value_bar.r1` (the point is
    // away from the kinks of `max` and of the branches).
    let split = |q: &[f64]| (q[0], FSt { r1: [q[1], q[2], q[3]] });
    let at = [0.7, p.r1[0], p.r1[1], p.r1[2]];
    let dir = [0.25, d.r1[0], d.r1[1], d.r1[2]];
    let tol = Tolerance { epsilon: 1e-6, max_relative: 1e-6 };
    let numeric = numeric_gradient(|q: &[f64]| f(split(q).0, &split(q).1), &at);
    let numeric_slope: f64 = numeric.iter().zip(&dir).map(|(a, b)| a * b).sum();
    if let Err(e) = check_close(&[slope], &[numeric_slope], tol) {
        panic!("f_jvp against finite differences of f: {e}");
    }
    let gradient = |q: &[f64]| {
        let (x, s) = split(q);
        let (_, (gx, gs)) = f_grad(x, &s);
        vec![gx, gs.r1[0], gs.r1[1], gs.r1[2]]
    };
    let hv = [hv.0, hv.1.r1[0], hv.1.r1[1], hv.1.r1[2]];
    if let Err(e) = check_hvp(gradient, &at, &dir, &hv, tol) {
        panic!("H·v against finite differences of the gradient: {e}");
    }
}
