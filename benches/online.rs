//! Online checkpointing (`autodiff_runtime::revolve::Online`) of a `while` loop whose length the
//! sweep does not know in advance, against offline revolve given the length and against the
//! stored sweep: gradient/primal time ratios, interleaved, beside the forward steps the theory
//! counts and those counted.
//!
//! The loop: `x ← x + h·sin(x)·p`, `t ← t + h` while `t < 1`, with `h` = 10⁻⁴, 10⁻⁵ and 10⁻⁶
//! (about 10⁴, 10⁵ and 10⁶ steps); the gradient of the final `x` in `(x0, p)`, hand-written with
//! the runtime's API as generated code would call it. Kernels for each length:
//! - `primal`: the loop;
//! - `stored`: the loop storing each step's `x` in a stack array, then the sweep;
//! - `online16`, `online64`: the loop pushing each state to an `Online` tape of 16 or 64
//!   snapshots, then `reverse`;
//! - `offline16`, `offline64`: the loop (for the value and the length), then `revolve` with 16 or
//!   64 snapshots, from the first state;
//! - `push16`, `push64`: the loop pushing each state to the tape, without the sweep: the cost of
//!   placing the snapshots.
//!
//! Run with `cargo bench --bench online` (about two minutes).

mod interleave;

use std::cell::Cell;
use std::hint::black_box;
use std::time::Duration;

use autodiff_runtime::revolve::{Online, online_steps, repetitions, revolve, schedule_steps};

use interleave::{Clock, Kernel, interleave, load_average};

/// The state the loop carries: `(x, t)`.
type State = (f64, f64);
/// `(x̄, p̄)`.
type Adjoint = (f64, f64);
/// `(x0, p, h) -> (x at the end, (∂/∂x0, ∂/∂p))`.
type Gradient = fn(f64, f64, f64) -> (f64, Adjoint);
/// `(x0, p, h) -> x at the end`.
type Primal = fn(f64, f64, f64) -> f64;

const P: f64 = 0.75;
const X0: f64 = 0.4;

#[inline(always)]
fn step(h: f64, p: f64, (x, t): State) -> State {
    (x + h * x.sin() * p, t + h)
}

#[inline(always)]
fn back(h: f64, p: f64, x: f64, (dx, dp): Adjoint) -> Adjoint {
    (dx * (1.0 + h * x.cos() * p), dp + dx * h * x.sin())
}

fn primal(x0: f64, p: f64, h: f64) -> f64 {
    let mut state = (x0, 0.0);
    while state.1 < 1.0 {
        state = step(h, p, state);
    }
    state.0
}

/// The stored sweep: every step's `x` in a stack array of `CAP`.
fn stored<const CAP: usize>(x0: f64, p: f64, h: f64) -> (f64, Adjoint) {
    let mut xs = [0.0; CAP];
    let (mut state, mut n) = ((x0, 0.0), 0);
    while state.1 < 1.0 {
        assert!(n < CAP, "more than {CAP} steps");
        xs[n] = state.0;
        state = step(h, p, state);
        n += 1;
    }
    let adjoint = (0..n).rev().fold((1.0, 0.0), |a, k| back(h, p, xs[k], a));
    (state.0, adjoint)
}

fn online<const S: usize>(x0: f64, p: f64, h: f64) -> (f64, Adjoint) {
    let mut tape = Online::<S, State>::new((x0, 0.0));
    let mut state = (x0, 0.0);
    while state.1 < 1.0 {
        tape.push(&state);
        state = step(h, p, state);
    }
    let adjoint = tape.reverse((1.0, 0.0), |_, s| step(h, p, s), |_, s, a| back(h, p, s.0, a));
    (state.0, adjoint)
}

/// The forward loop of [`online`] alone.
fn push<const S: usize>(x0: f64, p: f64, h: f64) -> f64 {
    let mut tape = Online::<S, State>::new((x0, 0.0));
    let mut state = (x0, 0.0);
    while state.1 < 1.0 {
        tape.push(&state);
        state = step(h, p, state);
    }
    black_box(&tape);
    state.0
}

fn offline<const S: usize>(x0: f64, p: f64, h: f64) -> (f64, Adjoint) {
    let (mut state, mut n) = ((x0, 0.0), 0);
    while state.1 < 1.0 {
        state = step(h, p, state);
        n += 1;
    }
    let adjoint = revolve::<S, _, _>(
        n,
        |k| k,
        (x0, 0.0),
        (1.0, 0.0),
        |_, s| step(h, p, s),
        |_, s, a| back(h, p, s.0, a),
    );
    (state.0, adjoint)
}

