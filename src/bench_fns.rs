//! The benchmark corpus: four functions under `#[grad(jvp, hvp, hessian)]`, each with a
//! hand-written gradient and Hessian-vector product in [`handwritten`] to measure against.
//!
//! The hand-written derivatives are what an expert would write from the formula: a primal sweep
//! that keeps the intermediates the adjoint needs, then the adjoint sweep in reverse order; the
//! HVPs are that program with a tangent line after each line (forward over reverse). They share
//! no code with the macro, so `tests/bench_fns.rs` can check one against the other and both
//! against finite differences before `benches/gradients.rs` times them.

use autodiff_runtime::grad;

/// `f(t1, t2) = t1 t2 + t1`, the first worked example of reverse mode.
#[grad(jvp, hvp, hessian)]
pub fn bench_f(t1: f64, t2: f64) -> f64 {
    let p = t1 * t2;
    p + t1
}

/// `g(x1, x2) = ln x1 + x1 x2 - sin x2`, the classic forward- and reverse-mode example; needs
/// `x1 > 0`.
#[grad(jvp, hvp, hessian)]
pub fn bench_g(x1: f64, x2: f64) -> f64 {
    x1.ln() + x1 * x2 - x2.sin()
}

/// The 2-D Rosenbrock function `(1 - x)² + 100 (y - x²)²`, minimal (0) at `(1, 1)`.
#[grad(jvp, hvp, hessian)]
pub fn rosenbrock(x: f64, y: f64) -> f64 {
    let a = 1.0 - x;
    let b = y - x * x;
    a * a + 100.0 * b * b
}

/// A straight-line program of 93 statements (about 150 operations) over six parameters.
///
/// It mixes `+ - * /` with `sin cos exp ln sqrt tanh`, reuses every parameter and most
/// intermediates several times (fan-out), and updates two `let mut` states through every compound
/// assignment. Every `ln` and `sqrt` takes one plus a square, every quotient has a denominator of
/// at least one and every `exp` a bounded argument, so it is smooth and well-conditioned
/// everywhere.
#[grad(jvp, hvp, hessian)]
pub fn long_chain(x0: f64, x1: f64, x2: f64, x3: f64, x4: f64, x5: f64) -> f64 {
    // Block A: squares and products.
    let q0 = x0 * x0;
    let q1 = x1 * x1;
    let q2 = x2 * x2;
    let q3 = x3 * x3;
    let q4 = x4 * x4;
    let q5 = x5 * x5;
    let r2 = q0 + q1 + q2 + q3 + q4 + q5;
    let r = (1.0 + r2).sqrt();
    let inv_r = 1.0 / r;
    let p01 = x0 * x1;
    let p23 = x2 * x3;
    let p45 = x4 * x5;
    let mut acc = p01 - p23 + 0.5 * p45;
    // Block B: trigonometric features.
    let s0 = x0.sin();
    let c1 = x1.cos();
    let d23 = x2 - x3;
    let s23 = d23.sin();
    let h45 = x4 + 0.5 * x5;
    let c45 = h45.cos();
    let sc = s0 * c1 + s23 * c45;
    acc += sc * inv_r;
    let k = x0 + x2 - x4;
    let t = k.tanh();
    acc -= 0.3 * t * t;
    // Block C: logarithms of one plus a square.
    let l0 = (1.0 + q0).ln();
    let l1 = (1.0 + p23 * p23).ln();
    let d15 = x1 - x5;
    let l2 = (1.0 + d15 * d15).ln();
    let lsum = l0 + l1 - 0.5 * l2;
    acc += lsum;
    // Block D: exponentials of bounded arguments.
    let e0 = (-q4).exp();
    let e1 = s0.exp();
    let e2 = (0.5 * t).exp();
    let ew = e0 * e1 + e2 / (1.0 + q3);
    acc += 0.25 * ew;
    // Block E: a recurrence through one mutable state.
    let mut u = 0.1 * x0 + 0.2 * x1;
    u = (u * x2 + x3).tanh();
    u = u * c1 + s23;
    u = (u * x4 - x5).tanh();
    u += 0.5 * (u * x0).sin();
    u = (u * x1 + x2).tanh();
    acc += u;
    let v = u * u + q5;
    let sv = (1.0 + v).sqrt();
    acc -= 0.2 * sv;
    // Block F: quotients with denominators bounded away from zero.
    let den0 = 2.0 + c45;
    let fr0 = x0 / den0;
    let den1 = 1.0 + q1 + q2;
    let fr1 = (x3 - x4) / den1;
    acc += fr0 * fr1;
    let m = fr0 - fr1 + 0.5 * t;
    let sm = m.sin();
    let cm = m.cos();
    acc += sm * cm;
    // Block G: a product chain through `*=` and `/=`.
    let mut z = 1.0 + 0.1 * s0;
    z *= 1.0 + 0.1 * c1;
    z *= 1.0 + 0.1 * t;
    z *= 1.0 + 0.1 * u;
    z /= 1.0 + 0.1 * q5;
    acc *= z;
    // Block H: earlier features mixed again.
    let g0 = l0 * e1 - l1 * e0;
    let g1 = (g0 * g0 + 1.0).sqrt();
    let g2 = g1.ln();
    let g3 = (p01 + p45).sin();
    let g4 = (p23 - p01).cos();
    acc += 0.5 * (g3 * g4 + g2);
    let y0 = (s0 + c1 + s23 + c45).tanh();
    let y1 = (y0 * x3).exp();
    let y2 = y1 / (1.0 + y1);
    acc -= y2;
    let y3 = (r2 + 1.0).ln();
    acc += y3 * inv_r;
    // Block I: a second mutable state through every compound assignment.
    let mut w = 0.5 * x5;
    w += 0.25 * x4;
    w -= 0.125 * x3;
    w *= 1.0 + 0.5 * y2;
    w /= 2.0 + cm;
    w = w.sin() + 0.5 * w.cos();
    w = (w * w + 1.0).ln();
    w += m.tanh();
    acc += 0.3 * w;
    // Block J: closing terms that reuse values from every block.
    let o0 = (x0 - x1 + x2).cos();
    let o1 = (x3 * x4 - x5).sin();
    let o2 = o0 * o1;
    let o3 = (1.0 + o2 * o2).sqrt();
    acc += o3 / (1.0 + e0);
    let o5 = (0.1 * acc).tanh();
    let o7 = (1.0 + sv * sv).ln();
    let o9 = u * fr0 + w * fr1;
    let o10 = (0.5 * o9).exp();
    acc += o5 * o5 + 0.1 * o7 - 0.2 * (o10 + sm * y0);
    let sq = (acc * acc + 1.0).sqrt();
    acc + 0.1 * sq
}

/// Gradients and Hessian-vector products of the corpus written by hand, the baseline of the
/// benchmark.
///
/// Each `*_grad` returns `(value, gradient)` and each `*_hvp` returns
/// `(value, gradient, H·direction)`, with the same signatures as the generated functions.
pub mod handwritten {
    /// Six partial derivatives (or six direction components), in parameter order.
    pub type Six = (f64, f64, f64, f64, f64, f64);

    /// Value and gradient of [`bench_f`](super::bench_f): `∇f = (t2 + 1, t1)`.
    pub fn bench_f_grad(t1: f64, t2: f64) -> (f64, (f64, f64)) {
        let p = t1 * t2;
        let value = p + t1;
        // value_bar = 1, so p_bar = 1 and t1_bar = p_bar t2 + 1.
        (value, (t2 + 1.0, t1))
    }

