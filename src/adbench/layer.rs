//! A dense `tanh` layer with its weights in one flat array, as a neural-network library stores
//! them: `N` outputs of `M` inputs, weight `(j, k)` at `p[j * M + k]` and bias `j` at
//! `p[N * M + j]`, with a squared loss against `y`. Not one of ADBench's problems, but the
//! building block of the networks its LSTM stands for; [`manual`] is its gradient by hand.
// Index loops are the macro's subset, and ADBench's C++ loops ported as written.
#![allow(clippy::needless_range_loop)]

use autodiff_runtime::grad;

/// `Σⱼ (tanh(Σₖ p[j M + k] xₖ + p[N M + j]) − yⱼ)²`; `P` must be `N M + N`.
#[grad(wrt(p))]
pub fn dense<const N: usize, const M: usize, const P: usize>(
    p: &[f64; P],
    x: &[f64; M],
    y: &[f64; N],
) -> f64 {
    let mut loss = 0.0;
    for j in 0..N {
        let mut z = p[N * M + j];
        for k in 0..M {
            z += p[j * M + k] * x[k];
        }
        let e = z.tanh() - y[j];
        loss += e * e;
    }
    loss
}

/// The hand-written gradient of [`dense`].
pub mod manual {
    /// Value and gradient of [`super::dense`] in `p`: per output, the pre-activation, then
    /// `z̄ = 2 (tanh z − y) (1 − tanh² z)`, `p̄[j M + k] = z̄ xₖ`, `p̄[N M + j] = z̄`.
    pub fn dense_grad<const N: usize, const M: usize, const P: usize>(
        p: &[f64; P],
        x: &[f64; M],
        y: &[f64; N],
    ) -> (f64, [f64; P]) {
        let mut p_bar = [0.0; P];
        let mut loss = 0.0;
        for j in 0..N {
            let row = &p[j * M..(j + 1) * M];
            let mut z = p[N * M + j];
            for k in 0..M {
                z += row[k] * x[k];
            }
            let h = z.tanh();
            let e = h - y[j];
            loss += e * e;
            let z_bar = 2.0 * e * (1.0 - h * h);
            for (g, xk) in p_bar[j * M..(j + 1) * M].iter_mut().zip(x) {
                *g = z_bar * xk;
            }
            p_bar[N * M + j] = z_bar;
        }
        (loss, p_bar)
    }
}
