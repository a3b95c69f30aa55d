//! Functions that once broke the macro: each stays in the corpus with a test in
//! `tests/regressions.rs`, so the bug cannot come back.

use autodiff_runtime::{Differentiable, grad};

/// `powi` with the most negative exponents: differentiating `powi(i32::MIN)` once more must not
/// overflow the exponent.
#[grad(jvp, hvp)]
pub fn powi_extreme(x: f64) -> f64 {
    x.powi(-2147483647) + x.powi(-2147483648)
}

/// Arithmetic on literals only (`2.0_f64 * 3.0`, `2.0 + 1.0`) before a method call: the
/// generated code must keep the `f64` type of such values.
#[grad(jvp, hvp)]
pub fn literal_arithmetic(x: f64) -> f64 {
    let c: f64 = 2.0 + 1.0;
    let d = c * 3.0;
    (2.0_f64 * 3.0).sqrt() * x + c.sqrt() * x + d.ln() * x * x
}

/// Raw identifiers as parameter and local names.
#[grad(jvp, hvp, hessian)]
pub fn raw_names(x: f64, r#in: f64) -> f64 {
    let r#loop = x.sin() * r#in;
    r#loop * r#loop
}

/// A parameter read only by dead code (`y`) next to one whose name is `y` with an underscore:
/// the generated functions must not rename `y` to `_y` twice.
#[grad(jvp, hvp, hessian)]
#[allow(clippy::duplicate_underscore_argument)] // the clash under test
pub fn unused_beside_underscore(x: f64, y: f64, _y: f64) -> f64 {
    let _ = y;
    x * _y
}

/// `hypot` of huge values: its derivative must not overflow where `hypot` itself does not.
#[grad(jvp, hvp)]
pub fn huge_hypot(x: f64, y: f64) -> f64 {
    x.hypot(y)
}

/// The user's `allow` attributes also cover the generated functions (this crate denies
/// `clippy::all`, and `2 as f64` is an unnecessary cast).
#[grad(jvp, hvp)]
#[allow(clippy::unnecessary_cast)]
pub fn allowed_lint(x: f64) -> f64 {
    2 as f64 * x
}

/// `powf` with the constant exponent 0: derivative 0 at `x = 0`, as for `powi(0)`.
#[grad(jvp, hvp)]
pub fn powf_zero(x: f64) -> f64 {
    x.powf(0.0) + x
}

/// A parameter written `std::primitive::f64` is differentiated like `f64`, and a method called
/// through that path (`core::primitive::f64::sin(x)`) like `x.sin()`.
#[grad]
pub fn primitive_path(x: std::primitive::f64) -> f64 {
    x * x + core::primitive::f64::sin(x) + std::primitive::f64::cos(x)
}

/// A literal one ulp off a power of two: folding `3 · (16.000000000000004 · y)` into one constant
/// would round twice, so the derivative must be computed as written.
#[grad(hvp)]
pub fn near_power_of_two(x: f64, y: f64) -> f64 {
    3.0 * (x * (16.000000000000004 * y))
}

/// `atan2` of huge arguments: its derivative must not overflow to 0 where `atan2` is fine.
#[grad(jvp, hvp)]
pub fn huge_atan2(u: f64, v: f64) -> f64 {
    u.atan2(v)
}

/// Compound assignments whose both sides are literals (`c += 1.0` with `c = 2.0_f64`): the
/// generated code must not hold an untyped `2.0 + 1.0`, on which rustc cannot call `sin`.
#[grad(jvp, hvp, hessian)]
pub fn literal_compound_assignment(x: f64) -> f64 {
    let mut c = 2.0_f64;
    c += 1.0;
    let mut d: f64 = 2.0;
    d *= 3.0;
    d -= -0.5;
    d /= 2.0;
    c.sin() * x + d.sqrt() * x * x
}

/// Scale stored in a struct field named like an integer parameter.
pub struct Scale {
    /// The factor.
    pub k: f64,
}

