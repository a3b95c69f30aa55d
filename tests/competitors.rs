//! The competitor gradients that `benches/loops.rs` times (num-dual and `reverse`) agree with the
//! hand-written kernels of `autodiff_suite::oracles`, so the benchmark compares like with like.

#[path = "../benches/competitors/mod.rs"]
mod competitors;

use autodiff_runtime::{Tolerance, check_close};
use autodiff_suite::oracles::{LAYER, handwritten};
use reverse::Tape;

/// The programs sum the same terms in different orders: rounding, scaled to the values.
const AGREE: Tolerance = Tolerance { epsilon: 1e-11, max_relative: 1e-11 };

/// Parameters of the 16 × 16 layer.
const LAYER_PARAMS: usize = LAYER * LAYER + LAYER;

fn assert_agree(what: &str, (value, grad): (f64, &[f64]), (ref_value, ref_grad): (f64, &[f64])) {
    if let Err(mismatch) = check_close(&[value], &[ref_value], AGREE) {
        panic!("{what}, value: {mismatch}");
    }
    if let Err(mismatch) = check_close(grad, ref_grad, AGREE) {
        panic!("{what}, gradient: {mismatch}");
    }
}

/// Runs `work` on a thread with a 64 MiB stack: num-dual's `gradient` helper puts `8 N²` bytes
/// of duals on the stack (about 600 kB for the layer, several times over in a debug build).
fn with_big_stack(work: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(work)
        .expect("a thread")
        .join()
        .expect("no panic");
}

fn check_lessons<const N: usize>(tape: &Tape, vector_helper: bool) {
    for seed in [0.0, 1.3] {
        let x = competitors::point::<N>(seed, 2.0);
        let (value, grad) = handwritten::lessons_grad(x);
        let reference = (value, &grad[..]);
        let (v, g) = competitors::lessons_num_dual_sweeps(&x);
        assert_agree(&format!("lessons, N = {N}, num-dual sweeps"), (v, &g), reference);
        let (v, g) = competitors::lessons_reverse(tape, &x);
        assert_agree(&format!("lessons, N = {N}, reverse"), (v, &g), reference);
        if vector_helper {
            let (v, g) = competitors::lessons_num_dual_vector(&x);
            assert_agree(
                &format!("lessons, N = {N}, num-dual gradient helper"),
                (v, &g),
                reference,
            );
        }
    }
}

#[test]
fn lessons_competitors_agree_with_the_hand_written_gradient() {
    let tape = Tape::new();
    check_lessons::<1>(&tape, true);
    check_lessons::<2>(&tape, true);
    check_lessons::<10>(&tape, true);
    check_lessons::<1000>(&tape, false);
    with_big_stack(|| check_lessons::<100>(&Tape::new(), true));
}

#[test]
fn extended_rosenbrock_competitors_agree_with_the_hand_written_gradient() {
    fn check<const N: usize>() {
        let tape = Tape::new();
        for seed in [0.0, 1.3] {
            let x = competitors::point::<N>(seed, 1.5);
            let (value, grad) = handwritten::extended_rosenbrock_grad(x);
            let reference = (value, &grad[..]);
            let (v, g) = competitors::extended_rosenbrock_num_dual_sweeps(&x);
            assert_agree("extended Rosenbrock, num-dual sweeps", (v, &g), reference);
            let (v, g) = competitors::extended_rosenbrock_num_dual_vector(&x);
            assert_agree("extended Rosenbrock, num-dual gradient helper", (v, &g), reference);
            let (v, g) = competitors::extended_rosenbrock_reverse(&tape, &x);
            assert_agree("extended Rosenbrock, reverse", (v, &g), reference);
        }
    }
    check::<2>();
    with_big_stack(check::<100>);
}

#[test]
fn layer_competitors_agree_with_the_hand_written_gradient() {
    with_big_stack(|| {
        let tape = Tape::new();
        for seed in [0.0, 2.1] {
            let (w, b, x, y) = competitors::layer_inputs::<LAYER, LAYER>(seed);
            let params: [f64; LAYER_PARAMS] = competitors::flat_params(&w, &b);
            let (value, (gw, gb)) = handwritten::layer_grad(w, b, x, y);
            let grad: [f64; LAYER_PARAMS] = competitors::flat_params(&gw, &gb);
            let reference = (value, &grad[..]);
            let (v, g) = competitors::layer_num_dual_sweeps(&params, &x, &y);
            assert_agree("layer, num-dual sweeps", (v, &g), reference);
            let (v, g) = competitors::layer_num_dual_vector(&params, &x, &y);
            assert_agree("layer, num-dual gradient helper", (v, &g), reference);
            let (v, g) = competitors::layer_reverse(&tape, &params, &x, &y);
            assert_agree("layer, reverse", (v, &g), reference);
        }
    });
}

#[test]
fn a_wrong_gradient_is_caught() {
    let x = competitors::point::<10>(0.0, 2.0);
    let (value, mut grad) = handwritten::lessons_grad(x);
    grad[3] *= 1.0 + 1e-9;
    let (v, g) = competitors::lessons_reverse(&Tape::new(), &x);
    let caught = std::panic::catch_unwind(|| assert_agree("", (v, &g), (value, &grad)));
    assert!(caught.is_err(), "a relative error of 1e-9 in one component must fail");
}
