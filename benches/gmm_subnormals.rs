//! Why GMM's generated gradient at d = 64, K = 100 is slower than ADBench's manual one on an
//! Intel Xeon and faster on an AMD EPYC (`BENCHMARKS.md`, "GMM at d = 64 on the Intel Xeon:
//! subnormal numbers"): at d = 64 most mixture weights underflow, and both gradients multiply
//! them into their adjoints, producing subnormal numbers, which Intel cores handle by a
//! microcode assist.
//!
//! - `count`: for the benchmark's data (`Gmm::new(1000, 1)`, as `interleaved_adbench`), the
//!   weights' magnitudes, and the operations with a subnormal operand or result in the
//!   generated sweep's triangular loop (the expansion's, below) and in the manual gradient's
//!   `icf_d += curr_icf_d * weight`, computed by plain `f64` arithmetic in each one's order.
//! - `kernel`: those two loops alone, for one component at d = 64, timed interleaved with a
//!   seed (the weight) of 1e-3 and of 1e-310, the same instructions on other values; and the
//!   generated loop split in two (the carried sum, then `icf_bar`'s updates, which vectorise),
//!   the same arithmetic.
//!
//! `cargo bench --bench gmm_subnormals` (about 20 seconds), or `-- count`, `-- kernel`.

// The loops are ADBench's and the expansion's index loops, as written there.
#![allow(clippy::needless_range_loop)]

mod interleave;

use std::hint::black_box;
use std::time::Duration;

use autodiff_suite::adbench::data::Gmm;
use autodiff_suite::adbench::gmm::{icf_len, ltri};
use interleave::{Clock, Kernel, interleave, load_average};

/// Whether `v` is subnormal (nonzero and below the smallest normal number).
fn subnormal(v: f64) -> bool {
    v != 0.0 && v.abs() < f64::MIN_POSITIVE
}

/// Per point, each component's centred point `x − μ`, `Q (x − μ)` and softmax weight, as both
/// gradients compute them (the weight as `exp(term − max) / Σ exp(term − max)`).
#[allow(clippy::type_complexity)]
fn components<const D: usize, const K: usize, const ICF: usize>(
    g: &Gmm<D, K, ICF>,
    xi: &[f64; D],
) -> (Vec<[f64; D]>, Vec<[f64; D]>, [f64; K]) {
    let mut term = [0.0; K];
    let (mut xcs, mut qxs) = (vec![[0.0; D]; K], vec![[0.0; D]; K]);
    for k in 0..K {
        let (xc, qx) = (&mut xcs[k], &mut qxs[k]);
        let mut sum_q = 0.0;
        for j in 0..D {
            xc[j] = xi[j] - g.means[k][j];
            qx[j] = g.icf[k][j].exp() * xc[j];
            sum_q += g.icf[k][j];
        }
        for c in 0..D {
            for r in c + 1..D {
                qx[r] += g.icf[k][ltri(D, r, c)] * xc[c];
            }
        }
        term[k] = g.alphas[k] + sum_q - 0.5 * qx.iter().map(|v| v * v).sum::<f64>();
    }
    let mx = term.iter().copied().fold(f64::MIN, f64::max);
    let se: f64 = term.iter().map(|t| (t - mx).exp()).sum();
    (xcs, qxs, term.map(|t| (t - mx).exp() / se))
}

