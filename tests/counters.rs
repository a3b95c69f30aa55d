//! Integer counters under `#[grad]` (`src/counters.rs`): each function against its twin that
//! computes the index from the loop variables (value, gradient, JVP, H·v and Hessian bit for
//! bit: the same arithmetic in the same order), and against finite differences.

use autodiff_runtime::{Tolerance, check_close, numeric_gradient, numeric_hvp};
use autodiff_suite::counters::*;

fn close(what: &str, values: &[f64], reference: &[f64], tol: f64) {
    let tol = Tolerance { epsilon: tol, max_relative: tol };
    if let Err(e) = check_close(values, reference, tol) {
        panic!("{what}: {e}");
    }
}

/// A function of a point.
type Of<'a, const M: usize, R> = Box<dyn Fn([f64; M]) -> R + 'a>;
/// A function of a point and a direction.
type Along<'a, const M: usize, R> = Box<dyn Fn([f64; M], [f64; M]) -> R + 'a>;

/// What `#[grad(jvp, hvp)]` generates for a function of one `[f64; M]` (and its Hessian, when
/// asked for), as closures over its other arguments.
struct Fns<'a, const M: usize> {
    f: Of<'a, M, f64>,
    grad: Of<'a, M, (f64, [f64; M])>,
    jvp: Along<'a, M, (f64, f64)>,
    hvp: Along<'a, M, (f64, [f64; M], [f64; M])>,
    hessian: Option<Of<'a, M, [[f64; M]; M]>>,
}

/// [`Fns`] of `$f` and its derivatives (`$hessian` too when given), its other arguments `$arg`
/// passed after the array.
macro_rules! fns {
    ($f:ident, $grad:ident, $jvp:ident, $hvp:ident, $hessian:ident $(; $($arg:expr),*)?) => {
        Fns {
            hessian: Some(Box::new(move |x| $hessian(x $($(, $arg)*)?))),
            ..fns!($f, $grad, $jvp, $hvp $(; $($arg),*)?)
        }
    };
    ($f:ident, $grad:ident, $jvp:ident, $hvp:ident $(; $($arg:expr),*)?) => {
        Fns {
            f: Box::new(move |x| $f(x $($(, $arg)*)?)),
            grad: Box::new(move |x| $grad(x $($(, $arg)*)?)),
            jvp: Box::new(move |x, v| $jvp(x $($(, $arg)*)?, v)),
            hvp: Box::new(move |x, v| $hvp(x $($(, $arg)*)?, v)),
            hessian: None,
        }
    };
}

/// A point with distinct, moderate coordinates.
fn point<const M: usize>(seed: f64) -> [f64; M] {
    std::array::from_fn(|i| (seed + 0.73 * i as f64).sin() * 1.3 + 0.1)
}

const SEEDS: [f64; 3] = [0.2, 1.1, -2.3];

/// `counter` at a few points: its value and derivatives are the twin's to the bit; its
/// gradient and H·v agree with finite differences, its JVP is `∇f·v`, its Hessian is symmetric
/// and its rows are H·eᵢ.
fn check<const M: usize>(name: &str, counter: &Fns<M>, twin: &Fns<M>) {
    for seed in SEEDS {
        let (x, v) = (point::<M>(seed), point::<M>(seed + 1.7));
        let (value, grad) = (counter.grad)(x);
        assert_eq!(value.to_bits(), (counter.f)(x).to_bits(), "{name}: value at {x:?}");
        assert_eq!(value.to_bits(), (twin.f)(x).to_bits(), "{name}: value = twin's at {x:?}");
        assert_eq!((counter.grad)(x), (twin.grad)(x), "{name}: gradient = twin's at {x:?}");
        let numeric = numeric_gradient(|xs: &[f64]| (counter.f)(xs.try_into().unwrap()), &x);
        close(&format!("{name}: gradient at {x:?}"), &grad, &numeric, 1e-6);
        let jvp = (counter.jvp)(x, v);
        assert_eq!(jvp, (twin.jvp)(x, v), "{name}: jvp = twin's");
        let dot: f64 = grad.iter().zip(&v).map(|(a, b)| a * b).sum();
        assert_eq!(jvp.0.to_bits(), value.to_bits(), "{name}: jvp's value");
        close(&format!("{name}: jvp"), &[jvp.1], &[dot], 1e-12);
        let hvp = (counter.hvp)(x, v);
        assert_eq!(hvp, (twin.hvp)(x, v), "{name}: H·v = twin's at {x:?}");
        assert_eq!((hvp.0.to_bits(), hvp.1), (value.to_bits(), grad), "{name}: hvp's gradient");
        let g = |xs: &[f64]| (counter.grad)(xs.try_into().unwrap()).1.to_vec();
        close(&format!("{name}: H·v at {x:?}"), &hvp.2, &numeric_hvp(g, &x, &v), 1e-5);
        let (Some(hessian), Some(twin_hessian)) = (&counter.hessian, &twin.hessian) else {
            continue;
        };
        let h = hessian(x);
        assert_eq!(h, twin_hessian(x), "{name}: Hessian = twin's at {x:?}");
        for i in 0..M {
            let e: [f64; M] = std::array::from_fn(|j| f64::from(u8::from(i == j)));
            close(&format!("{name}: H row {i}"), &h[i], &(counter.hvp)(x, e).2, 1e-12);
            let column: Vec<f64> = h.iter().map(|row| row[i]).collect();
            close(&format!("{name}: H symmetric, row {i}"), &h[i], &column, 1e-12);
        }
    }
}