/// The number of steps of the loop and the `step` calls of an online and an offline gradient
/// with `S` snapshots (the loop's own steps included), counted.
fn counted<const S: usize>(h: f64) -> (usize, usize, usize) {
    let calls = Cell::new(0usize);
    let counted_step = |_: usize, st: State| {
        calls.set(calls.get() + 1);
        step(h, P, st)
    };
    let backward = |_: usize, st: State, a| back(h, P, st.0, a);
    let mut tape = Online::<S, State>::new((X0, 0.0));
    let mut state = (X0, 0.0);
    while state.1 < 1.0 {
        let k = tape.push(&state);
        state = counted_step(k, state);
    }
    let n = tape.steps();
    tape.reverse((1.0, 0.0), counted_step, backward);
    let online = calls.replace(0);
    let mut state = (X0, 0.0);
    while state.1 < 1.0 {
        state = counted_step(0, state);
    }
    revolve::<S, _, _>(n, |k| k, (X0, 0.0), (1.0, 0.0), counted_step, backward);
    (n, online, calls.get())
}

/// Checks every gradient against the stored one to the bit, times them all interleaved, and
/// prints the ratios and the forward steps per step, counted and in theory.
fn compare(h: f64, stored: Gradient, budget: Duration, min_rounds: usize) {
    let variants: [(&str, Gradient); 5] = [
        ("stored", stored),
        ("online16", online::<16>),
        ("online64", online::<64>),
        ("offline16", offline::<16>),
        ("offline64", offline::<64>),
    ];
    let reference = stored(X0, P, h);
    assert_eq!(reference.0, primal(X0, P, h));
    for (name, grad) in variants {
        assert_eq!(grad(X0, P, h), reference, "{name}: not the stored gradient to the bit");
    }
    let mut kernels = vec![Kernel::new("primal", move || {
        black_box(primal(black_box(X0), black_box(P), black_box(h)));
    })];
    for (name, grad) in variants {
        kernels.push(Kernel::new(name, move || {
            black_box(grad(black_box(X0), black_box(P), black_box(h)));
        }));
    }
    let pushes: [(&str, Primal); 2] = [("push16", push::<16>), ("push64", push::<64>)];
    for (name, forward) in pushes {
        assert_eq!(forward(X0, P, h), reference.0);
        kernels.push(Kernel::new(name, move || {
            black_box(forward(black_box(X0), black_box(P), black_box(h)));
        }));
    }
    let (n, ..) = counted::<16>(h);
    println!("n = {n}: load average before {}", load_average());
    let t = interleave(&kernels, Duration::from_millis(1), budget, min_rounds, Clock::ThreadCpu);
    let workload = format!("while_{n}");
    let ratios = [
        ("stored/primal", "stored", "primal"),
        ("online16/primal", "online16", "primal"),
        ("offline16/primal", "offline16", "primal"),
        ("online64/primal", "online64", "primal"),
        ("offline64/primal", "offline64", "primal"),
        ("online16/offline16", "online16", "offline16"),
        ("online64/offline64", "online64", "offline64"),
        ("push16/primal", "push16", "primal"),
        ("push64/primal", "push64", "primal"),
    ];
    t.report(&workload, &ratios);
    let stored_ratio = t.ratio("stored", "primal")[1];
    println!(
        "{workload}: s | online_steps | schedule_steps | r | forward steps per step online: counted, theory 1 + online_steps/n | offline: counted, theory 1 + schedule_steps/n | predicted grad/primal online, offline (stored + R) | measured"
    );
    for s in [16, 64] {
        let (n, online_calls, offline_calls) =
            if s == 16 { counted::<16>(h) } else { counted::<64>(h) };
        let (on, off) = (online_steps(n, s), schedule_steps(n, s));
        let per = |c: usize| c as f64 / n as f64;
        let measured_on = t.ratio(&format!("online{s}"), "primal")[1];
        let measured_off = t.ratio(&format!("offline{s}"), "primal")[1];
        println!(
            "{workload}: {s} | {on} | {off} | {} | {:.3}, {:.3} | {:.3}, {:.3} | {:.2}, {:.2} | {measured_on:.2}, {measured_off:.2}",
            repetitions(n, s - 1),
            per(online_calls),
            1.0 + per(on),
            per(offline_calls),
            1.0 + per(off),
            stored_ratio + per(on),
            stored_ratio + per(off),
        );
        assert_eq!(online_calls, n + on, "online step calls, s = {s}");
        assert_eq!(offline_calls, n + off, "offline step calls, s = {s}");
    }
    println!(
        "{workload}: memory: Online<16, (f64, f64)> {} bytes, Online<64, (f64, f64)> {} bytes; stored {} bytes",
        size_of::<Online<16, State>>(),
        size_of::<Online<64, State>>(),
        8 * n,
    );
    println!("n = {n}: load average after {}", load_average());
}

fn main() {
    // The stored sweep of 10⁶ steps keeps 8 MB on the stack.
    let work = || {
        compare(1e-4, stored::<10_016>, Duration::from_secs(10), 20);
        compare(1e-5, stored::<100_016>, Duration::from_secs(20), 20);
        compare(1e-6, stored::<1_000_016>, Duration::from_secs(40), 10);
    };
    let thread = std::thread::Builder::new().stack_size(64 << 20).spawn(work);
    thread.expect("a thread").join().expect("no panic");
}
