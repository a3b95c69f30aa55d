//! Interleaved timing of ADBench's problems (`autodiff_suite::adbench`): the objective, the
//! generated gradient (or Jacobian) and the hand-written one ported from ADBench's `manual`
//! module, at ADBench's sizes; the ratios of `BENCHMARKS.md` ("ADBench problems").
//!
//! - GMM at (d, K) = (2, 5), (10, 25), (20, 50), (64, 100), n = 1000 points;
//! - bundle adjustment: 1000 observations, each a 2 × 15 Jacobian block and the weight's
//!   residual (ADBench times the whole Jacobian, block by block);
//! - the LSTM at l = 2 and 4 layers, c = 1024 characters of b = 14 bits (ADBench's instances),
//!   with the sequence's length a const generic (stored sweep), a run-time length (`dyn`:
//!   stored in its capacity tier, 1024 steps) and the same always checkpointed, against
//!   ADBench's manual derivative (forward propagation) and a hand-written reverse sweep;
//! - the 16 × 16 dense `tanh` layer with flat weights.
//!
//! As in `benches/interleaved_loops.rs`, the kernels of a workload take turns in blocks, round
//! after round, and each ratio is the median over rounds of the ratio within a round. Blocks
//! last a millisecond or more and are timed by the thread's CPU time, except the layer's
//! (microseconds, wall clock). Every derivative is checked against the hand-written one before it
//! is timed. Each ratio is also printed as `RATIO <workload> <label> <value>` (`grep ^RATIO`).
//!
//! Run with `cargo bench --bench interleaved_adbench` (about two and a half minutes), or with
//! `-- gmm` (`dense`, `ba`, `lstm`) for one problem. The
//! benchmark runs on a thread with a 64 MiB stack: at d = 64, K = 100 the GMM's gradient is
//! 1.7 MB and ADBench's manual gradient keeps two more arrays of that size, and the LSTM's stored
//! sweeps keep 0.9 MB.

mod interleave;

use std::hint::black_box;
use std::time::Duration;

use autodiff_suite::adbench::data::{Ba, Gmm, Lcg, Lstm};
use autodiff_suite::adbench::{ba, gmm, layer, lstm};
use interleave::{Clock, Kernel, Timings, format_ns, interleave, load_average};

/// Interleaves `kernels` in blocks of a millisecond or more timed by the thread's CPU time,
/// for about `budget`, at least 15 rounds.
fn time(kernels: &[Kernel], budget: Duration) -> Timings {
    interleave(kernels, Duration::from_millis(2), budget, 15, Clock::ThreadCpu)
}

/// The ratios of a problem with one objective, a generated and a manual gradient.
const RATIOS: [(&str, &str, &str); 3] = [
    ("gen/manual", "grad_gen", "grad_manual"),
    ("gen/objective", "grad_gen", "objective"),
    ("manual/objective", "grad_manual", "objective"),
];

/// Panics unless `a` and `b` agree to 1e-9 relative (to the larger of the components, or of
/// the whole vector for components that cancel).
fn check(what: &str, a: &[f64], b: &[f64]) {
    assert_eq!(a.len(), b.len(), "{what}: lengths");
    let scale = b.iter().fold(0.0_f64, |m, e| m.max(e.abs()));
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        let tol = 1e-9 * x.abs().max(y.abs()).max(1e-3 * scale);
        assert!((x - y).abs() <= tol, "{what}: component {i} is {x}, reference {y}");
    }
}

// ---------------------------------------------------------------------------------------------
// GMM.

fn gmm_flat<const D: usize, const K: usize, const ICF: usize>(
    (value, (a, m, q)): &(f64, gmm::manual::Gradient<D, K, ICF>),
) -> Vec<f64> {
    let mut v = vec![*value];
    v.extend(a);
    v.extend(m.iter().flatten());
    v.extend(q.iter().flatten());
    v
}

fn gmm<const D: usize, const K: usize, const ICF: usize>(budget: Duration) {
    let g = Gmm::<D, K, ICF>::new(1000, 1);
    let (alphas, means, icf, x) = (&g.alphas, &g.means, &g.icf, &g.x[..]);
    let generated = gmm::objective_grad(alphas, means, icf, x, g.gamma, g.m);
    let manual = gmm::manual::objective_grad(alphas, means, icf, x, g.gamma, g.m);
    check(&format!("gmm d={D} K={K}"), &gmm_flat(&generated), &gmm_flat(&manual));
    let kernels = [
        Kernel::new("objective", || {
            black_box(gmm::objective(
                black_box(alphas),
                black_box(means),
                black_box(icf),
                black_box(x),
                g.gamma,
                g.m,
            ));
        }),
        Kernel::new("grad_gen", || {
            black_box(gmm::objective_grad(
                black_box(alphas),
                black_box(means),
                black_box(icf),
                black_box(x),
                g.gamma,
                g.m,
            ));
        }),
        Kernel::new("grad_manual", || {
            black_box(gmm::manual::objective_grad(
                black_box(alphas),
                black_box(means),
                black_box(icf),
                black_box(x),
                g.gamma,
                g.m,
            ));
        }),
    ];
    time(&kernels, budget).report(&format!("gmm_d{D}_K{K}_n1000"), &RATIOS);
}