#[test]
fn a_matrix_stored_row_major_walked_by_a_counter() {
    let w = [[0.5, -1.0, 2.0, 0.25], [1.5, 0.75, -0.5, 1.0], [-2.0, 0.3, 0.9, -0.1]];
    check(
        "row_major",
        &fns!(row_major, row_major_grad, row_major_jvp, row_major_hvp, row_major_hessian; &w),
        &fns!(row_major_twin, row_major_twin_grad, row_major_twin_jvp, row_major_twin_hvp, row_major_twin_hessian; &w),
    );
}

/// ADBench's GMM unpacking at one size: `D` dimensions, `ICF = D (D + 1) / 2` parameters.
fn qtimesx_at<const D: usize, const ICF: usize>() {
    let v: [f64; D] = point(0.6);
    check::<ICF>(
        &format!("qtimesx, D = {D}"),
        &fns!(qtimesx, qtimesx_grad, qtimesx_jvp, qtimesx_hvp, qtimesx_hessian; &v),
        &fns!(qtimesx_twin, qtimesx_twin_grad, qtimesx_twin_jvp, qtimesx_twin_hvp, qtimesx_twin_hessian; &v),
    );
    // In closed form: ∂/∂icf[D + ℓ] of ½‖Qv‖², the entry ℓ of the strictly lower part being
    // (r, c) column by column, is (Qv)_r · v_c.
    let icf: [f64; ICF] = point(1.3);
    let mut qv = [0.0; D];
    for j in 0..D {
        qv[j] = icf[j].exp() * v[j];
    }
    let mut entries = Vec::new();
    for c in 0..D {
        for r in c + 1..D {
            entries.push((r, c));
        }
    }
    for (l, &(r, c)) in entries.iter().enumerate() {
        qv[r] += icf[D + l] * v[c];
    }
    let (_, grad) = qtimesx_grad(icf, &v);
    for (l, &(r, c)) in entries.iter().enumerate() {
        close(&format!("∂/∂icf[{}]", D + l), &[grad[D + l]], &[qv[r] * v[c]], 1e-13);
    }
}

#[test]
fn the_strictly_lower_triangle_of_adbench_gmm_unpacked_by_a_counter() {
    qtimesx_at::<0, 0>();
    qtimesx_at::<1, 1>();
    qtimesx_at::<2, 3>();
    qtimesx_at::<4, 10>();
    qtimesx_at::<5, 15>();
}

#[test]
fn components_one_after_the_other_walked_by_one_counter_through_three_loops() {
    let v: [[f64; 3]; 2] = [point(0.1), point(2.2)];
    check::<12>(
        "qtimesx_flat",
        &fns!(qtimesx_flat, qtimesx_flat_grad, qtimesx_flat_jvp, qtimesx_flat_hvp; &v),
        &fns!(qtimesx_flat_twin, qtimesx_flat_twin_grad, qtimesx_flat_twin_jvp, qtimesx_flat_twin_hvp; &v),
    );
    // Each component alone is `qtimesx` without its log-determinant.
    let icf: [f64; 12] = point(0.8);
    let per = |k: usize| {
        let part: [f64; 6] = std::array::from_fn(|i| icf[6 * k + i]);
        let logdet: f64 = part[..3].iter().sum();
        2.0 * (qtimesx::<3, 6>(part, &v[k]) + logdet)
    };
    close("qtimesx_flat = Σ components", &[qtimesx_flat(icf, &v)], &[per(0) + per(1)], 1e-13);
}

#[test]
fn a_stride_and_a_counter_across_two_loops() {
    check(
        "strided",
        &fns!(strided, strided_grad, strided_jvp, strided_hvp, strided_hessian),
        &fns!(
            strided_twin,
            strided_twin_grad,
            strided_twin_jvp,
            strided_twin_hvp,
            strided_twin_hessian
        ),
    );
    check(
        "two_loops",
        &fns!(two_loops, two_loops_grad, two_loops_jvp, two_loops_hvp, two_loops_hessian),
        &fns!(
            two_loops_twin,
            two_loops_twin_grad,
            two_loops_twin_jvp,
            two_loops_twin_hvp,
            two_loops_twin_hessian
        ),
    );
}

