//! Competitor gradients of the loop workloads of `autodiff_suite::oracles`, for
//! `benches/loops.rs` to time and `tests/competitors.rs` to check against the hand-written ones.
//!
//! - num-dual, forward mode with dual numbers, two ways: `n` forward sweeps with the scalar dual
//!   [`Dual64`] (one sweep per coordinate, a stack array of duals, no heap), and num-dual's own
//!   `gradient` helper, which makes one sweep with [`DualSVec64<N>`], a dual number carrying all
//!   `N` tangents (no heap either, but every dual is `8 N + 16` bytes, so its input alone is
//!   `8 N² + 16 N` bytes on the stack: 8 MB for `N = 1000`, which is why it is not used there).
//! - `reverse`, reverse mode on a runtime tape (`Tape`, a `RefCell<Vec<Node>>`). The caller keeps
//!   one tape and the functions here clear it before each gradient, so its node buffer keeps its
//!   capacity; each gradient still allocates the adjoint vector (`Var::grad` returns a
//!   `Vec<f64>` as long as the tape).
//!
//! Every workload is written once per number type, with the same operations in the same order as
//! the primal in `oracles`. The inputs the benchmark times them at are at the end, shared with the
//! test.

use nalgebra::SVector;
use num_dual::{Dual64, DualNum, DualSVec64};
use reverse::{Gradient, Tape, Var};

// ---------------------------------------------------------------------------------------------
// The workloads over num-dual's number types.

/// [`oracles::lessons`](autodiff_suite::oracles::lessons) for any dual number type.
fn lessons_dual<D: DualNum<Primitive = f64> + Copy>(x: &[D]) -> D {
    let mut sum = D::from(0.0);
    let mut prev = x[x.len() - 1];
    for &xi in x {
        sum += xi.sin() * prev;
        prev = xi;
    }
    sum
}

/// [`oracles::extended_rosenbrock`](autodiff_suite::oracles::extended_rosenbrock) for any dual
/// number type.
fn extended_rosenbrock_dual<D: DualNum<Primitive = f64> + Copy>(x: &[D]) -> D {
    let mut sum = D::from(0.0);
    for pair in x.windows(2) {
        let d = pair[1] - pair[0] * pair[0];
        let a = -pair[0] + 1.0;
        sum += d * d * 100.0 + a * a;
    }
    sum
}

/// [`oracles::layer_loss`](autodiff_suite::oracles::layer_loss) of an `M × K` layer for any dual
/// number type, its parameters `p` flat: the weights row by row, then the biases.
fn layer_dual<D: DualNum<Primitive = f64> + Copy, const M: usize, const K: usize>(
    p: &[D],
    x: &[f64; K],
    y: &[f64; M],
) -> D {
    assert_eq!(p.len(), M * K + M, "weights and biases");
    let mut loss = D::from(0.0);
    for i in 0..M {
        let mut z = p[M * K + i];
        for j in 0..K {
            z += p[i * K + j] * x[j];
        }
        let r = z.tanh() - y[i];
        loss += r * r;
    }
    loss
}

/// Value and gradient of `f` at `x` by `N` forward sweeps, one per coordinate, with
/// [`Dual64`]: the tangent of coordinate `i` is 1 in sweep `i`, 0 otherwise.
fn dual_sweeps<const N: usize>(f: impl Fn(&[Dual64]) -> Dual64, x: &[f64; N]) -> (f64, [f64; N]) {
    let mut duals = x.map(Dual64::from_re);
    let mut grad = [0.0; N];
    let mut value = 0.0;
    for i in 0..N {
        duals[i].eps = 1.0;
        let out = f(&duals);
        duals[i].eps = 0.0;
        (value, grad[i]) = (out.re, out.eps);
    }
    (value, grad)
}

/// Value and gradient of `f` at `x` by num-dual's `gradient` helper: one forward sweep with
/// [`DualSVec64<N>`], all `N` tangents at once.
fn dual_vector<const N: usize>(
    f: impl Fn(&[DualSVec64<N>]) -> DualSVec64<N>,
    x: &[f64; N],
) -> (f64, [f64; N]) {
    let (value, grad) =
        num_dual::gradient(|v: SVector<DualSVec64<N>, N>| f(v.as_slice()), &SVector::from(*x));
    (value, grad.into())
}

/// The lessons' function's value and gradient by `N` forward sweeps of num-dual's [`Dual64`].
pub fn lessons_num_dual_sweeps<const N: usize>(x: &[f64; N]) -> (f64, [f64; N]) {
    dual_sweeps(lessons_dual, x)
}

/// The lessons' function's value and gradient by num-dual's `gradient` helper
/// ([`DualSVec64<N>`]); for small `N` only (it puts `8 N²` bytes on the stack).
pub fn lessons_num_dual_vector<const N: usize>(x: &[f64; N]) -> (f64, [f64; N]) {
    dual_vector(lessons_dual, x)
}

/// The extended Rosenbrock function's value and gradient by `N` forward sweeps of [`Dual64`].
pub fn extended_rosenbrock_num_dual_sweeps<const N: usize>(x: &[f64; N]) -> (f64, [f64; N]) {
    dual_sweeps(extended_rosenbrock_dual, x)
}

/// The extended Rosenbrock function's value and gradient by num-dual's `gradient` helper.
pub fn extended_rosenbrock_num_dual_vector<const N: usize>(x: &[f64; N]) -> (f64, [f64; N]) {
    dual_vector(extended_rosenbrock_dual, x)
}

/// The `M × K` layer's loss and gradient in its `P = M K + M` flat parameters (weights row by
/// row, then biases) by `P` forward sweeps of [`Dual64`].
pub fn layer_num_dual_sweeps<const M: usize, const K: usize, const P: usize>(
    params: &[f64; P],
    x: &[f64; K],
    y: &[f64; M],
) -> (f64, [f64; P]) {
    dual_sweeps(|p| layer_dual::<_, M, K>(p, x, y), params)
}

