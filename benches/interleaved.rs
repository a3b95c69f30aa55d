//! Interleaved timing: the ratios of `BENCHMARKS.md` that this shared, noisy machine can decide.
//!
//! Criterion (`benches/gradients.rs`) times kernels one after another, and the machine's speed
//! drifts between them by more than the 5–10 % the targets ask about. Here the six kernels of a
//! function take turns in short blocks, round after round, and each ratio is the median over
//! rounds of the ratio within a round, so a drift slows both sides of a ratio alike.
//!
//! Run with `cargo bench --bench interleaved` (about a minute).

use std::hint::black_box;
use std::time::Instant;

use autodiff_suite::bench_fns::{self, handwritten};

/// One kernel: calls a derivative once, its inputs and result through `black_box`.
type Kernel<'a> = &'a dyn Fn();

/// Times `kernels` (primal, grad hand, grad generated, hvp hand, hvp generated, jvp generated)
/// in rotating blocks of `calls` calls, for `rounds` rounds; prints medians and ratios.
fn compare(name: &str, kernels: [Kernel; 6], rounds: usize, calls: u32) {
    let mut times: Vec<Vec<f64>> = (0..6).map(|_| Vec::with_capacity(rounds)).collect();
    for round in 0..rounds {
        for i in 0..6 {
            let k = (i + round) % 6;
            let start = Instant::now();
            for _ in 0..calls {
                kernels[k]();
            }
            times[k].push(start.elapsed().as_secs_f64() * 1e9 / f64::from(calls));
        }
    }
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let ratio =
        |a: usize, b: usize| median(times[a].iter().zip(&times[b]).map(|(x, y)| x / y).collect());
    let ns: Vec<String> = times.iter().map(|t| format!("{:.1}", median(t.clone()))).collect();
    println!(
        "{name}: median ns: primal {} | grad hand {} gen {} | hvp hand {} gen {} | jvp {}",
        ns[0], ns[1], ns[2], ns[3], ns[4], ns[5]
    );
    println!(
        "{name}: gen/hand grad {:.2} | grad/primal {:.2} | gen/hand hvp {:.2} | hvp/grad {:.2} | jvp/primal {:.2}",
        ratio(2, 1),
        ratio(2, 0),
        ratio(4, 3),
        ratio(4, 2),
        ratio(5, 0)
    );
}

/// Compares the six kernels of a two-parameter function, at `(x, y)` along `(vx, vy)`.
macro_rules! two {
    ($f:ident, $grad:ident, $hvp:ident, $jvp:ident) => {{
        let (x, y, vx, vy) = (0.7, 1.3, 0.6, -1.1);
        let k0 = || {
            black_box(bench_fns::$f(black_box(x), black_box(y)));
        };
        let k1 = || {
            black_box(handwritten::$grad(black_box(x), black_box(y)));
        };
        let k2 = || {
            black_box(bench_fns::$grad(black_box(x), black_box(y)));
        };
        let k3 = || {
            black_box(handwritten::$hvp(black_box(x), black_box(y), black_box(vx), black_box(vy)));
        };
        let k4 = || {
            black_box(bench_fns::$hvp(black_box(x), black_box(y), black_box(vx), black_box(vy)));
        };
        let k5 = || {
            black_box(bench_fns::$jvp(black_box(x), black_box(y), black_box(vx), black_box(vy)));
        };
        compare(stringify!($f), [&k0, &k1, &k2, &k3, &k4, &k5], 20_000, 200);
    }};
}

/// Calls `f` on `black_box`ed coordinates.
fn six<R>(f: impl Fn([f64; 6]) -> R, x: [f64; 6]) {
    black_box(f(black_box(x)));
}

/// Calls `f` on `black_box`ed coordinates and directions.
fn twelve<R>(f: impl Fn([f64; 6], [f64; 6]) -> R, x: [f64; 6], v: [f64; 6]) {
    black_box(f(black_box(x), black_box(v)));
}

fn main() {
    two!(bench_f, bench_f_grad, bench_f_hvp, bench_f_jvp);
    two!(bench_g, bench_g_grad, bench_g_hvp, bench_g_jvp);
    two!(rosenbrock, rosenbrock_grad, rosenbrock_hvp, rosenbrock_jvp);
    let x = [0.3, -0.7, 1.1, 0.5, -1.3, 0.9];
    let v = [0.5, 0.2, -0.1, -0.4, -0.7, -1.0];
    let long: [Kernel; 6] = [
        &|| six(|x| black_box(bench_fns::long_chain(x[0], x[1], x[2], x[3], x[4], x[5])), x),
        &|| six(|x| black_box(handwritten::long_chain_grad(x[0], x[1], x[2], x[3], x[4], x[5])), x),
        &|| six(|x| black_box(bench_fns::long_chain_grad(x[0], x[1], x[2], x[3], x[4], x[5])), x),
        &|| {
            twelve(
                |x, v| {
                    black_box(handwritten::long_chain_hvp(
                        x[0], x[1], x[2], x[3], x[4], x[5], v[0], v[1], v[2], v[3], v[4], v[5],
                    ))
                },
                x,
                v,
            )
        },
        &|| {
            twelve(
                |x, v| {
                    black_box(bench_fns::long_chain_hvp(
                        x[0], x[1], x[2], x[3], x[4], x[5], v[0], v[1], v[2], v[3], v[4], v[5],
                    ))
                },
                x,
                v,
            )
        },
        &|| {
            twelve(
                |x, v| {
                    black_box(bench_fns::long_chain_jvp(
                        x[0], x[1], x[2], x[3], x[4], x[5], v[0], v[1], v[2], v[3], v[4], v[5],
                    ))
                },
                x,
                v,
            )
        },
    ];
    compare("long_chain", long, 3_000, 20);
}
