//! Checks that the benchmark compares like with like: for every function of the benchmark corpus
//! the hand-written and the generated derivatives agree with each other and with finite
//! differences, and the hand-written ones with closed forms where there are short ones.

use autodiff_runtime::{Tolerance, check_close, check_gradient, check_hvp};
use autodiff_suite::bench_fns::handwritten::{self, Six};
use autodiff_suite::bench_fns::{
    bench_f, bench_f_grad, bench_f_hessian, bench_f_hvp, bench_f_jvp, bench_g, bench_g_grad,
    bench_g_hessian, bench_g_hvp, bench_g_jvp, long_chain, long_chain_grad, long_chain_hessian,
    long_chain_hvp, long_chain_jvp, rosenbrock, rosenbrock_grad, rosenbrock_hessian,
    rosenbrock_hvp, rosenbrock_jvp,
};

/// Two derivative programs of the same function differ only by rounding.
const SAME: Tolerance = Tolerance { epsilon: 1e-12, max_relative: 1e-12 };

/// A value and gradient at a point given as a slice.
type GradFn = Box<dyn Fn(&[f64]) -> (f64, Vec<f64>)>;
/// A value, gradient and Hessian-vector product at a point and along a direction.
type HvpFn = Box<dyn Fn(&[f64], &[f64]) -> (f64, Vec<f64>, Vec<f64>)>;
/// A value and directional derivative at a point and along a direction.
type JvpFn = Box<dyn Fn(&[f64], &[f64]) -> (f64, f64)>;
/// A dense Hessian at a point, row by row.
type HessianFn = Box<dyn Fn(&[f64]) -> Vec<Vec<f64>>>;

/// One benchmark function with every derivative the benchmark times, on slices.
struct Case {
    f: fn(&[f64]) -> f64,
    hand_grad: GradFn,
    gen_grad: GradFn,
    hand_hvp: HvpFn,
    gen_hvp: HvpFn,
    gen_jvp: JvpFn,
    gen_hessian: HessianFn,
}

fn pair(p: (f64, f64)) -> Vec<f64> {
    vec![p.0, p.1]
}

fn six(p: Six) -> Vec<f64> {
    vec![p.0, p.1, p.2, p.3, p.4, p.5]
}

