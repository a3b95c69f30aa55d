//! Interleaved timing of calls of functions returning arrays: a two-layer perceptron whose
//! layers are calls of `layer(w, b, x) -> [f64; 4]`, differentiated through `layer_fwd` and
//! `layer_rev` (and, for H·v, `layer_jvp` and `layer_hvp`), against the same network written inline, both
//! generated (`src/vcalls.rs`). The ratios say what the calls cost a gradient.
//!
//! The kernels take turns in short blocks, round after round (`benches/interleave/`), and each
//! ratio is the median over rounds of the ratio within a round.
//!
//! Run with `cargo bench --bench interleaved_vcalls` (about ten seconds).

use std::hint::black_box;
use std::time::Duration;

use autodiff_suite::vcalls;

mod interleave;
use interleave::{Clock, Kernel, interleave, load_average};

/// The ratios reported: the network through calls over the one written inline, and gradient over
/// primal.
const RATIOS: [(&str, &str, &str); 5] = [
    ("calls/inline_primal", "primal_calls", "primal_inline"),
    ("calls/inline_grad", "grad_calls", "grad_inline"),
    ("calls/inline_hvp", "hvp_calls", "hvp_inline"),
    ("grad/primal_calls", "grad_calls", "primal_calls"),
    ("grad/primal_inline", "grad_inline", "primal_inline"),
];

type Matrix = [[f64; 4]; 4];

/// The gradient (or H·v) of the network with respect to `w1, b1, w2, b2`, one vector.
type Parts = (Matrix, [f64; 4], Matrix, [f64; 4]);

/// The scalars of [`Parts`] in parameter order, row-major.
fn flatten((w1, b1, w2, b2): &Parts) -> Vec<f64> {
    let rows = w1.iter().chain([b1]).chain(w2.iter()).chain([b2]);
    rows.flatten().copied().collect()
}

fn main() {
    println!("load average {}", load_average());
    let w1: Matrix =
        std::array::from_fn(|i| std::array::from_fn(|j| 0.3 * ((i * 4 + j) as f64).sin()));
    let w2: Matrix =
        std::array::from_fn(|i| std::array::from_fn(|j| 0.4 * ((i + 3 * j) as f64).cos()));
    let (b1, b2, x) = ([0.1, -0.2, 0.05, 0.3], [0.0, 0.1, -0.1, 0.2], [0.5, -1.0, 0.25, 2.0]);
    let (vw1, vw2) = (w2, w1);
    let (vb1, vb2) = (b2, b1);
    let (m, a) = (black_box::<&Matrix>, black_box::<&[f64; 4]>);
    let calls = vcalls::mlp_hvp(&w1, &b1, &w2, &b2, &x, &vw1, &vb1, &vw2, &vb2);
    let inline = vcalls::mlp_inline_hvp(&w1, &b1, &w2, &b2, &x, &vw1, &vb1, &vw2, &vb2);
    let close = |p: f64, q: f64| (p - q).abs() <= 1e-12 * (1.0 + q.abs());
    assert!(close(calls.0, inline.0), "the two networks' values agree");
    for (part, (p, q)) in [(calls.1, inline.1), (calls.2, inline.2)].iter().enumerate() {
        let (p, q) = (flatten(p), flatten(q));
        assert!(p.iter().zip(&q).all(|(&p, &q)| close(p, q)), "part {part}: {p:?} against {q:?}");
    }
    let kernels = [
        Kernel::new("primal_calls", || {
            black_box(vcalls::mlp(m(&w1), a(&b1), m(&w2), a(&b2), a(&x)));
        }),
        Kernel::new("grad_calls", || {
            black_box(vcalls::mlp_grad(m(&w1), a(&b1), m(&w2), a(&b2), a(&x)));
        }),
        Kernel::new("hvp_calls", || {
            black_box(vcalls::mlp_hvp(
                m(&w1),
                a(&b1),
                m(&w2),
                a(&b2),
                a(&x),
                m(&vw1),
                a(&vb1),
                m(&vw2),
                a(&vb2),
            ));
        }),
        Kernel::new("primal_inline", || {
            black_box(vcalls::mlp_inline(m(&w1), a(&b1), m(&w2), a(&b2), a(&x)));
        }),
        Kernel::new("grad_inline", || {
            black_box(vcalls::mlp_inline_grad(m(&w1), a(&b1), m(&w2), a(&b2), a(&x)));
        }),
        Kernel::new("hvp_inline", || {
            black_box(vcalls::mlp_inline_hvp(
                m(&w1),
                a(&b1),
                m(&w2),
                a(&b2),
                a(&x),
                m(&vw1),
                a(&vb1),
                m(&vw2),
                a(&vb2),
            ));
        }),
    ];
    let timings =
        interleave(&kernels, Duration::from_micros(20), Duration::from_secs(8), 20, Clock::Wall);
    timings.report("mlp 4-4-4", &RATIOS);
}
