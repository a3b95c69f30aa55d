//! Issue 18's "large array gradients without a copy": does returning a `[f64; N]` gradient by
//! value cost more than writing it into the caller's buffer? The function is a sum of
//! per-element terms Σᵢ (xᵢ²/2 + sin(1.3·xᵢ)) over `x: &[f64; N]` under `#[grad(into)]`; the
//! kernels are (a) its generated `terms_grad`, returning `(f64, [f64; N])`, with the caller
//! storing the gradient into an existing array, (b) its generated `terms_grad_into`, writing into
//! the caller's `&mut [f64; N]`, and (c) `f_grad`'s body pasted from the expansion
//! (`RUSTC_BOOTSTRAP=1 cargo rustc --bench interleaved_grad_into --profile=check --
//! -Zunpretty=expanded`) and changed by hand to write into the buffer, as a reference for (b).
//! N = 16, 272 and 4096. The method is `benches/interleaved_loops.rs`'s: kernels take turns in blocks of
//! about 20 µs, round after round, and a ratio is the median over rounds of the ratio within a
//! round; blocks are timed by the thread's CPU clock.
//!
//! Each ratio is also printed as `RATIO <workload> <ratio> <value>` (`grep ^RATIO`).
//!
//! Run with `cargo bench --bench interleaved_grad_into` (about half a minute); arguments after `--`
//! keep the workloads whose name contains one of them (`-- 272`).

mod interleave;

use std::cell::RefCell;
use std::hint::black_box;
use std::time::Duration;

use autodiff_runtime::grad;
use interleave::{Clock, Kernel, Timings, interleave, load_average};

/// One block of calls lasts about this long.
const BLOCK: Duration = Duration::from_micros(20);

/// Σᵢ (xᵢ²/2 + sin(1.3·xᵢ)): per-element terms with a little arithmetic.
#[allow(clippy::needless_range_loop)]
#[grad(into)]
pub fn terms<const N: usize>(x: &[f64; N]) -> f64 {
    let mut s = 0.0;
    for i in 0..N {
        s += 0.5 * x[i] * x[i] + (1.3 * x[i]).sin();
    }
    s
}

/// `terms_grad`'s body as the macro expands it, pasted and changed only to write the gradient
/// into `grad` instead of a local `[0.0; N]` returned by value: the generated loop assigns every
/// component (first touch), so the zeroing is dropped, as an output-buffer variant would.
#[allow(clippy::needless_range_loop)]
pub fn terms_grad_into_by_hand<const N: usize>(x: &[f64; N], grad: &mut [f64; N]) -> f64 {
    let x_bar = grad;
    let mut s = 0.0;
    for i in 0..N {
        let t0 = x[i];
        let t1 = 0.5 * t0;
        let t2 = 1.3 * t0;
        s += t1 * t0 + t2.sin();
        x_bar[i] = t2.cos() * 1.3 + t1 + t1;
    }
    s
}

/// Σᵢ (xᵢ²/2 + 0.3·xᵢ): per-element terms with only multiplications and additions, where the
/// copy of the gradient weighs most against the arithmetic.
#[allow(clippy::needless_range_loop)]
#[grad(into)]
pub fn quad<const N: usize>(x: &[f64; N]) -> f64 {
    let mut s = 0.0;
    for i in 0..N {
        s += 0.5 * x[i] * x[i] + 0.3 * x[i];
    }
    s
}

/// `quad_grad`'s body as the macro expands it, changed as [`terms_grad_into_by_hand`] is.
#[allow(clippy::needless_range_loop)]
pub fn quad_grad_into_by_hand<const N: usize>(x: &[f64; N], grad: &mut [f64; N]) -> f64 {
    let x_bar = grad;
    let mut s = 0.0;
    for i in 0..N {
        let t0 = x[i];
        let t1 = 0.5 * t0;
        s += t1 * t0 + 0.3 * t0;
        x_bar[i] = 0.3 + t1 + t1;
    }
    s
}

/// A deterministic, irregular point in `[-2, 2]ᴺ`.
fn point<const N: usize>() -> [f64; N] {
    core::array::from_fn(|i| {
        let t = i as f64;
        2.0 * (1.7 * t + 0.7).sin() * (0.37 * t + 1.4).cos()
    })
}

/// One function's forms: the function, its generated gradient by value, its generated gradient
/// into the caller's buffer, and the pasted body writing into it; and the gradient's closed form
/// per component.
struct Forms<P, G, I, H, C> {
    primal: P,
    by_value: G,
    into: I,
    by_hand: H,
    closed: C,
}