fn assert_all_agree(what: &str, analytic: &[f64], expected: &[f64], tol: Tolerance) {
    if let Err(mismatch) = check_close(analytic, expected, tol) {
        panic!("{what}: {mismatch}");
    }
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// The unit vectors and one mixed direction in `n` dimensions.
fn directions(n: usize) -> Vec<Vec<f64>> {
    let mut dirs: Vec<Vec<f64>> =
        (0..n).map(|i| (0..n).map(|j| if i == j { 1.0 } else { 0.0 }).collect()).collect();
    dirs.push((0..n).map(|j| 0.5 - 0.3 * j as f64).collect());
    dirs
}

/// Everything the benchmark relies on, at each point and along each direction.
fn check_case(case: &Case, points: &[Vec<f64>]) {
    let fd = Tolerance::default();
    for x in points {
        let value = (case.f)(x);
        let (hand_value, hand_grad) = (case.hand_grad)(x);
        let (gen_value, gen_grad) = (case.gen_grad)(x);
        assert_all_agree("hand-written value", &[hand_value], &[value], SAME);
        assert_all_agree("generated value", &[gen_value], &[value], SAME);
        assert_all_agree("generated vs hand-written gradient", &gen_grad, &hand_grad, SAME);
        if let Err(e) = check_gradient(case.f, x, &hand_grad, fd) {
            panic!("hand-written gradient at {x:?}: {e}");
        }
        if let Err(e) = check_gradient(case.f, x, &gen_grad, fd) {
            panic!("generated gradient at {x:?}: {e}");
        }
        let hessian = (case.gen_hessian)(x);
        for (i, v) in directions(x.len()).iter().enumerate() {
            let (hand_value, hand_grad_h, hand_hv) = (case.hand_hvp)(x, v);
            let (gen_value, gen_grad_h, gen_hv) = (case.gen_hvp)(x, v);
            assert_all_agree("hand-written hvp value", &[hand_value], &[value], SAME);
            assert_all_agree("generated hvp value", &[gen_value], &[value], SAME);
            assert_all_agree("hand-written hvp gradient", &hand_grad_h, &hand_grad, SAME);
            assert_all_agree("generated hvp gradient", &gen_grad_h, &hand_grad, SAME);
            assert_all_agree("generated vs hand-written hvp", &gen_hv, &hand_hv, SAME);
            let hand_gradient = |p: &[f64]| (case.hand_grad)(p).1;
            if let Err(e) = check_hvp(hand_gradient, x, v, &hand_hv, fd) {
                panic!("hand-written hvp at {x:?} along {v:?}: {e}");
            }
            let gen_gradient = |p: &[f64]| (case.gen_grad)(p).1;
            if let Err(e) = check_hvp(gen_gradient, x, v, &gen_hv, fd) {
                panic!("generated hvp at {x:?} along {v:?}: {e}");
            }
            let (jvp_value, jvp) = (case.gen_jvp)(x, v);
            assert_all_agree("jvp value", &[jvp_value], &[value], SAME);
            assert_all_agree("jvp against gradient·v", &[jvp], &[dot(&hand_grad, v)], SAME);
            let hessian_v: Vec<f64> = hessian.iter().map(|row| dot(row, v)).collect();
            assert_all_agree("generated hessian·v", &hessian_v, &hand_hv, SAME);
            if i < x.len() {
                let row: Vec<f64> = hessian.iter().map(|r| r[i]).collect();
                assert_all_agree("hessian symmetry", &row, &hessian[i], SAME);
            }
        }
    }
}

fn points(list: &[&[f64]]) -> Vec<Vec<f64>> {
    list.iter().map(|p| p.to_vec()).collect()
}

/// The case of a two-parameter benchmark function `$f`, generated and hand-written.
macro_rules! two_param_case {
    ($f:ident, $grad:ident, $hvp:ident, $jvp:ident, $hessian:ident) => {
        Case {
            f: |x| $f(x[0], x[1]),
            hand_grad: Box::new(|x| {
                let (v, g) = handwritten::$grad(x[0], x[1]);
                (v, pair(g))
            }),
            gen_grad: Box::new(|x| {
                let (v, g) = $grad(x[0], x[1]);
                (v, pair(g))
            }),
            hand_hvp: Box::new(|x, d| {
                let (v, g, hv) = handwritten::$hvp(x[0], x[1], d[0], d[1]);
                (v, pair(g), pair(hv))
            }),
            gen_hvp: Box::new(|x, d| {
                let (v, g, hv) = $hvp(x[0], x[1], d[0], d[1]);
                (v, pair(g), pair(hv))
            }),
            gen_jvp: Box::new(|x, d| $jvp(x[0], x[1], d[0], d[1])),
            gen_hessian: Box::new(|x| $hessian(x[0], x[1]).iter().map(|r| r.to_vec()).collect()),
        }
    };
}

fn bench_f_case() -> Case {
    two_param_case!(bench_f, bench_f_grad, bench_f_hvp, bench_f_jvp, bench_f_hessian)
}

fn bench_g_case() -> Case {
    two_param_case!(bench_g, bench_g_grad, bench_g_hvp, bench_g_jvp, bench_g_hessian)
}

fn rosenbrock_case() -> Case {
    two_param_case!(rosenbrock, rosenbrock_grad, rosenbrock_hvp, rosenbrock_jvp, rosenbrock_hessian)
}

fn long_chain_case() -> Case {
    Case {
        f: |x| long_chain(x[0], x[1], x[2], x[3], x[4], x[5]),
        hand_grad: Box::new(|x| {
            let (v, g) = handwritten::long_chain_grad(x[0], x[1], x[2], x[3], x[4], x[5]);
            (v, six(g))
        }),
        gen_grad: Box::new(|x| {
            let (v, g) = long_chain_grad(x[0], x[1], x[2], x[3], x[4], x[5]);
            (v, six(g))
        }),
        hand_hvp: Box::new(|x, d| {
            let (v, g, hv) = handwritten::long_chain_hvp(
                x[0], x[1], x[2], x[3], x[4], x[5], d[0], d[1], d[2], d[3], d[4], d[5],
            );
            (v, six(g), six(hv))
        }),
        gen_hvp: Box::new(|x, d| {
            let (v, g, hv) = long_chain_hvp(
                x[0], x[1], x[2], x[3], x[4], x[5], d[0], d[1], d[2], d[3], d[4], d[5],
            );
            (v, six(g), six(hv))
        }),
        gen_jvp: Box::new(|x, d| {
            long_chain_jvp(x[0], x[1], x[2], x[3], x[4], x[5], d[0], d[1], d[2], d[3], d[4], d[5])
        }),
        gen_hessian: Box::new(|x| {
            long_chain_hessian(x[0], x[1], x[2], x[3], x[4], x[5])
                .iter()
                .map(|r| r.to_vec())
                .collect()
        }),
    }
}

#[test]
fn bench_f_derivatives_agree_with_each_other_and_finite_differences() {
    let pts = points(&[&[2.0, 5.0], &[0.7, 1.3], &[-1.2, 1.0], &[0.0, 0.0]]);
    check_case(&bench_f_case(), &pts);
}

#[test]
fn bench_g_derivatives_agree_with_each_other_and_finite_differences() {
    let pts = points(&[&[2.0, 5.0], &[0.7, 1.3], &[1.5, -2.5], &[0.25, 0.0]]);
    check_case(&bench_g_case(), &pts);
}

#[test]
fn rosenbrock_derivatives_agree_with_each_other_and_finite_differences() {
    let pts = points(&[&[-1.2, 1.0], &[1.0, 1.0], &[0.5, -0.3], &[2.0, 3.5]]);
    check_case(&rosenbrock_case(), &pts);
}

#[test]
fn long_chain_derivatives_agree_with_each_other_and_finite_differences() {
    let pts = points(&[
        &[0.3, -0.7, 1.1, 0.5, -1.3, 0.9],
        &[-0.8, 0.4, -0.2, 1.2, 0.6, -0.5],
        &[1.5, 1.1, 0.9, -1.4, 0.2, 0.7],
        &[0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
    ]);
    check_case(&long_chain_case(), &pts);
}

#[test]
fn hand_written_small_derivatives_match_closed_forms() {
    // f = t1 t2 + t1: ∇f = (t2 + 1, t1), H = [[0, 1], [1, 0]].
    assert_eq!(handwritten::bench_f_grad(2.0, 5.0), (12.0, (6.0, 2.0)));
    assert_eq!(handwritten::bench_f_hvp(2.0, 5.0, 0.5, -3.0), (12.0, (6.0, 2.0), (-3.0, 0.5)));
    // g = ln x1 + x1 x2 - sin x2 at (1, 0): ∇g = (1, 0), H = [[-1, 1], [1, 0]].
    assert_eq!(handwritten::bench_g_grad(1.0, 0.0), (0.0, (1.0, 0.0)));
    assert_eq!(handwritten::bench_g_hvp(1.0, 0.0, 2.0, 3.0).2, (1.0, 2.0));
    // Rosenbrock at its minimum (1, 1): ∇f = 0, H = [[802, -400], [-400, 200]].
    assert_eq!(handwritten::rosenbrock_grad(1.0, 1.0), (0.0, (0.0, 0.0)));
    assert_eq!(handwritten::rosenbrock_hvp(1.0, 1.0, 1.0, 0.0).2, (802.0, -400.0));
    assert_eq!(handwritten::rosenbrock_hvp(1.0, 1.0, 0.0, 1.0).2, (-400.0, 200.0));
    // Rosenbrock at (-1.2, 1): ∇f = (-2 · 2.2 - 400 · (-1.2) · (-0.44), 200 · (-0.44)).
    let (value, (gx, gy)) = handwritten::rosenbrock_grad(-1.2, 1.0);
    assert!(SAME.agree(value, 24.2));
    assert!(SAME.agree(gx, -215.6));
    assert!(SAME.agree(gy, -88.0));
}

#[test]
fn generated_small_hessians_match_closed_forms() {
    assert_eq!(bench_f_hessian(2.0, 5.0), [[0.0, 1.0], [1.0, 0.0]]);
    let h = bench_g_hessian(0.5, 1.0);
    assert_all_agree("g hessian row 0", &h[0], &[-4.0, 1.0], SAME);
    assert_all_agree("g hessian row 1", &h[1], &[1.0, 1.0_f64.sin()], SAME);
    assert_eq!(rosenbrock_hessian(1.0, 1.0), [[802.0, -400.0], [-400.0, 200.0]]);
}
