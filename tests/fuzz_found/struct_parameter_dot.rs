// Macro bug 32 (open): a struct parameter `value_bar` and a local `value_bar_dot`, the name the
// generated code gives the struct's direction: `f_jvp` and `f_hvp` read `value_bar_dot_19`, a
// name they never bind ("cannot find value `value_bar_dot_19` in this scope"). The function is
// the fuzzer's struct twin of seed 300128, its names varied (`vary.rs`); smaller bodies with the
// same names compile.
use autodiff_runtime::{Differentiable, grad};

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
}