/// A constant parameter `k` read only by dead code, beside a field also called `k` (`p.k`): the
/// field name is not a read of the parameter, so the generated functions must rename `k` to `_k`
/// and compile without an `unused variable` warning.
#[grad(wrt(x), jvp, hvp, hessian)]
pub fn field_named_like_parameter(x: f64, p: &Scale, k: i32) -> f64 {
    let _scaled = k as f64;
    x * x * p.k
}

/// `r#y` and `y` name the same variable: in parameters, in the body and in `wrt`.
#[grad(wrt(r#a), jvp, hvp, hessian)]
pub fn raw_and_plain(a: f64, r#y: f64) -> f64 {
    let r#b = r#a * y;
    b * r#y + a
}

/// `#[expect(lint)]` on the user's function: the generated functions repeat the signature (here
/// `&Vec<f64>`, which `clippy::ptr_arg` flags, and upper-case names), so they must carry the
/// expectation as an `allow` for the crate to build under `deny(warnings, clippy::all)`.
#[grad(wrt(X), hvp, hessian)]
#[expect(clippy::ptr_arg, non_snake_case)]
pub fn expected_lints(data: &Vec<f64>, X: f64) -> f64 {
    data[0] * X * X
}

/// Literal folding makes numbers the user never wrote: `2 · 0.2618 = 0.5236` is what clippy's
/// `approx_constant` takes for `FRAC_PI_6`, so the generated functions must allow that lint.
#[grad(jvp, hvp, hessian)]
pub fn folds_near_a_constant(x: f64) -> f64 {
    0.2618 * x * x
}

/// Attributes that say how `f` is compiled or used (`inline`, `must_use`, `doc(hidden)`,
/// `deprecated`) carry over to the generated functions, and `f_hessian` may call a deprecated
/// `f_hvp` without a warning.
#[grad(jvp, hvp, hessian)]
#[inline]
#[must_use]
#[doc(hidden)]
#[deprecated(note = "kept to test that deprecation carries over")]
pub fn carried_attributes(x: f64) -> f64 {
    x * x * x
}

/// A constant parameter with a raw name, read by a constant expression (`r#ref[0]`) and by name
/// in another spelling (`r#in`, `in` is a keyword so only its raw form exists).
#[grad(jvp, hvp, hessian)]
pub fn raw_constant(x: f64, r#ref: &[f64], r#in: i32) -> f64 {
    x * x * r#ref[0] + r#in as f64 * x
}

/// An `extern "C"` function (for export to C) is differentiated like any other; its derivatives
/// are plain Rust functions, since they return tuples.
#[grad(hvp, hessian)]
pub extern "C" fn exported(x: f64, y: f64) -> f64 {
    x * y + x.sin()
}

/// `k³ (u₀ + u₁)` by replacing the whole array `u` with an array built by an inner loop that
/// reads `u`: the generated code lost the assignment `u = next` (an outer loop's variable shared
/// storage with the inner loop's result, which the inner loop's own variable could not share).
#[grad(jvp, hvp)]
pub fn replaced_array(u0: [f64; 2], k: f64) -> f64 {
    let mut u = u0;
    for _ in 0..3 {
        let mut next = [0.0; 2];
        for i in 0..2 {
            next[i] = u[i] * k;
        }
        u = next;
    }
    u[0] + u[1]
}

/// Six steps of `x ← sin(x / 2)` from `x0`, by an inner loop whose end is the outer loop's index
/// (`0 + 1 + 2 + 3`): the inner loop cannot size storage and is checkpointed inside the stored
/// outer loop. Its sweep's result was bound by a new `let` inside the outer sweep, shadowing the
/// adjoint the outer sweep carries, so the gradient came out as 1.
#[grad(jvp, hvp)]
pub fn triangular_steps(x0: f64) -> f64 {
    let mut x = x0;
    for i in 0..4 {
        for _ in 0..i {
            x = (x * 0.5).sin();
        }
    }
    x
}

