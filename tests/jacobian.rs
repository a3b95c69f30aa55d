//! `f_jacobian` in one pass (issue 18): by rows, one forward pass and one sweep carrying every
//! row's adjoint (`f_vjp_rows`); by columns, one forward sweep carrying every column's tangent
//! (`f_jvp_cols`). Each function is written twice by `both!`, under `#[grad(jacobian)]` (one
//! pass) and under the hidden `#[grad(jacobian(row_by_row))]` (one `f_vjp` per row, seeded by a
//! unit cotangent) or `jacobian(column_by_column)` (one `f_jvp` per unit direction); the two
//! Jacobians must agree to the bit up to the sign of a zero (the one pass computes no product by
//! a unit vector's zero, `0 · x`, which `f_vjp` and `f_jvp` compute when seeded with it), and
//! both with closed forms or central finite differences. Each test names the one-pass kernel
//! `f_vjp_rows`, which exists only when the Jacobian is made in one pass.

// Index loops are the macro's subset.
#![allow(clippy::needless_range_loop)]

use autodiff_runtime::{Tolerance, check_close, grad, numeric_gradient};
use autodiff_suite::adbench::ba;
use autodiff_suite::adbench::data::Ba;

/// `f` twice: `$one` under `#[grad(jacobian)]`, `$rows` under `#[grad(jacobian(row_by_row))]`
/// (or `$each`, `jacobian(column_by_column)` with `columns`), both with `$opts` too.
macro_rules! both {
    ($one:ident, $rows:ident, [$($opts:tt)*], fn ($($p:ident: $t:ty),*) -> $r:tt $body:block) => {
        #[grad(jacobian, $($opts)*)]
        fn $one($($p: $t),*) -> $r $body
        #[grad(jacobian(row_by_row), $($opts)*)]
        fn $rows($($p: $t),*) -> $r $body
    };
    (columns $one:ident, $each:ident, fn ($($p:ident: $t:ty),*) -> $r:tt $body:block) => {
        #[grad(jacobian)]
        fn $one($($p: $t),*) -> $r $body
        #[grad(jacobian(column_by_column))]
        fn $each($($p: $t),*) -> $r $body
    };
}

/// Panics unless `values` and `reference` agree to `tol` (relative, or absolute against the
/// largest component of the reference).
fn close(what: &str, values: &[f64], reference: &[f64], tol: f64) {
    let scale = reference.iter().fold(0.0_f64, |m, r| m.max(r.abs()));
    let tol = Tolerance { epsilon: tol * scale.max(1e-300), max_relative: tol };
    if let Err(e) = check_close(values, reference, tol) {
        panic!("{what}: {e}");
    }
}

/// The bits of `x`, a negative zero's as a positive zero's.
fn bits(x: f64) -> u64 {
    (x + 0.0).to_bits()
}

/// Panics unless the two Jacobians are the same to the bit, up to the sign of a zero.
fn same_bits<const N: usize, const M: usize>(what: &str, a: &[[f64; N]; M], b: &[[f64; N]; M]) {
    for (r, (x, y)) in a.iter().zip(b).enumerate() {
        for (c, (p, q)) in x.iter().zip(y).enumerate() {
            assert_eq!(
                bits(*p),
                bits(*q),
                "{what}: J[{r}][{c}] is {p} in one pass, {q} row by row"
            );
        }
    }
}

/// Each row of `jac` against central differences of the `r`-th output of `f` at `x`.
fn against_differences<const N: usize, const M: usize>(
    what: &str,
    jac: &[[f64; N]; M],
    f: impl Fn(&[f64]) -> [f64; M],
    x: &[f64],
) {
    for (r, row) in jac.iter().enumerate() {
        close(what, row, &numeric_gradient(|p| f(p)[r], x), 1e-7);
    }
}

both!(small, small_rows, [], fn (a: f64, b: [f64; 2]) -> [f64; 2] {
    [a * b[0] + b[1].sin(), (a * b[1]).exp() - b[0] / a]
});