    /// Value, gradient and Hessian-vector product of [`bench_f`](super::bench_f):
    /// `H = [[0, 1], [1, 0]]`.
    pub fn bench_f_hvp(
        t1: f64,
        t2: f64,
        t1_dot: f64,
        t2_dot: f64,
    ) -> (f64, (f64, f64), (f64, f64)) {
        let p = t1 * t2;
        let value = p + t1;
        // Tangents of t1_bar = t2 + 1 and t2_bar = t1.
        (value, (t2 + 1.0, t1), (t2_dot, t1_dot))
    }

    /// Value and gradient of [`bench_g`](super::bench_g): `∇g = (1/x1 + x2, x1 - cos x2)`.
    pub fn bench_g_grad(x1: f64, x2: f64) -> (f64, (f64, f64)) {
        let value = x1.ln() + x1 * x2 - x2.sin();
        (value, (1.0 / x1 + x2, x1 - x2.cos()))
    }

    /// Value, gradient and Hessian-vector product of [`bench_g`](super::bench_g):
    /// `H = [[-1/x1², 1], [1, sin x2]]`.
    pub fn bench_g_hvp(
        x1: f64,
        x2: f64,
        x1_dot: f64,
        x2_dot: f64,
    ) -> (f64, (f64, f64), (f64, f64)) {
        let recip = 1.0 / x1;
        let s2 = x2.sin();
        let c2 = x2.cos();
        let value = x1.ln() + x1 * x2 - s2;
        // recip_dot = -recip² x1_dot; the tangent of cos x2 is -sin x2 x2_dot.
        let x1_bar_dot = x2_dot - recip * recip * x1_dot;
        let x2_bar_dot = x1_dot + s2 * x2_dot;
        (value, (recip + x2, x1 - c2), (x1_bar_dot, x2_bar_dot))
    }

    /// Value and gradient of [`rosenbrock`](super::rosenbrock):
    /// `∇f = (-2 (1 - x) - 400 x (y - x²), 200 (y - x²))`.
    pub fn rosenbrock_grad(x: f64, y: f64) -> (f64, (f64, f64)) {
        let a = 1.0 - x;
        let b = y - x * x;
        let value = a * a + 100.0 * b * b;
        let b_bar = 200.0 * b;
        (value, (-2.0 * a - 2.0 * x * b_bar, b_bar))
    }

    /// Value, gradient and Hessian-vector product of [`rosenbrock`](super::rosenbrock):
    /// `H = [[2 - 400 (y - x²) + 800 x², -400 x], [-400 x, 200]]`.
    pub fn rosenbrock_hvp(x: f64, y: f64, x_dot: f64, y_dot: f64) -> (f64, (f64, f64), (f64, f64)) {
        let a = 1.0 - x;
        let a_dot = -x_dot;
        let b = y - x * x;
        let b_dot = y_dot - 2.0 * x * x_dot;
        let value = a * a + 100.0 * b * b;
        let a_bar = 2.0 * a;
        let a_bar_dot = 2.0 * a_dot;
        let b_bar = 200.0 * b;
        let b_bar_dot = 200.0 * b_dot;
        let x_bar = -a_bar - 2.0 * x * b_bar;
        let x_bar_dot = -a_bar_dot - 2.0 * (x_dot * b_bar + x * b_bar_dot);
        (value, (x_bar, b_bar), (x_bar_dot, b_bar_dot))
    }

