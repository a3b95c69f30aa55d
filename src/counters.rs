//! Integer counters under `#[grad]`, as code ported from C keeps them: `let mut idx = 0;`
//! advanced with `idx += 1` (or `+= k`, `-= k`) and read as an index, each function beside its
//! twin that computes the index from the loop variables (the same arithmetic in the same order),
//! which `tests/counters.rs` checks it against bit for bit, and both against finite
//! differences.
//!
//! This module is also the lint check of what `#[grad]` emits for counters (their closed forms,
//! triangular numbers included): the crate denies every warning and every `clippy::all` lint.
// Index loops are the point of a counter, and the twins are written as ported code is.
#![allow(clippy::needless_range_loop)]

use autodiff_runtime::grad;

/// Rows of the matrices stored row-major.
pub const ROWS: usize = 3;
/// Columns of the matrices stored row-major.
pub const COLS: usize = 4;
/// `ROWS * COLS`.
pub const CELLS: usize = 12;

/// `Σᵢⱼ wᵢⱼ·sin(xᵢⱼ)·xᵢⱼ` over a `ROWS × COLS` matrix `x` stored row-major, walked with a
/// counter `idx += 1` in a double loop; the counter is also read as an `f64` and in a
/// condition.
#[grad(jvp, hvp, hessian, wrt(x))]
pub fn row_major(x: [f64; CELLS], w: &[[f64; COLS]; ROWS]) -> f64 {
    let mut s = 0.0;
    let mut idx = 0;
    for i in 0..ROWS {
        for j in 0..COLS {
            s += w[i][j] * x[idx].sin() * x[idx];
            if idx < 5 {
                s += 0.5 * idx as f64 * x[idx] * x[idx];
            }
            idx += 1;
        }
    }
    s * x[idx - 1]
}

/// [`row_major`]'s twin: `x[i * COLS + j]`.
#[grad(jvp, hvp, hessian, wrt(x))]
pub fn row_major_twin(x: [f64; CELLS], w: &[[f64; COLS]; ROWS]) -> f64 {
    let mut s = 0.0;
    for i in 0..ROWS {
        for j in 0..COLS {
            s += w[i][j] * x[i * COLS + j].sin() * x[i * COLS + j];
            if i * COLS + j < 5 {
                s += 0.5 * (i * COLS + j) as f64 * x[i * COLS + j] * x[i * COLS + j];
            }
        }
    }
    s * x[CELLS - 1]
}

/// `½‖Q v‖² − Σ log Qⱼⱼ`-like: `Q` the lower-triangular factor of ADBench's GMM, its diagonal
/// the exponentials of `icf[..D]` and its strictly lower part in `icf[D..]` column by column,
/// unpacked as ADBench's `Qtimesx` does, with a counter (`Lparamsidx++`).
#[grad(jvp, hvp, hessian, wrt(icf))]
pub fn qtimesx<const D: usize, const ICF: usize>(icf: [f64; ICF], v: &[f64; D]) -> f64 {
    let mut qv = [0.0; D];
    for j in 0..D {
        qv[j] = icf[j].exp() * v[j];
    }
    let mut idx = D;
    for j in 0..D {
        for i in j + 1..D {
            qv[i] += icf[idx] * v[j];
            idx += 1;
        }
    }
    let mut s = 0.0;
    for i in 0..D {
        s += qv[i] * qv[i];
    }
    // `idx` is `ICF` after the loops: the sum of the diagonal's logarithms, read back through it.
    let mut logdet = 0.0;
    for j in idx - ICF..D {
        logdet += icf[j];
    }
    0.5 * s - logdet
}

/// [`qtimesx`]'s twin: the index computed, as ADBench's `ltri` formula writes it.
#[grad(jvp, hvp, hessian, wrt(icf))]
pub fn qtimesx_twin<const D: usize, const ICF: usize>(icf: [f64; ICF], v: &[f64; D]) -> f64 {
    let mut qv = [0.0; D];
    for j in 0..D {
        qv[j] = icf[j].exp() * v[j];
    }
    for j in 0..D {
        for i in j + 1..D {
            qv[i] += icf[D + j * (2 * D - j - 1) / 2 + i - j - 1] * v[j];
        }
    }
    let mut s = 0.0;
    for i in 0..D {
        s += qv[i] * qv[i];
    }
    let mut logdet = 0.0;
    for j in 0..D {
        logdet += icf[j];
    }
    0.5 * s - logdet
}