#[test]
fn triangles_packed_row_by_row_and_counters_advanced_by_the_loop_variable() {
    let v = [0.5, -1.5, 2.0, 0.75];
    check(
        "packed_rows",
        &fns!(packed_rows, packed_rows_grad, packed_rows_jvp, packed_rows_hvp, packed_rows_hessian; &v),
        &fns!(packed_rows_twin, packed_rows_twin_grad, packed_rows_twin_jvp, packed_rows_twin_hvp, packed_rows_twin_hessian; &v),
    );
    let w = [0.25, -0.5, 1.0, 2.0];
    check(
        "by_index",
        &fns!(by_index, by_index_grad, by_index_jvp, by_index_hvp, by_index_hessian; &w),
        &fns!(by_index_twin, by_index_twin_grad, by_index_twin_jvp, by_index_twin_hvp, by_index_twin_hessian; &w),
    );
}

#[test]
fn a_counter_advanced_by_an_immutable_let_of_the_loop() {
    for n in [0, 1, 5, 8] {
        check(
            &format!("by_let, n = {n}"),
            &fns!(by_let, by_let_grad, by_let_jvp, by_let_hvp, by_let_hessian; n),
            &fns!(by_let_twin, by_let_twin_grad, by_let_twin_jvp, by_let_twin_hvp, by_let_twin_hessian; n),
        );
    }
}

#[test]
fn a_counter_going_down_in_a_reversed_loop_and_read_in_a_loop_bound() {
    check(
        "countdown",
        &fns!(countdown, countdown_grad, countdown_jvp, countdown_hvp, countdown_hessian),
        &fns!(
            countdown_twin,
            countdown_twin_grad,
            countdown_twin_jvp,
            countdown_twin_hvp,
            countdown_twin_hessian
        ),
    );
}

#[test]
fn a_counter_over_data_known_at_run_time() {
    for data in [&[][..], &[0.5][..], &[0.5, -2.0, 1.5, 3.0, -0.25, 0.125, 1.0]] {
        check(
            &format!("run_time, {} data", data.len()),
            &fns!(run_time, run_time_grad, run_time_jvp, run_time_hvp; data),
            &fns!(run_time_twin, run_time_twin_grad, run_time_twin_jvp, run_time_twin_hvp; data),
        );
    }
}

#[test]
fn a_counter_in_a_checkpointed_loop() {
    for seed in SEEDS {
        let (x, v) = (point::<16>(seed), point::<16>(seed + 0.4));
        let (value, grad) = recurrence_grad(x);
        assert_eq!((value, grad), recurrence_twin_grad(x));
        let hvp = recurrence_hvp(x, v);
        assert_eq!(hvp, recurrence_twin_hvp(x, v));
        let numeric = numeric_gradient(|xs: &[f64]| recurrence(xs.try_into().unwrap()), &x);
        close("recurrence: gradient", &grad, &numeric, 1e-6);
        let g = |xs: &[f64]| recurrence_grad(xs.try_into().unwrap()).1.to_vec();
        close("recurrence: H·v", &hvp.2, &numeric_hvp(g, &x, &v), 1e-5);
    }
}

#[test]
fn values_written_through_a_counter_in_a_reversed_loop() {
    check(
        "reversed",
        &fns!(reversed, reversed_grad, reversed_jvp, reversed_hvp, reversed_hessian),
        &fns!(
            reversed_twin,
            reversed_twin_grad,
            reversed_twin_jvp,
            reversed_twin_hvp,
            reversed_twin_hessian
        ),
    );
}

#[test]
fn adbench_gmm_log_likelihood_with_its_counter() {
    const D: usize = 3;
    const K: usize = 2;
    const ICF: usize = 6;
    let alphas: [f64; K] = point(0.3);
    let means: [[f64; D]; K] = [point(1.0), point(-0.7)];
    let icf: [[f64; ICF]; K] = [point(0.5), point(2.5)];
    let x: Vec<[f64; D]> = (0..5).map(|p| point(0.37 * p as f64 - 1.0)).collect();
    let value = gmm_likelihood(&alphas, &means, &icf, &x);
    assert_eq!(value.to_bits(), gmm_likelihood_twin(&alphas, &means, &icf, &x).to_bits());
    let (v, (da, dm, di)) = gmm_likelihood_grad(&alphas, &means, &icf, &x);
    assert_eq!(v.to_bits(), value.to_bits());
    assert_eq!((v, (da, dm, di)), gmm_likelihood_twin_grad(&alphas, &means, &icf, &x));
    // Against finite differences of the objective in every parameter of `icf`.
    let flat: Vec<f64> = icf.iter().flatten().copied().collect();
    let numeric = numeric_gradient(
        |p: &[f64]| {
            let icf: [[f64; ICF]; K] =
                std::array::from_fn(|k| std::array::from_fn(|j| p[ICF * k + j]));
            gmm_likelihood(&alphas, &means, &icf, &x)
        },
        &flat,
    );
    let got: Vec<f64> = di.iter().flatten().copied().collect();
    close("gmm_likelihood: ∂/∂icf", &got, &numeric, 1e-6);
}