/// Counts, over the points, the weights by magnitude and the operations of the strictly lower
/// part's loops that have a subnormal operand or result.
fn count<const D: usize, const K: usize, const ICF: usize>() {
    let g = Gmm::<D, K, ICF>::new(1000, 1);
    let mut weights = [0u64; 4]; // zero, subnormal, below 1e-290, other
    let (mut gen_ops, mut man_ops, mut elements) = ([0u64; 2], [0u64; 2], 0u64);
    let mut icf_bar = vec![[0.0f64; ICF]; K];
    let mut icf_d = vec![[0.0f64; ICF]; K];
    for xi in &g.x {
        let (xcs, qxs, w) = components(&g, xi);
        for k in 0..K {
            let (xc, qx) = (&xcs[k], &qxs[k]);
            weights[match w[k] {
                0.0 => 0,
                w if subnormal(w) => 1,
                w if w < 1e-290 => 2,
                _ => 3,
            }] += 1;
            // The generated sweep: `qxcentered_bar[j] = -(t8 * (2.0 * qxcentered[j]))` with
            // `t8 = weight * 0.5`, then per element a product into the carried sum and one
            // into `icf_bar`.
            let qb: Vec<f64> = qx.iter().map(|q| -(w[k] * 0.5 * (2.0 * q))).collect();
            for c in 0..D {
                let mut sum = 0.0;
                for r in c + 1..D {
                    let l = ltri(D, r, c);
                    elements += 1;
                    for (v, a) in [(icf_bar[k][l], qb[r] * xc[c]), (sum, qb[r] * g.icf[k][l])] {
                        gen_ops[0] += u64::from(subnormal(qb[r]) || subnormal(a));
                        gen_ops[1] += u64::from(subnormal(v) || subnormal(a) || subnormal(v + a));
                    }
                    sum += qb[r] * g.icf[k][l];
                    icf_bar[k][l] += qb[r] * xc[c];
                }
            }
            // The manual: `curr_icf_d = -xcentered[c] * qx[r]`, then `icf_d += curr_icf_d * weight`.
            for c in 0..D {
                for r in c + 1..D {
                    let l = ltri(D, r, c);
                    let (v, a) = (icf_d[k][l], -xc[c] * qx[r] * w[k]);
                    man_ops[0] += u64::from(subnormal(w[k]) || subnormal(a));
                    man_ops[1] += u64::from(subnormal(v) || subnormal(a) || subnormal(v + a));
                    icf_d[k][l] = v + a;
                }
            }
        }
    }
    black_box((&icf_bar, &icf_d));
    println!(
        "d = {D}, K = {K}, n = 1000: weights zero {}, subnormal {}, below 1e-290 {}, other {}; \
         {elements} (point, element) pairs of the strictly lower parts; operations with a \
         subnormal operand or result: generated {} mul, {} add; manual {} mul, {} add",
        weights[0],
        weights[1],
        weights[2],
        weights[3],
        gen_ops[0],
        gen_ops[1],
        man_ops[0],
        man_ops[1]
    );
}

/// The generated sweep's triangular loop for one component (`objective_grad`'s expansion, its
/// names), seeded with the weight `t7`; returns the carried sums and the updated `icf_bar`.
fn generated<const D: usize, const ICF: usize>(
    t7: f64,
    qxcentered_8: &[f64; D],
    xcentered_3: &[f64; D],
    icf: &[f64; ICF],
) -> ([f64; D], [f64; ICF]) {
    let t8 = t7 * 0.5;
    let mut qxcentered_bar = [0.0; D];
    for j in 0..D {
        qxcentered_bar[j] = -(t8 * (2.0 * qxcentered_8[j]));
    }
    let mut icf_bar = [0.0; ICF];
    let mut xcentered_bar = [0.0; D];
    for c in 0..D {
        let mut xcentered_bar_1 = xcentered_bar[c];
        for r in c + 1..D {
            let t9 = qxcentered_bar[r];
            xcentered_bar_1 += t9 * icf[D + c * (2 * D - c - 1) / 2 + r - c - 1];
            icf_bar[D + c * (2 * D - c - 1) / 2 + r - c - 1] += t9 * xcentered_3[c];
        }
        xcentered_bar[c] = xcentered_bar_1;
    }
    (xcentered_bar, icf_bar)
}

/// [`generated`] with the triangular loop split in two, the carried sum then `icf_bar`'s
/// updates: the same operations in the same order.
fn fissioned<const D: usize, const ICF: usize>(
    t7: f64,
    qxcentered_8: &[f64; D],
    xcentered_3: &[f64; D],
    icf: &[f64; ICF],
) -> ([f64; D], [f64; ICF]) {
    let t8 = t7 * 0.5;
    let mut qxcentered_bar = [0.0; D];
    for j in 0..D {
        qxcentered_bar[j] = -(t8 * (2.0 * qxcentered_8[j]));
    }
    let mut icf_bar = [0.0; ICF];
    let mut xcentered_bar = [0.0; D];
    for c in 0..D {
        let mut xcentered_bar_1 = xcentered_bar[c];
        for r in c + 1..D {
            let t9 = qxcentered_bar[r];
            xcentered_bar_1 += t9 * icf[D + c * (2 * D - c - 1) / 2 + r - c - 1];
        }
        for r in c + 1..D {
            let t9 = qxcentered_bar[r];
            icf_bar[D + c * (2 * D - c - 1) / 2 + r - c - 1] += t9 * xcentered_3[c];
        }
        xcentered_bar[c] = xcentered_bar_1;
    }
    (xcentered_bar, icf_bar)
}

