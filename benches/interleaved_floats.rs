//! Interleaved timing of issue 16's number types: the extended Rosenbrock function over a slice
//! `&[f64]` at n = 100, 10⁴ and 10⁶ (`autodiff_suite::slices`), its generated gradient written
//! into the caller's buffer against a hand-written one writing into a `&mut [f64]`; and the
//! lessons' function over `f32` at M = 10, 100 and 1000 (`autodiff_suite::floats`), the generated
//! gradient (and the generic one instantiated at `f32`) against a hand-written `f32` gradient.
//! The method is `benches/interleaved_loops.rs`'s: kernels take turns in blocks of about 20 µs,
//! round after round, and a ratio is the median over rounds of the ratio within a round. Blocks
//! are timed by the thread's CPU clock, which other processes on the machine do not advance.
//!
//! Each ratio is also printed as `RATIO <workload> <ratio> <value>` (`grep ^RATIO`).
//!
//! Run with `cargo bench --bench interleaved_floats` (about half a minute); arguments after `--`
//! keep the workloads whose name contains one of them (`-- rosenbrock`).

mod interleave;

use std::cell::RefCell;
use std::hint::black_box;
use std::time::Duration;

use autodiff_suite::{floats, slices};
use interleave::{Clock, Kernel, Timings, interleave, load_average};

/// One block of calls lasts about this long.
const BLOCK: Duration = Duration::from_micros(20);

fn time(kernels: &[Kernel], budget: Duration) -> Timings {
    interleave(kernels, BLOCK, budget, 20, Clock::ThreadCpu)
}

/// A deterministic, irregular point in `[-scale, scale]ⁿ` (the one of `benches/loops.rs`).
fn point(n: usize, seed: f64, scale: f64) -> Vec<f64> {
    (0..n)
        .map(|i| {
            let t = i as f64;
            scale * (1.7 * t + seed).sin() * (0.37 * t + 2.0 * seed).cos()
        })
        .collect()
}

/// Panics unless `a` and `b` agree up to `tol` relative to the larger (at least 1).
fn agree<T: Into<f64> + Copy>(what: &str, a: &[T], b: &[T], tol: f64) {
    for (i, (p, q)) in a.iter().zip(b).enumerate() {
        let (p, q): (f64, f64) = ((*p).into(), (*q).into());
        let ok = (p - q).abs() <= tol * p.abs().max(q.abs()).max(1.0);
        assert!(ok, "{what}: component {i} is {p}, hand-written {q}");
    }
}

/// The extended Rosenbrock function over a slice of `n`: generated gradient and hand-written
/// gradient, each into a buffer allocated once, and the function itself.
fn rosenbrock(n: usize, budget: Duration) {
    let name = format!("rosenbrock_slice_{n}");
    let x = point(n, 0.7, 1.5);
    let (mut gen_bar, mut hand_bar) = (vec![f64::NAN; n], vec![f64::NAN; n]);
    let value = slices::ext_rosenbrock_slice_grad(&x, &mut gen_bar);
    assert_eq!(slices::ext_rosenbrock_slice_by_hand(&x, &mut hand_bar), value, "{name}: value");
    agree(&name, &gen_bar, &hand_bar, 1e-12);
    let (gen_bar, hand_bar) = (RefCell::new(gen_bar), RefCell::new(hand_bar));
    let kernels = [
        Kernel::new("primal", || {
            black_box(slices::ext_rosenbrock_slice(black_box(&x)));
        }),
        Kernel::new("grad_hand", || {
            let mut g = hand_bar.borrow_mut();
            black_box(slices::ext_rosenbrock_slice_by_hand(black_box(&x), black_box(&mut g)));
        }),
        Kernel::new("grad_gen", || {
            let mut g = gen_bar.borrow_mut();
            black_box(slices::ext_rosenbrock_slice_grad(black_box(&x), black_box(&mut g)));
        }),
    ];
    let ratios =
        [("gen/hand_grad", "grad_gen", "grad_hand"), ("grad/primal", "grad_gen", "primal")];
    time(&kernels, budget).report(&name, &ratios);
}

/// The lessons' function over `f32` at `M`: the generated gradient, the generic one at `f32`, and
/// the hand-written one.
fn lessons<const M: usize>(budget: Duration) {
    let name = format!("lessons_f32_{M}");
    let x: [f32; M] = core::array::from_fn(|i| {
        let t = i as f32;
        1.5 * (1.7 * t + 0.7).sin() * (0.37 * t + 1.4).cos()
    });
    let (value, grad) = floats::lessons_f32_grad(&x);
    let (hand_value, hand) = floats::lessons_f32_by_hand(&x);
    agree(&name, &[value], &[hand_value], 1e-4);
    agree(&name, &grad, &hand, 1e-5);
    assert_eq!(floats::lessons_gen_grad(&x), (value, grad), "{name}: generic at f32");
    let kernels = [
        Kernel::new("primal", || {
            black_box(floats::lessons_f32(black_box(&x)));
        }),
        Kernel::new("grad_hand", || {
            black_box(floats::lessons_f32_by_hand(black_box(&x)));
        }),
        Kernel::new("grad_gen", || {
            black_box(floats::lessons_f32_grad(black_box(&x)));
        }),
        Kernel::new("grad_generic", || {
            black_box(floats::lessons_gen_grad(black_box(&x)));
        }),
    ];
    let ratios = [
        ("gen/hand_grad", "grad_gen", "grad_hand"),
        ("generic/hand_grad", "grad_generic", "grad_hand"),
        ("grad/primal", "grad_gen", "primal"),
    ];
    time(&kernels, budget).report(&name, &ratios);
}

/// Whether the workload `name` is selected by the command line's filters (none keeps all).
fn selected(name: &str) -> bool {
    let filters: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    filters.is_empty() || filters.iter().any(|f| name.contains(f.as_str()))
}

fn main() {
    println!("load average before: {}", load_average());
    for n in [100, 10_000, 1_000_000] {
        if selected(&format!("rosenbrock_slice_{n}")) {
            rosenbrock(n, Duration::from_secs(4));
        }
    }
    let budget = Duration::from_secs(3);
    if selected("lessons_f32_10") {
        lessons::<10>(budget);
    }
    if selected("lessons_f32_100") {
        lessons::<100>(budget);
    }
    if selected("lessons_f32_1000") {
        lessons::<1000>(budget);
    }
    println!("load average after: {}", load_average());
}