#[test]
fn a_two_by_three_jacobian_in_one_pass_is_the_row_by_row_one() {
    assert_eq!(small_jacobian_mode(), "reverse");
    let (a, b) = (0.7, [1.3, -0.4]);
    let _one_pass_kernel = small_vjp_rows;
    let (value, jac) = small_jacobian(a, b);
    let (value_rows, jac_rows) = small_rows_jacobian(a, b);
    assert_eq!(value, small(a, b));
    assert_eq!(value_rows, value);
    same_bits("2×3", &jac, &jac_rows);
    let e = (a * b[1]).exp();
    let closed = [[b[0], a, b[1].cos()], [b[1] * e + b[0] / (a * a), -1.0 / a, a * e]];
    for (row, want) in jac.iter().zip(&closed) {
        close("2×3 against its closed form", row, want, 1e-14);
    }
    against_differences("2×3", &jac, |p| small(p[0], [p[1], p[2]]), &[a, b[0], b[1]]);
}

both!(looped, looped_rows, [], fn (x: [f64; 4], k: f64) -> [f64; 3] {
    let mut s = 0.0;
    let mut p = 1.0;
    for i in 0..4 {
        if x[i] > k {
            s += x[i] * x[i];
        } else {
            p *= (x[i] * k).sin() + 2.0;
        }
    }
    let mut y = [0.0; 3];
    for i in 0..3 {
        y[i] = s * x[i + 1] + p * x[i];
    }
    y
});

#[test]
fn a_loop_and_a_branch_in_one_pass_are_the_row_by_row_ones() {
    for x in [[0.3, 1.2, -0.5, 0.9], [1.1, 0.2, 0.8, -1.4]] {
        let k = 0.5;
        let _one_pass_kernel = looped_vjp_rows;
        let (value, jac) = looped_jacobian(x, k);
        let (value_rows, jac_rows) = looped_rows_jacobian(x, k);
        assert_eq!(value, looped(x, k));
        assert_eq!(value_rows, value);
        same_bits("loop and branch", &jac, &jac_rows);
        let f = |p: &[f64]| looped([p[0], p[1], p[2], p[3]], p[4]);
        let at = [x[0], x[1], x[2], x[3], k];
        against_differences("loop and branch", &jac, f, &at);
    }
}

/// A callee returning an array, called through its `_fwd` and `_rev` (and its `_jvp`, which
/// a caller's `f_jvp` calls).
#[grad(jvp)]
fn polar(r: f64, t: f64) -> [f64; 2] {
    [r * t.cos(), r * t.sin()]
}

both!(called, called_rows, [], fn (x: [f64; 3]) -> [f64; 3] {
    let q: [f64; 2] = polar(x[0] * x[1], x[2]);
    let h: [f64; 2] = polar(q[0], q[1] + x[0]);
    [q[0] * h[1], h[0] + x[2], q[1] / (1.0 + h[1] * h[1])]
});

#[test]
fn a_call_returning_an_array_in_one_pass_is_the_row_by_row_one() {
    let x = [0.9, 1.7, 0.4];
    let _one_pass_kernel = called_vjp_rows;
    let (value, jac) = called_jacobian(x);
    let (value_rows, jac_rows) = called_rows_jacobian(x);
    assert_eq!(value, called(x));
    assert_eq!(value_rows, value);
    same_bits("call", &jac, &jac_rows);
    against_differences("call", &jac, |p| called([p[0], p[1], p[2]]), &x);
}

both!(tupled, tupled_rows, [wrt(x)], fn (x: [f64; 2], c: f64) -> (f64, f64) {
    ((x[0] * c).tanh(), x[0].hypot(x[1]))
});

#[test]
fn a_tuple_with_a_constant_in_one_pass_is_the_row_by_row_one() {
    let (x, c) = ([0.6, -1.1], 1.5);
    let _one_pass_kernel = tupled_vjp_rows;
    let (value, jac) = tupled_jacobian(x, c);
    let (value_rows, jac_rows) = tupled_rows_jacobian(x, c);
    assert_eq!(value, tupled(x, c));
    assert_eq!(value_rows, value);
    same_bits("tuple", &jac, &jac_rows);
    let f = |p: &[f64]| {
        let (a, b) = tupled([p[0], p[1]], c);
        [a, b]
    };
    against_differences("tuple", &jac, f, &x);
}