/// The kernels at `N`: the function, the generated gradient stored into the caller's array, the
/// generated `f_grad_into` writing into it, the pasted body writing into it, and the generated
/// one with the buffer zeroed first (as a variant would have to where the sweep only accumulates
/// into the gradient).
fn workload<const N: usize, P, G, I, H, C>(name: &str, f: Forms<P, G, I, H, C>, budget: Duration)
where
    P: Fn(&[f64; N]) -> f64,
    G: Fn(&[f64; N]) -> (f64, [f64; N]),
    I: Fn(&[f64; N], &mut [f64; N]) -> f64,
    H: Fn(&[f64; N], &mut [f64; N]) -> f64,
    C: Fn(f64) -> f64,
{
    let name = format!("{name}_{N}");
    let x = point::<N>();
    let (value, by_value) = (f.by_value)(&x);
    for form in [&f.into as &dyn Fn(&[f64; N], &mut [f64; N]) -> f64, &f.by_hand] {
        let mut into = [f64::NAN; N];
        let into_value = form(&x, &mut into);
        assert_eq!(value.to_bits(), into_value.to_bits(), "{name}: value");
        assert!(by_value.iter().zip(&into).all(|(a, b)| a.to_bits() == b.to_bits()), "{name}");
    }
    for (i, (g, xi)) in by_value.iter().zip(&x).enumerate() {
        let closed = (f.closed)(*xi);
        assert!((g - closed).abs() <= 1e-14 * closed.abs().max(1.0), "{name}: component {i}");
    }
    let (buf_a, buf_b, buf_z) =
        (RefCell::new([0.0; N]), RefCell::new([0.0; N]), RefCell::new([0.0; N]));
    let buf_h = RefCell::new([0.0; N]);
    let kernels = [
        Kernel::new("primal", || {
            black_box((f.primal)(black_box(&x)));
        }),
        Kernel::new("by_value", || {
            let mut g = buf_a.borrow_mut();
            let (v, grad) = (f.by_value)(black_box(&x));
            *g = grad;
            black_box(v);
            black_box(&mut *g);
        }),
        Kernel::new("into", || {
            let mut g = buf_b.borrow_mut();
            black_box((f.into)(black_box(&x), black_box(&mut *g)));
        }),
        Kernel::new("by_hand", || {
            let mut g = buf_h.borrow_mut();
            black_box((f.by_hand)(black_box(&x), black_box(&mut *g)));
        }),
        Kernel::new("into_zeroed", || {
            let mut g = buf_z.borrow_mut();
            let g = black_box(&mut *g);
            g.fill(0.0);
            black_box((f.into)(black_box(&x), g));
        }),
    ];
    let ratios = [
        ("by_value/into", "by_value", "into"),
        ("by_value/into_zeroed", "by_value", "into_zeroed"),
        ("into/by_hand", "into", "by_hand"),
        ("by_value/primal", "by_value", "primal"),
    ];
    time(&kernels, budget).report(&name, &ratios);
}

/// Both functions at `N`, if selected.
fn both<const N: usize>(budget: Duration) {
    if selected(&format!("terms_{N}")) {
        let closed = |x: f64| x + 1.3 * (1.3 * x).cos();
        let (primal, by_value) = (terms::<N>, terms_grad::<N>);
        let (into, by_hand) = (terms_grad_into::<N>, terms_grad_into_by_hand::<N>);
        workload("terms", Forms { primal, by_value, into, by_hand, closed }, budget);
    }
    if selected(&format!("quad_{N}")) {
        let closed = |x: f64| x + 0.3;
        let (primal, by_value) = (quad::<N>, quad_grad::<N>);
        let (into, by_hand) = (quad_grad_into::<N>, quad_grad_into_by_hand::<N>);
        workload("quad", Forms { primal, by_value, into, by_hand, closed }, budget);
    }
}

fn time(kernels: &[Kernel], budget: Duration) -> Timings {
    interleave(kernels, BLOCK, budget, 20, Clock::ThreadCpu)
}

/// Whether the workload `name` is selected by the command line's filters (none keeps all).
fn selected(name: &str) -> bool {
    let filters: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    filters.is_empty() || filters.iter().any(|f| name.contains(f.as_str()))
}

fn main() {
    println!("load average before: {}", load_average());
    let budget = Duration::from_secs(3);
    both::<16>(budget);
    both::<272>(budget);
    both::<4096>(budget);
    println!("load average after: {}", load_average());
}
