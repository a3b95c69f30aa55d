//! Everyday control flow that `#[grad]` rewrites in front of the IR: elements written through
//! `iter_mut`, each function beside its twin written in the index form the rewrite means (the
//! same arithmetic in the same order), which `tests/control_sugar.rs` checks it against bit for
//! bit, and both against finite differences.
//!
//! The crate denies every warning and every `clippy::all` lint, so these functions are written
//! as clippy wants them, and so is what `#[grad]` generates from them.

use autodiff_runtime::grad;

/// The length of the arrays the functions take.
pub const N: usize = 4;

// ---------------------------------------------------------------------------------------------
// `iter_mut`

/// A local array updated through `iter_mut` in `for` loops (plain, `enumerate`, `zip`, `rev`,
/// `skip`), `&mut y`, and `for_each`.
#[grad(jvp, hvp, wrt(x))]
pub fn written(x: [f64; N], w: &[f64; N]) -> f64 {
    let a = x[0] * 0.5;
    let mut y = x;
    for v in y.iter_mut() {
        *v = v.sin() * a;
    }
    for (i, v) in y.iter_mut().enumerate() {
        *v += x[i];
    }
    for (v, w) in y.iter_mut().zip(w.iter()) {
        *v *= w;
    }
    let s = x[1] + 1.0;
    y.iter_mut().for_each(|v| *v *= s);
    for v in &mut y {
        *v = *v * *v + 0.5;
    }
    for (i, v) in y.iter_mut().rev().skip(1).enumerate() {
        *v -= 0.25 * i as f64 * x[3];
    }
    y.iter().sum::<f64>()
}

/// [`written`]'s twin.
#[grad(jvp, hvp, wrt(x))]
#[allow(clippy::needless_range_loop)]
pub fn written_twin(x: [f64; N], w: &[f64; N]) -> f64 {
    let a = x[0] * 0.5;
    let mut y = x;
    for i in 0..N {
        y[i] = y[i].sin() * a;
    }
    for i in 0..N {
        y[i] += x[i];
    }
    for i in 0..N {
        y[i] *= w[i];
    }
    let s = x[1] + 1.0;
    for i in 0..N {
        y[i] *= s;
    }
    for i in 0..N {
        y[i] = y[i] * y[i] + 0.5;
    }
    for i in 0..N - 1 {
        y[N - 1 - (i + 1)] -= 0.25 * i as f64 * x[3];
    }
    let mut t = -0.0;
    for i in 0..N {
        t += y[i];
    }
    t
}

/// Rows of a matrix updated through nested `iter_mut`s, and `for_each` with `enumerate`.
#[grad(jvp, hvp)]
pub fn rows(x: [f64; N]) -> f64 {
    let mut m = [[x[0], x[1]], [x[2], x[3]]];
    for (i, row) in m.iter_mut().enumerate() {
        for v in row.iter_mut() {
            *v = v.exp() * (i as f64 + 1.0);
        }
    }
    m.iter_mut().for_each(|row| row.iter_mut().enumerate().for_each(|(j, v)| *v *= x[j]));
    m[0][0] * m[1][1] - m[0][1] * m[1][0]
}

/// [`rows`]'s twin.
#[grad(jvp, hvp)]
#[allow(clippy::needless_range_loop)]
pub fn rows_twin(x: [f64; N]) -> f64 {
    let mut m = [[x[0], x[1]], [x[2], x[3]]];
    for i in 0..2 {
        for j in 0..2 {
            m[i][j] = m[i][j].exp() * (i as f64 + 1.0);
        }
    }
    for i in 0..2 {
        for j in 0..2 {
            m[i][j] *= x[j];
        }
    }
    m[0][0] * m[1][1] - m[0][1] * m[1][0]
}
