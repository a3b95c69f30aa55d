//! Everyday control flow rewritten in front of the IR (`src/control_sugar.rs`): each function
//! against its twin in the index or flag form the rewrite means (value, gradient and H·v bit
//! for bit), against finite differences of the function (gradient) and of the gradient (H·v),
//! and its JVP against the gradient's dot product with the direction.

mod twins;

use autodiff_suite::control_sugar::*;
use twins::{check, close, point};

const SEEDS: [f64; 4] = [0.2, 1.1, -2.3, 2.9];

#[test]
fn iter_mut_in_for_loops_and_for_each() {
    let w = [0.5, -1.5, 2.0, 0.75];
    check(
        "written",
        fns!(written, written_grad, written_jvp, written_hvp; &w),
        fns!(written_twin, written_twin_grad, written_twin_jvp, written_twin_hvp; &w),
        &SEEDS,
    );
    check(
        "rows",
        fns!(rows, rows_grad, rows_jvp, rows_hvp),
        fns!(rows_twin, rows_twin_grad, rows_twin_jvp, rows_twin_hvp),
        &SEEDS,
    );
}

#[test]
fn a_loop_used_as_a_value() {
    check(
        "halved",
        fns!(halved, halved_grad, halved_jvp, halved_hvp),
        fns!(halved_twin, halved_twin_grad, halved_twin_jvp, halved_twin_hvp),
        &SEEDS,
    );
    check(
        "root",
        fns!(root, root_grad, root_jvp, root_hvp),
        fns!(root_twin, root_twin_grad, root_twin_jvp, root_twin_hvp),
        &SEEDS,
    );
    // √a·x₂ + x₃ in closed form: ∂/∂x₀ = x₀ x₂ / √a, ∂/∂x₂ = √a, ∂/∂x₃ = 1.
    for seed in SEEDS {
        let x = point::<N>(seed);
        let a = (x[0] * x[0] + x[1] * x[1] + 1.0).sqrt();
        let want = [x[0] * x[2] / a, x[1] * x[2] / a, a, 1.0];
        close("root: closed form", &root_grad(x).1, &want, 1e-12);
    }
}

#[test]
fn labelled_break_and_continue() {
    check(
        "first_pairs",
        fns!(first_pairs, first_pairs_grad, first_pairs_jvp, first_pairs_hvp),
        fns!(first_pairs_twin, first_pairs_twin_grad, first_pairs_twin_jvp, first_pairs_twin_hvp),
        &SEEDS,
    );
    check(
        "search",
        fns!(search, search_grad, search_jvp, search_hvp),
        fns!(search_twin, search_twin_grad, search_twin_jvp, search_twin_hvp),
        &SEEDS,
    );
    // At these points `break 'rows` is taken (at all but 2.9), `continue 'rows` (at -2.3 and
    // 2.9) and `continue 'grow` (at all but 0.2): a point where `x[j] < -0.5` and one with no
    // `x[i] < 0`.
    let xs = SEEDS.map(point::<N>);
    assert!(xs.iter().filter(|x| x.iter().any(|&v| v < -0.5)).count() >= 2, "{xs:?}");
    assert!(xs.iter().any(|x| x.iter().all(|&v| v >= 0.0)), "{xs:?}");
}