/// `N + 1` steps of `x ← sin(x / 2)`: storage of `N + 1` slots is not an array length stable Rust
/// accepts in a generic function (the expansion did not compile), so the loop is checkpointed.
#[grad(jvp, hvp)]
pub fn one_more_step<const N: usize>(x0: f64) -> f64 {
    let mut x = x0;
    for _ in 0..N + 1 {
        x = (x * 0.5).sin();
    }
    x
}

/// The length of [`ring_of_two`]'s ring.
pub const TWO: usize = 2;

/// A ring over the second neighbour whose length is a `const` item equal to two: split at its
/// wrap-around, the rest of the loop is `for i in 2..TWO`, empty, which clippy's
/// `reversed_empty_ranges` (denied by default) rejected in the derivatives.
#[grad(hvp)]
pub fn ring_of_two(x: [f64; TWO]) -> f64 {
    let mut s = 0.0;
    for i in 0..TWO {
        s += x[i].sin() * x[(i + TWO - 2) % TWO];
    }
    s
}

/// A trait of the user's with a method `min` on `usize`, in scope where [`ring_to`] is.
pub trait AtMost {
    /// `self`, at most `k`.
    fn min(self, k: usize) -> usize;
}

impl AtMost for usize {
    fn min(self, k: usize) -> usize {
        if self < k { self } else { k }
    }
}

/// The lessons' ring over the first `n` elements: the wrap-around iterations of its derivatives
/// ran to `n.min(1)`, which this module's [`AtMost`] made ambiguous (the expansion did not
/// compile); they run to `::core::cmp::min(n, 1)`.
#[grad(hvp)]
pub fn ring_to(x: [f64; 8], n: usize) -> f64 {
    let mut s = 0.0;
    for i in 0..n {
        s += x[i].sin() * x[(i + n - 1) % n];
    }
    s
}

/// `Σ (k+1)/2·aₖ² + Σ aₖ aₖ₊₁ + a₀ a₆ a₁₂` over 13 scalars: `f_hessian` needed the runtime's `Flat`
/// on the tuples of 13 directions and of 13 H·v components, which it implemented for tuples of up
/// to 12 (E0277 at the attribute); the rows are now laid out part by part, with no limit.
#[grad(hessian)]
#[allow(clippy::too_many_arguments, clippy::needless_range_loop)]
pub fn chain13(
    a0: f64,
    a1: f64,
    a2: f64,
    a3: f64,
    a4: f64,
    a5: f64,
    a6: f64,
    a7: f64,
    a8: f64,
    a9: f64,
    a10: f64,
    a11: f64,
    a12: f64,
) -> f64 {
    let a = [a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12];
    let mut s = 0.0;
    for k in 0..13 {
        s += (k as f64 + 1.0) * 0.5 * a[k] * a[k];
    }
    for k in 0..12 {
        s += a[k] * a[k + 1];
    }
    s + a[0] * a[6] * a[12]
}

/// [`chain13`]'s sum over 20 scalars.
#[grad(hessian)]
#[allow(clippy::too_many_arguments, clippy::needless_range_loop)]
pub fn chain20(
    a0: f64,
    a1: f64,
    a2: f64,
    a3: f64,
    a4: f64,
    a5: f64,
    a6: f64,
    a7: f64,
    a8: f64,
    a9: f64,
    a10: f64,
    a11: f64,
    a12: f64,
    a13: f64,
    a14: f64,
    a15: f64,
    a16: f64,
    a17: f64,
    a18: f64,
    a19: f64,
) -> f64 {
    let a =
        [a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19];
    let mut s = 0.0;
    for k in 0..20 {
        s += (k as f64 + 1.0) * 0.5 * a[k] * a[k];
    }
    for k in 0..19 {
        s += a[k] * a[k + 1];
    }
    s + a[0] * a[6] * a[12]
}

