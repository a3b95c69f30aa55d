//! Everyday control flow rewritten in front of the IR (`src/control_sugar.rs`): each function
//! against its twin in the index or flag form the rewrite means (value, gradient and H·v bit
//! for bit), against finite differences of the function (gradient) and of the gradient (H·v),
//! and its JVP against the gradient's dot product with the direction.

use autodiff_runtime::{Tolerance, check_close, numeric_gradient, numeric_hvp};
use autodiff_suite::control_sugar::*;

fn close(what: &str, values: &[f64], reference: &[f64], tol: f64) {
    let tol = Tolerance { epsilon: tol, max_relative: tol };
    if let Err(e) = check_close(values, reference, tol) {
        panic!("{what}: {e}");
    }
}

/// Value and gradient.
type Grad<const M: usize> = (f64, [f64; M]);
/// Value, gradient and H·v.
type Hvp<const M: usize> = (f64, [f64; M], [f64; M]);
/// A function of a point.
type Of<'a, const M: usize, R> = Box<dyn Fn([f64; M]) -> R + 'a>;
/// A function of a point and a direction.
type Along<'a, const M: usize, R> = Box<dyn Fn([f64; M], [f64; M]) -> R + 'a>;

/// The functions `#[grad(jvp, hvp)]` generates for a function of one `[f64; M]`.
struct Fns<'a, const M: usize> {
    f: Of<'a, M, f64>,
    grad: Of<'a, M, Grad<M>>,
    jvp: Along<'a, M, (f64, f64)>,
    hvp: Along<'a, M, Hvp<M>>,
}

/// [`Fns`] of the function `$f` and its `_grad`, `_jvp` and `_hvp`, its other arguments `$arg`
/// passed after the array.
macro_rules! fns {
    ($f:ident, $grad:ident, $jvp:ident, $hvp:ident $(; $($arg:expr),*)?) => {
        Fns {
            f: Box::new(move |x| $f(x $($(, $arg)*)?)),
            grad: Box::new(move |x| $grad(x $($(, $arg)*)?)),
            jvp: Box::new(move |x, v| $jvp(x $($(, $arg)*)?, v)),
            hvp: Box::new(move |x, v| $hvp(x $($(, $arg)*)?, v)),
        }
    };
}

/// A point with distinct, moderate coordinates.
fn point<const M: usize>(seed: f64) -> [f64; M] {
    std::array::from_fn(|i| (seed + 0.73 * i as f64).sin() * 1.3 + 0.1)
}

/// `sugar` at a few points: its value is `f`'s to the bit; its value, gradient and H·v are the
/// twin's to the bit; the gradient agrees with central differences of `f`, H·v with central
/// differences of the gradient, and the JVP is `∇f·v`.
fn check<const M: usize>(name: &str, sugar: Fns<M>, twin: Fns<M>, seeds: &[f64]) {
    for &seed in seeds {
        let (x, v) = (point::<M>(seed), point::<M>(seed + 1.7));
        let (value, grad) = (sugar.grad)(x);
        assert_eq!(value.to_bits(), (sugar.f)(x).to_bits(), "{name}: value at {x:?}");
        let (twin_value, twin_grad) = (twin.grad)(x);
        assert_eq!(value.to_bits(), twin_value.to_bits(), "{name}: value = twin's at {x:?}");
        assert_eq!(grad, twin_grad, "{name}: gradient = twin's at {x:?}");
        let numeric = numeric_gradient(|xs: &[f64]| (sugar.f)(xs.try_into().unwrap()), &x);
        close(&format!("{name}: gradient at {x:?}"), &grad, &numeric, 1e-6);
        let (jvp_value, slope) = (sugar.jvp)(x, v);
        assert_eq!(jvp_value.to_bits(), value.to_bits(), "{name}: jvp's value");
        let dot: f64 = grad.iter().zip(&v).map(|(a, b)| a * b).sum();
        close(&format!("{name}: jvp"), &[slope], &[dot], 1e-12);
        let (hvp_value, hvp_grad, hv) = (sugar.hvp)(x, v);
        assert_eq!((hvp_value.to_bits(), hvp_grad), (value.to_bits(), grad), "{name}: hvp");
        let (_, _, twin_hv) = (twin.hvp)(x, v);
        assert_eq!(hv, twin_hv, "{name}: H·v = twin's at {x:?}");
        let g = |xs: &[f64]| (sugar.grad)(xs.try_into().unwrap()).1.to_vec();
        close(&format!("{name}: H·v at {x:?}"), &hv, &numeric_hvp(g, &x, &v), 1e-5);
    }
}

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
    // At these points `break 'rows` is taken (at each), `continue 'rows` (at -2.3 and 2.9) and
    // `continue 'grow` (at all but 0.2): a point where `x[j] < -0.5` and one with no `x[i] < 0`.
    let xs = SEEDS.map(point::<N>);
    assert!(xs.iter().filter(|x| x.iter().any(|&v| v < -0.5)).count() >= 2, "{xs:?}");
    assert!(xs.iter().any(|x| x.iter().all(|&v| v >= 0.0)), "{xs:?}");
}