// ---------------------------------------------------------------------------------------------
// Bundle adjustment.

fn ba() {
    const P: usize = 1000;
    let data = Ba::new(10, 200, P, 2);
    let obs = |i: usize| {
        let (c, p) = data.obs[i];
        (&data.cams[c], &data.points[p], data.w[i], data.feats[i])
    };
    for i in 0..P {
        let (cam, x, w, f) = obs(i);
        let (err, jac) = ba::reproj_error_jacobian(cam, x, w, f[0], f[1]);
        let (m_err, m_jac) = ba::manual::reproj_error_d(cam, x, w, f[0], f[1]);
        let col_major: Vec<f64> = (0..30).map(|k| jac[k % 2][k / 2]).collect();
        check("ba block", &[&err[..], &col_major].concat(), &[&m_err[..], &m_jac].concat());
    }
    let kernels = [
        Kernel::new("objective", || {
            for i in 0..P {
                let (cam, x, w, f) = obs(i);
                black_box(ba::reproj_error(black_box(cam), black_box(x), w, f[0], f[1]));
            }
            for i in 0..P {
                black_box(ba::weight_error(black_box(data.w[i])));
            }
        }),
        Kernel::new("grad_gen", || {
            for i in 0..P {
                let (cam, x, w, f) = obs(i);
                black_box(ba::reproj_error_jacobian(black_box(cam), black_box(x), w, f[0], f[1]));
            }
            for i in 0..P {
                black_box(ba::weight_error_grad(black_box(data.w[i])));
            }
        }),
        Kernel::new("grad_manual", || {
            for i in 0..P {
                let (cam, x, w, f) = obs(i);
                black_box(ba::manual::reproj_error_d(black_box(cam), black_box(x), w, f[0], f[1]));
            }
            for i in 0..P {
                black_box(ba::manual::weight_error_d(black_box(data.w[i])));
            }
        }),
    ];
    let t = time(&kernels, Duration::from_secs(6));
    t.report("ba_p1000", &RATIOS);
    let per: Vec<String> = ["objective", "grad_gen", "grad_manual"]
        .iter()
        .map(|k| format!("{k} {}", format_ns(t.median_ns(k) / P as f64)))
        .collect();
    println!("ba_p1000: per observation: {}", per.join(" | "));
}

// ---------------------------------------------------------------------------------------------
// LSTM.

/// The LSTM's ratios: both generated gradients against both hand-written ones and against
/// their objective.
const LSTM_RATIOS: [(&str, &str, &str); 12] = [
    ("stored/manual", "grad_stored", "grad_manual"),
    ("dyn/manual", "grad_dyn", "grad_manual"),
    ("checkpointed/manual", "grad_checkpointed", "grad_manual"),
    ("stored/adjoint", "grad_stored", "grad_adjoint"),
    ("dyn/adjoint", "grad_dyn", "grad_adjoint"),
    ("checkpointed/adjoint", "grad_checkpointed", "grad_adjoint"),
    ("dyn/stored", "grad_dyn", "grad_stored"),
    ("stored/objective", "grad_stored", "objective"),
    ("dyn/objective", "grad_dyn", "objective_dyn"),
    ("checkpointed/objective", "grad_checkpointed", "objective_dyn"),
    ("manual/objective", "grad_manual", "objective"),
    ("adjoint/objective", "grad_adjoint", "objective"),
];

#[allow(clippy::type_complexity)] // (value, (main, extra)), the gradient's shape
fn lstm_flat<const L: usize, const B: usize>(
    (value, (main, extra)): &(f64, ([[[f64; B]; 8]; L], [[f64; B]; 3])),
) -> Vec<f64> {
    let mut v = vec![*value];
    v.extend(main.iter().flatten().flatten());
    v.extend(extra.iter().flatten());
    v
}