/// Bundle adjustment's 2 × 15 block: in one pass, to the bit what `reproj_error_vjp` gives for
/// each unit cotangent (what the Jacobian row by row is), up to the sign of a zero, and against
/// ADBench's hand-written block.
#[test]
fn the_bundle_adjustment_block_in_one_pass_is_the_row_by_row_one() {
    let data = Ba::new(3, 5, 6, 11);
    for (i, (c, p)) in data.obs.iter().enumerate() {
        let (cam, x, w, feat) = (&data.cams[*c], &data.points[*p], data.w[i], data.feats[i]);
        let _one_pass_kernel = ba::reproj_error_vjp_rows;
        let (err, jac) = ba::reproj_error_jacobian(cam, x, w, feat[0], feat[1]);
        assert_eq!(err, ba::reproj_error(cam, x, w, feat[0], feat[1]));
        for (r, row) in jac.iter().enumerate() {
            let mut seed = [0.0; 2];
            seed[r] = 1.0;
            let (_, (c_bar, x_bar, w_bar)) =
                ba::reproj_error_vjp(cam, x, w, feat[0], feat[1], seed);
            let by_row: Vec<f64> = c_bar.iter().chain(&x_bar).chain([&w_bar]).copied().collect();
            for (k, (a, b)) in row.iter().zip(&by_row).enumerate() {
                assert_eq!(bits(*a), bits(*b), "observation {i}, J[{r}][{k}]");
            }
        }
        let (_, manual) = ba::manual::reproj_error_d(cam, x, w, feat[0], feat[1]);
        // ADBench's block is column-major.
        let ours: Vec<f64> = (0..15).flat_map(|k| [jac[0][k], jac[1][k]]).collect();
        close("ba block against manual", &ours, &manual, 1e-10);
    }
}

both!(columns tall, tall_each, fn (a: f64, b: [f64; 2]) -> [f64; 5] {
    let mut y = [0.0; 5];
    let mut s = a;
    for i in 0..5 {
        if s > 0.5 {
            s = s * b[0] - b[1];
        } else {
            s = (s + b[1]).sin() + a * b[0];
        }
        y[i] = s * s;
    }
    y
});

#[test]
fn a_tall_jacobian_by_columns_in_one_pass_is_the_column_by_column_one() {
    assert_eq!(tall_jacobian_mode(), "forward");
    for (a, b) in [(0.7, [1.3, -0.4]), (0.2, [0.9, 0.3])] {
        let _one_pass_kernel = tall_jvp_cols;
        let (value, jac) = tall_jacobian(a, b);
        let (value_each, jac_each) = tall_each_jacobian(a, b);
        assert_eq!(value, tall(a, b));
        assert_eq!(value_each, value);
        same_bits("5×3 by columns", &jac, &jac_each);
        against_differences("5×3 by columns", &jac, |p| tall(p[0], [p[1], p[2]]), &[a, b[0], b[1]]);
    }
}

both!(columns tall_call, tall_call_each, fn (x: [f64; 2]) -> [f64; 3] {
    let q: [f64; 2] = polar(x[0], x[1]);
    [q[0] * x[1], q[1].exp(), q[0] - q[1]]
});

#[test]
fn a_call_returning_an_array_by_columns_in_one_pass_is_the_column_by_column_one() {
    let _one_pass_kernel = tall_call_jvp_cols;
    let x = [1.1, 0.6];
    let (value, jac) = tall_call_jacobian(x);
    let (value_each, jac_each) = tall_call_each_jacobian(x);
    assert_eq!(value, tall_call(x));
    assert_eq!(value_each, value);
    same_bits("call by columns", &jac, &jac_each);
    against_differences("call by columns", &jac, |p| tall_call([p[0], p[1]]), &x);
}

both!(scaled, scaled_rows, [], fn (a: f64, b: f64) -> [f64; 2] {
    [a * b, a]
});

/// Where a value is infinite, the one pass differs from `f_vjp` seeded with a unit cotangent,
/// as documented: row 1 of `[a b, a]` at `b = ∞` is `(1, 0)` in one pass, while `f_vjp` with
/// `[0, 1]` computes `∂a = 0 · b + 1`, NaN. Finite elsewhere, the rows agree.
#[test]
fn a_unit_cotangents_zero_times_infinity_is_left_out() {
    let _one_pass_kernel = scaled_vjp_rows;
    let (_, jac) = scaled_jacobian(2.0, f64::INFINITY);
    let (_, rows) = scaled_rows_jacobian(2.0, f64::INFINITY);
    assert_eq!(jac, [[f64::INFINITY, 2.0], [1.0, 0.0]]);
    assert!(rows[1][0].is_nan(), "row by row: 0 · ∞ + 1 is NaN, not {}", rows[1][0]);
    let (_, jac) = scaled_jacobian(2.0, 3.0);
    same_bits("finite", &jac, &scaled_rows_jacobian(2.0, 3.0).1);
    assert_eq!(jac, [[3.0, 2.0], [1.0, 0.0]]);
}