/// [`qtimesx`] for `K` components whose parameters are stored one after the other in one
/// array, walked by one counter declared outside the three loops (each component advances it
/// by `D (D + 1) / 2`, a sum of a triangular nest).
#[grad(jvp, hvp, wrt(icf))]
pub fn qtimesx_flat<const D: usize, const K: usize, const ALL: usize>(
    icf: [f64; ALL],
    v: &[[f64; D]; K],
) -> f64 {
    let mut total = 0.0;
    let mut idx = 0;
    for k in 0..K {
        let mut qv = [0.0; D];
        for j in 0..D {
            qv[j] = icf[idx].exp() * v[k][j];
            idx += 1;
        }
        for j in 0..D {
            for i in j + 1..D {
                qv[i] += icf[idx] * v[k][j];
                idx += 1;
            }
        }
        for i in 0..D {
            total += qv[i] * qv[i];
        }
    }
    total
}

/// [`qtimesx_flat`]'s twin.
#[grad(jvp, hvp, wrt(icf))]
pub fn qtimesx_flat_twin<const D: usize, const K: usize, const ALL: usize>(
    icf: [f64; ALL],
    v: &[[f64; D]; K],
) -> f64 {
    let mut total = 0.0;
    for k in 0..K {
        let base = k * (D * (D + 1) / 2);
        let mut qv = [0.0; D];
        for j in 0..D {
            qv[j] = icf[base + j].exp() * v[k][j];
        }
        for j in 0..D {
            for i in j + 1..D {
                qv[i] += icf[base + D + j * (2 * D - j - 1) / 2 + i - j - 1] * v[k][j];
            }
        }
        for i in 0..D {
            total += qv[i] * qv[i];
        }
    }
    total
}

/// Products of neighbours taken two by two, with a stride: `idx += 2` in `for _ in ...`.
#[grad(jvp, hvp, hessian)]
pub fn strided(x: [f64; 8]) -> f64 {
    let mut s = 0.0;
    let mut idx = 0;
    for _ in 0..4 {
        s += x[idx] * x[idx + 1] + (x[idx] - x[idx + 1]).sin();
        idx += 2;
    }
    s
}

/// [`strided`]'s twin.
#[grad(jvp, hvp, hessian)]
pub fn strided_twin(x: [f64; 8]) -> f64 {
    let mut s = 0.0;
    for k in 0..4 {
        s += x[2 * k] * x[2 * k + 1] + (x[2 * k] - x[2 * k + 1]).sin();
    }
    s
}

/// Where [`two_loops`] starts: a `const` whose type `#[grad]` does not see (`idx += 1` tells
/// that the counter is an integer).
pub const FIRST: usize = 0;

/// One counter across two loops and straight-line code: the second loop starts where the
/// first left it, after a skipped element.
#[grad(jvp, hvp, hessian)]
pub fn two_loops(x: [f64; 7]) -> f64 {
    let mut idx = FIRST;
    let mut a = 0.0;
    for i in 0..3 {
        a += x[idx] * (i as f64 + 1.0);
        idx += 1;
    }
    idx += 1;
    let mut b = 1.0;
    for _ in 0..3 {
        b *= x[idx].cos();
        idx += 1;
    }
    a * b + x[idx - 1] * x[3]
}

/// [`two_loops`]'s twin.
#[grad(jvp, hvp, hessian)]
pub fn two_loops_twin(x: [f64; 7]) -> f64 {
    let mut a = 0.0;
    for i in 0..3 {
        a += x[i] * (i as f64 + 1.0);
    }
    let mut b = 1.0;
    for k in 0..3 {
        b *= x[4 + k].cos();
    }
    a * b + x[6] * x[3]
}

/// The lower triangle, diagonal included, of an `n × n` matrix packed row by row
/// (`for j in 0..=i`), against a symmetric quadratic form.
#[grad(jvp, hvp, hessian, wrt(l))]
pub fn packed_rows(l: [f64; 10], v: &[f64; 4]) -> f64 {
    let mut s = 0.0;
    let mut idx = 0;
    for i in 0..4 {
        for j in 0..=i {
            s += l[idx] * l[idx] * v[i] * v[j];
            idx += 1;
        }
    }
    s
}

/// [`packed_rows`]'s twin: row `i` starts at `i (i + 1) / 2`.
#[grad(jvp, hvp, hessian, wrt(l))]
pub fn packed_rows_twin(l: [f64; 10], v: &[f64; 4]) -> f64 {
    let mut s = 0.0;
    for i in 0..4 {
        for j in 0..=i {
            s += l[i * (i + 1) / 2 + j] * l[i * (i + 1) / 2 + j] * v[i] * v[j];
        }
    }
    s
}

