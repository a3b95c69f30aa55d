// Macro bug 31: a struct parameter `s0` shadowed, inside a loop over a `const` trip count, by a
// `let s0` of the body's: `f_hvp` read `s0_dot`, the struct's direction, where the local's tangent
// had taken the name ("cannot find value `s0_dot` in this scope"). A `const` bound makes two
// bodies (stored and checkpointed), each named by its own pass, and the struct's direction was
// named after the body's variables, so differently in each: the signature's name was the stored
// body's. Struct directions are now named before the body, as scalar ones are. Found by the
// fuzzer's struct twin (seed 300131). Checked against its twin with the local named apart, bit
// for bit, and H·v against central differences of the gradient.
use autodiff_runtime::{Differentiable, Tolerance, check_hvp, grad};

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
    // H·v against central differences of the gradient, over the 9 scalars `x0`, `s0.x1`.
    let split = |p: &[f64]| {
        let x: [f64; N0] = std::array::from_fn(|k| p[k]);
        (x, FSt { x1: std::array::from_fn(|k| p[N0 + k]) })
    };
    let gradient = |p: &[f64]| {
        let (x, s) = split(p);
        let (_, (gx, gs)) = f_grad(x, s);
        gx.iter().chain(&gs.x1).copied().collect::<Vec<f64>>()
    };
    let p: Vec<f64> = x0.iter().chain(&s0.x1).copied().collect();
    let dir: Vec<f64> = v.iter().chain(&d.x1).copied().collect();
    let hv: Vec<f64> = hx.iter().chain(&hs.x1).copied().collect();
    let tol = Tolerance { epsilon: 1e-6, max_relative: 1e-6 };
    if let Err(e) = check_hvp(gradient, &p, &dir, &hv, tol) {
        panic!("H·v against finite differences of the gradient: {e}");
    }
}