/// `(a₀a₁, a₁a₂, …, a₁₂a₀)`: 13 parameters and 13 outputs, by columns (13 directions laid out
/// as a row of `f_jvp`'s arguments, each column read from a 13-tuple).
#[grad(jacobian(forward))]
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
pub fn ring13_forward(
    a0: f64,
    a1: f64,
    a2: f64,
    a3: f64,
    a4: f64,
    a5: f64,
    a6: f64,
    a7: f64,
    a8: f64,
    a9: f64,
    a10: f64,
    a11: f64,
    a12: f64,
) -> (f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64) {
    (
        a0 * a1,
        a1 * a2,
        a2 * a3,
        a3 * a4,
        a4 * a5,
        a5 * a6,
        a6 * a7,
        a7 * a8,
        a8 * a9,
        a9 * a10,
        a10 * a11,
        a11 * a12,
        a12 * a0,
    )
}

/// [`ring13_forward`] by rows (a 13-tuple cotangent, rows read from 13 partials).
#[grad(jacobian(reverse))]
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
pub fn ring13_reverse(
    a0: f64,
    a1: f64,
    a2: f64,
    a3: f64,
    a4: f64,
    a5: f64,
    a6: f64,
    a7: f64,
    a8: f64,
    a9: f64,
    a10: f64,
    a11: f64,
    a12: f64,
) -> (f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64) {
    (
        a0 * a1,
        a1 * a2,
        a2 * a3,
        a3 * a4,
        a4 * a5,
        a5 * a6,
        a6 * a7,
        a7 * a8,
        a8 * a9,
        a9 * a10,
        a10 * a11,
        a11 * a12,
        a12 * a0,
    )
}

/// `(a₀a₇, a₁a₈, …, a₁₂a₁₉)`: 20 parameters and 13 outputs, by columns.
#[grad(jacobian(forward))]
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
pub fn pick20_forward(
    a0: f64,
    a1: f64,
    a2: f64,
    a3: f64,
    a4: f64,
    a5: f64,
    a6: f64,
    a7: f64,
    a8: f64,
    a9: f64,
    a10: f64,
    a11: f64,
    a12: f64,
    a13: f64,
    a14: f64,
    a15: f64,
    a16: f64,
    a17: f64,
    a18: f64,
    a19: f64,
) -> (f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64) {
    (
        a0 * a7,
        a1 * a8,
        a2 * a9,
        a3 * a10,
        a4 * a11,
        a5 * a12,
        a6 * a13,
        a7 * a14,
        a8 * a15,
        a9 * a16,
        a10 * a17,
        a11 * a18,
        a12 * a19,
    )
}

/// [`pick20_forward`] by rows.
#[grad(jacobian(reverse))]
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
pub fn pick20_reverse(
    a0: f64,
    a1: f64,
    a2: f64,
    a3: f64,
    a4: f64,
    a5: f64,
    a6: f64,
    a7: f64,
    a8: f64,
    a9: f64,
    a10: f64,
    a11: f64,
    a12: f64,
    a13: f64,
    a14: f64,
    a15: f64,
    a16: f64,
    a17: f64,
    a18: f64,
    a19: f64,
) -> (f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64) {
    (
        a0 * a7,
        a1 * a8,
        a2 * a9,
        a3 * a10,
        a4 * a11,
        a5 * a12,
        a6 * a13,
        a7 * a14,
        a8 * a15,
        a9 * a16,
        a10 * a17,
        a11 * a18,
        a12 * a19,
    )
}

/// `y·Σ xᵢ² + y³` of a const generic array and a scalar: the Hessian has `N + 1` rows, which
/// stable Rust does not take as an array length in a generic function (`f_hessian` returned
/// `[[f64; N + 1]; N + 1]` and did not compile). It takes the size as `const M: usize` from the
/// caller's type of the result, and checks it.
#[grad(hessian)]
#[allow(clippy::needless_range_loop)]
pub fn generic_and_scalar<const N: usize>(x: [f64; N], y: f64) -> f64 {
    let mut s = y * y * y;
    for i in 0..N {
        s += y * x[i] * x[i];
    }
    s
}

