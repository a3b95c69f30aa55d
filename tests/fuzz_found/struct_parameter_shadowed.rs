// Macro bug 31 (open): a struct parameter `s0` shadowed, inside a loop over a `const` trip count,
// by a `let s0` of the body's: `f_hvp` reads `s0_dot`, the struct's direction, where the local's
// tangent has taken the name ("cannot find value `s0_dot` in this scope"). `f_grad` and `f_jvp`
// compile; without the `const` bound (`0..5`), or with the array read once, `f_hvp` does too.
// Found by the fuzzer's struct twin (seed 300131).
use autodiff_runtime::{Differentiable, grad};

const N0: usize = 5;

#[derive(Clone, Copy, Differentiable)]
pub struct FSt {
    pub x1: [f64; 4],
}

#[grad(hvp)]
#[allow(clippy::needless_range_loop)]
pub fn f(x0: [f64; N0], s0: FSt) -> f64 {
    let mut s1: f64 = 0.0;
    for i in 0..N0 {
        s1 = s1 * s1.tanh() + x0[i];
        s1 += s0.x1[i % 4];
        let s0 = x0[i].tanh();
        s1 += s0;
    }
    s1
}

// The same function, the local named apart.
#[grad(hvp)]
#[allow(clippy::needless_range_loop)]
pub fn plain(x0: [f64; N0], s0: FSt) -> f64 {
    let mut s1: f64 = 0.0;
    for i in 0..N0 {
        s1 = s1 * s1.tanh() + x0[i];
        s1 += s0.x1[i % 4];
        let t = x0[i].tanh();
        s1 += t;
    }
    s1
}

fn main() {
    let x0 = [0.3, -0.2, 0.5, 0.1, -0.7];
    let s0 = FSt { x1: [0.4, -0.1, 0.2, 0.6] };
    let d = FSt { x1: [1.0, 0.5, -0.5, 0.25] };
    let v = [0.1, 0.2, -0.3, 0.4, 0.5];
    let (y, (gx, gs), (hx, hs)) = f_hvp(x0, s0, v, d);
    let (yp, (gxp, gsp), (hxp, hsp)) = plain_hvp(x0, s0, v, d);
    assert_eq!(y.to_bits(), yp.to_bits());
    assert_eq!((gx, gs.x1, hx, hs.x1), (gxp, gsp.x1, hxp, hsp.x1));
}
