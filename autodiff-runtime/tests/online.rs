//! Online checkpointing in bounded memory: a `while` loop of 10⁶ steps, its length unknown to
//! the tape, differentiated in a thread with a 256 KiB stack, with no heap allocation (counted
//! by a global allocator), to the same bits as offline `revolve` given the length.
//!
//! Only allocations made by the current thread while it measures are counted (a thread-local
//! flag and counter), as in the root package's `tests/alloc.rs`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::hint::black_box;

use autodiff_runtime::revolve::{Online, online_steps, revolve};

thread_local! {
    /// Whether this thread is inside [`allocations_during`].
    static MEASURING: Cell<bool> = const { Cell::new(false) };
    /// Allocations this thread made while measuring.
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

/// The system allocator, counting the allocations of a measuring thread.
struct Counting;

impl Counting {
    fn record() {
        // `try_with`: while a thread is torn down its slots may be gone; it is not measuring then.
        if MEASURING.try_with(Cell::get).unwrap_or(false) {
            let _ = ALLOCATIONS.try_with(|count| count.set(count.get() + 1));
        }
    }
}

// SAFETY: every method forwards to `System` with the caller's arguments unchanged; the counting
// touches only const-initialised thread-locals, which never allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        Self::record();
        // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract, which `System` shares.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        Self::record();
        // SAFETY: as for `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        Self::record();
        // SAFETY: `ptr` was allocated by `System` through this wrapper with `layout`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System` through this wrapper with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// How many heap allocations this thread makes while running `work`, and its result.
fn allocations_during<T>(work: impl FnOnce() -> T) -> (usize, T) {
    ALLOCATIONS.with(|count| count.set(0));
    MEASURING.with(|measuring| measuring.set(true));
    let out = work();
    MEASURING.with(|measuring| measuring.set(false));
    (ALLOCATIONS.with(Cell::get), out)
}

/// The loop: `x ← x + h·sin(x)·p`, `t ← t + h` while `t < t_end`; the adjoint `(x̄, p̄)`.
type State = (f64, f64);
const H: f64 = 1e-6;
const P: f64 = 0.75;

fn step(_k: usize, (x, t): State) -> State {
    (x + H * x.sin() * P, t + H)
}

fn back(_k: usize, (x, _): State, (dx, dp): (f64, f64)) -> (f64, f64) {
    (dx * (1.0 + H * x.cos() * P), dp + dx * H * x.sin())
}

/// The gradient of the final `x` in `(x0, p)` through the `while` loop, online with `S`
/// snapshots, and the number of steps the loop made.
fn online<const S: usize>(x0: f64, t_end: f64) -> ((f64, f64), usize) {
    let mut tape = Online::<S, State>::new((x0, 0.0));
    let mut state = (x0, 0.0);
    while state.1 < t_end {
        let k = tape.push(&state);
        state = step(k, state);
    }
    let n = tape.steps();
    (tape.reverse((1.0, 0.0), step, back), n)
}

/// Runs `work` in a thread with a 256 KiB stack.
fn on_a_small_stack<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> T {
    let thread = std::thread::Builder::new().stack_size(256 * 1024).spawn(work);
    thread.expect("a thread").join().expect("no panic, no stack overflow")
}

#[test]
fn the_counter_sees_a_heap_allocation() {
    // Without this, a counter that never counts would make the other test pass vacuously.
    let (count, ()) = allocations_during(|| {
        black_box(vec![black_box(1.0_f64); 16]);
    });
    assert!(count >= 1, "a `vec!` was not counted");
}

#[test]
fn a_million_steps_on_a_256_kib_stack_without_the_heap() {
    let (x0, t_end) = black_box((0.4, 1.0));
    let runs = on_a_small_stack(move || {
        let (count16, (grad16, n16)) = allocations_during(|| online::<16>(x0, t_end));
        let (count64, (grad64, n64)) = allocations_during(|| online::<64>(x0, t_end));
        assert_eq!((count16, count64), (0, 0), "heap allocations: 16 and 64 snapshots");
        assert_eq!(n16, n64);
        // Offline revolve, given the length, in the same thread.
        let offline = revolve::<16, _, _>(n16, |k| k, (x0, 0.0), (1.0, 0.0), step, back);
        (grad16, grad64, offline, n16)
    });
    let (grad16, grad64, offline, n) = runs;
    // t advances by 10⁻⁶ per step, so the loop stops after about 10⁶ of them.
    assert!((999_990..=1_000_010).contains(&n), "{n} steps");
    let bits = |(a, b): (f64, f64)| (a.to_bits(), b.to_bits());
    assert_eq!(bits(grad16), bits(offline), "16 snapshots against offline revolve");
    assert_eq!(bits(grad64), bits(offline), "64 snapshots against offline revolve");
    // The derivative in x0 of the flow x' = p sin x over t = 1: sin(x(1)) / sin(x0).
    let x1 = 2.0 * ((x0 / 2.0).tan() * P.exp()).atan();
    let expected = x1.sin() / x0.sin();
    assert!((grad16.0 - expected).abs() < 1e-5, "{} against {expected}", grad16.0);
    assert!(online_steps(n, 16) < 8 * n && online_steps(n, 64) < 5 * n);
}
