//! Loops of unknown length through the macro: the gradient of a `while` loop that `#[grad]`
//! checkpoints online, against the same loop as a `for` loop given its length (offline revolve)
//! and the stored sweep of a const generic trip count, as gradient/primal time ratios,
//! interleaved; and Kepler's equation by Newton differentiated at its fixed point
//! (`implicit('newton)`) against the same loop differentiated through its iterations.
//!
//! The loop is `benches/online.rs`'s (there written by hand against the runtime's API):
//! `x ← x + h·sin(x)·p`, `t ← t + h` while `t < 1`, with `h` = 10⁻⁴, 10⁻⁵, 10⁻⁶ (10 001,
//! 100 001 and 1 000 000 steps), the gradient of the final `x` in `(x0, p)`. Kernels:
//! - `primal`: the `while` loop;
//! - `online16`, `online64`: `#[grad(checkpoint(s = 16))]` (64) on the `while` loop;
//! - `offline16`, `offline64`: the same as a `for` loop over `0..n`, `n` given;
//! - `stored`: the `for` loop over `0..N`, `N` a const generic, stored (`stack` raised).
//!
//! Before timing, every gradient is checked against the stored one to the bit. The forward steps
//! per step of the generated sweeps are counted in `tests/whiles.rs` (through an instrumented
//! step); here the theory, `1 + online_steps(n, s)/n` and `1 + schedule_steps(n, s)/n`, is
//! printed beside the times.
//!
//! Run with `cargo bench --bench whiles` (about three minutes).

mod interleave;

use std::hint::black_box;
use std::time::Duration;

use autodiff_runtime::grad;
use autodiff_runtime::revolve::{online_steps, schedule_steps};
use autodiff_suite::whiles::{kepler, kepler_grad, kepler_implicit_grad};
use interleave::{Clock, Kernel, interleave, load_average};

const P: f64 = 0.75;
const X0: f64 = 0.4;

/// The primal loop.
#[grad(wrt(x0, p), checkpoint(s = 16))]
fn online16(x0: f64, p: f64, h: f64) -> f64 {
    let mut x = x0;
    let mut t = 0.0;
    while t < 1.0 {
        x += h * x.sin() * p;
        t += h;
    }
    x
}

/// The same, with 64 snapshots.
#[grad(wrt(x0, p), checkpoint(s = 64))]
fn online64(x0: f64, p: f64, h: f64) -> f64 {
    let mut x = x0;
    let mut t = 0.0;
    while t < 1.0 {
        x += h * x.sin() * p;
        t += h;
    }
    x
}

/// The loop with its length given.
#[grad(wrt(x0, p), checkpoint(s = 16))]
fn offline16(x0: f64, p: f64, h: f64, n: usize) -> f64 {
    let mut x = x0;
    for _ in 0..n {
        x += h * x.sin() * p;
    }
    x
}

/// The same, with 64 snapshots.
#[grad(wrt(x0, p), checkpoint(s = 64))]
fn offline64(x0: f64, p: f64, h: f64, n: usize) -> f64 {
    let mut x = x0;
    for _ in 0..n {
        x += h * x.sin() * p;
    }
    x
}

/// The loop over a const generic length, stored (8 MB at 10⁶ steps: the budget is raised, and
/// the benchmark runs in a thread with the stack for it).
#[grad(wrt(x0, p), stack = 40_000_000)]
fn stored<const N: usize>(x0: f64, p: f64, h: f64) -> f64 {
    let mut x = x0;
    for _ in 0..N {
        x += h * x.sin() * p;
    }
    x
}

/// The number of steps the `while` loop takes.
fn steps(h: f64) -> usize {
    let (mut t, mut n) = (0.0, 0);
    while t < 1.0 {
        t += h;
        n += 1;
    }
    n
}

type Gradient = Box<dyn Fn() -> (f64, (f64, f64))>;

fn compare<const N: usize>(h: f64, budget: Duration, min_rounds: usize) {
    let n = steps(h);
    assert_eq!(n, N, "the stored twin's length");
    let variants: Vec<(&str, Gradient)> = vec![
        ("stored", Box::new(move || stored_grad::<N>(black_box(X0), black_box(P), h))),
        ("online16", Box::new(move || online16_grad(black_box(X0), black_box(P), h))),
        ("online64", Box::new(move || online64_grad(black_box(X0), black_box(P), h))),
        ("offline16", Box::new(move || offline16_grad(black_box(X0), black_box(P), h, n))),
        ("offline64", Box::new(move || offline64_grad(black_box(X0), black_box(P), h, n))),
    ];
    let reference = (variants[0].1)();
    assert_eq!(reference.0, online16(X0, P, h));
    for (name, grad) in &variants {
        assert_eq!(grad(), reference, "{name}: not the stored gradient to the bit");
    }
    let mut kernels = vec![Kernel::new("primal", move || {
        black_box(online16(black_box(X0), black_box(P), black_box(h)));
    })];
    for (name, grad) in &variants {
        kernels.push(Kernel::new(name, move || {
            black_box(grad());
        }));
    }
    println!("n = {n}: load average before {}", load_average());
    let t = interleave(&kernels, Duration::from_millis(1), budget, min_rounds, Clock::ThreadCpu);
    let workload = format!("macro_while_{n}");
    let ratios = [
        ("stored/primal", "stored", "primal"),
        ("online16/primal", "online16", "primal"),
        ("offline16/primal", "offline16", "primal"),
        ("online64/primal", "online64", "primal"),
        ("offline64/primal", "offline64", "primal"),
        ("online16/offline16", "online16", "offline16"),
        ("online64/offline64", "online64", "offline64"),
    ];
    t.report(&workload, &ratios);
    for s in [16, 64] {
        let (on, off) = (online_steps(n, s), schedule_steps(n, s));
        println!(
            "{workload}: s = {s}: forward steps per step, theory: online {:.3}, offline {:.3}",
            1.0 + on as f64 / n as f64,
            1.0 + off as f64 / n as f64,
        );
    }
    println!("n = {n}: load average after {}", load_average());
}

fn kepler_implicit() {
    let (m, e) = (1.2, 0.5);
    let implicit = kepler_implicit_grad(m, e);
    let through = kepler_grad(m, e);
    assert_eq!(implicit.0, through.0);
    let kernels = vec![
        Kernel::new("primal", move || {
            black_box(kepler(black_box(m), black_box(e)));
        }),
        Kernel::new("implicit", move || {
            black_box(kepler_implicit_grad(black_box(m), black_box(e)));
        }),
        Kernel::new("through", move || {
            black_box(kepler_grad(black_box(m), black_box(e)));
        }),
    ];
    println!("kepler: load average before {}", load_average());
    let t = interleave(
        &kernels,
        Duration::from_millis(1),
        Duration::from_secs(5),
        20,
        Clock::ThreadCpu,
    );
    let ratios = [
        ("implicit/primal", "implicit", "primal"),
        ("through/primal", "through", "primal"),
        ("implicit/through", "implicit", "through"),
    ];
    t.report("kepler", &ratios);
}

fn main() {
    let work = || {
        kepler_implicit();
        compare::<10_001>(1e-4, Duration::from_secs(10), 20);
        compare::<100_001>(1e-5, Duration::from_secs(20), 20);
        compare::<1_000_000>(1e-6, Duration::from_secs(40), 10);
    };
    let thread = std::thread::Builder::new().stack_size(256 << 20).spawn(work);
    thread.expect("a thread").join().expect("no panic");
}
