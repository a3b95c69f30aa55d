//! Interleaved timing of the loop workloads: the ratios of `BENCHMARKS.md` ("Loops and arrays")
//! that this shared, noisy machine can decide.
//!
//! The workloads are the `#[grad]` functions of `autodiff_suite::loops` (the lessons' function at
//! N = 10, 100 and 1000, the extended Rosenbrock function at n = 100, the 16 × 16 `tanh` layer)
//! and the hand-written kernels of `autodiff_suite::oracles::handwritten`. As in
//! `benches/interleaved.rs`, the kernels of a workload take turns in short blocks, round after
//! round, and each ratio is the median over rounds of the ratio within a round, so a drift of the
//! machine's speed slows both sides of a ratio alike. Each kernel's block is as many calls as
//! take about 20 µs (one call for the slowest), calibrated once.
//!
//! Besides the human-readable lines, each ratio is printed as `RATIO <workload> <ratio> <value>`
//! so that several runs can be collated (`grep ^RATIO`).
//!
//! Run with `cargo bench --bench interleaved_loops` (about a minute).

mod interleave;

use std::hint::black_box;
use std::time::Duration;

use autodiff_suite::loops;
use autodiff_suite::oracles::{self, handwritten};
use interleave::{Clock, Kernel, Timings, interleave, load_average};

// `loops::layer` is the 16 × 16 layer of the hand-written kernels.
const _: () = assert!(oracles::LAYER == 16);

/// One block of calls lasts about this long.
const BLOCK: Duration = Duration::from_micros(20);

/// Interleaves `kernels` for about `budget`, blocks of [`BLOCK`] timed by the wall clock, at
/// least 20 rounds.
fn time(kernels: &[Kernel], budget: Duration) -> Timings {
    interleave(kernels, BLOCK, budget, 20, Clock::Wall)
}

/// Interleaves a gradient by `n` forward sweeps with one reverse sweep: blocks of a millisecond
/// or more (one call of the forward sweeps at N = 1000 takes 6 ms), timed by the thread's CPU
/// time, which leaves out the time the scheduler gives other processes during such long calls.
fn time_forward(kernels: &[Kernel]) -> Timings {
    interleave(kernels, Duration::from_millis(1), Duration::from_secs(3), 20, Clock::ThreadCpu)
}

/// The ratios every workload reports, over the kernels every workload has.
const RATIOS: [(&str, &str, &str); 6] = [
    ("gen/hand_grad", "grad_gen", "grad_hand"),
    ("grad/primal", "grad_gen", "primal"),
    ("hand_grad/primal", "grad_hand", "primal"),
    ("gen/hand_hvp", "hvp_gen", "hvp_hand"),
    ("hvp/grad", "hvp_gen", "grad_gen"),
    ("jvp/primal", "jvp_gen", "primal"),
];

/// The kernels of the gradient and HVP comparison: the function under `#[grad]` (`primal`), the
/// hand-written and generated gradients and HVPs, and one generated JVP sweep.
fn lessons<const N: usize>() {
    let x = point::<N>(0.7, 2.0);
    let v = point::<N>(2.9, 1.0);
    check_grad("lessons", loops::lessons_grad(x), handwritten::lessons_grad(x));
    check_hvp("lessons", loops::lessons_hvp(x, v), handwritten::lessons_hvp(x, v));
    let kernels = [
        Kernel::new("primal", || {
            black_box(loops::lessons(black_box(x)));
        }),
        Kernel::new("grad_hand", || {
            black_box(handwritten::lessons_grad(black_box(x)));
        }),
        Kernel::new("grad_gen", || {
            black_box(loops::lessons_grad(black_box(x)));
        }),
        Kernel::new("hvp_hand", || {
            black_box(handwritten::lessons_hvp(black_box(x), black_box(v)));
        }),
        Kernel::new("hvp_gen", || {
            black_box(loops::lessons_hvp(black_box(x), black_box(v)));
        }),
        Kernel::new("jvp_gen", || {
            black_box(loops::lessons_jvp(black_box(x), black_box(v)));
        }),
    ];
    let t = time(&kernels, Duration::from_secs(4));
    t.report(&format!("lessons_{N}"), &RATIOS);
    // The whole gradient by n forward sweeps against one reverse sweep.
    let forward = || {
        let mut grad = [0.0; N];
        let mut direction = [0.0; N];
        for (j, component) in grad.iter_mut().enumerate() {
            direction[j] = 1.0;
            *component = loops::lessons_jvp(black_box(x), black_box(direction)).1;
            direction[j] = 0.0;
        }
        grad
    };
    check_grad("lessons, forward sweeps", (loops::lessons(x), forward()), loops::lessons_grad(x));
    let kernels = [
        Kernel::new("grad_gen", || {
            black_box(loops::lessons_grad(black_box(x)));
        }),
        Kernel::new("forward_sweeps", || {
            black_box(forward());
        }),
    ];
    let t = time_forward(&kernels);
    t.report(&format!("lessons_{N}"), &[("forward/reverse", "forward_sweeps", "grad_gen")]);
}

