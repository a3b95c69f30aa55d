//! Times the loop workloads of `autodiff_suite::oracles` (the lessons' function at N = 10, 100 and
//! 1000, the extended Rosenbrock function at n = 100, the 16 × 16 `tanh` layer): for each, the
//! primal, the hand-written gradient, the generated gradient (the `_grad` of the same function
//! under `#[grad]` in `autodiff_suite::loops`), num-dual's gradient (`n` forward sweeps of
//! `Dual64`, and its `gradient` helper with `DualSVec64<n>` where its `8 n²` bytes of duals fit on
//! the stack), the generated gradient by `n` forward sweeps of `_jvp` (where the function has
//! one), `reverse`'s gradient on a reused tape, and the hand-written and generated
//! Hessian-vector products.
//!
//! Run with `cargo bench --bench loops` (about a minute and a half). Before timing, every
//! gradient is checked against the hand-written one at the benchmark's point, so a broken
//! competitor fails the run instead of being timed; `tests/competitors.rs` and `tests/loops.rs`
//! check them at more points. Every input goes through `black_box` and criterion
//! `black_box`es every result. The ratios between these kernels are measured by
//! `benches/interleaved_loops.rs`, which this machine's drift does not disturb.

mod competitors;

use std::hint::black_box;
use std::time::Duration;

use autodiff_suite::loops;
use autodiff_suite::oracles::{self, LAYER, handwritten};
use criterion::{Criterion, criterion_group, criterion_main};
use reverse::Tape;

/// The 272 parameters of the 16 × 16 layer.
const LAYER_PARAMS: usize = LAYER * LAYER + LAYER;

/// Panics unless `(value, grad)` is the hand-written `(ref_value, ref_grad)` up to rounding.
fn assert_agree(what: &str, (value, grad): (f64, &[f64]), (ref_value, ref_grad): (f64, &[f64])) {
    let agree = |a: f64, b: f64| (a - b).abs() <= 1e-11 * a.abs().max(b.abs()).max(1.0);
    assert!(agree(value, ref_value), "{what}: value {value} against {ref_value}");
    for (i, (g, r)) in grad.iter().zip(ref_grad).enumerate() {
        assert!(agree(*g, *r), "{what}: gradient component {i} is {g}, hand-written {r}");
    }
}

/// The lessons' function at `N` coordinates; `vector_helper` says whether num-dual's `gradient`
/// helper fits on the stack at this size.
fn lessons_group<const N: usize>(c: &mut Criterion, vector_helper: bool) {
    let x = competitors::point::<N>(0.7, 2.0);
    let v = competitors::point::<N>(2.9, 1.0);
    let tape = Tape::new();
    let (value, grad) = handwritten::lessons_grad(x);
    let reference = (value, &grad[..]);
    let (dv, dg) = competitors::lessons_num_dual_sweeps(&x);
    assert_agree("lessons, num-dual sweeps", (dv, &dg), reference);
    let (rv, rg) = competitors::lessons_reverse(&tape, &x);
    assert_agree("lessons, reverse", (rv, &rg), reference);
    let (gv, gg) = loops::lessons_grad(x);
    assert_agree("lessons, generated", (gv, &gg), reference);
    let forward = lessons_forward_sweeps(&x);
    assert_agree("lessons, generated forward sweeps", (value, &forward), reference);
    let (_, _, hv) = loops::lessons_hvp(x, v);
    let (_, _, hand_hv) = handwritten::lessons_hvp(x, v);
    assert_agree("lessons, generated H·v", (value, &hv), (value, &hand_hv));

    let mut group = c.benchmark_group(format!("lessons_{N}"));
    group.bench_function("primal", |b| b.iter(|| oracles::lessons(black_box(x))));
    group.bench_function("grad_hand", |b| b.iter(|| handwritten::lessons_grad(black_box(x))));
    group.bench_function("grad_generated", |b| b.iter(|| loops::lessons_grad(black_box(x))));
    group.bench_function("grad_generated_forward_sweeps", |b| {
        b.iter(|| lessons_forward_sweeps(black_box(&x)))
    });
    group.bench_function("grad_num_dual_sweeps", |b| {
        b.iter(|| competitors::lessons_num_dual_sweeps(black_box(&x)))
    });
    if vector_helper {
        let (hv, hg) = competitors::lessons_num_dual_vector(&x);
        assert_agree("lessons, num-dual gradient helper", (hv, &hg), reference);
        group.bench_function("grad_num_dual_vector", |b| {
            b.iter(|| competitors::lessons_num_dual_vector(black_box(&x)))
        });
    }
    group.bench_function("grad_reverse", |b| {
        b.iter(|| competitors::lessons_reverse(&tape, black_box(&x)))
    });
    group.bench_function("hvp_hand", |b| {
        b.iter(|| handwritten::lessons_hvp(black_box(x), black_box(v)))
    });
    group.bench_function("hvp_generated", |b| {
        b.iter(|| loops::lessons_hvp(black_box(x), black_box(v)))
    });
    group.finish();
}

