//! Interleaved timing of the iterator forms of the loop workloads (`autodiff_suite::idioms`):
//! the lessons' function written with `enumerate` at N = 10, 100 and 1000, and the extended
//! Rosenbrock function at n = 100 written with `windows(2)` and with `zip` over the array shifted
//! by one, each beside its index-loop form (`autodiff_suite::loops`) and the hand-written kernels
//! of `autodiff_suite::oracles::handwritten`. The method is `benches/interleaved_loops.rs`'s:
//! kernels take turns in blocks of about 20 µs, round after round, and a ratio is the median over
//! rounds of the ratio within a round.
//!
//! Each ratio is also printed as `RATIO <workload> <ratio> <value>` (`grep ^RATIO`).
//!
//! Run with `cargo bench --bench interleaved_idioms` (about half a minute).

mod interleave;

use std::hint::black_box;
use std::time::Duration;

use autodiff_suite::oracles::handwritten;
use autodiff_suite::{idioms, loops};
use interleave::{Clock, Kernel, Timings, interleave, load_average};

/// One block of calls lasts about this long.
const BLOCK: Duration = Duration::from_micros(20);

fn time(kernels: &[Kernel], budget: Duration) -> Timings {
    interleave(kernels, BLOCK, budget, 20, Clock::Wall)
}

/// The ratios every workload reports.
const RATIOS: [(&str, &str, &str); 5] = [
    ("iter/hand_grad", "grad_iter", "grad_hand"),
    ("iter/index_grad", "grad_iter", "grad_index"),
    ("iter/hand_hvp", "hvp_iter", "hvp_hand"),
    ("iter/index_hvp", "hvp_iter", "hvp_index"),
    ("grad/primal", "grad_iter", "primal"),
];

/// A deterministic, irregular point in `[-scale, scale]ᴺ` (the one of `benches/loops.rs`).
fn point<const N: usize>(seed: f64, scale: f64) -> [f64; N] {
    core::array::from_fn(|i| {
        let t = i as f64;
        scale * (1.7 * t + seed).sin() * (0.37 * t + 2.0 * seed).cos()
    })
}

/// Value, gradient and H·v.
type Hvp<const N: usize> = (f64, [f64; N], [f64; N]);

/// The kernels of one workload: the iterator form (primal, gradient, H·v), its index-loop twin
/// and the hand-written kernels; panics unless all three agree.
struct Workload<const N: usize> {
    name: &'static str,
    primal: fn([f64; N]) -> f64,
    grad_iter: fn([f64; N]) -> (f64, [f64; N]),
    grad_index: fn([f64; N]) -> (f64, [f64; N]),
    grad_hand: fn([f64; N]) -> (f64, [f64; N]),
    hvp_iter: fn([f64; N], [f64; N]) -> Hvp<N>,
    hvp_index: fn([f64; N], [f64; N]) -> Hvp<N>,
    hvp_hand: fn([f64; N], [f64; N]) -> Hvp<N>,
}

impl<const N: usize> Workload<N> {
    fn run(&self, budget: Duration) {
        let x = point::<N>(0.7, 1.5);
        let v = point::<N>(2.9, 1.0);
        let (iter, index, hand) = ((self.grad_iter)(x), (self.grad_index)(x), (self.grad_hand)(x));
        assert_eq!(iter, index, "{}: the iterator form's gradient is its twin's", self.name);
        agree(self.name, &iter.1, &hand.1);
        let (iter, hand) = ((self.hvp_iter)(x, v), (self.hvp_hand)(x, v));
        assert_eq!(iter, (self.hvp_index)(x, v), "{}: H·v", self.name);
        agree(self.name, &iter.2, &hand.2);
        let kernels = [
            Kernel::new("primal", || {
                black_box((self.primal)(black_box(x)));
            }),
            Kernel::new("grad_hand", || {
                black_box((self.grad_hand)(black_box(x)));
            }),
            Kernel::new("grad_iter", || {
                black_box((self.grad_iter)(black_box(x)));
            }),
            Kernel::new("grad_index", || {
                black_box((self.grad_index)(black_box(x)));
            }),
            Kernel::new("hvp_hand", || {
                black_box((self.hvp_hand)(black_box(x), black_box(v)));
            }),
            Kernel::new("hvp_iter", || {
                black_box((self.hvp_iter)(black_box(x), black_box(v)));
            }),
            Kernel::new("hvp_index", || {
                black_box((self.hvp_index)(black_box(x), black_box(v)));
            }),
        ];
        time(&kernels, budget).report(self.name, &RATIOS);
    }
}

/// Panics unless `a` and `b` agree up to rounding.
fn agree(what: &str, a: &[f64], b: &[f64]) {
    for (i, (p, q)) in a.iter().zip(b).enumerate() {
        let ok = (p - q).abs() <= 1e-11 * p.abs().max(q.abs()).max(1.0);
        assert!(ok, "{what}: component {i} is {p}, hand-written {q}");
    }
}

fn lessons<const N: usize>(name: &'static str) {
    Workload::<N> {
        name,
        primal: idioms::lessons_iter,
        grad_iter: idioms::lessons_iter_grad,
        grad_index: loops::lessons_grad,
        grad_hand: handwritten::lessons_grad,
        hvp_iter: idioms::lessons_iter_hvp,
        hvp_index: loops::lessons_hvp,
        hvp_hand: handwritten::lessons_hvp,
    }
    .run(Duration::from_secs(3));
}

fn main() {
    println!("load average before: {}", load_average());
    lessons::<10>("lessons_iter_10");
    lessons::<100>("lessons_iter_100");
    lessons::<1000>("lessons_iter_1000");
    for (name, primal, grad, hvp) in [
        (
            "rosenbrock_windows_100",
            idioms::ext_rosenbrock_windows::<100> as fn(_) -> _,
            idioms::ext_rosenbrock_windows_grad::<100> as fn(_) -> _,
            idioms::ext_rosenbrock_windows_hvp::<100> as fn(_, _) -> _,
        ),
        (
            "rosenbrock_zip_100",
            idioms::ext_rosenbrock_zip::<100>,
            idioms::ext_rosenbrock_zip_grad::<100>,
            idioms::ext_rosenbrock_zip_hvp::<100>,
        ),
    ] {
        Workload::<100> {
            name,
            primal,
            grad_iter: grad,
            grad_index: loops::ext_rosenbrock_grad,
            grad_hand: handwritten::extended_rosenbrock_grad,
            hvp_iter: hvp,
            hvp_index: loops::ext_rosenbrock_hvp,
            hvp_hand: handwritten::extended_rosenbrock_hvp,
        }
        .run(Duration::from_secs(4));
    }
    println!("load average after: {}", load_average());
}
