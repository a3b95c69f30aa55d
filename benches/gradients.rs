//! Times the generated derivatives of the benchmark corpus against hand-written ones: for each
//! function the primal, the hand-written and generated gradients, the hand-written and generated
//! Hessian-vector products, and the generated Jacobian-vector product, in one criterion group.
//!
//! Run with `cargo bench --bench gradients`; `BENCHMARKS.md` records a run and its ratios.
//! Every input goes through `black_box`, so nothing is constant-folded, and criterion
//! `black_box`es every result, so nothing is removed as dead code.

use std::hint::black_box;
use std::time::Duration;

use autodiff_suite::bench_fns::{self, handwritten};
use criterion::{Criterion, criterion_group, criterion_main};

/// One criterion group for a function of two parameters, timed at `($x, $y)` along `($vx, $vy)`.
/// The hand-written derivatives have the same names as the generated ones, in `handwritten`.
macro_rules! two_param_group {
    ($c:expr, $f:ident, $grad:ident, $hvp:ident, $jvp:ident, ($x:expr, $y:expr), ($vx:expr, $vy:expr)) => {{
        let (x, y, vx, vy): (f64, f64, f64, f64) = ($x, $y, $vx, $vy);
        let mut group = $c.benchmark_group(stringify!($f));
        group.bench_function("primal", |b| b.iter(|| bench_fns::$f(black_box(x), black_box(y))));
        group.bench_function("grad_hand", |b| {
            b.iter(|| handwritten::$grad(black_box(x), black_box(y)))
        });
        group.bench_function("grad_generated", |b| {
            b.iter(|| bench_fns::$grad(black_box(x), black_box(y)))
        });
        group.bench_function("hvp_hand", |b| {
            b.iter(|| handwritten::$hvp(black_box(x), black_box(y), black_box(vx), black_box(vy)))
        });
        group.bench_function("hvp_generated", |b| {
            b.iter(|| bench_fns::$hvp(black_box(x), black_box(y), black_box(vx), black_box(vy)))
        });
        group.bench_function("jvp_generated", |b| {
            b.iter(|| bench_fns::$jvp(black_box(x), black_box(y), black_box(vx), black_box(vy)))
        });
        group.finish();
    }};
}

fn bench_f(c: &mut Criterion) {
    two_param_group!(c, bench_f, bench_f_grad, bench_f_hvp, bench_f_jvp, (0.7, 1.3), (0.6, -1.1));
}

fn bench_g(c: &mut Criterion) {
    two_param_group!(c, bench_g, bench_g_grad, bench_g_hvp, bench_g_jvp, (0.7, 1.3), (0.6, -1.1));
}

fn rosenbrock(c: &mut Criterion) {
    two_param_group!(
        c,
        rosenbrock,
        rosenbrock_grad,
        rosenbrock_hvp,
        rosenbrock_jvp,
        (-1.2, 1.0),
        (0.6, -1.1)
    );
}

/// Calls a six-parameter kernel on `black_box`ed coordinates `$x` (and directions `$v`).
macro_rules! six {
    ($f:path, $x:expr) => {{
        let x = black_box($x);
        $f(x[0], x[1], x[2], x[3], x[4], x[5])
    }};
    ($f:path, $x:expr, $v:expr) => {{
        let (x, v) = (black_box($x), black_box($v));
        $f(x[0], x[1], x[2], x[3], x[4], x[5], v[0], v[1], v[2], v[3], v[4], v[5])
    }};
}

fn long_chain(c: &mut Criterion) {
    let x = [0.3, -0.7, 1.1, 0.5, -1.3, 0.9];
    let v = [0.5, 0.2, -0.1, -0.4, -0.7, -1.0];
    let mut group = c.benchmark_group("long_chain");
    group.bench_function("primal", |b| b.iter(|| six!(bench_fns::long_chain, x)));
    group.bench_function("grad_hand", |b| b.iter(|| six!(handwritten::long_chain_grad, x)));
    group.bench_function("grad_generated", |b| b.iter(|| six!(bench_fns::long_chain_grad, x)));
    group.bench_function("hvp_hand", |b| b.iter(|| six!(handwritten::long_chain_hvp, x, v)));
    group.bench_function("hvp_generated", |b| b.iter(|| six!(bench_fns::long_chain_hvp, x, v)));
    group.bench_function("jvp_generated", |b| b.iter(|| six!(bench_fns::long_chain_jvp, x, v)));
    group.finish();
}

/// Short warm-up and measurement: the 24 benchmarks finish in about 95 s on two cores.
fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2))
}

criterion_group! {
    name = gradients;
    config = config();
    targets = bench_f, bench_g, rosenbrock, long_chain
}
criterion_main!(gradients);
