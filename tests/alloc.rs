//! Generated derivatives make no heap allocation, as seen by a counting global allocator.
//!
//! Only allocations made by the current thread while it measures are counted (a thread-local
//! flag and counter), so the test harness's other threads and the setup of each test do not
//! disturb the count.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::hint::black_box;

use autodiff_suite::hygiene::{single_grad, single_hessian, single_hvp, single_jvp};
use autodiff_suite::programs::{
    Params, calibrate_grad, calibrate_hessian, calibrate_hvp, calibrate_jvp, kinematics_grad,
    kinematics_hessian, kinematics_hvp, kinematics_jvp, signal_chain_grad, signal_chain_hessian,
    signal_chain_hvp, signal_chain_jvp,
};
use autodiff_suite::worked::{g_grad, g_hessian, g_hvp, g_jvp};

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
        let measuring = MEASURING.try_with(Cell::get).unwrap_or(false);
        if measuring {
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

/// How many heap allocations this thread makes while running `work`.
fn allocations_during(work: impl FnOnce()) -> usize {
    ALLOCATIONS.with(|count| count.set(0));
    MEASURING.with(|measuring| measuring.set(true));
    work();
    MEASURING.with(|measuring| measuring.set(false));
    ALLOCATIONS.with(Cell::get)
}

/// Asserts that `work` (calls of generated derivatives) makes no heap allocation.
fn assert_no_allocation(what: &str, work: impl FnOnce()) {
    let count = allocations_during(work);
    assert_eq!(count, 0, "{what}: {count} heap allocations");
}

#[test]
fn the_counter_sees_a_heap_allocation() {
    // Without this, a counter that never counts would make the other tests pass vacuously.
    let count = allocations_during(|| {
        black_box(vec![black_box(1.0_f64); 16]);
    });
    assert!(count >= 1, "a `vec!` was not counted");
}

#[test]
fn derivatives_of_the_worked_example_do_not_allocate() {
    let (x1, x2, v1, v2) = black_box((1.5, -0.7, 0.3, 1.2));
    assert_no_allocation("worked::g", || {
        black_box(g_grad(x1, x2));
        black_box(g_jvp(x1, x2, v1, v2));
        black_box(g_hvp(x1, x2, v1, v2));
        black_box(g_hessian(x1, x2));
    });
}

#[test]
fn derivatives_of_the_programs_do_not_allocate() {
    let data = black_box([0.8, -1.3, 2.0]);
    let (x, y, z, n) = black_box((0.7, -0.4, 1.1, 3));
    assert_no_allocation("programs::signal_chain", || {
        black_box(signal_chain_grad(x, y, z, n, &data));
        black_box(signal_chain_jvp(x, y, z, n, &data, 0.3, -1.1, 0.7));
        black_box(signal_chain_hvp(x, y, z, n, &data, 0.3, -1.1, 0.7));
        black_box(signal_chain_hessian(x, y, z, n, &data));
    });

    let params = black_box(Params { gain: 0.8, offset: 0.2 });
    let (a, b, c, d, r) = black_box((0.35, 0.9, 1.7, 0.25, 1.3));
    assert_no_allocation("programs::kinematics", || {
        black_box(kinematics_grad(a, b, c, d, &r, &params));
        black_box(kinematics_jvp(a, b, c, d, &r, &params, 0.3, -1.1, 0.7, 0.5));
        black_box(kinematics_hvp(a, b, c, d, &r, &params, 0.3, -1.1, 0.7, 0.5));
        black_box(kinematics_hessian(a, b, c, d, &r, &params));
    });

    let (p, q, r, s, n) = black_box((0.6, 0.8, -0.5, 0.3, 3));
    assert_no_allocation("programs::calibrate", || {
        black_box(calibrate_grad(p, q, r, s, n));
        black_box(calibrate_jvp(p, q, r, s, n, 0.3, -1.1));
        black_box(calibrate_hvp(p, q, r, s, n, 0.3, -1.1));
        black_box(calibrate_hessian(p, q, r, s, n));
    });
}

#[test]
fn derivatives_of_a_single_parameter_function_do_not_allocate() {
    let (x, v) = black_box((0.3, -2.5));
    assert_no_allocation("hygiene::single", || {
        black_box(single_grad(x));
        black_box(single_jvp(x, v));
        black_box(single_hvp(x, v));
        black_box(single_hessian(x));
    });
}

#[test]
fn derivatives_through_loops_and_arrays_do_not_allocate() {
    use autodiff_suite::loops::{
        N, euler_grad, euler_hvp, ext_rosenbrock_hessian, gaussian_nll_grad, lessons_1000_grad,
        lessons_1000_hvp, moments_jacobian, switching_hvp, wave_jacobian,
    };
    let x = black_box([0.25; N]);
    let data = black_box([0.5, 1.5, -0.25]);
    assert_no_allocation("loops", || {
        black_box(lessons_1000_grad(x));
        black_box(lessons_1000_hvp(x, x));
        black_box(euler_grad(1.0, 0.5, 0.01));
        black_box(euler_hvp(1.0, 0.5, 0.01, 1.0, 0.0, 0.0));
        black_box(gaussian_nll_grad(0.1, 1.2, &data));
        black_box(switching_hvp(0.3, 0.4, 1.0, 0.0));
        black_box(ext_rosenbrock_hessian([0.5; 8]));
        black_box(wave_jacobian(1.0, 0.5, 0.1));
        black_box(moments_jacobian([0.5; 1000]));
    });
}

#[test]
fn derivatives_of_slices_f32_and_generic_functions_do_not_allocate() {
    use autodiff_suite::{floats, slices};
    // The inputs and buffers are made before measuring: the caller owns them.
    let x: Vec<f64> = black_box((0..1000).map(|i| 0.001 * i as f64 - 0.4).collect());
    let v: Vec<f64> = black_box(vec![0.5; 1000]);
    let (mut g, mut hv) = (vec![0.0; 1000], vec![0.0; 1000]);
    assert_no_allocation("slices::ext_rosenbrock_slice", || {
        black_box(slices::ext_rosenbrock_slice_grad(&x, &mut g));
        black_box(slices::ext_rosenbrock_slice_jvp(&x, &v));
        black_box(slices::ext_rosenbrock_slice_hvp(&x, &v, &mut g, &mut hv));
    });
    assert_no_allocation("slices::recurrence (checkpointed)", || {
        black_box(slices::recurrence_grad(&x, 0.5, &mut g));
        black_box(slices::recurrence_hvp(&x, 0.5, &v, 1.0, &mut g, &mut hv));
    });
    let x32 = black_box([0.5_f32, -1.0, 2.0, 0.25]);
    assert_no_allocation("floats::lessons_f32 and lessons_gen", || {
        black_box(floats::lessons_f32_grad(&x32));
        black_box(floats::lessons_f32_hvp(&x32, &x32));
        black_box(floats::lessons_gen_grad(&x32));
        black_box(floats::lessons_gen_hvp(&[1.0_f64; 4], &[0.5; 4]));
    });
    assert_no_allocation("floats::oscillator_gen (checkpointed, generic)", || {
        black_box(floats::oscillator_gen_hvp(1.0_f32, 0.5, 0.3, 1.0, 0.0, 0.0));
    });
    assert_no_allocation("floats::sin::generic_hessian", || {
        black_box(floats::sin::generic_hessian(0.5_f64));
        black_box(floats::polar_gen_jacobian(2.0_f64, 0.5));
    });
}

#[test]
fn derivatives_of_rewritten_control_flow_do_not_allocate() {
    use autodiff_suite::control_sugar::{
        first_pairs_grad, first_pairs_hvp, halved_grad, halved_hvp, root_jvp, rows_hvp, search_hvp,
        written_grad, written_hvp,
    };
    let (x, v) = black_box(([0.4, 1.1, -0.6, 0.9], [0.5, -1.0, 0.25, 2.0]));
    let w = black_box([0.5, -1.5, 2.0, 0.75]);
    assert_no_allocation("control_sugar (iter_mut, loop values, labelled exits)", || {
        black_box(written_grad(x, &w));
        black_box(written_hvp(x, &w, v));
        black_box(rows_hvp(x, v));
        black_box(halved_grad(x));
        black_box(halved_hvp(x, v));
        black_box(root_jvp(x, v));
        black_box(first_pairs_grad(x));
        black_box(first_pairs_hvp(x, v));
        black_box(search_hvp(x, v));
    });
}

#[test]
fn a_million_steps_of_a_while_loop_in_a_small_stack_without_the_heap() {
    use autodiff_suite::whiles::{pendulum, pendulum_grad, pendulum_hvp, pendulum_steps};
    // The loop's length is decided while it runs: about 10⁶ steps of 1e-6 up to t = 1.
    let (theta0, g, dt, t_end) = black_box((0.7, 9.81, 1e-6, 1.0));
    let steps = pendulum_steps(dt, t_end);
    assert!((1e6..=1e6 + 1.0).contains(&steps), "{steps} steps");
    let small = std::thread::Builder::new().stack_size(256 * 1024);
    let handle = small.spawn(move || {
        let mut out = (0.0, (0.0, 0.0, 0.0, 0.0));
        let mut hvp = (0.0, (0.0, 0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 0.0));
        let count = allocations_during(|| {
            out = black_box(pendulum_grad(theta0, g, dt, t_end));
            hvp = black_box(pendulum_hvp(theta0, g, dt, t_end, 1.0, 0.0, 0.0, 0.0));
        });
        (count, out, hvp)
    });
    let (count, (value, grad), hvp) = handle.expect("a thread").join().expect("no overflow");
    assert_eq!(count, 0, "{count} heap allocations");
    assert_eq!(value, pendulum(theta0, g, dt, t_end));
    assert_eq!(hvp.1, grad);
    assert!(grad.0.is_finite() && hvp.2.0.is_finite());
}

#[test]
fn a_run_time_trip_count_stored_or_checkpointed_does_not_allocate() {
    use autodiff_suite::whiles::{DRIFT_CAPACITY, drift_len_grad, drift_len_hvp};
    use autodiff_suite::whiles::{drift_lanes_grad, drift_lanes_hvp};
    // Stored up to the capacity (an array of a tier's capacity on the stack), checkpointed past
    // it.
    for n in [4, 65, DRIFT_CAPACITY, DRIFT_CAPACITY + 1, 10 * DRIFT_CAPACITY] {
        let (x0, p, h, n) = black_box((0.4, 1.3, 1e-3, n));
        assert_no_allocation("whiles::drift_len", || {
            black_box(drift_len_grad(x0, p, h, n));
            black_box(drift_len_hvp(x0, p, h, n, 1.0, 0.5, -0.5));
        });
    }
    // A step only rustc sizes: the tiers of 64 and 1024 steps, then checkpointed.
    for n in [4, 65, 1025] {
        let (x0, p, h, n) = black_box(([0.4; 8], 1.3, 1e-3, n));
        assert_no_allocation("whiles::drift_lanes", || {
            black_box(drift_lanes_grad(x0, p, h, n));
            black_box(drift_lanes_hvp(x0, p, h, n, [1.0; 8], 0.5, -0.5));
        });
    }
}