/// A counter going down (`-=`) in a reversed, inclusive loop, and read in a loop bound.
#[grad(jvp, hvp, hessian)]
pub fn countdown(x: [f64; 8]) -> f64 {
    let mut k = 8;
    let mut s = 0.0;
    for i in (1..=3).rev() {
        k -= 2;
        s += x[k] * x[k + 1] * i as f64;
        for j in k - 2..k {
            s += (x[j] * x[i]).cos();
        }
    }
    s + x[k] // `k` is 2 after the loop
}

/// [`countdown`]'s twin.
#[grad(jvp, hvp, hessian)]
pub fn countdown_twin(x: [f64; 8]) -> f64 {
    let mut s = 0.0;
    for i in (1..=3).rev() {
        s += x[2 * i] * x[2 * i + 1] * i as f64;
        for j in 2 * i - 2..2 * i {
            s += (x[j] * x[i]).cos();
        }
    }
    s + x[2]
}

/// A counter over data of a length known at run time, read after the loop; then one advanced
/// over `1..data.len()`, which runs backwards for empty data (`data.len().saturating_sub(1)`
/// iterations).
#[grad(jvp, hvp, wrt(x))]
pub fn run_time(x: [f64; 4], data: &[f64]) -> f64 {
    let mut s = 0.0;
    let mut idx = 1;
    for i in 0..data.len() {
        s += data[i] * x[idx % 4] * x[idx % 4];
        idx += 1;
    }
    let mut odd = 1;
    for i in 1..data.len() {
        s += data[i] * x[odd % 4];
        odd += 2;
    }
    s * x[idx % 4] + x[odd % 4]
}

/// [`run_time`]'s twin.
#[grad(jvp, hvp, wrt(x))]
pub fn run_time_twin(x: [f64; 4], data: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..data.len() {
        s += data[i] * x[(i + 1) % 4] * x[(i + 1) % 4];
    }
    for i in 1..data.len() {
        s += data[i] * x[(2 * i - 1) % 4];
    }
    s * x[(data.len() + 1) % 4] + x[(1 + 2 * data.len().saturating_sub(1)) % 4]
}

/// A counter advanced by the loop variable itself (`idx += i`: triangular numbers), and one
/// advanced in a loop over a collection (which clippy would have written with `enumerate`).
#[grad(jvp, hvp, hessian, wrt(x))]
#[allow(clippy::explicit_counter_loop)]
pub fn by_index(x: [f64; 10], w: &[f64; 4]) -> f64 {
    let mut s = 0.0;
    let mut idx = 0;
    for i in 0..4 {
        s += x[idx] * x[idx + i];
        idx += i;
    }
    let mut at = 0;
    for wk in w {
        s += wk * x[at + 6].sin();
        at += 1;
    }
    s
}

/// [`by_index`]'s twin.
#[grad(jvp, hvp, hessian, wrt(x))]
pub fn by_index_twin(x: [f64; 10], w: &[f64; 4]) -> f64 {
    let mut s = 0.0;
    for i in 0..4usize {
        s += x[i * i.saturating_sub(1) / 2] * x[i * i.saturating_sub(1) / 2 + i];
    }
    for k in 0..4 {
        s += w[k] * x[k + 6].sin();
    }
    s
}

/// Steps of a recurrence reading two parameters per step through a counter, in a loop that is
/// checkpointed.
#[grad(hvp, checkpoint(s = 3))]
pub fn recurrence(x: [f64; 16]) -> f64 {
    let mut y = 0.5;
    let mut idx = 0;
    for _ in 0..8 {
        y = (y * x[idx]).sin() + x[idx + 1] * y;
        idx += 2;
    }
    y
}

/// [`recurrence`]'s twin.
#[grad(hvp, checkpoint(s = 3))]
pub fn recurrence_twin(x: [f64; 16]) -> f64 {
    let mut y = 0.5;
    for k in 0..8 {
        y = (y * x[2 * k]).sin() + x[2 * k + 1] * y;
    }
    y
}

/// A counter advanced by an immutable `let` of the loop body, from a parameter known at run
/// time and the loop variable.
#[grad(jvp, hvp, hessian, wrt(x))]
pub fn by_let(x: [f64; CELLS], n: usize) -> f64 {
    let mut s = 0.0;
    let mut idx = 0;
    for i in 0..3 {
        let step = n / 2 + i;
        s += x[idx % CELLS] * x[(idx + 1) % CELLS];
        idx += step;
    }
    s + x[idx % CELLS]
}

/// [`by_let`]'s twin: `Σ_{t<i} (n / 2 + t) = (n / 2) i + i (i − 1) / 2`.
#[grad(jvp, hvp, hessian, wrt(x))]
pub fn by_let_twin(x: [f64; CELLS], n: usize) -> f64 {
    let mut s = 0.0;
    for i in 0..3usize {
        let at = n / 2 * i + i * i.saturating_sub(1) / 2;
        s += x[at % CELLS] * x[(at + 1) % CELLS];
    }
    s + x[(3 * (n / 2) + 3) % CELLS]
}