fn lessons(c: &mut Criterion) {
    lessons_group::<10>(c, true);
    lessons_group::<100>(c, true);
    // num-dual's helper would put 8 MB of `DualSVec64<1000>` on the stack: not timed.
    lessons_group::<1000>(c, false);
}

fn extended_rosenbrock(c: &mut Criterion) {
    const N: usize = 100;
    let x = competitors::point::<N>(0.7, 1.5);
    let v = competitors::point::<N>(2.9, 1.0);
    let tape = Tape::new();
    let (value, grad) = handwritten::extended_rosenbrock_grad(x);
    let reference = (value, &grad[..]);
    let (dv, dg) = competitors::extended_rosenbrock_num_dual_sweeps(&x);
    assert_agree("extended Rosenbrock, num-dual sweeps", (dv, &dg), reference);
    let (hv, hg) = competitors::extended_rosenbrock_num_dual_vector(&x);
    assert_agree("extended Rosenbrock, num-dual gradient helper", (hv, &hg), reference);
    let (rv, rg) = competitors::extended_rosenbrock_reverse(&tape, &x);
    assert_agree("extended Rosenbrock, reverse", (rv, &rg), reference);
    let (gv, gg) = loops::ext_rosenbrock_grad(x);
    assert_agree("extended Rosenbrock, generated", (gv, &gg), reference);
    let forward = ext_rosenbrock_forward_sweeps(&x);
    assert_agree("extended Rosenbrock, generated forward sweeps", (value, &forward), reference);
    let (_, _, hv) = loops::ext_rosenbrock_hvp(x, v);
    let (_, _, hand_hv) = handwritten::extended_rosenbrock_hvp(x, v);
    assert_agree("extended Rosenbrock, generated H·v", (value, &hv), (value, &hand_hv));

    let mut group = c.benchmark_group("extended_rosenbrock_100");
    group.bench_function("primal", |b| b.iter(|| oracles::extended_rosenbrock(black_box(x))));
    group.bench_function("grad_hand", |b| {
        b.iter(|| handwritten::extended_rosenbrock_grad(black_box(x)))
    });
    group.bench_function("grad_generated", |b| b.iter(|| loops::ext_rosenbrock_grad(black_box(x))));
    group.bench_function("grad_generated_forward_sweeps", |b| {
        b.iter(|| ext_rosenbrock_forward_sweeps(black_box(&x)))
    });
    group.bench_function("grad_num_dual_sweeps", |b| {
        b.iter(|| competitors::extended_rosenbrock_num_dual_sweeps(black_box(&x)))
    });
    group.bench_function("grad_num_dual_vector", |b| {
        b.iter(|| competitors::extended_rosenbrock_num_dual_vector(black_box(&x)))
    });
    group.bench_function("grad_reverse", |b| {
        b.iter(|| competitors::extended_rosenbrock_reverse(&tape, black_box(&x)))
    });
    group.bench_function("hvp_hand", |b| {
        b.iter(|| handwritten::extended_rosenbrock_hvp(black_box(x), black_box(v)))
    });
    group.bench_function("hvp_generated", |b| {
        b.iter(|| loops::ext_rosenbrock_hvp(black_box(x), black_box(v)))
    });
    group.finish();
}