fn lstm<const L: usize>() {
    const B: usize = 14;
    const C: usize = 1024;
    let s = Lstm::<L, B>::new(C, 3);
    let seq: Box<[[f64; B]; C]> = s.sequence.clone().into_boxed_slice().try_into().expect("C");
    let (main, extra, state, dyn_seq) = (&s.main_params, &s.extra_params, &s.state, &s.sequence);
    let manual = lstm::manual::objective_grad(main, extra, state, dyn_seq);
    let reference = lstm_flat(&manual);
    let what = format!("lstm l={L}");
    check(&what, &lstm_flat(&lstm::objective_grad(main, extra, state, &seq)), &reference);
    let dyn_grad = lstm::objective_dyn_grad(main, extra, state, dyn_seq);
    check(&what, &lstm_flat(&dyn_grad), &reference);
    // Stored in a tier or checkpointed, the same gradient to the bit.
    let checkpointed = lstm::objective_dyn_checkpointed_grad(main, extra, state, dyn_seq);
    assert_eq!(lstm_flat(&dyn_grad), lstm_flat(&checkpointed), "{what}: dyn and checkpointed");
    check(
        &what,
        &lstm_flat(&lstm::adjoint::objective_grad(main, extra, state, dyn_seq)),
        &reference,
    );
    let kernels = [
        Kernel::new("objective", || {
            black_box(lstm::objective(black_box(main), black_box(extra), state, black_box(&seq)));
        }),
        Kernel::new("objective_dyn", || {
            black_box(lstm::objective_dyn(black_box(main), black_box(extra), state, dyn_seq));
        }),
        Kernel::new("grad_stored", || {
            black_box(lstm::objective_grad(black_box(main), black_box(extra), state, &seq));
        }),
        Kernel::new("grad_dyn", || {
            black_box(lstm::objective_dyn_grad(black_box(main), black_box(extra), state, dyn_seq));
        }),
        Kernel::new("grad_checkpointed", || {
            black_box(lstm::objective_dyn_checkpointed_grad(
                black_box(main),
                black_box(extra),
                state,
                dyn_seq,
            ));
        }),
        Kernel::new("grad_manual", || {
            black_box(lstm::manual::objective_grad(
                black_box(main),
                black_box(extra),
                state,
                dyn_seq,
            ));
        }),
        Kernel::new("grad_adjoint", || {
            black_box(lstm::adjoint::objective_grad(
                black_box(main),
                black_box(extra),
                state,
                dyn_seq,
            ));
        }),
    ];
    time(&kernels, Duration::from_secs(12)).report(&format!("lstm_l{L}_c{C}"), &LSTM_RATIOS);
}

// ---------------------------------------------------------------------------------------------
// Dense layer.

fn dense() {
    const N: usize = 16;
    const M: usize = 16;
    const P: usize = N * M + N;
    let mut r = Lcg::new(8);
    let p: [f64; P] = r.array(|r| 0.8 * r.uniform() - 0.4);
    let x: [f64; M] = r.array(|r| 2.0 * r.uniform() - 1.0);
    let y: [f64; N] = r.array(|r| 1.8 * r.uniform() - 0.9);
    let (value, grad) = layer::dense_grad(&p, &x, &y);
    let (h_value, h_grad) = layer::manual::dense_grad(&p, &x, &y);
    check("dense", &[&[value][..], &grad].concat(), &[&[h_value][..], &h_grad].concat());
    let kernels = [
        Kernel::new("objective", || {
            black_box(layer::dense(black_box(&p), black_box(&x), black_box(&y)));
        }),
        Kernel::new("grad_gen", || {
            black_box(layer::dense_grad(black_box(&p), black_box(&x), black_box(&y)));
        }),
        Kernel::new("grad_manual", || {
            black_box(layer::manual::dense_grad(black_box(&p), black_box(&x), black_box(&y)));
        }),
    ];
    let t =
        interleave(&kernels, Duration::from_micros(20), Duration::from_secs(4), 20, Clock::Wall);
    t.report("dense_16x16", &RATIOS);
}

/// Whether the problem `name` is asked for: every one, unless the command line names some
/// (`cargo bench --bench interleaved_adbench -- gmm ba`).
fn wanted(name: &str) -> bool {
    let asked: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    asked.is_empty() || asked.iter().any(|a| name.contains(a.as_str()))
}

fn run() {
    println!("load average before: {}", load_average());
    if wanted("dense") {
        dense();
    }
    if wanted("gmm") {
        gmm::<2, 5, { gmm::icf_len(2) }>(Duration::from_secs(4));
        gmm::<10, 25, { gmm::icf_len(10) }>(Duration::from_secs(5));
        gmm::<20, 50, { gmm::icf_len(20) }>(Duration::from_secs(6));
        gmm::<64, 100, { gmm::icf_len(64) }>(Duration::from_secs(10));
    }
    if wanted("ba") {
        ba();
    }
    if wanted("lstm") {
        lstm::<2>();
        lstm::<4>();
    }
    println!("load average after: {}", load_average());
}

fn main() {
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(run)
        .expect("the benchmark's thread")
        .join()
        .expect("the benchmark");
}
