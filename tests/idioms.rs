//! Idiomatic Rust under `#[grad]` (`src/idioms.rs`): each function against its index-loop twin
//! (value, gradient, H·v and Hessian bit for bit: the same arithmetic in the same order), and
//! against finite differences, in every mode it has.

mod twins;

use autodiff_runtime::numeric_gradient;
use autodiff_suite::idioms::*;
use twins::{check, close, point};

const SEEDS: [f64; 3] = [0.2, 1.1, -2.3];

#[test]
fn a_dot_product_by_an_iterator_chain() {
    check(
        "dot",
        fns!(dot, dot_grad, dot_jvp, dot_hvp; &DATA),
        fns!(dot_twin, dot_twin_grad, dot_twin_jvp, dot_twin_hvp; &DATA),
        &SEEDS,
    );
    // The dot product's derivatives in closed form.
    let x = point::<N>(0.4);
    assert_eq!(dot_grad(x, &DATA).1, DATA);
    assert_eq!(dot_hessian(x, &DATA), [[0.0; N]; N]);
}

#[test]
fn reductions_sum_product_fold_filter() {
    let data = [0.5, -1.0, 2.0];
    check(
        "reductions",
        fns!(reductions, reductions_grad, reductions_jvp, reductions_hvp; &data),
        fns!(reductions_twin, reductions_twin_grad, reductions_twin_jvp, reductions_twin_hvp; &data),
        &SEEDS,
    );
    check(
        "extremes",
        fns!(extremes, extremes_grad, extremes_jvp, extremes_hvp),
        fns!(extremes_twin, extremes_twin_grad, extremes_twin_jvp, extremes_twin_hvp),
        &SEEDS,
    );
    check(
        "reduce",
        fns!(reduced, reduced_grad, reduced_jvp, reduced_hvp),
        fns!(reduced_twin, reduced_twin_grad, reduced_twin_jvp, reduced_twin_hvp),
        &SEEDS,
    );
    check(
        "chains over array literals",
        fns!(literal_chains, literal_chains_grad, literal_chains_jvp, literal_chains_hvp),
        fns!(
            literal_chains_twin,
            literal_chains_twin_grad,
            literal_chains_twin_jvp,
            literal_chains_twin_hvp
        ),
        &SEEDS,
    );
    check(
        "moments",
        fns!(moments, moments_grad, moments_jvp, moments_hvp),
        fns!(moments_twin, moments_twin_grad, moments_twin_jvp, moments_twin_hvp),
        &SEEDS,
    );
    // The variance's Hessian in closed form: 2/N (I − 1/N 11ᵀ).
    let h = moments_hessian(point::<N>(0.9));
    for (i, row) in h.iter().enumerate() {
        for (j, hij) in row.iter().enumerate() {
            let want = 2.0 / N as f64 * (f64::from(u8::from(i == j)) - 1.0 / N as f64);
            assert!((hij - want).abs() < 1e-15, "moments: H[{i}][{j}] = {hij}, not {want}");
        }
    }
}

#[test]
fn for_loops_over_collections_and_adaptors() {
    check(
        "loops",
        fns!(loops, loops_grad, loops_jvp, loops_hvp; &DATA),
        fns!(loops_twin, loops_twin_grad, loops_twin_jvp, loops_twin_hvp; &DATA),
        &SEEDS,
    );
    let short = [0.5, 3.0];
    check(
        "loops, short data",
        fns!(loops, loops_grad, loops_jvp, loops_hvp; &short),
        fns!(loops_twin, loops_twin_grad, loops_twin_jvp, loops_twin_hvp; &short),
        &SEEDS,
    );
    check(
        "windows",
        fns!(windows, windows_grad, windows_jvp, windows_hvp; &DATA),
        fns!(windows_twin, windows_twin_grad, windows_twin_jvp, windows_twin_hvp; &DATA),
        &SEEDS,
    );
    let odd = [0.5, 3.0, -1.0];
    check(
        "windows, odd data",
        fns!(windows, windows_grad, windows_jvp, windows_hvp; &odd),
        fns!(windows_twin, windows_twin_grad, windows_twin_jvp, windows_twin_hvp; &odd),
        &SEEDS,
    );
    check(
        "ranges",
        fns!(ranges, ranges_grad, ranges_jvp, ranges_hvp),
        fns!(ranges_twin, ranges_twin_grad, ranges_twin_jvp, ranges_twin_hvp),
        &SEEDS,
    );
}