fn ext_rosenbrock() {
    const N: usize = 100;
    let x = point::<N>(0.7, 1.5);
    let v = point::<N>(2.9, 1.0);
    let hand = handwritten::extended_rosenbrock_grad(x);
    check_grad("ext_rosenbrock", loops::ext_rosenbrock_grad(x), hand);
    check_hvp(
        "ext_rosenbrock",
        loops::ext_rosenbrock_hvp(x, v),
        handwritten::extended_rosenbrock_hvp(x, v),
    );
    let kernels = [
        Kernel::new("primal", || {
            black_box(loops::ext_rosenbrock(black_box(x)));
        }),
        Kernel::new("grad_hand", || {
            black_box(handwritten::extended_rosenbrock_grad(black_box(x)));
        }),
        Kernel::new("grad_gen", || {
            black_box(loops::ext_rosenbrock_grad(black_box(x)));
        }),
        Kernel::new("hvp_hand", || {
            black_box(handwritten::extended_rosenbrock_hvp(black_box(x), black_box(v)));
        }),
        Kernel::new("hvp_gen", || {
            black_box(loops::ext_rosenbrock_hvp(black_box(x), black_box(v)));
        }),
        Kernel::new("jvp_gen", || {
            black_box(loops::ext_rosenbrock_jvp(black_box(x), black_box(v)));
        }),
    ];
    let t = time(&kernels, Duration::from_secs(4));
    t.report("ext_rosenbrock_100", &RATIOS);
    let forward = || {
        let mut grad = [0.0; N];
        let mut direction = [0.0; N];
        for (j, component) in grad.iter_mut().enumerate() {
            direction[j] = 1.0;
            *component = loops::ext_rosenbrock_jvp(black_box(x), black_box(direction)).1;
            direction[j] = 0.0;
        }
        grad
    };
    check_grad("ext_rosenbrock, forward sweeps", (hand.0, forward()), hand);
    let kernels = [
        Kernel::new("grad_gen", || {
            black_box(loops::ext_rosenbrock_grad(black_box(x)));
        }),
        Kernel::new("forward_sweeps", || {
            black_box(forward());
        }),
    ];
    let t = time_forward(&kernels);
    t.report("ext_rosenbrock_100", &[("forward/reverse", "forward_sweeps", "grad_gen")]);
}

#[allow(clippy::type_complexity)] // (value, (w̄, b̄)), the generated signature's shape
fn flatten_layer((value, (w, b)): (f64, ([[f64; 16]; 16], [f64; 16]))) -> (f64, [f64; 272]) {
    let mut flat = [0.0; 272];
    for (k, e) in w.iter().flatten().chain(&b).enumerate() {
        flat[k] = *e;
    }
    (value, flat)
}