/// `[y·Σ xᵢ, Σ xᵢ² + y²]`: a Jacobian with `N + 1` columns, taken as `const COLS: usize`.
#[grad(jacobian)]
#[allow(clippy::needless_range_loop)]
pub fn generic_pair<const N: usize>(x: [f64; N], y: f64) -> [f64; 2] {
    let mut s = 0.0;
    let mut q = y * y;
    for i in 0..N {
        s += x[i];
        q += x[i] * x[i];
    }
    [y * s, q]
}

/// `[[y·xᵢ], [xᵢ²]]`: `2·N` rows and `N + 1` columns, both taken from the result's type
/// (`const ROWS: usize, const COLS: usize`), by reverse mode.
#[grad(jacobian(reverse))]
#[allow(clippy::needless_range_loop)]
pub fn generic_rows<const N: usize>(x: [f64; N], y: f64) -> [[f64; N]; 2] {
    let mut out = [[0.0; N]; 2];
    for i in 0..N {
        out[0][i] = y * x[i];
        out[1][i] = x[i] * x[i];
    }
    out
}

/// `x·x·y` with two parameters written `_`: they are constants (never differentiated, not in
/// the gradient), re-emitted as `_` by the kernels and named `unnamed`, `unnamed_1` by
/// `f_hessian`, which passes them on (the attribute refused `_` as a parameter).
#[grad(jvp, hvp, hessian)]
pub fn unnamed_params(x: f64, _: f64, y: f64, _: &[f64]) -> f64 {
    x * x * y
}

/// `[x², x]` after a `_` parameter, with a Jacobian.
#[grad(jvp, jacobian)]
pub fn unnamed_vector(_: usize, x: f64) -> [f64; 2] {
    [x * x, x]
}

/// `(a·p)² + a·q` from a constant array `x0 = (p, q)` copied into a mutable local and updated
/// with a differentiated value: `x[0] *= a` was refused ("this indexes an `f64`"), as the
/// constant array was not a value of the IR.
#[grad(wrt(a), jvp, hvp, hessian)]
pub fn updated_copy(a: f64, x0: [f64; 2]) -> f64 {
    let mut x = x0;
    x[0] *= a;
    x[0] * x[0] + x[1] * a
}

/// [`updated_copy`] with the copy typed, and the constant taken by reference.
#[grad(wrt(a), jvp, hvp, hessian)]
pub fn updated_typed_copy(a: f64, x0: &[f64; 2]) -> f64 {
    let mut x: [f64; 2] = *x0;
    x[0] *= a;
    x[0] * x[0] + x[1] * a
}

/// `[a·p, q]`: the same copy as a vector function (one column: constants are not numbered).
#[grad(wrt(a), jvp, jacobian)]
pub fn updated_copy_vector(a: f64, x0: [f64; 2]) -> [f64; 2] {
    let mut x = x0;
    x[0] *= a;
    x
}

/// The number of steps of [`lqr_rollout`] and [`lqr_gain`].
pub const LQR_STEPS: usize = 10;

/// The cost `Σₖ |xₖ₊₁|² + ρ uₖ²` of the rollout `xₖ₊₁ = A xₖ + B uₖ` of a two-state system from a
/// constant initial state `x0`, as a function of the controls `u`.
#[grad(wrt(u), jvp, hvp, hessian)]
#[allow(clippy::needless_range_loop)]
pub fn lqr_rollout(u: [f64; LQR_STEPS], x0: [f64; 2], a: [[f64; 2]; 2], b: [f64; 2]) -> f64 {
    let mut x = x0;
    let mut cost = 0.0;
    for k in 0..LQR_STEPS {
        x = [
            a[0][0] * x[0] + a[0][1] * x[1] + b[0] * u[k],
            a[1][0] * x[0] + a[1][1] * x[1] + b[1] * u[k],
        ];
        cost += x[0] * x[0] + x[1] * x[1] + 0.1 * u[k] * u[k];
    }
    cost
}