    /// Value and gradient of [`long_chain`](super::long_chain).
    ///
    /// The primal sweep names every intermediate the adjoint reads (`aN` for the argument of an
    /// elementary function, `bN` for a factor or denominator, `uN`, `wN`, `accN` for the
    /// successive values of the mutable states); the adjoint sweep then runs block J back to
    /// block A and sums each parameter's contributions at the end.
    pub fn long_chain_grad(x0: f64, x1: f64, x2: f64, x3: f64, x4: f64, x5: f64) -> (f64, Six) {
        // Primal sweep.
        let q0 = x0 * x0;
        let q1 = x1 * x1;
        let q2 = x2 * x2;
        let q3 = x3 * x3;
        let q4 = x4 * x4;
        let q5 = x5 * x5;
        let r2 = q0 + q1 + q2 + q3 + q4 + q5;
        let a_r = 1.0 + r2;
        let r = a_r.sqrt();
        let inv_r = 1.0 / r;
        let p01 = x0 * x1;
        let p23 = x2 * x3;
        let p45 = x4 * x5;
        let s0 = x0.sin();
        let c0 = x0.cos();
        let c1 = x1.cos();
        let s1 = x1.sin();
        let d23 = x2 - x3;
        let s23 = d23.sin();
        let c23 = d23.cos();
        let h45 = x4 + 0.5 * x5;
        let c45 = h45.cos();
        let s45 = h45.sin();
        let sc = s0 * c1 + s23 * c45;
        let t = (x0 + x2 - x4).tanh();
        let a_l0 = 1.0 + q0;
        let l0 = a_l0.ln();
        let a_l1 = 1.0 + p23 * p23;
        let l1 = a_l1.ln();
        let d15 = x1 - x5;
        let a_l2 = 1.0 + d15 * d15;
        let l2 = a_l2.ln();
        let e0 = (-q4).exp();
        let e1 = s0.exp();
        let e2 = (0.5 * t).exp();
        let den_e = 1.0 + q3;
        let e2q = e2 / den_e;
        let ew = e0 * e1 + e2q;
        let u0 = 0.1 * x0 + 0.2 * x1;
        let u1 = (u0 * x2 + x3).tanh();
        let u2 = u1 * c1 + s23;
        let u3 = (u2 * x4 - x5).tanh();
        let a4 = u3 * x0;
        let u4 = u3 + 0.5 * a4.sin();
        let u5 = (u4 * x1 + x2).tanh();
        let v = u5 * u5 + q5;
        let sv = (1.0 + v).sqrt();
        let den0 = 2.0 + c45;
        let fr0 = x0 / den0;
        let den1 = 1.0 + q1 + q2;
        let fr1 = (x3 - x4) / den1;
        let m = fr0 - fr1 + 0.5 * t;
        let sm = m.sin();
        let cm = m.cos();
        let acc8 = p01 - p23 + 0.5 * p45 + sc * inv_r - 0.3 * t * t
            + (l0 + l1 - 0.5 * l2)
            + 0.25 * ew
            + u5
            - 0.2 * sv
            + fr0 * fr1
            + sm * cm;
        let b1 = 1.0 + 0.1 * c1;
        let b2 = 1.0 + 0.1 * t;
        let b3 = 1.0 + 0.1 * u5;
        let b4 = 1.0 + 0.1 * q5;
        let z0 = 1.0 + 0.1 * s0;
        let z1 = z0 * b1;
        let z2 = z1 * b2;
        let z3 = z2 * b3;
        let z4 = z3 / b4;
        let acc9 = acc8 * z4;
        let g0 = l0 * e1 - l1 * e0;
        let g1sq = g0 * g0 + 1.0;
        let g2 = g1sq.sqrt().ln();
        let a_g3 = p01 + p45;
        let g3 = a_g3.sin();
        let a_g4 = p23 - p01;
        let g4 = a_g4.cos();
        let y0 = (s0 + c1 + s23 + c45).tanh();
        let y1 = (y0 * x3).exp();
        let b8 = 1.0 + y1;
        let y2 = y1 / b8;
        let y3 = a_r.ln();
        let w2 = 0.5 * x5 + 0.25 * x4 - 0.125 * x3;
        let b5 = 1.0 + 0.5 * y2;
        let w3 = w2 * b5;
        let b6 = 2.0 + cm;
        let w4 = w3 / b6;
        let sw4 = w4.sin();
        let cw4 = w4.cos();
        let w5 = sw4 + 0.5 * cw4;
        let a_w6 = w5 * w5 + 1.0;
        let tm = m.tanh();
        let w7 = a_w6.ln() + tm;
        let a_o0 = x0 - x1 + x2;
        let o0 = a_o0.cos();
        let a_o1 = x3 * x4 - x5;
        let o1 = a_o1.sin();
        let o2 = o0 * o1;
        let o3 = (1.0 + o2 * o2).sqrt();
        let b7 = 1.0 + e0;
        let o4 = o3 / b7;
        let acc14 = acc9 + 0.5 * (g3 * g4 + g2) - y2 + y3 * inv_r + 0.3 * w7 + o4;
        let o5 = (0.1 * acc14).tanh();
        let a_o7 = 1.0 + sv * sv;
        let o9 = u5 * fr0 + w7 * fr1;
        let o10 = (0.5 * o9).exp();
        let acc15 = acc14 + o5 * o5 + 0.1 * a_o7.ln() - 0.2 * (o10 + sm * y0);
        let sq = (acc15 * acc15 + 1.0).sqrt();
        let value = acc15 + 0.1 * sq;

        // Adjoint sweep. Block J.
        let acc15_bar = 1.0 + 0.1 * acc15 / sq;
        let o11_bar = -0.2 * acc15_bar;
        let o9_bar = 0.5 * o10 * o11_bar;
        let o5_bar = 2.0 * o5 * acc15_bar;
        let sv_bar_o7 = 0.2 * acc15_bar * sv / a_o7;
        let acc14_bar = acc15_bar + 0.1 * (1.0 - o5 * o5) * o5_bar;
        let w7_bar = o9_bar * fr1 + 0.3 * acc14_bar;
        let o3_bar = acc14_bar / b7;
        let e0_bar_o4 = -o3_bar * o4;
        let o2_bar = o3_bar * o2 / o3;
        let a_o1_bar = o2_bar * o0 * a_o1.cos();
        let a_o0_bar = -o2_bar * o1 * a_o0.sin();
        // Block I.
        let m_bar_tm = w7_bar * (1.0 - tm * tm);
        let w5_bar = 2.0 * w7_bar * w5 / a_w6;
        let w4_bar = w5_bar * (cw4 - 0.5 * sw4);
        let w3_bar = w4_bar / b6;
        let cm_bar_w = -w3_bar * w4;
        let w2_bar = w3_bar * b5;
        // Block H.
        let y2_bar = 0.5 * w3_bar * w2 - acc14_bar;
        let y3_bar = acc14_bar * inv_r;
        let inv_r_bar_y = acc14_bar * y3;
        let y1_bar = y2_bar / (b8 * b8);
        let a_y1_bar = y1_bar * y1;
        let y0_bar = o11_bar * sm + a_y1_bar * x3;
        let a_y0_bar = y0_bar * (1.0 - y0 * y0);
        let g5_bar = 0.5 * acc14_bar;
        let a_g3_bar = g5_bar * g4 * a_g3.cos();
        let a_g4_bar = -g5_bar * g3 * a_g4.sin();
        let g0_bar = g5_bar * g0 / g1sq;
        // Block G: acc9 = acc8 z4 with z4 = z0 b1 b2 b3 / b4.
        let z4_bar = acc14_bar * acc8;
        let acc8_bar = acc14_bar * z4;
        let z3_bar = z4_bar / b4;
        let b4_bar = -z3_bar * z4;
        let z2_bar = z3_bar * b3;
        let b3_bar = z3_bar * z2;
        let z1_bar = z2_bar * b2;
        let b2_bar = z2_bar * z1;
        let z0_bar = z1_bar * b1;
        let b1_bar = z1_bar * z0;
        // Block F.
        let sm_bar = o11_bar * y0 + acc8_bar * cm;
        let cm_bar = cm_bar_w + acc8_bar * sm;
        let m_bar = m_bar_tm + sm_bar * cm - cm_bar * sm;
        let fr0_bar = o9_bar * u5 + m_bar + acc8_bar * fr1;
        let fr1_bar = o9_bar * w7 - m_bar + acc8_bar * fr0;
        let n1_bar = fr1_bar / den1;
        let den1_bar = -n1_bar * fr1;
        let num0_bar = fr0_bar / den0;
        let c45_bar_f = -num0_bar * fr0;
        // Block E.
        let sv_bar = sv_bar_o7 - 0.2 * acc8_bar;
        let v_bar = 0.5 * sv_bar / sv;
        let u5_bar = o9_bar * fr0 + 0.1 * b3_bar + acc8_bar + 2.0 * u5 * v_bar;
        let a5_bar = u5_bar * (1.0 - u5 * u5);
        let u4_bar = a5_bar * x1;
        let a4_bar = 0.5 * u4_bar * a4.cos();
        let u3_bar = u4_bar + a4_bar * x0;
        let a3_bar = u3_bar * (1.0 - u3 * u3);
        let u2_bar = a3_bar * x4;
        let a1_bar = u2_bar * c1 * (1.0 - u1 * u1);
        let u0_bar = a1_bar * x2;
        // Block D.
        let ew_bar = 0.25 * acc8_bar;
        let e0_bar = e0_bar_o4 - g0_bar * l1 + ew_bar * e1;
        let e1_bar = g0_bar * l0 + ew_bar * e0;
        let e2_bar = ew_bar / den_e;
        let den_e_bar = -e2_bar * e2q;
        // Block C.
        let l0_bar = g0_bar * e1 + acc8_bar;
        let l1_bar = acc8_bar - g0_bar * e0;
        let d15_bar = -acc8_bar * d15 / a_l2;
        // Block B.
        let t_bar = 0.1 * b2_bar - 0.6 * t * acc8_bar + 0.5 * m_bar + 0.5 * e2 * e2_bar;
        let k_bar = t_bar * (1.0 - t * t);
        let sc_bar = acc8_bar * inv_r;
        let s0_bar = a_y0_bar + 0.1 * z0_bar + sc_bar * c1 + e1 * e1_bar;
        let c1_bar = a_y0_bar + 0.1 * b1_bar + u2_bar * u1 + sc_bar * s0;
        let s23_bar = a_y0_bar + u2_bar + sc_bar * c45;
        let c45_bar = a_y0_bar + c45_bar_f + sc_bar * s23;
        let h45_bar = -c45_bar * s45;
        let d23_bar = s23_bar * c23;
        // Block A.
        let p01_bar = acc8_bar + a_g3_bar - a_g4_bar;
        let p23_bar = a_g4_bar - acc8_bar + 2.0 * l1_bar * p23 / a_l1;
        let p45_bar = 0.5 * acc8_bar + a_g3_bar;
        let inv_r_bar = inv_r_bar_y + acc8_bar * sc;
        let r2_bar = y3_bar / a_r - 0.5 * inv_r_bar * inv_r * inv_r * inv_r;
        let q0_bar = r2_bar + l0_bar / a_l0;
        let q12_bar = r2_bar + den1_bar;
        let q3_bar = r2_bar + den_e_bar;
        let q4_bar = r2_bar - e0 * e0_bar;
        let q5_bar = r2_bar + 0.1 * b4_bar + v_bar;

        let x0_bar = 2.0 * x0 * q0_bar
            + p01_bar * x1
            + s0_bar * c0
            + k_bar
            + 0.1 * u0_bar
            + a4_bar * u3
            + num0_bar
            + a_o0_bar;
        let x1_bar = 2.0 * x1 * q12_bar + p01_bar * x0 - c1_bar * s1 + d15_bar + 0.2 * u0_bar
            - a_o0_bar
            + a5_bar * u4;
        let x2_bar =
            2.0 * x2 * q12_bar + p23_bar * x3 + d23_bar + k_bar + a1_bar * u0 + a5_bar + a_o0_bar;
        let x3_bar = 2.0 * x3 * q3_bar + p23_bar * x2 - d23_bar + a1_bar + n1_bar + a_y1_bar * y0
            - 0.125 * w2_bar
            + a_o1_bar * x4;
        let x4_bar = 2.0 * x4 * q4_bar + p45_bar * x5 + h45_bar - k_bar + a3_bar * u2 - n1_bar
            + 0.25 * w2_bar
            + a_o1_bar * x3;
        let x5_bar = 2.0 * x5 * q5_bar + p45_bar * x4 + 0.5 * h45_bar - d15_bar - a3_bar
            + 0.5 * w2_bar
            - a_o1_bar;
        (value, (x0_bar, x1_bar, x2_bar, x3_bar, x4_bar, x5_bar))
    }