fn layer() {
    let (w, b, x, y) = layer_inputs(0.7);
    let (w_dot, b_dot, _, _) = layer_inputs(2.9);
    let hand = handwritten::layer_grad(w, b, x, y);
    check_grad("layer", flatten_layer(loops::layer_grad(w, b, &x, &y)), flatten_layer(hand));
    let (gv, gg, gh) = loops::layer_hvp(w, b, &x, &y, w_dot, b_dot);
    let (hv, hg, hh) = handwritten::layer_hvp(w, b, x, y, w_dot, b_dot);
    check_grad("layer hvp", flatten_layer((gv, gg)), flatten_layer((hv, hg)));
    check_grad("layer hvp", flatten_layer((gv, gh)), flatten_layer((hv, hh)));
    let kernels = [
        Kernel::new("primal", || {
            black_box(loops::layer(black_box(w), black_box(b), black_box(&x), black_box(&y)));
        }),
        Kernel::new("grad_hand", || {
            black_box(handwritten::layer_grad(
                black_box(w),
                black_box(b),
                black_box(x),
                black_box(y),
            ));
        }),
        Kernel::new("grad_gen", || {
            black_box(loops::layer_grad(black_box(w), black_box(b), black_box(&x), black_box(&y)));
        }),
        Kernel::new("hvp_hand", || {
            black_box(handwritten::layer_hvp(
                black_box(w),
                black_box(b),
                black_box(x),
                black_box(y),
                black_box(w_dot),
                black_box(b_dot),
            ));
        }),
        Kernel::new("hvp_gen", || {
            black_box(loops::layer_hvp(
                black_box(w),
                black_box(b),
                black_box(&x),
                black_box(&y),
                black_box(w_dot),
                black_box(b_dot),
            ));
        }),
        Kernel::new("jvp_gen", || {
            black_box(loops::layer_jvp(
                black_box(w),
                black_box(b),
                black_box(&x),
                black_box(&y),
                black_box(w_dot),
                black_box(b_dot),
            ));
        }),
    ];
    let t = time(&kernels, Duration::from_secs(4));
    t.report("layer_16x16", &RATIOS);
    let forward = || {
        let mut grad = [0.0; 272];
        let (mut w_dir, mut b_dir) = ([[0.0; 16]; 16], [0.0; 16]);
        for (k, component) in grad.iter_mut().enumerate() {
            let unit = |w_dir: &mut [[f64; 16]; 16], b_dir: &mut [f64; 16], value| match k {
                k if k < 256 => w_dir[k / 16][k % 16] = value,
                k => b_dir[k - 256] = value,
            };
            unit(&mut w_dir, &mut b_dir, 1.0);
            *component = loops::layer_jvp(
                black_box(w),
                black_box(b),
                black_box(&x),
                black_box(&y),
                black_box(w_dir),
                black_box(b_dir),
            )
            .1;
            unit(&mut w_dir, &mut b_dir, 0.0);
        }
        grad
    };
    let reference = flatten_layer(hand);
    check_grad("layer, forward sweeps", (reference.0, forward()), reference);
    let kernels = [
        Kernel::new("grad_gen", || {
            black_box(loops::layer_grad(black_box(w), black_box(b), black_box(&x), black_box(&y)));
        }),
        Kernel::new("forward_sweeps", || {
            black_box(forward());
        }),
    ];
    let t = time_forward(&kernels);
    t.report("layer_16x16", &[("forward/reverse", "forward_sweeps", "grad_gen")]);
}

// ---------------------------------------------------------------------------------------------
// Inputs and checks.

/// A deterministic, irregular point in `[-scale, scale]ᴺ` (the one of `benches/loops.rs`).
fn point<const N: usize>(seed: f64, scale: f64) -> [f64; N] {
    core::array::from_fn(|i| {
        let t = i as f64;
        scale * (1.7 * t + seed).sin() * (0.37 * t + 2.0 * seed).cos()
    })
}

/// Weights (about 0.4), biases, input and target of the 16 × 16 layer for `seed`.
fn layer_inputs(seed: f64) -> ([[f64; 16]; 16], [f64; 16], [f64; 16], [f64; 16]) {
    let rows: [[f64; 16]; 16] = core::array::from_fn(|i| point(seed + i as f64, 0.4));
    (rows, point(seed - 1.0, 0.4), point(seed + 7.0, 1.0), point(seed + 11.0, 0.9))
}

fn agree(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-11 * a.abs().max(b.abs()).max(1.0)
}

/// Panics unless the two `(value, gradient)` pairs agree up to rounding: a wrong kernel fails the
/// run instead of being timed.
fn check_grad<const N: usize>(what: &str, (v, g): (f64, [f64; N]), (rv, rg): (f64, [f64; N])) {
    assert!(agree(v, rv), "{what}: value {v} against {rv}");
    for (i, (a, b)) in g.iter().zip(&rg).enumerate() {
        assert!(agree(*a, *b), "{what}: component {i} is {a}, reference {b}");
    }
}

/// [`check_grad`] for `(value, gradient, H·v)`.
#[allow(clippy::type_complexity)]
fn check_hvp<const N: usize>(
    what: &str,
    (v, g, h): (f64, [f64; N], [f64; N]),
    (rv, rg, rh): (f64, [f64; N], [f64; N]),
) {
    check_grad(what, (v, g), (rv, rg));
    check_grad(what, (v, h), (rv, rh));
}

fn main() {
    println!("load average before: {}", load_average());
    lessons::<10>();
    lessons::<100>();
    lessons::<1000>();
    ext_rosenbrock();
    layer();
    println!("load average after: {}", load_average());
}
