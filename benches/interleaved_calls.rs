//! Interleaved timing of calls: a `#[grad]` function that calls other `#[grad]` functions,
//! differentiated through their `_grad` and `_hvp`, against the same body with the callees
//! written out by hand, both generated. The ratios say what a call costs a gradient.
//!
//! As in `benches/interleaved.rs`, the kernels take turns in short blocks, round after round, and
//! each ratio is the median over rounds of the ratio within a round.
//!
//! Run with `cargo bench --bench interleaved_calls` (about half a minute).

use std::hint::black_box;
use std::time::Instant;

use autodiff_suite::calls;

/// One kernel: calls a function once, its inputs and result through `black_box`.
type Kernel<'a> = &'a dyn Fn();

/// Times `kernels` (primal, grad, hvp of the caller, then the same of the written-out body) in
/// rotating blocks of `calls` calls, for `rounds` rounds; prints medians and ratios.
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
        "{name}: median ns: calls primal {} grad {} hvp {} | written out primal {} grad {} hvp {}",
        ns[0], ns[1], ns[2], ns[3], ns[4], ns[5]
    );
    println!(
        "{name}: calls/written out: primal {:.2} | grad {:.2} | hvp {:.2} || grad/primal: calls {:.2}, written out {:.2}",
        ratio(0, 3),
        ratio(1, 4),
        ratio(2, 5),
        ratio(1, 0),
        ratio(4, 3)
    );
}

fn main() {
    let (x, y, vx, vy) = (0.7, 1.3, 0.6, -1.1);
    let bb = black_box::<f64>;
    let k: [Kernel; 6] = [
        &|| {
            black_box(calls::f(bb(x), bb(y)));
        },
        &|| {
            black_box(calls::f_grad(bb(x), bb(y)));
        },
        &|| {
            black_box(calls::f_hvp(bb(x), bb(y), bb(vx), bb(vy)));
        },
        &|| {
            black_box(calls::f_inlined(bb(x), bb(y)));
        },
        &|| {
            black_box(calls::f_inlined_grad(bb(x), bb(y)));
        },
        &|| {
            black_box(calls::f_inlined_hvp(bb(x), bb(y), bb(vx), bb(vy)));
        },
    ];
    compare("f -> g -> h (2 params)", k, 20_000, 200);

    let p = [0.3, -1.0, 0.5, 2.0, -0.2];
    let v = [1.0, 0.5, -0.5, 0.25, 2.0];
    let ba = black_box::<[f64; 5]>;
    let k: [Kernel; 6] = [
        &|| {
            black_box(calls::softplus_ring(ba(p)));
        },
        &|| {
            black_box(calls::softplus_ring_grad(ba(p)));
        },
        &|| {
            black_box(calls::softplus_ring_hvp(ba(p), ba(v)));
        },
        &|| {
            black_box(calls::softplus_ring_inlined(ba(p)));
        },
        &|| {
            black_box(calls::softplus_ring_inlined_grad(ba(p)));
        },
        &|| {
            black_box(calls::softplus_ring_inlined_hvp(ba(p), ba(v)));
        },
    ];
    compare("softplus in a loop (5 params)", k, 20_000, 200);
}