/// The `M × K` layer's loss and gradient in its flat parameters by num-dual's `gradient` helper
/// ([`DualSVec64<P>`]: about 600 kB of stack for the 16 × 16 layer).
pub fn layer_num_dual_vector<const M: usize, const K: usize, const P: usize>(
    params: &[f64; P],
    x: &[f64; K],
    y: &[f64; M],
) -> (f64, [f64; P]) {
    dual_vector(|p| layer_dual::<_, M, K>(p, x, y), params)
}

// ---------------------------------------------------------------------------------------------
// The workloads on `reverse`'s tape.
//
// `reverse` has no zero `Var` without a tape, so each sum starts from its first term. Its
// `f64 / Var` and `f64.powf(Var)` have wrong partial derivatives in 0.2.2 (the weight lands on
// the wrong slot); none of the workloads uses them.

/// [`oracles::lessons`](autodiff_suite::oracles::lessons) on a tape.
fn lessons_tape<'t>(x: &[Var<'t>]) -> Var<'t> {
    let n = x.len();
    let mut sum = x[0].sin() * x[n - 1];
    for pair in x.windows(2) {
        sum = sum + pair[1].sin() * pair[0];
    }
    sum
}

/// [`oracles::extended_rosenbrock`](autodiff_suite::oracles::extended_rosenbrock) on a tape.
fn extended_rosenbrock_tape<'t>(x: &[Var<'t>]) -> Var<'t> {
    let term = |pair: &[Var<'t>]| {
        let d = pair[1] - pair[0] * pair[0];
        let a = 1.0 - pair[0];
        d * d * 100.0 + a * a
    };
    let mut pairs = x.windows(2);
    let first = pairs.next().expect("at least two coordinates");
    pairs.fold(term(first), |sum, pair| sum + term(pair))
}

/// [`oracles::layer_loss`](autodiff_suite::oracles::layer_loss) of an `M × K` layer on a tape,
/// its parameters flat as in [`layer_dual`].
fn layer_tape<'t, const M: usize, const K: usize>(
    p: &[Var<'t>],
    x: &[f64; K],
    y: &[f64; M],
) -> Var<'t> {
    assert_eq!(p.len(), M * K + M, "weights and biases");
    let output_loss = |i: usize| {
        let mut z = p[M * K + i];
        for j in 0..K {
            z = z + p[i * K + j] * x[j];
        }
        let r = z.tanh() - y[i];
        r * r
    };
    (1..M).fold(output_loss(0), |loss, i| loss + output_loss(i))
}

/// Value and gradient of `f` at `x` on `tape`, cleared first (so its buffer keeps its capacity
/// from one call to the next): record the sweep, then one reverse pass over the whole tape.
fn tape_gradient<const N: usize>(
    tape: &Tape,
    f: impl for<'t> Fn(&[Var<'t>]) -> Var<'t>,
    x: &[f64; N],
) -> (f64, [f64; N]) {
    tape.clear();
    let vars: [Var<'_>; N] = core::array::from_fn(|i| tape.add_var(x[i]));
    let out = f(&vars);
    let adjoints = out.grad();
    (out.val(), core::array::from_fn(|i| adjoints.wrt(&vars[i])))
}

/// The lessons' function's value and gradient with `reverse`, on `tape`.
pub fn lessons_reverse<const N: usize>(tape: &Tape, x: &[f64; N]) -> (f64, [f64; N]) {
    tape_gradient(tape, lessons_tape, x)
}

/// The extended Rosenbrock function's value and gradient with `reverse`, on `tape`.
pub fn extended_rosenbrock_reverse<const N: usize>(tape: &Tape, x: &[f64; N]) -> (f64, [f64; N]) {
    tape_gradient(tape, extended_rosenbrock_tape, x)
}

/// The `M × K` layer's loss and gradient in its flat parameters with `reverse`, on `tape`.
pub fn layer_reverse<const M: usize, const K: usize, const P: usize>(
    tape: &Tape,
    params: &[f64; P],
    x: &[f64; K],
    y: &[f64; M],
) -> (f64, [f64; P]) {
    tape_gradient(tape, |p| layer_tape::<M, K>(p, x, y), params)
}

// ---------------------------------------------------------------------------------------------
// The inputs of the benchmark.

/// A deterministic, irregular point in `[-scale, scale]ᴺ`, different for each `seed`.
pub fn point<const N: usize>(seed: f64, scale: f64) -> [f64; N] {
    core::array::from_fn(|i| {
        let t = i as f64;
        scale * (1.7 * t + seed).sin() * (0.37 * t + 2.0 * seed).cos()
    })
}

/// The layer's `M K + M` parameters flat: the weights row by row, then the biases.
pub fn flat_params<const M: usize, const K: usize, const P: usize>(
    w: &[[f64; K]; M],
    b: &[f64; M],
) -> [f64; P] {
    assert_eq!(P, M * K + M, "weights and biases");
    core::array::from_fn(|k| if k < M * K { w[k / K][k % K] } else { b[k - M * K] })
}

/// Weights, biases, input and target of an `M × K` layer for `seed`: weights of size about
/// `0.4`, so the outputs are neither linear nor saturated.
pub fn layer_inputs<const M: usize, const K: usize>(
    seed: f64,
) -> ([[f64; K]; M], [f64; M], [f64; K], [f64; M]) {
    let rows: [[f64; K]; M] = core::array::from_fn(|i| point(seed + i as f64, 0.4));
    (rows, point(seed - 1.0, 0.4), point(seed + 7.0, 1.0), point(seed + 11.0, 0.9))
}