/// The cost of the same system under the feedback `uₖ = −G xₖ`, as a function of the gain `G`,
/// from an initial state taken by reference.
#[grad(wrt(g), jvp, hvp, hessian)]
pub fn lqr_gain(g: [f64; 2], x0: &[f64; 2], a: [[f64; 2]; 2], b: [f64; 2]) -> f64 {
    let mut x: [f64; 2] = *x0;
    let mut cost = 0.0;
    for _ in 0..LQR_STEPS {
        let u = -(g[0] * x[0] + g[1] * x[1]);
        x = [
            a[0][0] * x[0] + a[0][1] * x[1] + b[0] * u,
            a[1][0] * x[0] + a[1][1] * x[1] + b[1] * u,
        ];
        cost += x[0] * x[0] + x[1] * x[1] + 0.1 * u * u;
    }
    cost
}

/// `x·c₀ + c₁` with `c` lent (a callee of [`passes_constant_array`], which passes constants to
/// `c`: their partials are dropped and their directions zero).
#[grad(jvp, hvp)]
pub fn scaled_by(x: f64, c: &[f64; 2]) -> f64 {
    x * c[0] + c[1]
}

/// [`scaled_by`] with `c` by value.
#[grad(jvp, hvp)]
pub fn scaled_by_value(x: f64, c: [f64; 2]) -> f64 {
    x * c[0] + c[1]
}

/// `x·c`.
#[grad(jvp, hvp)]
pub fn times_constant(x: f64, c: f64) -> f64 {
    x * c
}

/// A constant array that is also copied and updated, passed on to calls by reference, by value
/// and by element: each is a constant argument, whose partial the call drops, as before the
/// array became a value (`&x0` became a differentiated argument on the way).
#[grad(wrt(a), jvp, hvp, hessian)]
pub fn passes_constant_array(a: f64, x0: [f64; 2]) -> f64 {
    let mut x = x0;
    x[1] *= a;
    scaled_by(a, &x0) + scaled_by_value(a, x0) + times_constant(a * a, x0[1]) + x[1]
}

/// A matrix of constants, for [`copied_constants`].
pub const COPIED: [[f64; 2]; 2] = [[1.0, 2.0], [3.0, 4.0]];

/// `3a + 2 + d₁₁ a²`: a `const` item and a row of constant data, each copied into a variable typed
/// as an array and then updated with differentiated values (the copies were `f64` constants to
/// the macro, and their updates refused).
#[grad(jvp, hvp, hessian)]
pub fn copied_constants(a: f64, data: &[[f64; 2]]) -> f64 {
    let mut x: [[f64; 2]; 2] = COPIED;
    let mut y: [f64; 2] = data[1];
    x[1][0] *= a;
    y[1] *= a * a;
    x[1][0] + x[0][1] + y[1]
}

/// `Σₖ tanh(w)·cₖ`, `tanh` computed in `f32` in an `f64` function (bug 62): the adjoint of
/// `z.tanh() as f64` is the constant `c[k]` (the cotangent of `t · c[k]`), cast back to `f32`;
/// it was written uncast, and `_grad` did not compile (E0308, E0277).
#[grad(wrt(w), jvp, hvp)]
#[allow(clippy::needless_range_loop)]
pub fn f32_piece_times_data(w: f64, c: [f64; 3]) -> f64 {
    let mut s = 0.0_f64;
    for k in 0..3 {
        let z = w as f32;
        s += z.tanh() as f64 * c[k];
    }
    s
}

/// `Σₖ sin(x)·dₖ` in an `f32` function, `sin` computed in `f64` (bug 62, the other
/// direction): the cotangent of `w.sin() as f32` is the constant `data[k] as f32`, cast to `f64`
/// (`(data[k] as f32) as f64`); it was written as it is, an `f32` where an `f64` goes.
#[grad(jvp, hvp)]
#[allow(clippy::needless_range_loop)]
pub fn f64_piece_times_data(x: f32, data: &[f64]) -> f32 {
    let mut s = 0.0_f32;
    for k in 0..data.len() {
        let w = x as f64;
        s += (w.sin() as f32) * (data[k] as f32);
    }
    s
}