/// The manual gradient's loops for one component's strictly lower part: `Qᵀ Q (x − μ)`'s
/// transposed product and `curr_icf_d` unweighted, then `icf_d += curr_icf_d * weight`.
fn manual<const D: usize, const ICF: usize>(
    weight: f64,
    qx: &[f64; D],
    xcentered: &[f64; D],
    icf: &[f64; ICF],
) -> ([f64; D], [f64; ICF]) {
    let mut out = [0.0; D];
    let mut idx = D;
    for i in 0..D {
        for j in i + 1..D {
            out[i] += icf[idx] * qx[j];
            idx += 1;
        }
    }
    let mut curr_icf_d = [0.0; ICF];
    let mut idx = D;
    for i in 0..D {
        for j in i + 1..D {
            curr_icf_d[idx] = -xcentered[i] * qx[j];
            idx += 1;
        }
    }
    let mut icf_d = [0.0; ICF];
    for j in 0..ICF {
        icf_d[j] += curr_icf_d[j] * weight;
    }
    (out, icf_d)
}

/// Times [`generated`] and [`manual`] for the first point and component of the benchmark's data
/// at d = 64, with a weight of 1e-3 and of 1e-310.
fn kernel() {
    const D: usize = 64;
    const ICF: usize = icf_len(D);
    let g = Gmm::<D, 1, ICF>::new(1, 1);
    let (xcs, qxs, _) = components(&g, &g.x[0]);
    let (xc, qx, icf) = (&xcs[0], &qxs[0], &g.icf[0]);
    let kernels = [
        Kernel::new("gen_1e-3", || {
            black_box(generated(black_box(1e-3), black_box(qx), black_box(xc), black_box(icf)));
        }),
        Kernel::new("gen_1e-310", || {
            black_box(generated(black_box(1e-310), black_box(qx), black_box(xc), black_box(icf)));
        }),
        Kernel::new("fis_1e-3", || {
            black_box(fissioned(black_box(1e-3), black_box(qx), black_box(xc), black_box(icf)));
        }),
        Kernel::new("fis_1e-310", || {
            black_box(fissioned(black_box(1e-310), black_box(qx), black_box(xc), black_box(icf)));
        }),
        Kernel::new("manual_1e-3", || {
            black_box(manual(black_box(1e-3), black_box(qx), black_box(xc), black_box(icf)));
        }),
        Kernel::new("manual_1e-310", || {
            black_box(manual(black_box(1e-310), black_box(qx), black_box(xc), black_box(icf)));
        }),
    ];
    let t = interleave(
        &kernels,
        Duration::from_millis(2),
        Duration::from_secs(8),
        15,
        Clock::ThreadCpu,
    );
    t.report(
        "gmm_d64_one_component",
        &[
            ("gen subnormal/normal", "gen_1e-310", "gen_1e-3"),
            ("manual subnormal/normal", "manual_1e-310", "manual_1e-3"),
            ("gen/manual normal", "gen_1e-3", "manual_1e-3"),
            ("gen/manual subnormal", "gen_1e-310", "manual_1e-310"),
            ("fis/gen normal", "fis_1e-3", "gen_1e-3"),
            ("fis/gen subnormal", "fis_1e-310", "gen_1e-310"),
        ],
    );
    let per = |name| t.median_ns(name) / (ICF - D) as f64;
    println!(
        "per strictly lower element: generated {:.2} ns, {:.2} ns subnormal; manual {:.2} ns, {:.2} ns subnormal",
        per("gen_1e-3"),
        per("gen_1e-310"),
        per("manual_1e-3"),
        per("manual_1e-310")
    );
}

fn main() {
    let asked: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    let wanted = |name: &str| asked.is_empty() || asked.iter().any(|a| a == name);
    println!("load average before: {}", load_average());
    if wanted("count") {
        count::<10, 25, { icf_len(10) }>();
        count::<20, 50, { icf_len(20) }>();
        count::<64, 100, { icf_len(64) }>();
    }
    if wanted("kernel") {
        kernel();
    }
    println!("load average after: {}", load_average());
}