    /// Value, gradient and Hessian-vector product of [`long_chain`](super::long_chain).
    ///
    /// The program of [`long_chain_grad`] with the tangent of each line written right after it
    /// (forward mode over the hand-written reverse sweep); tangents that no adjoint reads (the
    /// value's) are left out.
    #[allow(clippy::too_many_arguments)] // six parameters and their six direction components
    pub fn long_chain_hvp(
        x0: f64,
        x1: f64,
        x2: f64,
        x3: f64,
        x4: f64,
        x5: f64,
        x0_dot: f64,
        x1_dot: f64,
        x2_dot: f64,
        x3_dot: f64,
        x4_dot: f64,
        x5_dot: f64,
    ) -> (f64, Six, Six) {
        // Primal sweep with tangents. Block A.
        let q0 = x0 * x0;
        let q0_dot = 2.0 * x0 * x0_dot;
        let q1 = x1 * x1;
        let q1_dot = 2.0 * x1 * x1_dot;
        let q2 = x2 * x2;
        let q2_dot = 2.0 * x2 * x2_dot;
        let q3 = x3 * x3;
        let q3_dot = 2.0 * x3 * x3_dot;
        let q4 = x4 * x4;
        let q4_dot = 2.0 * x4 * x4_dot;
        let q5 = x5 * x5;
        let q5_dot = 2.0 * x5 * x5_dot;
        let r2 = q0 + q1 + q2 + q3 + q4 + q5;
        let r2_dot = q0_dot + q1_dot + q2_dot + q3_dot + q4_dot + q5_dot;
        let a_r = 1.0 + r2;
        let r = a_r.sqrt();
        let r_dot = 0.5 * r2_dot / r;
        let inv_r = 1.0 / r;
        let inv_r_dot = -inv_r * inv_r * r_dot;
        let p01 = x0 * x1;
        let p01_dot = x0_dot * x1 + x0 * x1_dot;
        let p23 = x2 * x3;
        let p23_dot = x2_dot * x3 + x2 * x3_dot;
        let p45 = x4 * x5;
        let p45_dot = x4_dot * x5 + x4 * x5_dot;
        // Block B.
        let s0 = x0.sin();
        let c0 = x0.cos();
        let s0_dot = c0 * x0_dot;
        let c0_dot = -s0 * x0_dot;
        let c1 = x1.cos();
        let s1 = x1.sin();
        let c1_dot = -s1 * x1_dot;
        let s1_dot = c1 * x1_dot;
        let d23 = x2 - x3;
        let d23_dot = x2_dot - x3_dot;
        let s23 = d23.sin();
        let c23 = d23.cos();
        let s23_dot = c23 * d23_dot;
        let c23_dot = -s23 * d23_dot;
        let h45 = x4 + 0.5 * x5;
        let h45_dot = x4_dot + 0.5 * x5_dot;
        let c45 = h45.cos();
        let s45 = h45.sin();
        let c45_dot = -s45 * h45_dot;
        let s45_dot = c45 * h45_dot;
        let sc = s0 * c1 + s23 * c45;
        let sc_dot = s0_dot * c1 + s0 * c1_dot + s23_dot * c45 + s23 * c45_dot;
        let t = (x0 + x2 - x4).tanh();
        let dt = 1.0 - t * t;
        let t_dot = dt * (x0_dot + x2_dot - x4_dot);
        // Block C.
        let a_l0 = 1.0 + q0;
        let l0 = a_l0.ln();
        let l0_dot = q0_dot / a_l0;
        let a_l1 = 1.0 + p23 * p23;
        let a_l1_dot = 2.0 * p23 * p23_dot;
        let l1 = a_l1.ln();
        let l1_dot = a_l1_dot / a_l1;
        let d15 = x1 - x5;
        let d15_dot = x1_dot - x5_dot;
        let a_l2 = 1.0 + d15 * d15;
        let a_l2_dot = 2.0 * d15 * d15_dot;
        let l2 = a_l2.ln();
        let l2_dot = a_l2_dot / a_l2;
        // Block D.
        let e0 = (-q4).exp();
        let e0_dot = -e0 * q4_dot;
        let e1 = s0.exp();
        let e1_dot = e1 * s0_dot;
        let e2 = (0.5 * t).exp();
        let e2_dot = 0.5 * e2 * t_dot;
        let den_e = 1.0 + q3;
        let e2q = e2 / den_e;
        let e2q_dot = (e2_dot - e2q * q3_dot) / den_e;
        let ew = e0 * e1 + e2q;
        let ew_dot = e0_dot * e1 + e0 * e1_dot + e2q_dot;
        // Block E.
        let u0 = 0.1 * x0 + 0.2 * x1;
        let u0_dot = 0.1 * x0_dot + 0.2 * x1_dot;
        let u1 = (u0 * x2 + x3).tanh();
        let du1 = 1.0 - u1 * u1;
        let u1_dot = du1 * (u0_dot * x2 + u0 * x2_dot + x3_dot);
        let u2 = u1 * c1 + s23;
        let u2_dot = u1_dot * c1 + u1 * c1_dot + s23_dot;
        let u3 = (u2 * x4 - x5).tanh();
        let du3 = 1.0 - u3 * u3;
        let u3_dot = du3 * (u2_dot * x4 + u2 * x4_dot - x5_dot);
        let a4 = u3 * x0;
        let a4_dot = u3_dot * x0 + u3 * x0_dot;
        let sa4 = a4.sin();
        let ca4 = a4.cos();
        let sa4_dot = ca4 * a4_dot;
        let ca4_dot = -sa4 * a4_dot;
        let u4 = u3 + 0.5 * sa4;
        let u4_dot = u3_dot + 0.5 * sa4_dot;
        let u5 = (u4 * x1 + x2).tanh();
        let du5 = 1.0 - u5 * u5;
        let u5_dot = du5 * (u4_dot * x1 + u4 * x1_dot + x2_dot);
        let v = u5 * u5 + q5;
        let v_dot = 2.0 * u5 * u5_dot + q5_dot;
        let sv = (1.0 + v).sqrt();
        let sv_dot = 0.5 * v_dot / sv;
        // Block F.
        let den0 = 2.0 + c45;
        let fr0 = x0 / den0;
        let fr0_dot = (x0_dot - fr0 * c45_dot) / den0;
        let den1 = 1.0 + q1 + q2;
        let den1_dot = q1_dot + q2_dot;
        let fr1 = (x3 - x4) / den1;
        let fr1_dot = (x3_dot - x4_dot - fr1 * den1_dot) / den1;
        let m = fr0 - fr1 + 0.5 * t;
        let m_dot = fr0_dot - fr1_dot + 0.5 * t_dot;
        let sm = m.sin();
        let cm = m.cos();
        let sm_dot = cm * m_dot;
        let cm_dot = -sm * m_dot;
        let acc8 = p01 - p23 + 0.5 * p45 + sc * inv_r - 0.3 * t * t
            + (l0 + l1 - 0.5 * l2)
            + 0.25 * ew
            + u5
            - 0.2 * sv
            + fr0 * fr1
            + sm * cm;
        let acc8_dot = p01_dot - p23_dot + 0.5 * p45_dot + sc_dot * inv_r + sc * inv_r_dot
            - 0.6 * t * t_dot
            + (l0_dot + l1_dot - 0.5 * l2_dot)
            + 0.25 * ew_dot
            + u5_dot
            - 0.2 * sv_dot
            + fr0_dot * fr1
            + fr0 * fr1_dot
            + sm_dot * cm
            + sm * cm_dot;
        // Block G.
        let b1 = 1.0 + 0.1 * c1;
        let b1_dot = 0.1 * c1_dot;
        let b2 = 1.0 + 0.1 * t;
        let b2_dot = 0.1 * t_dot;
        let b3 = 1.0 + 0.1 * u5;
        let b3_dot = 0.1 * u5_dot;
        let b4 = 1.0 + 0.1 * q5;
        let b4_dot = 0.1 * q5_dot;
        let z0 = 1.0 + 0.1 * s0;
        let z0_dot = 0.1 * s0_dot;
        let z1 = z0 * b1;
        let z1_dot = z0_dot * b1 + z0 * b1_dot;
        let z2 = z1 * b2;
        let z2_dot = z1_dot * b2 + z1 * b2_dot;
        let z3 = z2 * b3;
        let z3_dot = z2_dot * b3 + z2 * b3_dot;
        let z4 = z3 / b4;
        let z4_dot = (z3_dot - z4 * b4_dot) / b4;
        let acc9 = acc8 * z4;
        let acc9_dot = acc8_dot * z4 + acc8 * z4_dot;
        // Block H.
        let g0 = l0 * e1 - l1 * e0;
        let g0_dot = l0_dot * e1 + l0 * e1_dot - l1_dot * e0 - l1 * e0_dot;
        let g1sq = g0 * g0 + 1.0;
        let g1sq_dot = 2.0 * g0 * g0_dot;
        let g2 = g1sq.sqrt().ln();
        let g2_dot = 0.5 * g1sq_dot / g1sq;
        let a_g3 = p01 + p45;
        let g3 = a_g3.sin();
        let cg3 = a_g3.cos();
        let g3_dot = cg3 * (p01_dot + p45_dot);
        let cg3_dot = -g3 * (p01_dot + p45_dot);
        let a_g4 = p23 - p01;
        let g4 = a_g4.cos();
        let sg4 = a_g4.sin();
        let g4_dot = -sg4 * (p23_dot - p01_dot);
        let sg4_dot = g4 * (p23_dot - p01_dot);
        let y0 = (s0 + c1 + s23 + c45).tanh();
        let dy0 = 1.0 - y0 * y0;
        let y0_dot = dy0 * (s0_dot + c1_dot + s23_dot + c45_dot);
        let y1 = (y0 * x3).exp();
        let y1_dot = y1 * (y0_dot * x3 + y0 * x3_dot);
        let b8 = 1.0 + y1;
        let y2 = y1 / b8;
        let y2_dot = y1_dot / (b8 * b8);
        let y3 = a_r.ln();
        let y3_dot = r2_dot / a_r;
        // Block I.
        let w2 = 0.5 * x5 + 0.25 * x4 - 0.125 * x3;
        let w2_dot = 0.5 * x5_dot + 0.25 * x4_dot - 0.125 * x3_dot;
        let b5 = 1.0 + 0.5 * y2;
        let b5_dot = 0.5 * y2_dot;
        let w3 = w2 * b5;
        let w3_dot = w2_dot * b5 + w2 * b5_dot;
        let b6 = 2.0 + cm;
        let w4 = w3 / b6;
        let w4_dot = (w3_dot - w4 * cm_dot) / b6;
        let sw4 = w4.sin();
        let cw4 = w4.cos();
        let sw4_dot = cw4 * w4_dot;
        let cw4_dot = -sw4 * w4_dot;
        let w5 = sw4 + 0.5 * cw4;
        let w5_dot = sw4_dot + 0.5 * cw4_dot;
        let a_w6 = w5 * w5 + 1.0;
        let a_w6_dot = 2.0 * w5 * w5_dot;
        let tm = m.tanh();
        let dtm = 1.0 - tm * tm;
        let tm_dot = dtm * m_dot;
        let w7 = a_w6.ln() + tm;
        let w7_dot = a_w6_dot / a_w6 + tm_dot;
        // Block J.
        let a_o0 = x0 - x1 + x2;
        let o0 = a_o0.cos();
        let so0 = a_o0.sin();
        let a_o0_dot = x0_dot - x1_dot + x2_dot;
        let o0_dot = -so0 * a_o0_dot;
        let so0_dot = o0 * a_o0_dot;
        let a_o1 = x3 * x4 - x5;
        let o1 = a_o1.sin();
        let co1 = a_o1.cos();
        let a_o1_dot = x3_dot * x4 + x3 * x4_dot - x5_dot;
        let o1_dot = co1 * a_o1_dot;
        let co1_dot = -o1 * a_o1_dot;
        let o2 = o0 * o1;
        let o2_dot = o0_dot * o1 + o0 * o1_dot;
        let o3 = (1.0 + o2 * o2).sqrt();
        let o3_dot = o2 * o2_dot / o3;
        let b7 = 1.0 + e0;
        let o4 = o3 / b7;
        let o4_dot = (o3_dot - o4 * e0_dot) / b7;
        let acc14 = acc9 + 0.5 * (g3 * g4 + g2) - y2 + y3 * inv_r + 0.3 * w7 + o4;
        let acc14_dot = acc9_dot + 0.5 * (g3_dot * g4 + g3 * g4_dot + g2_dot) - y2_dot
            + y3_dot * inv_r
            + y3 * inv_r_dot
            + 0.3 * w7_dot
            + o4_dot;
        let o5 = (0.1 * acc14).tanh();
        let do5 = 1.0 - o5 * o5;
        let o5_dot = 0.1 * do5 * acc14_dot;
        let a_o7 = 1.0 + sv * sv;
        let a_o7_dot = 2.0 * sv * sv_dot;
        let o9 = u5 * fr0 + w7 * fr1;
        let o9_dot = u5_dot * fr0 + u5 * fr0_dot + w7_dot * fr1 + w7 * fr1_dot;
        let o10 = (0.5 * o9).exp();
        let o10_dot = 0.5 * o10 * o9_dot;
        let acc15 = acc14 + o5 * o5 + 0.1 * a_o7.ln() - 0.2 * (o10 + sm * y0);
        let acc15_dot = acc14_dot + 2.0 * o5 * o5_dot + 0.1 * a_o7_dot / a_o7
            - 0.2 * (o10_dot + sm_dot * y0 + sm * y0_dot);
        let sq = (acc15 * acc15 + 1.0).sqrt();
        let sq_dot = acc15 * acc15_dot / sq;
        let value = acc15 + 0.1 * sq;

        // Adjoint sweep with tangents. Block J.
        let ratio = acc15 / sq;
        let ratio_dot = (acc15_dot - ratio * sq_dot) / sq;
        let acc15_bar = 1.0 + 0.1 * ratio;
        let acc15_bar_dot = 0.1 * ratio_dot;
        let o11_bar = -0.2 * acc15_bar;
        let o11_bar_dot = -0.2 * acc15_bar_dot;
        let o9_bar = 0.5 * o10 * o11_bar;
        let o9_bar_dot = 0.5 * (o10_dot * o11_bar + o10 * o11_bar_dot);
        let o5_bar = 2.0 * o5 * acc15_bar;
        let o5_bar_dot = 2.0 * (o5_dot * acc15_bar + o5 * acc15_bar_dot);
        let svq = sv / a_o7;
        let svq_dot = (sv_dot - svq * a_o7_dot) / a_o7;
        let sv_bar_o7 = 0.2 * acc15_bar * svq;
        let sv_bar_o7_dot = 0.2 * (acc15_bar_dot * svq + acc15_bar * svq_dot);
        let acc14_bar = acc15_bar + 0.1 * do5 * o5_bar;
        let acc14_bar_dot = acc15_bar_dot + 0.1 * (-2.0 * o5 * o5_dot * o5_bar + do5 * o5_bar_dot);
        let w7_bar = o9_bar * fr1 + 0.3 * acc14_bar;
        let w7_bar_dot = o9_bar_dot * fr1 + o9_bar * fr1_dot + 0.3 * acc14_bar_dot;
        let o3_bar = acc14_bar / b7;
        let o3_bar_dot = (acc14_bar_dot - o3_bar * e0_dot) / b7;
        let e0_bar_o4 = -o3_bar * o4;
        let e0_bar_o4_dot = -(o3_bar_dot * o4 + o3_bar * o4_dot);
        let o2q = o2 / o3;
        let o2q_dot = (o2_dot - o2q * o3_dot) / o3;
        let o2_bar = o3_bar * o2q;
        let o2_bar_dot = o3_bar_dot * o2q + o3_bar * o2q_dot;
        let a_o1_bar = o2_bar * o0 * co1;
        let a_o1_bar_dot = o2_bar_dot * o0 * co1 + o2_bar * o0_dot * co1 + o2_bar * o0 * co1_dot;
        let a_o0_bar = -o2_bar * o1 * so0;
        let a_o0_bar_dot = -(o2_bar_dot * o1 * so0 + o2_bar * o1_dot * so0 + o2_bar * o1 * so0_dot);
        // Block I.
        let m_bar_tm = w7_bar * dtm;
        let m_bar_tm_dot = w7_bar_dot * dtm - 2.0 * w7_bar * tm * tm_dot;
        let w5q = w5 / a_w6;
        let w5q_dot = (w5_dot - w5q * a_w6_dot) / a_w6;
        let w5_bar = 2.0 * w7_bar * w5q;
        let w5_bar_dot = 2.0 * (w7_bar_dot * w5q + w7_bar * w5q_dot);
        let dw4 = cw4 - 0.5 * sw4;
        let dw4_dot = cw4_dot - 0.5 * sw4_dot;
        let w4_bar = w5_bar * dw4;
        let w4_bar_dot = w5_bar_dot * dw4 + w5_bar * dw4_dot;
        let w3_bar = w4_bar / b6;
        let w3_bar_dot = (w4_bar_dot - w3_bar * cm_dot) / b6;
        let cm_bar_w = -w3_bar * w4;
        let cm_bar_w_dot = -(w3_bar_dot * w4 + w3_bar * w4_dot);
        let w2_bar = w3_bar * b5;
        let w2_bar_dot = w3_bar_dot * b5 + w3_bar * b5_dot;
        // Block H.
        let y2_bar = 0.5 * w3_bar * w2 - acc14_bar;
        let y2_bar_dot = 0.5 * (w3_bar_dot * w2 + w3_bar * w2_dot) - acc14_bar_dot;
        let y3_bar = acc14_bar * inv_r;
        let y3_bar_dot = acc14_bar_dot * inv_r + acc14_bar * inv_r_dot;
        let inv_r_bar_y = acc14_bar * y3;
        let inv_r_bar_y_dot = acc14_bar_dot * y3 + acc14_bar * y3_dot;
        let b8sq = b8 * b8;
        let y1_bar = y2_bar / b8sq;
        let y1_bar_dot = (y2_bar_dot - 2.0 * y1_bar * b8 * y1_dot) / b8sq;
        let a_y1_bar = y1_bar * y1;
        let a_y1_bar_dot = y1_bar_dot * y1 + y1_bar * y1_dot;
        let y0_bar = o11_bar * sm + a_y1_bar * x3;
        let y0_bar_dot =
            o11_bar_dot * sm + o11_bar * sm_dot + a_y1_bar_dot * x3 + a_y1_bar * x3_dot;
        let a_y0_bar = y0_bar * dy0;
        let a_y0_bar_dot = y0_bar_dot * dy0 - 2.0 * y0_bar * y0 * y0_dot;
        let g5_bar = 0.5 * acc14_bar;
        let g5_bar_dot = 0.5 * acc14_bar_dot;
        let a_g3_bar = g5_bar * g4 * cg3;
        let a_g3_bar_dot = g5_bar_dot * g4 * cg3 + g5_bar * g4_dot * cg3 + g5_bar * g4 * cg3_dot;
        let a_g4_bar = -g5_bar * g3 * sg4;
        let a_g4_bar_dot = -(g5_bar_dot * g3 * sg4 + g5_bar * g3_dot * sg4 + g5_bar * g3 * sg4_dot);
        let g0q = g0 / g1sq;
        let g0q_dot = (g0_dot - g0q * g1sq_dot) / g1sq;
        let g0_bar = g5_bar * g0q;
        let g0_bar_dot = g5_bar_dot * g0q + g5_bar * g0q_dot;
        // Block G.
        let z4_bar = acc14_bar * acc8;
        let z4_bar_dot = acc14_bar_dot * acc8 + acc14_bar * acc8_dot;
        let acc8_bar = acc14_bar * z4;
        let acc8_bar_dot = acc14_bar_dot * z4 + acc14_bar * z4_dot;
        let z3_bar = z4_bar / b4;
        let z3_bar_dot = (z4_bar_dot - z3_bar * b4_dot) / b4;
        let b4_bar = -z3_bar * z4;
        let b4_bar_dot = -(z3_bar_dot * z4 + z3_bar * z4_dot);
        let z2_bar = z3_bar * b3;
        let z2_bar_dot = z3_bar_dot * b3 + z3_bar * b3_dot;
        let b3_bar = z3_bar * z2;
        let b3_bar_dot = z3_bar_dot * z2 + z3_bar * z2_dot;
        let z1_bar = z2_bar * b2;
        let z1_bar_dot = z2_bar_dot * b2 + z2_bar * b2_dot;
        let b2_bar = z2_bar * z1;
        let b2_bar_dot = z2_bar_dot * z1 + z2_bar * z1_dot;
        let z0_bar = z1_bar * b1;
        let z0_bar_dot = z1_bar_dot * b1 + z1_bar * b1_dot;
        let b1_bar = z1_bar * z0;
        let b1_bar_dot = z1_bar_dot * z0 + z1_bar * z0_dot;
        // Block F.
        let sm_bar = o11_bar * y0 + acc8_bar * cm;
        let sm_bar_dot =
            o11_bar_dot * y0 + o11_bar * y0_dot + acc8_bar_dot * cm + acc8_bar * cm_dot;
        let cm_bar = cm_bar_w + acc8_bar * sm;
        let cm_bar_dot = cm_bar_w_dot + acc8_bar_dot * sm + acc8_bar * sm_dot;
        let m_bar = m_bar_tm + sm_bar * cm - cm_bar * sm;
        let m_bar_dot =
            m_bar_tm_dot + sm_bar_dot * cm + sm_bar * cm_dot - cm_bar_dot * sm - cm_bar * sm_dot;
        let fr0_bar = o9_bar * u5 + m_bar + acc8_bar * fr1;
        let fr0_bar_dot =
            o9_bar_dot * u5 + o9_bar * u5_dot + m_bar_dot + acc8_bar_dot * fr1 + acc8_bar * fr1_dot;
        let fr1_bar = o9_bar * w7 - m_bar + acc8_bar * fr0;
        let fr1_bar_dot =
            o9_bar_dot * w7 + o9_bar * w7_dot - m_bar_dot + acc8_bar_dot * fr0 + acc8_bar * fr0_dot;
        let n1_bar = fr1_bar / den1;
        let n1_bar_dot = (fr1_bar_dot - n1_bar * den1_dot) / den1;
        let den1_bar = -n1_bar * fr1;
        let den1_bar_dot = -(n1_bar_dot * fr1 + n1_bar * fr1_dot);
        let num0_bar = fr0_bar / den0;
        let num0_bar_dot = (fr0_bar_dot - num0_bar * c45_dot) / den0;
        let c45_bar_f = -num0_bar * fr0;
        let c45_bar_f_dot = -(num0_bar_dot * fr0 + num0_bar * fr0_dot);
        // Block E.
        let sv_bar = sv_bar_o7 - 0.2 * acc8_bar;
        let sv_bar_dot = sv_bar_o7_dot - 0.2 * acc8_bar_dot;
        let v_bar = 0.5 * sv_bar / sv;
        let v_bar_dot = (0.5 * sv_bar_dot - v_bar * sv_dot) / sv;
        let u5_bar = o9_bar * fr0 + 0.1 * b3_bar + acc8_bar + 2.0 * u5 * v_bar;
        let u5_bar_dot = o9_bar_dot * fr0
            + o9_bar * fr0_dot
            + 0.1 * b3_bar_dot
            + acc8_bar_dot
            + 2.0 * (u5_dot * v_bar + u5 * v_bar_dot);
        let a5_bar = u5_bar * du5;
        let a5_bar_dot = u5_bar_dot * du5 - 2.0 * u5_bar * u5 * u5_dot;
        let u4_bar = a5_bar * x1;
        let u4_bar_dot = a5_bar_dot * x1 + a5_bar * x1_dot;
        let a4_bar = 0.5 * u4_bar * ca4;
        let a4_bar_dot = 0.5 * (u4_bar_dot * ca4 + u4_bar * ca4_dot);
        let u3_bar = u4_bar + a4_bar * x0;
        let u3_bar_dot = u4_bar_dot + a4_bar_dot * x0 + a4_bar * x0_dot;
        let a3_bar = u3_bar * du3;
        let a3_bar_dot = u3_bar_dot * du3 - 2.0 * u3_bar * u3 * u3_dot;
        let u2_bar = a3_bar * x4;
        let u2_bar_dot = a3_bar_dot * x4 + a3_bar * x4_dot;
        let u1_bar = u2_bar * c1;
        let u1_bar_dot = u2_bar_dot * c1 + u2_bar * c1_dot;
        let a1_bar = u1_bar * du1;
        let a1_bar_dot = u1_bar_dot * du1 - 2.0 * u1_bar * u1 * u1_dot;
        let u0_bar = a1_bar * x2;
        let u0_bar_dot = a1_bar_dot * x2 + a1_bar * x2_dot;
        // Block D.
        let ew_bar = 0.25 * acc8_bar;
        let ew_bar_dot = 0.25 * acc8_bar_dot;
        let e0_bar = e0_bar_o4 - g0_bar * l1 + ew_bar * e1;
        let e0_bar_dot =
            e0_bar_o4_dot - g0_bar_dot * l1 - g0_bar * l1_dot + ew_bar_dot * e1 + ew_bar * e1_dot;
        let e1_bar = g0_bar * l0 + ew_bar * e0;
        let e1_bar_dot = g0_bar_dot * l0 + g0_bar * l0_dot + ew_bar_dot * e0 + ew_bar * e0_dot;
        let e2_bar = ew_bar / den_e;
        let e2_bar_dot = (ew_bar_dot - e2_bar * q3_dot) / den_e;
        let den_e_bar = -e2_bar * e2q;
        let den_e_bar_dot = -(e2_bar_dot * e2q + e2_bar * e2q_dot);
        // Block C.
        let l0_bar = g0_bar * e1 + acc8_bar;
        let l0_bar_dot = g0_bar_dot * e1 + g0_bar * e1_dot + acc8_bar_dot;
        let l1_bar = acc8_bar - g0_bar * e0;
        let l1_bar_dot = acc8_bar_dot - g0_bar_dot * e0 - g0_bar * e0_dot;
        let d15q = d15 / a_l2;
        let d15q_dot = (d15_dot - d15q * a_l2_dot) / a_l2;
        let d15_bar = -acc8_bar * d15q;
        let d15_bar_dot = -(acc8_bar_dot * d15q + acc8_bar * d15q_dot);
        // Block B.
        let t_bar = 0.1 * b2_bar - 0.6 * t * acc8_bar + 0.5 * m_bar + 0.5 * e2 * e2_bar;
        let t_bar_dot = 0.1 * b2_bar_dot - 0.6 * (t_dot * acc8_bar + t * acc8_bar_dot)
            + 0.5 * m_bar_dot
            + 0.5 * (e2_dot * e2_bar + e2 * e2_bar_dot);
        let k_bar = t_bar * dt;
        let k_bar_dot = t_bar_dot * dt - 2.0 * t_bar * t * t_dot;
        let sc_bar = acc8_bar * inv_r;
        let sc_bar_dot = acc8_bar_dot * inv_r + acc8_bar * inv_r_dot;
        let s0_bar = a_y0_bar + 0.1 * z0_bar + sc_bar * c1 + e1 * e1_bar;
        let s0_bar_dot = a_y0_bar_dot
            + 0.1 * z0_bar_dot
            + sc_bar_dot * c1
            + sc_bar * c1_dot
            + e1_dot * e1_bar
            + e1 * e1_bar_dot;
        let c1_bar = a_y0_bar + 0.1 * b1_bar + u2_bar * u1 + sc_bar * s0;
        let c1_bar_dot = a_y0_bar_dot
            + 0.1 * b1_bar_dot
            + u2_bar_dot * u1
            + u2_bar * u1_dot
            + sc_bar_dot * s0
            + sc_bar * s0_dot;
        let s23_bar = a_y0_bar + u2_bar + sc_bar * c45;
        let s23_bar_dot = a_y0_bar_dot + u2_bar_dot + sc_bar_dot * c45 + sc_bar * c45_dot;
        let c45_bar = a_y0_bar + c45_bar_f + sc_bar * s23;
        let c45_bar_dot = a_y0_bar_dot + c45_bar_f_dot + sc_bar_dot * s23 + sc_bar * s23_dot;
        let h45_bar = -c45_bar * s45;
        let h45_bar_dot = -(c45_bar_dot * s45 + c45_bar * s45_dot);
        let d23_bar = s23_bar * c23;
        let d23_bar_dot = s23_bar_dot * c23 + s23_bar * c23_dot;
        // Block A.
        let p01_bar = acc8_bar + a_g3_bar - a_g4_bar;
        let p01_bar_dot = acc8_bar_dot + a_g3_bar_dot - a_g4_bar_dot;
        let l1q = p23 / a_l1;
        let l1q_dot = (p23_dot - l1q * a_l1_dot) / a_l1;
        let p23_bar = a_g4_bar - acc8_bar + 2.0 * l1_bar * l1q;
        let p23_bar_dot = a_g4_bar_dot - acc8_bar_dot + 2.0 * (l1_bar_dot * l1q + l1_bar * l1q_dot);
        let p45_bar = 0.5 * acc8_bar + a_g3_bar;
        let p45_bar_dot = 0.5 * acc8_bar_dot + a_g3_bar_dot;
        let inv_r_bar = inv_r_bar_y + acc8_bar * sc;
        let inv_r_bar_dot = inv_r_bar_y_dot + acc8_bar_dot * sc + acc8_bar * sc_dot;
        let c_r = 0.5 * inv_r * inv_r * inv_r;
        let c_r_dot = 1.5 * inv_r * inv_r * inv_r_dot;
        let y3q = y3_bar / a_r;
        let y3q_dot = (y3_bar_dot - y3q * r2_dot) / a_r;
        let r2_bar = y3q - inv_r_bar * c_r;
        let r2_bar_dot = y3q_dot - inv_r_bar_dot * c_r - inv_r_bar * c_r_dot;
        let l0q = l0_bar / a_l0;
        let l0q_dot = (l0_bar_dot - l0q * q0_dot) / a_l0;
        let q0_bar = r2_bar + l0q;
        let q0_bar_dot = r2_bar_dot + l0q_dot;
        let q12_bar = r2_bar + den1_bar;
        let q12_bar_dot = r2_bar_dot + den1_bar_dot;
        let q3_bar = r2_bar + den_e_bar;
        let q3_bar_dot = r2_bar_dot + den_e_bar_dot;
        let q4_bar = r2_bar - e0 * e0_bar;
        let q4_bar_dot = r2_bar_dot - e0_dot * e0_bar - e0 * e0_bar_dot;
        let q5_bar = r2_bar + 0.1 * b4_bar + v_bar;
        let q5_bar_dot = r2_bar_dot + 0.1 * b4_bar_dot + v_bar_dot;

        let x0_bar = 2.0 * x0 * q0_bar
            + p01_bar * x1
            + s0_bar * c0
            + k_bar
            + 0.1 * u0_bar
            + a4_bar * u3
            + num0_bar
            + a_o0_bar;
        let x0_bar_dot = 2.0 * (x0_dot * q0_bar + x0 * q0_bar_dot)
            + p01_bar_dot * x1
            + p01_bar * x1_dot
            + s0_bar_dot * c0
            + s0_bar * c0_dot
            + k_bar_dot
            + 0.1 * u0_bar_dot
            + a4_bar_dot * u3
            + a4_bar * u3_dot
            + num0_bar_dot
            + a_o0_bar_dot;
        let x1_bar = 2.0 * x1 * q12_bar + p01_bar * x0 - c1_bar * s1 + d15_bar + 0.2 * u0_bar
            - a_o0_bar
            + a5_bar * u4;
        let x1_bar_dot =
            2.0 * (x1_dot * q12_bar + x1 * q12_bar_dot) + p01_bar_dot * x0 + p01_bar * x0_dot
                - c1_bar_dot * s1
                - c1_bar * s1_dot
                + d15_bar_dot
                + 0.2 * u0_bar_dot
                - a_o0_bar_dot
                + a5_bar_dot * u4
                + a5_bar * u4_dot;
        let x2_bar =
            2.0 * x2 * q12_bar + p23_bar * x3 + d23_bar + k_bar + a1_bar * u0 + a5_bar + a_o0_bar;
        let x2_bar_dot = 2.0 * (x2_dot * q12_bar + x2 * q12_bar_dot)
            + p23_bar_dot * x3
            + p23_bar * x3_dot
            + d23_bar_dot
            + k_bar_dot
            + a1_bar_dot * u0
            + a1_bar * u0_dot
            + a5_bar_dot
            + a_o0_bar_dot;
        let x3_bar = 2.0 * x3 * q3_bar + p23_bar * x2 - d23_bar + a1_bar + n1_bar + a_y1_bar * y0
            - 0.125 * w2_bar
            + a_o1_bar * x4;
        let x3_bar_dot =
            2.0 * (x3_dot * q3_bar + x3 * q3_bar_dot) + p23_bar_dot * x2 + p23_bar * x2_dot
                - d23_bar_dot
                + a1_bar_dot
                + n1_bar_dot
                + a_y1_bar_dot * y0
                + a_y1_bar * y0_dot
                - 0.125 * w2_bar_dot
                + a_o1_bar_dot * x4
                + a_o1_bar * x4_dot;
        let x4_bar = 2.0 * x4 * q4_bar + p45_bar * x5 + h45_bar - k_bar + a3_bar * u2 - n1_bar
            + 0.25 * w2_bar
            + a_o1_bar * x3;
        let x4_bar_dot = 2.0 * (x4_dot * q4_bar + x4 * q4_bar_dot)
            + p45_bar_dot * x5
            + p45_bar * x5_dot
            + h45_bar_dot
            - k_bar_dot
            + a3_bar_dot * u2
            + a3_bar * u2_dot
            - n1_bar_dot
            + 0.25 * w2_bar_dot
            + a_o1_bar_dot * x3
            + a_o1_bar * x3_dot;
        let x5_bar = 2.0 * x5 * q5_bar + p45_bar * x4 + 0.5 * h45_bar - d15_bar - a3_bar
            + 0.5 * w2_bar
            - a_o1_bar;
        let x5_bar_dot = 2.0 * (x5_dot * q5_bar + x5 * q5_bar_dot)
            + p45_bar_dot * x4
            + p45_bar * x4_dot
            + 0.5 * h45_bar_dot
            - d15_bar_dot
            - a3_bar_dot
            + 0.5 * w2_bar_dot
            - a_o1_bar_dot;
        (
            value,
            (x0_bar, x1_bar, x2_bar, x3_bar, x4_bar, x5_bar),
            (x0_bar_dot, x1_bar_dot, x2_bar_dot, x3_bar_dot, x4_bar_dot, x5_bar_dot),
        )
    }
}