/// `|x| + ln(max |xᵢ|)`: a float method called on what an iterator chain's consumer gives
/// (bug 64): it was refused as "the iterator method `sqrt`".
#[grad(jvp, hvp)]
pub fn method_on_consumer(x: [f64; 3]) -> f64 {
    let norm = x.iter().map(|v| v * v).sum::<f64>().sqrt();
    norm + x.iter().map(|v| v.abs()).fold(0.0, f64::max).ln()
}

/// `return` in tail position, inside the function's last `match` and `if` (bug 65): it was
/// refused with "this statement has no effect" and an error spanned at the attribute.
#[grad(jvp, hvp)]
#[allow(clippy::needless_return)] // the point: `return` in tail position
pub fn tail_return(x: f64, k: u32) -> f64 {
    match k {
        0 => return x * x,
        1 => {
            let t = x.sin();
            return t * x;
        }
        _ => {
            if x > 0.0 {
                return x.exp();
            } else {
                x.cos()
            }
        }
    }
}

/// A state of a step of `x″ = −x` with a damped second velocity, for [`stepped_literal`].
#[derive(Clone, Copy, Debug, PartialEq, Differentiable)]
pub struct Phase {
    /// The position.
    pub x: f64,
    /// Two velocities.
    pub v: [f64; 2],
}

impl Phase {
    /// One explicit step of length `dt`.
    #[grad(jvp, hvp)]
    pub fn step(self, dt: f64) -> Self {
        Phase { x: self.x + dt * self.v[0], v: [self.v[0] - dt * self.x, self.v[1] * (1.0 - dt)] }
    }
}

/// Five steps from a state made by a struct literal, each assigned the value of a method
/// returning the struct (`s = s.step(dt)`): it was refused as "assigning to a tuple variable";
/// each field is now read from the call's value.
#[grad(jvp, hvp)]
pub fn stepped_literal(p: Phase, dt: f64) -> f64 {
    let mut s = Phase { x: p.x, v: p.v };
    for _ in 0..5 {
        s = s.step(dt);
    }
    s.x * s.v[1] + s.v[0]
}

/// [`stepped_literal`] started from a call, the form that worked before.
#[grad(jvp, hvp)]
pub fn stepped_call(p: Phase, dt: f64) -> f64 {
    let mut s = p.step(dt);
    for _ in 0..4 {
        s = s.step(dt);
    }
    s.x * s.v[1] + s.v[0]
}

/// A struct parameter's array field copied into a loop's state, updated by a call (bug 66): the
/// stack check of the checkpointed sweep read the field's length as written, `p.v.len()`, in a
/// `const` block (E0435).
#[grad(jvp, hvp)]
pub fn field_state_by_calls(p: &Phase, dt: f64) -> f64 {
    let mut v = p.v;
    for _ in 0..5 {
        v = rotate_by(v, dt);
    }
    v[1] * p.x + v[0]
}

/// `v` rotated by the angle `a`.
#[grad(jvp, hvp)]
pub fn rotate_by(v: [f64; 2], a: f64) -> [f64; 2] {
    let (s, c) = a.sin_cos();
    [c * v[0] - s * v[1], s * v[0] + c * v[1]]
}

/// A struct parameter's array field copied into a loop's state, updated in place (bug 66 too).
#[grad(jvp, hvp)]
pub fn field_state_in_place(p: &Phase, dt: f64) -> f64 {
    let mut v = p.v;
    for _ in 0..5 {
        for j in 0..v.len() {
            v[j] = (v[j] * dt + v[(j + 1) % 2]).sin();
        }
    }
    v[1] + v[0] * p.x
}