#[test]
fn closures_matches_and_patterns() {
    check(
        "closures",
        fns!(closures, closures_grad, closures_jvp, closures_hvp),
        fns!(closures_twin, closures_twin_grad, closures_twin_jvp, closures_twin_hvp),
        &SEEDS,
    );
    for mode in 0..8 {
        check(
            "matches",
            fns!(matches, matches_grad, matches_jvp, matches_hvp; mode),
            fns!(matches_twin, matches_twin_grad, matches_twin_jvp, matches_twin_hvp; mode),
            &SEEDS,
        );
    }
    // Seeds on each arm of the float `match` but the literal: v = x₀x₁ above 1 (1.1, −2.3),
    // below −0.1 (−0.6), in [−0.1, 0.5] (0.2, 2.5), between 0.5 and 1 (0.35, 5.0), with x₁ of
    // either sign.
    check(
        "float matches",
        fns!(float_matches, float_matches_grad, float_matches_jvp, float_matches_hvp),
        fns!(
            float_matches_twin,
            float_matches_twin_grad,
            float_matches_twin_jvp,
            float_matches_twin_hvp
        ),
        &[1.1, -2.3, -0.6, 0.2, 2.5, 0.35, 5.0],
    );
    for seed in [1.1, 0.2] {
        let x = point(seed);
        assert_eq!(float_matches_hessian(x), float_matches_twin_hessian(x), "at {x:?}");
    }
    // The literal arm in closed form: x = (0, 4), v = 0, f = x₁ + √x₁, ∇f = (0, 1 + 1/(2√x₁)).
    let (value, grad) = float_matches_grad([0.0, 4.0]);
    assert_eq!((value, grad), (6.0, [0.0, 1.25]));
    // Closed form on the first arm: x = (2, 1), v = 2, f = ln 2 + 2 + 1, ∇f = (1/2 + 1, 1 + 1/2).
    let (value, grad) = float_matches_grad([2.0, 1.0]);
    assert!((value - (2f64.ln() + 3.0)).abs() < 1e-15);
    assert!((grad[0] - 1.5).abs() < 1e-15 && (grad[1] - 1.5).abs() < 1e-15, "{grad:?}");
    check(
        "destructuring assignment",
        fns!(destructured, destructured_grad, destructured_jvp, destructured_hvp),
        fns!(
            destructured_twin,
            destructured_twin_grad,
            destructured_twin_jvp,
            destructured_twin_hvp
        ),
        &SEEDS,
    );
    assert_eq!(destructured_hessian(point(0.4)), destructured_twin_hessian(point(0.4)));
    for flip in 0..2 {
        let offsets = (0.25, -1.5);
        let idiom = fns!(patterns, patterns_grad, patterns_jvp, patterns_hvp; offsets, flip);
        check(
            "patterns",
            idiom,
            fns!(patterns_twin, patterns_twin_grad, patterns_twin_jvp, patterns_twin_hvp; offsets, flip),
            &SEEDS,
        );
    }
    // Closed form: patterns at flip = 0 with c > 0 is ((a − b) c + o1)² + (a + b)(a + b + c) ...
    let x: [f64; 3] = [0.5, -0.25, 2.0];
    let (a, b, c) = (x[0], x[1], x[2]);
    let (o1, o2): (f64, f64) = (0.25, -1.5);
    let value = ((a - b) * c + o1).powi(2) + (a + b + c) * (a + b + o2);
    assert!((patterns(x, (o1, o2), 0) - value).abs() < 1e-14);
}

