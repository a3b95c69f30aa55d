//! Interleaved timing of struct parameters: the logistic regression over `&Model`
//! (`src/structs.rs`), whose gradient and H·v come back as a `Model`, against its twin taking
//! the model's fields as separate parameters. The two compute the same values to the bit
//! (`tests/structs.rs`, and asserted here before timing); the ratios say what the struct costs.
//!
//! The kernels take turns in short blocks, round after round (`benches/interleave/`), and each
//! ratio is the median over rounds of the ratio within a round.
//!
//! Run with `cargo bench --bench interleaved_structs` (about ten seconds).

use std::hint::black_box;
use std::time::Duration;

use autodiff_suite::structs::{self, Model};

mod interleave;
use interleave::{Clock, Kernel, interleave, load_average};

/// The ratios reported: the struct over its separate-parameter twin, and gradient over primal.
const RATIOS: [(&str, &str, &str); 5] = [
    ("struct/flat_primal", "primal_struct", "primal_flat"),
    ("struct/flat_grad", "grad_struct", "grad_flat"),
    ("struct/flat_hvp", "hvp_struct", "hvp_flat"),
    ("grad/primal_struct", "grad_struct", "primal_struct"),
    ("grad/primal_flat", "grad_flat", "primal_flat"),
];

/// `n` samples of 8 features with labels ±1.
fn data(n: usize) -> (Vec<[f64; 8]>, Vec<f64>) {
    let x = (0..n).map(|k| std::array::from_fn(|j| ((k * 8 + j) as f64 * 0.37).sin())).collect();
    let y = (0..n).map(|k| if (k * 7) % 3 == 0 { 1.0 } else { -1.0 }).collect();
    (x, y)
}

/// Asserts that the struct's gradient and H·v are the twin's to the bit.
fn assert_same(m: &Model, d: &Model, x: &[[f64; 8]], y: &[f64]) {
    let (v, g) = structs::logistic_grad(m, x, y);
    let (vf, (gw, gb)) = structs::logistic_flat_grad(&m.w, m.b, m.l2, x, y);
    assert_eq!((v.to_bits(), g.w.map(f64::to_bits)), (vf.to_bits(), gw.map(f64::to_bits)));
    assert_eq!(g.b.to_bits(), gb.to_bits());
    let (_, _, hv) = structs::logistic_hvp(m, x, y, d);
    let (_, _, (hw, hb)) = structs::logistic_flat_hvp(&m.w, m.b, m.l2, x, y, &d.w, d.b);
    assert_eq!((hv.w.map(f64::to_bits), hv.b.to_bits()), (hw.map(f64::to_bits), hb.to_bits()));
}

fn time(n: usize) {
    let (x, y) = data(n);
    let m = Model { w: std::array::from_fn(|j| 0.3 - 0.11 * j as f64), b: -0.2, l2: 0.01 };
    let d = Model { w: std::array::from_fn(|j| 0.5 - 0.2 * j as f64), b: 0.7, l2: 0.0 };
    assert_same(&m, &d, &x, &y);
    let (x, y) = (x.as_slice(), y.as_slice());
    let bm = black_box::<&Model>;
    let kernels = [
        Kernel::new("primal_struct", || {
            black_box(structs::logistic(bm(&m), x, y));
        }),
        Kernel::new("grad_struct", || {
            black_box(structs::logistic_grad(bm(&m), x, y));
        }),
        Kernel::new("hvp_struct", || {
            black_box(structs::logistic_hvp(bm(&m), x, y, bm(&d)));
        }),
        Kernel::new("primal_flat", || {
            let m = bm(&m);
            black_box(structs::logistic_flat(&m.w, m.b, m.l2, x, y));
        }),
        Kernel::new("grad_flat", || {
            let m = bm(&m);
            black_box(structs::logistic_flat_grad(&m.w, m.b, m.l2, x, y));
        }),
        Kernel::new("hvp_flat", || {
            let (m, d) = (bm(&m), bm(&d));
            black_box(structs::logistic_flat_hvp(&m.w, m.b, m.l2, x, y, &d.w, d.b));
        }),
    ];
    let timings =
        interleave(&kernels, Duration::from_micros(20), Duration::from_secs(4), 20, Clock::Wall);
    timings.report(&format!("logistic, {n} samples"), &RATIOS);
}

fn main() {
    println!("load average {}", load_average());
    for n in [16, 256] {
        time(n);
    }
}