/// Values written through a counter in a loop running backwards (`(0..6).rev()`), read back in
/// another loop.
#[grad(jvp, hvp, hessian)]
pub fn reversed(x: [f64; 6]) -> f64 {
    let mut y = [0.0; 6];
    let mut idx = 0;
    for i in (0..6).rev() {
        y[idx] = x[i] * x[(i + 1) % 6];
        idx += 1;
    }
    let mut s = 0.0;
    for k in 0..6 {
        s += y[k].sin() * (k as f64 + 1.0);
    }
    s + x[idx - 1]
}

/// [`reversed`]'s twin.
#[grad(jvp, hvp, hessian)]
pub fn reversed_twin(x: [f64; 6]) -> f64 {
    let mut y = [0.0; 6];
    for i in (0..6).rev() {
        y[5 - i] = x[i] * x[(i + 1) % 6];
    }
    let mut s = 0.0;
    for k in 0..6 {
        s += y[k].sin() * (k as f64 + 1.0);
    }
    s + x[5]
}

/// ADBench's `logsumexp` (`gmm.h`), for [`gmm_likelihood`].
#[grad]
pub fn logsumexp<const K: usize>(x: &[f64; K]) -> f64 {
    let mut mx = x[0];
    for i in 1..K {
        mx = mx.max(x[i]);
    }
    let mut semx = 0.0;
    for i in 0..K {
        semx += (x[i] - mx).exp();
    }
    semx.ln() + mx
}

/// The log-likelihood part of ADBench's GMM objective (`src/adbench/gmm.rs`'s `objective`
/// without the Wishart prior), `Q · (x − μ)` unpacked as ADBench's C++ does, with a counter in
/// the loops over the points and the components.
#[grad(wrt(alphas, means, icf))]
pub fn gmm_likelihood<const D: usize, const K: usize, const ICF: usize>(
    alphas: &[f64; K],
    means: &[[f64; D]; K],
    icf: &[[f64; ICF]; K],
    x: &[[f64; D]],
) -> f64 {
    let mut slse = 0.0;
    for i in 0..x.len() {
        let mut main_term = [0.0; K];
        for k in 0..K {
            let mut xcentered = [0.0; D];
            let mut qx = [0.0; D];
            let mut sum_q = 0.0;
            for j in 0..D {
                xcentered[j] = x[i][j] - means[k][j];
                qx[j] = icf[k][j].exp() * xcentered[j];
                sum_q += icf[k][j];
            }
            let mut lparamsidx = D;
            for c in 0..D {
                for r in c + 1..D {
                    qx[r] += icf[k][lparamsidx] * xcentered[c];
                    lparamsidx += 1;
                }
            }
            let mut sqnorm = 0.0;
            for j in 0..D {
                sqnorm += qx[j] * qx[j];
            }
            main_term[k] = alphas[k] + sum_q - 0.5 * sqnorm;
        }
        slse += logsumexp(&main_term);
    }
    slse - x.len() as f64 * logsumexp(alphas)
}

/// [`gmm_likelihood`]'s twin, the index computed as `src/adbench/gmm.rs` does.
#[grad(wrt(alphas, means, icf))]
pub fn gmm_likelihood_twin<const D: usize, const K: usize, const ICF: usize>(
    alphas: &[f64; K],
    means: &[[f64; D]; K],
    icf: &[[f64; ICF]; K],
    x: &[[f64; D]],
) -> f64 {
    let mut slse = 0.0;
    for i in 0..x.len() {
        let mut main_term = [0.0; K];
        for k in 0..K {
            let mut xcentered = [0.0; D];
            let mut qx = [0.0; D];
            let mut sum_q = 0.0;
            for j in 0..D {
                xcentered[j] = x[i][j] - means[k][j];
                qx[j] = icf[k][j].exp() * xcentered[j];
                sum_q += icf[k][j];
            }
            for c in 0..D {
                for r in c + 1..D {
                    qx[r] += icf[k][D + c * (2 * D - c - 1) / 2 + r - c - 1] * xcentered[c];
                }
            }
            let mut sqnorm = 0.0;
            for j in 0..D {
                sqnorm += qx[j] * qx[j];
            }
            main_term[k] = alphas[k] + sum_q - 0.5 * sqnorm;
        }
        slse += logsumexp(&main_term);
    }
    slse - x.len() as f64 * logsumexp(alphas)
}