#[test]
fn arrays_built_from_closures_and_their_jacobian() {
    let x = [0.3, -1.2, 2.0];
    assert_eq!(built(x), built_twin(x));
    let (value, jac) = built_jacobian(x);
    assert_eq!((value, jac), built_twin_jacobian(x));
    // ∂(xᵢ² + sin x₍ᵢ₊₁₎ mod 3)/∂xⱼ in closed form.
    for (i, row) in jac.iter().enumerate() {
        for (j, d) in row.iter().enumerate() {
            let want = if j == i {
                2.0 * x[i]
            } else if j == (i + 1) % 3 {
                x[j].cos()
            } else {
                0.0
            };
            assert_eq!(*d, want, "J[{i}][{j}]");
        }
    }
    let v = [1.0, -0.5, 0.25];
    let (_, jv) = built_jvp(x, v);
    assert_eq!(jv, built_twin_jvp(x, v).1);
    // uᵀJ by one reverse sweep, against the Jacobian's columns.
    let u = [0.5, 2.0, -1.0];
    let (vjp_value, ujac) = built_vjp(x, u);
    assert_eq!((vjp_value, ujac), built_twin_vjp(x, u));
    for (j, d) in ujac.iter().enumerate() {
        let want: f64 = (0..3).map(|i| u[i] * jac[i][j]).sum();
        assert!((d - want).abs() < 1e-15, "uᵀJ[{j}] = {d}, not {want}");
    }
}

#[test]
fn the_new_sugar_in_a_vector_function() {
    for seed in SEEDS {
        let x = point::<3>(seed);
        assert_eq!(sugar_outputs(x), sugar_outputs_twin(x));
        let (value, jac) = sugar_outputs_jacobian(x);
        assert_eq!((value, jac), sugar_outputs_twin_jacobian(x), "at {x:?}");
        // Each column against central differences.
        for j in 0..3 {
            let h = 1e-6;
            let (mut up, mut down) = (x, x);
            up[j] += h;
            down[j] -= h;
            let (fu, fd) = (sugar_outputs(up), sugar_outputs(down));
            let column: Vec<f64> = (0..3).map(|i| (fu[i] - fd[i]) / (2.0 * h)).collect();
            let want: Vec<f64> = jac.iter().map(|row| row[j]).collect();
            close(&format!("column {j} at {x:?}"), &want, &column, 1e-6);
        }
        let v = point::<3>(seed + 1.7);
        let (_, jv) = sugar_outputs_jvp(x, v);
        assert_eq!(jv, sugar_outputs_twin_jvp(x, v).1);
        let u = [0.5, 2.0, -1.0];
        let (vjp_value, ujac) = sugar_outputs_vjp(x, u);
        assert_eq!((vjp_value, ujac), sugar_outputs_twin_vjp(x, u));
        for (j, d) in ujac.iter().enumerate() {
            let want: f64 = (0..3).map(|i| u[i] * jac[i][j]).sum();
            assert!((d - want).abs() < 1e-12, "uᵀJ[{j}] = {d}, not {want}");
        }
    }
}

#[test]
fn a_checkpointed_fold() {
    for steps in [0, 1, 7, 50] {
        let x = [0.7, -0.3];
        let v = [0.4, 1.0];
        assert_eq!(stepped_grad(x, steps), stepped_twin_grad(x, steps), "steps = {steps}");
        assert_eq!(stepped_hvp(x, steps, v), stepped_twin_hvp(x, steps, v));
        let numeric = numeric_gradient(|xs: &[f64]| stepped([xs[0], xs[1]], steps), &x);
        close("stepped gradient", &stepped_grad(x, steps).1, &numeric, 1e-6);
    }
}

#[test]
fn the_benchmark_workloads_against_their_index_loops() {
    use autodiff_suite::loops::{
        ext_rosenbrock_grad, ext_rosenbrock_hvp, lessons_grad, lessons_hvp,
    };
    for seed in SEEDS {
        let (x, v) = (point::<10>(seed), point::<10>(seed + 0.5));
        assert_eq!(lessons_iter_grad(x), lessons_grad(x), "lessons at {x:?}");
        assert_eq!(lessons_iter_hvp(x, v), lessons_hvp(x, v), "lessons at {x:?}");
        for (name, grad, hvp) in [
            (
                "windows",
                ext_rosenbrock_windows_grad::<10> as fn(_) -> _,
                ext_rosenbrock_windows_hvp::<10> as fn(_, _) -> _,
            ),
            ("zip", ext_rosenbrock_zip_grad::<10>, ext_rosenbrock_zip_hvp::<10>),
        ] {
            assert_eq!(grad(x), ext_rosenbrock_grad(x), "rosenbrock by {name} at {x:?}");
            assert_eq!(hvp(x, v), ext_rosenbrock_hvp(x, v), "rosenbrock by {name} at {x:?}");
        }
    }
}
