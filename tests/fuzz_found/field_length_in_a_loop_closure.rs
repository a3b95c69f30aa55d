//! Bug 54 (fuzz seed 9322): a local bound to an array field of a call's struct value
//! (`let mut w = r.out1;`, its length read from `Differentiable::TREE` in an inline `const`
//! block) and updated in a loop: the loop's stored and checkpointed sweeps are closures, and
//! the repeat expressions there (`[0.0; const { field_dim::<Out>(..) }]`) tripped
//! `const_evaluatable_unchecked` (denied by `deny(warnings)`). Repeat lengths are now written
//! without the inline `const`. Checked against central finite differences, stored and
//! checkpointed.

#![deny(warnings, clippy::all)]
#![forbid(unsafe_code)]

use autodiff_runtime::{Differentiable, grad, numeric_gradient};

#[derive(Clone, Copy, Differentiable)]
pub struct Out {
    pub a: f64,
    pub v: [f64; 2],
}

#[grad(jvp, hvp)]
pub fn make(h: &[f64; 2]) -> Out {
    Out { a: h[0] * h[1], v: [h[1].sin(), h[0]] }
}

#[grad(jvp, jacobian(reverse))]
#[allow(clippy::needless_range_loop)]
pub fn stored(x: f64, h: &[f64; 2]) -> [f64; 2] {
        let r: Out = make(h);
        let mut s = r.a;
        let mut w = r.v;
        for i in 0..2 {
            w[i] = x * w[i].sin();
            for j in 0..2 {
                if h[j] > 0.2 {
                    s *= 1.0 + 0.5 * (x * w[(j + 1) % 2]).cos();
                    w[0] += s;
                }
            }
        }
        [w[0] * w[1], s]
}

/// The same, its loop checkpointed.
#[grad(jvp, jacobian(reverse), checkpoint(s = 1))]
#[allow(clippy::needless_range_loop)]
pub fn checkpointed(x: f64, h: &[f64; 2]) -> [f64; 2] {
        let r: Out = make(h);
        let mut s = r.a;
        let mut w = r.v;
        for i in 0..2 {
            w[i] = x * w[i].sin();
            for j in 0..2 {
                if h[j] > 0.2 {
                    s *= 1.0 + 0.5 * (x * w[(j + 1) % 2]).cos();
                    w[0] += s;
                }
            }
        }
        [w[0] * w[1], s]
}

fn main() {
    let p = [0.7, 0.4, 1.3];
    let plain = |p: &[f64]| stored(p[0], &[p[1], p[2]]);
    for row in 0..2 {
        let fd = numeric_gradient(|p| plain(p)[row], &p);
        let mut bar = [0.0; 2];
        bar[row] = 1.0;
        for (y, (bx, bh)) in
            [stored_vjp(p[0], &[p[1], p[2]], bar), checkpointed_vjp(p[0], &[p[1], p[2]], bar)]
        {
            assert_eq!(y, plain(&p));
            for (a, b) in [bx, bh[0], bh[1]].iter().zip(&fd) {
                assert!((a - b).abs() <= 1e-7 * (1.0 + b.abs()), "row {row}: {a} != {b}");
            }
        }
    }
}