fn layer(c: &mut Criterion) {
    let (w, bias, x, y) = competitors::layer_inputs::<LAYER, LAYER>(0.7);
    let (w_dot, b_dot, _, _) = competitors::layer_inputs::<LAYER, LAYER>(2.9);
    let params: [f64; LAYER_PARAMS] = competitors::flat_params(&w, &bias);
    let tape = Tape::new();
    let (value, (gw, gb)) = handwritten::layer_grad(w, bias, x, y);
    let grad: [f64; LAYER_PARAMS] = competitors::flat_params(&gw, &gb);
    let reference = (value, &grad[..]);
    let (dv, dg) = competitors::layer_num_dual_sweeps(&params, &x, &y);
    assert_agree("layer, num-dual sweeps", (dv, &dg), reference);
    let (hv, hg) = competitors::layer_num_dual_vector(&params, &x, &y);
    assert_agree("layer, num-dual gradient helper", (hv, &hg), reference);
    let (rv, rg) = competitors::layer_reverse(&tape, &params, &x, &y);
    assert_agree("layer, reverse", (rv, &rg), reference);
    let (gv, (gw, gb)) = loops::layer_grad(w, bias, &x, &y);
    let generated: [f64; LAYER_PARAMS] = competitors::flat_params(&gw, &gb);
    assert_agree("layer, generated", (gv, &generated), reference);
    let (_, _, (hw, hb)) = loops::layer_hvp(w, bias, &x, &y, w_dot, b_dot);
    let (_, _, (rw, rb)) = handwritten::layer_hvp(w, bias, x, y, w_dot, b_dot);
    let hv: [f64; LAYER_PARAMS] = competitors::flat_params(&hw, &hb);
    let hand_hv: [f64; LAYER_PARAMS] = competitors::flat_params(&rw, &rb);
    assert_agree("layer, generated H·v", (value, &hv), (value, &hand_hv));

    let mut group = c.benchmark_group("layer_16x16");
    group.bench_function("primal", |b| {
        b.iter(|| oracles::layer_loss(black_box(w), black_box(bias), black_box(x), black_box(y)))
    });
    group.bench_function("grad_hand", |b| {
        b.iter(|| {
            handwritten::layer_grad(black_box(w), black_box(bias), black_box(x), black_box(y))
        })
    });
    group.bench_function("grad_generated", |b| {
        b.iter(|| loops::layer_grad(black_box(w), black_box(bias), black_box(&x), black_box(&y)))
    });
    group.bench_function("grad_num_dual_sweeps", |b| {
        b.iter(|| {
            competitors::layer_num_dual_sweeps(black_box(&params), black_box(&x), black_box(&y))
        })
    });
    group.bench_function("grad_num_dual_vector", |b| {
        b.iter(|| {
            competitors::layer_num_dual_vector(black_box(&params), black_box(&x), black_box(&y))
        })
    });
    group.bench_function("grad_reverse", |b| {
        b.iter(|| {
            competitors::layer_reverse(&tape, black_box(&params), black_box(&x), black_box(&y))
        })
    });
    group.bench_function("hvp_hand", |b| {
        b.iter(|| {
            handwritten::layer_hvp(
                black_box(w),
                black_box(bias),
                black_box(x),
                black_box(y),
                black_box(w_dot),
                black_box(b_dot),
            )
        })
    });
    group.bench_function("hvp_generated", |b| {
        b.iter(|| {
            loops::layer_hvp(
                black_box(w),
                black_box(bias),
                black_box(&x),
                black_box(&y),
                black_box(w_dot),
                black_box(b_dot),
            )
        })
    });
    group.finish();
}

/// The generated gradient of [`loops::lessons`] by `N` forward sweeps of its `_jvp`, one per
/// unit direction (`black_box` keeps each sweep a sweep of its own, as in `examples/modes.rs`).
fn lessons_forward_sweeps<const N: usize>(x: &[f64; N]) -> [f64; N] {
    let mut grad = [0.0; N];
    let mut direction = [0.0; N];
    for (j, component) in grad.iter_mut().enumerate() {
        direction[j] = 1.0;
        *component = loops::lessons_jvp(black_box(*x), black_box(direction)).1;
        direction[j] = 0.0;
    }
    grad
}

/// The generated gradient of [`loops::ext_rosenbrock`] by `N` forward sweeps of its `_jvp`.
fn ext_rosenbrock_forward_sweeps<const N: usize>(x: &[f64; N]) -> [f64; N] {
    let mut grad = [0.0; N];
    let mut direction = [0.0; N];
    for (j, component) in grad.iter_mut().enumerate() {
        direction[j] = 1.0;
        *component = loops::ext_rosenbrock_jvp(black_box(*x), black_box(direction)).1;
        direction[j] = 0.0;
    }
    grad
}

/// Short warm-up and measurement, ten samples: the 43 benchmarks take about 80 s.
fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(1))
        .sample_size(10)
}

criterion_group! {
    name = loops;
    config = config();
    targets = lessons, extended_rosenbrock, layer
}
criterion_main!(loops);
