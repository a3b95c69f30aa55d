//! One test per fixed bug, against closed forms (the functions are in `src/regressions.rs`).

use approx::assert_relative_eq;
use autodiff_runtime::{Tolerance, check_gradient, check_hvp};
use autodiff_suite::regressions::*;

#[test]
fn powi_with_extreme_exponents_differentiates_twice() {
    // f = x^a + x^b: at x = 1, f' = a + b and f'' = a(a-1) + b(b-1).
    let (a, b) = (-2147483647.0_f64, -2147483648.0_f64);
    let (value, slope) = powi_extreme_grad(1.0);
    assert_eq!((value, slope), (2.0, a + b));
    let (_, _, curvature) = powi_extreme_hvp(1.0, 1.0);
    assert_relative_eq!(curvature, a * (a - 1.0) + b * (b - 1.0), max_relative = 1e-15);
    assert_eq!(powi_extreme_jvp(1.0, 2.0).1, 2.0 * (a + b));
}

#[test]
fn literal_arithmetic_keeps_its_type() {
    let x = 1.5_f64;
    let (value, slope) = literal_arithmetic_grad(x);
    assert_eq!(value, literal_arithmetic(x));
    assert_relative_eq!(slope, 6.0_f64.sqrt() + 3.0_f64.sqrt() + 2.0 * 9.0_f64.ln() * x);
    assert_relative_eq!(literal_arithmetic_hvp(x, 1.0).2, 2.0 * 9.0_f64.ln());
}

#[test]
fn raw_identifiers_work_as_parameters_and_locals() {
    // f = (sin x · y)²: ∂f/∂x = 2 sin x cos x y², ∂f/∂y = 2 sin²x y
    let (x, y) = (0.8_f64, 1.7_f64);
    let (_, (dx, dy)) = raw_names_grad(x, y);
    assert_relative_eq!(dx, 2.0 * x.sin() * x.cos() * y * y, max_relative = 1e-14);
    assert_relative_eq!(dy, 2.0 * x.sin() * x.sin() * y, max_relative = 1e-14);
    let h = raw_names_hessian(x, y);
    assert_relative_eq!(h[1][1], 2.0 * x.sin() * x.sin(), max_relative = 1e-14);
    assert_relative_eq!(h[0][1], h[1][0], max_relative = 1e-14);
}

#[test]
fn a_parameter_read_only_by_dead_code_is_renamed_without_a_clash() {
    assert_eq!(unused_beside_underscore_grad(2.0, 9.0, 3.0), (6.0, (3.0, 0.0, 2.0)));
    assert_eq!(unused_beside_underscore_hessian(2.0, 9.0, 3.0)[0][2], 1.0);
}

#[test]
fn hypot_derivatives_do_not_overflow_before_hypot_does() {
    // ∂ hypot/∂x = x / hypot = 1/√2 at x = y.
    let (_, slope) = huge_hypot_jvp(1e300, 1e300, 1e10, 0.0);
    assert_relative_eq!(slope, 1e10 * std::f64::consts::FRAC_1_SQRT_2, max_relative = 1e-15);
    let (_, (dx, dy)) = huge_hypot_grad(1e300, 1e300);
    assert_relative_eq!(dx, std::f64::consts::FRAC_1_SQRT_2, max_relative = 1e-15);
    assert_relative_eq!(dy, std::f64::consts::FRAC_1_SQRT_2, max_relative = 1e-15);
}

#[test]
fn inherited_allow_attribute_compiles_and_differentiates() {
    assert_eq!(allowed_lint_grad(4.0), (8.0, 2.0));
    assert_eq!(allowed_lint_hvp(4.0, 1.0), (8.0, 2.0, 0.0));
}

#[test]
fn powf_with_exponent_zero_has_derivative_zero_at_zero() {
    assert_eq!(powf_zero_grad(0.0), (1.0, 1.0));
    assert_eq!(powf_zero_jvp(0.0, 1.0), (1.0, 1.0));
    assert_eq!(powf_zero_hvp(0.0, 1.0), (1.0, 1.0, 0.0));
}

#[test]
fn primitive_path_parameters_are_differentiated() {
    let (value, dx) = primitive_path_grad(3.0);
    assert_eq!(value, primitive_path(3.0));
    assert_relative_eq!(value, 9.0 + 3.0_f64.sin() + 3.0_f64.cos(), max_relative = 1e-15);
    assert_relative_eq!(dx, 6.0 + 3.0_f64.cos() - 3.0_f64.sin(), max_relative = 1e-15);
}

#[test]
fn literal_factors_near_a_power_of_two_are_not_folded() {
    // ∂f/∂x = 3 · (16.000000000000004 · y), evaluated as written.
    for i in 1..200 {
        let y = 0.1 * f64::from(i);
        let (_, (dx, _)) = near_power_of_two_grad(1.0, y);
        assert_eq!(dx, 3.0 * (16.000000000000004 * y), "at y = {y}");
    }
}

#[test]
fn atan2_derivatives_do_not_overflow_for_huge_arguments() {
    // ∂/∂u atan2(u, v) = v / (u² + v²) = 1 / (2 · 1e200) at u = v = 1e200; ∂/∂v = -u / (u² + v²).
    let (_, (du, dv)) = huge_atan2_grad(1e200, 1e200);
    assert_relative_eq!(du, 5e-201, max_relative = 1e-15);
    assert_relative_eq!(dv, -5e-201, max_relative = 1e-15);
    let (_, slope) = huge_atan2_jvp(1e200, 1e200, 1.0, 0.0);
    assert_relative_eq!(slope, 5e-201, max_relative = 1e-15);
}

#[test]
fn compound_assignments_of_literals_keep_their_f64_type() {
    // c = 3, d = (6 + 0.5) / 2 = 3.25: f = x sin 3 + x² √3.25.
    let (c, d) = (3.0_f64, 3.25_f64);
    for x in [-1.5, 0.25, 2.0] {
        let (value, dx) = literal_compound_assignment_grad(x);
        assert_eq!(value, literal_compound_assignment(x));
        assert_relative_eq!(value, c.sin() * x + d.sqrt() * x * x, max_relative = 1e-15);
        assert_relative_eq!(dx, c.sin() + 2.0 * d.sqrt() * x, max_relative = 1e-15);
        let (_, _, hv) = literal_compound_assignment_hvp(x, 1.0);
        assert_relative_eq!(hv, 2.0 * d.sqrt(), max_relative = 1e-15);
    }
}

#[test]
fn a_field_named_like_a_parameter_is_not_a_read_of_it() {
    let p = Scale { k: 1.5 };
    // f = 1.5 x²: f' = 3 x, f'' = 3.
    assert_eq!(field_named_like_parameter_grad(2.0, &p, 7), (6.0, 6.0));
    assert_eq!(field_named_like_parameter_hvp(2.0, &p, 7, 1.0), (6.0, 6.0, 3.0));
    assert_eq!(field_named_like_parameter_hessian(2.0, &p, 7), [[3.0]]);
}

#[test]
fn raw_and_plain_spellings_are_one_variable() {
    // f = a y² + a, differentiated in a only: ∂f/∂a = y² + 1, ∂²f/∂a² = 0.
    for (a, y) in [(2.0, 3.0), (-0.5, 1.25)] {
        let value = raw_and_plain(a, y);
        assert_eq!(value, a * y * y + a);
        assert_eq!(raw_and_plain_grad(a, y), (value, y * y + 1.0));
        assert_eq!(raw_and_plain_jvp(a, y, 1.0), (value, y * y + 1.0));
        assert_eq!(raw_and_plain_hvp(a, y, 1.0), (value, y * y + 1.0, 0.0));
        assert_eq!(raw_and_plain_hessian(a, y), [[0.0]]);
    }
}

#[test]
fn expected_lints_carry_over_as_allow() {
    // f = d X²: f' = 2 d X, f'' = 2 d.
    let data = vec![1.5];
    assert_eq!(expected_lints_grad(&data, 2.0), (6.0, 6.0));
    assert_eq!(expected_lints_hvp(&data, 2.0, 1.0), (6.0, 6.0, 3.0));
    assert_eq!(expected_lints_hessian(&data, 2.0), [[3.0]]);
}

#[test]
fn folded_literals_near_named_constants_compile_and_differentiate() {
    // f = c x² with c = 0.2618: f' = 2 c x, f'' = 2 c.
    let c = 0.2618;
    let (value, dx) = folds_near_a_constant_grad(3.0);
    assert_eq!(value, folds_near_a_constant(3.0));
    assert_relative_eq!(dx, 2.0 * c * 3.0, max_relative = 1e-15);
    assert_relative_eq!(folds_near_a_constant_hessian(3.0)[0][0], 2.0 * c, max_relative = 1e-15);
}

#[test]
#[allow(deprecated)] // `carried_attributes` and its derivatives are deprecated on purpose
fn carried_attributes_keep_the_derivatives_working() {
    // f = x³: f' = 3x², f'' = 6x.
    assert_eq!(carried_attributes_grad(2.0), (8.0, 12.0));
    assert_eq!(carried_attributes_jvp(2.0, 0.5), (8.0, 6.0));
    assert_eq!(carried_attributes_hvp(2.0, 1.0), (8.0, 12.0, 12.0));
    assert_eq!(carried_attributes_hessian(2.0), [[12.0]]);
}

#[test]
fn raw_named_constants_are_passed_through() {
    // f = c x² + n x: f' = 2 c x + n, f'' = 2 c.
    let c = [1.5];
    assert_eq!(raw_constant_grad(2.0, &c, 3), (12.0, 9.0));
    assert_eq!(raw_constant_hvp(2.0, &c, 3, 1.0), (12.0, 9.0, 3.0));
    assert_eq!(raw_constant_hessian(2.0, &c, 3), [[3.0]]);
}

#[test]
fn extern_functions_get_rust_derivatives() {
    // f = x y + sin x: ∇f = (y + cos x, x), H = [[-sin x, 1], [1, 0]].
    let (x, y) = (0.5_f64, 2.0_f64);
    let (value, (dx, dy)) = exported_grad(x, y);
    assert_eq!(value, exported(x, y));
    assert_relative_eq!(dx, y + x.cos(), max_relative = 1e-15);
    assert_eq!(dy, x);
    let h = exported_hessian(x, y);
    assert_relative_eq!(h[0][0], -x.sin(), max_relative = 1e-15);
    assert_eq!([h[0][1], h[1][0], h[1][1]], [1.0, 1.0, 0.0]);
}

#[test]
fn an_array_replaced_by_one_an_inner_loop_builds() {
    // f = k³ (u₀ + u₁): ∇f = ([k³, k³], 3k² (u₀ + u₁)); H·v = ([3k² v_k; 2], 3k² (v₀ + v₁) + 6k (u₀ + u₁) v_k).
    let (u, k) = ([1.0, 2.0], 2.0);
    assert_eq!(replaced_array(u, k), 24.0);
    assert_eq!(replaced_array_grad(u, k), (24.0, ([8.0, 8.0], 36.0)));
    assert_eq!(replaced_array_jvp(u, k, [1.0, 0.0], 0.5), (24.0, 8.0 + 18.0));
    let (_, _, hv) = replaced_array_hvp(u, k, [1.0, -1.0], 0.5);
    assert_eq!(hv, ([6.0, 6.0], 0.0 + 36.0 * 0.5));
}

/// `x ← sin(x / 2)` applied `n` times from `x0`: the value, its derivative `Π ½ cos(xₖ / 2)` and
/// second derivative by the chain rule, step by step.
fn halving_sines(x0: f64, n: usize) -> (f64, f64, f64) {
    let (mut x, mut d, mut dd) = (x0, 1.0, 0.0);
    for _ in 0..n {
        let (s, c) = (x * 0.5).sin_cos();
        // (g∘x)' = g'(x) x',  (g∘x)'' = g''(x) x'² + g'(x) x''  with g' = c/2, g'' = −s/4.
        dd = -0.25 * s * d * d + 0.5 * c * dd;
        d *= 0.5 * c;
        x = s;
    }
    (x, d, dd)
}

#[test]
fn an_inner_loop_bounded_by_the_outer_index_is_checkpointed_inside_the_stored_sweep() {
    let (x, d, dd) = halving_sines(1.3, 6);
    let (value, grad) = triangular_steps_grad(1.3);
    assert_eq!(value, x);
    assert_relative_eq!(grad, d, max_relative = 1e-14);
    assert_relative_eq!(triangular_steps_jvp(1.3, 2.0).1, 2.0 * d, max_relative = 1e-14);
    let (_, g, hv) = triangular_steps_hvp(1.3, 2.0);
    assert_relative_eq!(g, d, max_relative = 1e-14);
    assert_relative_eq!(hv, 2.0 * dd, max_relative = 1e-12);
}

#[test]
fn a_const_generic_plus_one_trip_count_is_checkpointed() {
    let (x, d, dd) = halving_sines(0.7, 5);
    let (value, grad) = one_more_step_grad::<4>(0.7);
    assert_eq!(value, x);
    assert_relative_eq!(grad, d, max_relative = 1e-14);
    let (_, g, hv) = one_more_step_hvp::<4>(0.7, -1.5);
    assert_relative_eq!(g, d, max_relative = 1e-14);
    assert_relative_eq!(hv, -1.5 * dd, max_relative = 1e-12);
}

#[test]
fn a_ring_whose_rest_is_empty_for_a_const_length() {
    // f = sin(x₀) x₀ + sin(x₁) x₁: ∂/∂xⱼ = cos(xⱼ) xⱼ + sin(xⱼ), (H v)ⱼ = (2 cos xⱼ − sin(xⱼ) xⱼ) vⱼ.
    let (x, v) = ([0.4, -1.1], [1.0, 0.5]);
    let (value, grad) = ring_of_two_grad(x);
    assert_eq!(value, ring_of_two(x));
    let (_, _, hv) = ring_of_two_hvp(x, v);
    for j in 0..2 {
        assert_relative_eq!(grad[j], x[j].cos() * x[j] + x[j].sin(), max_relative = 1e-14);
        let h = 2.0 * x[j].cos() - x[j].sin() * x[j];
        assert_relative_eq!(hv[j], h * v[j], max_relative = 1e-14);
    }
}

#[test]
fn a_ring_of_runtime_length_with_a_users_min_in_scope() {
    let x = [0.3, -0.8, 1.4, 0.2, -1.9, 0.6, 1.1, -0.5];
    for n in 0..=8 {
        let (value, grad) = ring_to_grad(x, n);
        assert_eq!(value.to_bits(), ring_to(x, n).to_bits(), "n = {n}");
        let expected: [f64; 8] = std::array::from_fn(|j| match j < n {
            true => x[j].cos() * x[(j + n - 1) % n] + x[(j + 1) % n].sin(),
            false => 0.0,
        });
        for j in 0..8 {
            assert_relative_eq!(grad[j], expected[j], max_relative = 1e-14);
        }
    }
}

/// The Hessian of `Σ (k+1)/2·aₖ² + Σ aₖ aₖ₊₁ + a₀ a₆ a₁₂` over `N` scalars (`chain13`, `chain20`).
fn chain_hessian<const N: usize>(a: &[f64]) -> [[f64; N]; N] {
    let mut h = [[0.0; N]; N];
    for (k, row) in h.iter_mut().enumerate() {
        row[k] = k as f64 + 1.0;
    }
    for k in 0..N - 1 {
        h[k][k + 1] = 1.0;
        h[k + 1][k] = 1.0;
    }
    for (i, j, other) in [(0, 6, 12), (0, 12, 6), (6, 12, 0)] {
        h[i][j] += a[other];
        h[j][i] += a[other];
    }
    h
}

fn assert_matrix<const R: usize, const C: usize>(
    what: &str,
    got: [[f64; C]; R],
    want: [[f64; C]; R],
) {
    for i in 0..R {
        for j in 0..C {
            let (g, w) = (got[i][j], want[i][j]);
            assert!((g - w).abs() <= 1e-14 * w.abs().max(1.0), "{what}[{i}][{j}]: {g} against {w}");
        }
    }
}

#[test]
fn hessians_of_thirteen_and_twenty_scalars() {
    let a: [f64; 20] = std::array::from_fn(|k| 0.15 * k as f64 - 0.8);
    let h13 = chain13_hessian(
        a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12],
    );
    assert_matrix("chain13", h13, chain_hessian::<13>(&a));
    let h20 = chain20_hessian(
        a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13],
        a[14], a[15], a[16], a[17], a[18], a[19],
    );
    assert_matrix("chain20", h20, chain_hessian::<20>(&a));
}

/// The Jacobian of `oₖ = aₖ · a_(k + s)` (indices mod `N`) for `k < 13`: `∂oₖ/∂aₖ = a_(k + s)`,
/// `∂oₖ/∂a_(k + s) = aₖ`.
fn product_jacobian<const N: usize>(a: &[f64], s: usize) -> [[f64; N]; 13] {
    let mut j = [[0.0; N]; 13];
    for k in 0..13 {
        j[k][k] += a[(k + s) % N];
        j[k][(k + s) % N] += a[k];
    }
    j
}

#[test]
fn jacobians_of_thirteen_outputs_in_both_modes() {
    let a: [f64; 20] = std::array::from_fn(|k| 0.3 - 0.11 * k as f64);
    let (value, j) = ring13_forward_jacobian(
        a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12],
    );
    assert_eq!((value.0, value.12), (a[0] * a[1], a[12] * a[0]));
    assert_matrix("ring13 by columns", j, product_jacobian::<13>(&a, 1));
    let (_, j) = ring13_reverse_jacobian(
        a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12],
    );
    assert_matrix("ring13 by rows", j, product_jacobian::<13>(&a, 1));
    let (value, j) = pick20_forward_jacobian(
        a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13],
        a[14], a[15], a[16], a[17], a[18], a[19],
    );
    assert_eq!((value.0, value.12), (a[0] * a[7], a[12] * a[19]));
    assert_matrix("pick20 by columns", j, product_jacobian::<20>(&a, 7));
    let (_, j) = pick20_reverse_jacobian(
        a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13],
        a[14], a[15], a[16], a[17], a[18], a[19],
    );
    assert_matrix("pick20 by rows", j, product_jacobian::<20>(&a, 7));
    assert_eq!(
        (ring13_forward_jacobian_mode(), pick20_reverse_jacobian_mode()),
        ("forward", "reverse")
    );
}

/// `generic_and_scalar`'s Hessian at `(x, y)`: `2y` on the diagonal of `x`, `2xᵢ` beside `y`,
/// `6y` for `y`.
fn generic_and_scalar_closed<const N: usize, const M: usize>(x: [f64; N], y: f64) -> [[f64; M]; M] {
    let mut h = [[0.0; M]; M];
    for i in 0..N {
        h[i][i] = 2.0 * y;
        h[i][N] = 2.0 * x[i];
        h[N][i] = 2.0 * x[i];
    }
    h[N][N] = 6.0 * y;
    h
}

#[test]
fn a_hessian_of_a_const_generic_array_and_a_scalar() {
    let y = 0.7;
    let h: [[f64; 2]; 2] = generic_and_scalar_hessian([1.5], y);
    assert_matrix("N = 1", h, generic_and_scalar_closed([1.5], y));
    let x = [1.5, -0.5, 2.0];
    let h: [[f64; 4]; 4] = generic_and_scalar_hessian(x, y);
    assert_matrix("N = 3", h, generic_and_scalar_closed(x, y));
}

#[test]
fn jacobians_of_a_const_generic_array_and_a_scalar() {
    // [y Σx, Σx² + y²]: rows (y, …, y, Σx) and (2x₀, …, 2y).
    let (x, y) = ([1.5, -0.5, 2.0], 0.7);
    let (value, j): (_, [[f64; 4]; 2]) = generic_pair_jacobian(x, y);
    assert_eq!(value, generic_pair(x, y));
    assert_matrix("generic_pair, N = 3", j, [[y, y, y, 3.0], [3.0, -1.0, 4.0, 2.0 * y]]);
    let (_, j): (_, [[f64; 2]; 2]) = generic_pair_jacobian([1.5], y);
    assert_matrix("generic_pair, N = 1", j, [[y, 1.5], [3.0, 2.0 * y]]);
    assert_eq!(generic_pair_jacobian_mode::<3>(), "reverse");
    // [[y xᵢ], [xᵢ²]]: 2N rows, N + 1 columns.
    let (value, j): (_, [[f64; 4]; 6]) = generic_rows_jacobian(x, y);
    assert_eq!(value, generic_rows(x, y));
    let mut want = [[0.0; 4]; 6];
    for i in 0..3 {
        want[i][i] = y;
        want[i][3] = x[i];
        want[3 + i][i] = 2.0 * x[i];
    }
    assert_matrix("generic_rows, N = 3", j, want);
    let (_, j): (_, [[f64; 2]; 2]) = generic_rows_jacobian([1.5], y);
    assert_matrix("generic_rows, N = 1", j, [[y, 1.5], [3.0, 0.0]]);
}

#[test]
fn parameters_written_underscore_are_constants() {
    // f = x² y: ∇f = (2xy, x²), H = [[2y, 2x], [2x, 0]]; the `_` parameters take any value.
    let (x, y) = (1.5, -2.0);
    let value = x * x * y;
    assert_eq!(unnamed_params_grad(x, 9.0, y, &[1.0]), (value, (2.0 * x * y, x * x)));
    assert_eq!(unnamed_params_jvp(x, 9.0, y, &[], 1.0, 0.5), (value, 2.0 * x * y + 0.5 * x * x));
    let (_, _, hv) = unnamed_params_hvp(x, -3.0, y, &[], 1.0, 0.0);
    assert_eq!(hv, (2.0 * y, 2.0 * x));
    assert_eq!(unnamed_params_hessian(x, 0.0, y, &[]), [[2.0 * y, 2.0 * x], [2.0 * x, 0.0]]);
    assert_eq!(unnamed_vector_jacobian(7, x), ([x * x, x], [[2.0 * x], [1.0]]));
    assert_eq!(unnamed_vector_jvp(7, x, 2.0), ([x * x, x], [4.0 * x, 2.0]));
}

#[test]
fn a_constant_array_copied_and_updated() {
    // f = (a p)² + a q: f' = 2 a p² + q, f'' = 2 p².
    let (a, [p, q]) = (1.5, [2.0, -3.0]);
    let (value, slope, curvature) = (a * a * p * p + a * q, 2.0 * a * p * p + q, 2.0 * p * p);
    assert_eq!(updated_copy_grad(a, [p, q]), (value, slope));
    assert_eq!(updated_copy_jvp(a, [p, q], 0.5), (value, 0.5 * slope));
    assert_eq!(updated_copy_hvp(a, [p, q], 1.0), (value, slope, curvature));
    assert_eq!(updated_copy_hessian(a, [p, q]), [[curvature]]);
    assert_eq!(updated_typed_copy_grad(a, &[p, q]), (value, slope));
    assert_eq!(updated_typed_copy_hvp(a, &[p, q], 1.0), (value, slope, curvature));
    assert_eq!(updated_typed_copy_hessian(a, &[p, q]), [[curvature]]);
    assert_eq!(updated_copy_vector_jacobian(a, [p, q]), ([a * p, q], [[p], [0.0]]));
    assert_eq!(updated_copy_vector_jvp(a, [p, q], 2.0), ([a * p, q], [2.0 * p, 0.0]));
}

/// A lightly damped oscillator, discretised: `A`, `B`.
const LQR_A: [[f64; 2]; 2] = [[1.0, 0.1], [-0.05, 0.98]];
const LQR_B: [f64; 2] = [0.005, 0.1];

#[test]
fn an_lqr_rollout_from_a_constant_initial_state() {
    let x0 = [1.0, -0.5];
    let u: [f64; LQR_STEPS] = std::array::from_fn(|k| 0.3 * (k as f64 * 0.7).sin());
    let f = |p: &[f64]| lqr_rollout(p.try_into().expect("10 controls"), x0, LQR_A, LQR_B);
    let grad = |p: &[f64]| {
        lqr_rollout_grad(p.try_into().expect("10 controls"), x0, LQR_A, LQR_B).1.to_vec()
    };
    let (value, g) = lqr_rollout_grad(u, x0, LQR_A, LQR_B);
    assert_eq!(value, lqr_rollout(u, x0, LQR_A, LQR_B));
    check_gradient(f, &u, &g, Tolerance::default()).expect("lqr_rollout_grad");
    let v: [f64; LQR_STEPS] = std::array::from_fn(|k| 1.0 - 0.2 * k as f64);
    let (_, g2, hv) = lqr_rollout_hvp(u, x0, LQR_A, LQR_B, v);
    assert_eq!(g2, g);
    check_hvp(grad, &u, &v, &hv, Tolerance::default()).expect("lqr_rollout_hvp");
    let (_, slope) = lqr_rollout_jvp(u, x0, LQR_A, LQR_B, v);
    let dot: f64 = g.iter().zip(&v).map(|(a, b)| a * b).sum();
    assert!((slope - dot).abs() <= 1e-12 * dot.abs().max(1.0), "{slope} against {dot}");
    // The cost is quadratic in the controls: its Hessian is symmetric, and H·v is its product.
    let h = lqr_rollout_hessian(u, x0, LQR_A, LQR_B);
    for i in 0..LQR_STEPS {
        let row: f64 = h[i].iter().zip(&v).map(|(a, b)| a * b).sum();
        assert!((row - hv[i]).abs() <= 1e-12 * row.abs().max(1.0), "(H v)[{i}]");
        for (j, hij) in h[i].iter().enumerate() {
            assert!((hij - h[j][i]).abs() <= 1e-14 * hij.abs().max(1.0), "H[{i}][{j}]");
        }
    }
}

#[test]
fn an_lqr_gain_from_a_constant_initial_state_by_reference() {
    let x0 = [1.0, -0.5];
    let gain = [0.8, 0.4];
    let f = |p: &[f64]| lqr_gain([p[0], p[1]], &x0, LQR_A, LQR_B);
    let grad = |p: &[f64]| lqr_gain_grad([p[0], p[1]], &x0, LQR_A, LQR_B).1.to_vec();
    let (value, g) = lqr_gain_grad(gain, &x0, LQR_A, LQR_B);
    assert_eq!(value, lqr_gain(gain, &x0, LQR_A, LQR_B));
    check_gradient(f, &gain, &g, Tolerance::default()).expect("lqr_gain_grad");
    let v = [1.0, -0.5];
    let (_, _, hv) = lqr_gain_hvp(gain, &x0, LQR_A, LQR_B, v);
    check_hvp(grad, &gain, &v, &hv, Tolerance::default()).expect("lqr_gain_hvp");
    let h = lqr_gain_hessian(gain, &x0, LQR_A, LQR_B);
    assert!((h[0][1] - h[1][0]).abs() <= 1e-12 * h[0][1].abs().max(1.0), "symmetric Hessian");
    let row0 = h[0][0] * v[0] + h[0][1] * v[1];
    assert!((row0 - hv[0]).abs() <= 1e-12 * row0.abs().max(1.0), "(H v)[0]");
}

#[test]
fn a_constant_array_passed_on_to_calls() {
    // f = 2 a c₀ + 2 c₁ + a² c₁ + a c₁: f' = 2 c₀ + 2 a c₁ + c₁, f'' = 2 c₁.
    let (a, c) = (1.5, [2.0, -3.0]);
    let value = 2.0 * a * c[0] + 2.0 * c[1] + a * a * c[1] + a * c[1];
    let (slope, curvature) = (2.0 * c[0] + 2.0 * a * c[1] + c[1], 2.0 * c[1]);
    assert_eq!(passes_constant_array_grad(a, c), (value, slope));
    assert_eq!(passes_constant_array_jvp(a, c, 2.0), (value, 2.0 * slope));
    assert_eq!(passes_constant_array_hvp(a, c, 1.0), (value, slope, curvature));
    assert_eq!(passes_constant_array_hessian(a, c), [[curvature]]);
}

#[test]
fn constants_copied_into_arrays_and_updated() {
    // f = 3a + 2 + d a² with d = data[1][1]: f' = 3 + 2 d a, f'' = 2 d.
    let (a, data) = (1.5, [[0.0, 0.0], [0.0, 7.0]]);
    let value = 3.0 * a + 2.0 + 7.0 * a * a;
    assert_eq!(copied_constants_grad(a, &data), (value, 3.0 + 14.0 * a));
    assert_eq!(copied_constants_jvp(a, &data, 2.0), (value, 2.0 * (3.0 + 14.0 * a)));
    assert_eq!(copied_constants_hvp(a, &data, 1.0), (value, 3.0 + 14.0 * a, 14.0));
    assert_eq!(copied_constants_hessian(a, &data), [[14.0]]);
}

#[test]
fn a_constant_cotangent_of_a_cast_is_cast() {
    // bug 62: ∂/∂w Σₖ tanh(w as f32) cₖ = (1 − tanh²w) Σₖ cₖ, in f32.
    let (w, c) = (0.4_f64, [0.5, -1.0, 2.0]);
    let th = f64::from((w as f32).tanh());
    let (value, w_bar) = f32_piece_times_data_grad(w, c);
    assert_eq!(value, f32_piece_times_data(w, c));
    assert_relative_eq!(w_bar, (1.0 - th * th) * 1.5, max_relative = 1e-6);
    assert_relative_eq!(f32_piece_times_data_jvp(w, c, 2.0).1, 2.0 * w_bar, max_relative = 1e-12);
    // d²/dw² = −2 tanh (1 − tanh²) Σ cₖ
    let (_, _, hv) = f32_piece_times_data_hvp(w, c, 1.0);
    assert_relative_eq!(hv, -2.0 * th * (1.0 - th * th) * 1.5, max_relative = 1e-6);
    // The other direction: ∂/∂x Σₖ sin(x) dₖ = cos(x) Σ dₖ, in f64 then rounded.
    let (x, data) = (0.3_f32, [0.5, -1.0, 2.0]);
    let (_, x_bar) = f64_piece_times_data_grad(x, &data);
    assert_relative_eq!(f64::from(x_bar), f64::from(x).cos() * 1.5, max_relative = 1e-6);
    let (_, _, h) = f64_piece_times_data_hvp(x, &data, 1.0);
    assert_relative_eq!(f64::from(h), -f64::from(x).sin() * 1.5, max_relative = 1e-6);
}

#[test]
fn a_float_method_on_a_consumers_value() {
    // bug 64: f = |x| + ln(max |xᵢ|); ∂f/∂xᵢ = xᵢ/|x| + [i = argmax] sign(xᵢ)/|xᵢ|.
    let x = [0.5_f64, -1.2, 0.8];
    let n = (0.25_f64 + 1.44 + 0.64).sqrt();
    let (value, g) = method_on_consumer_grad(x);
    assert_eq!(value, method_on_consumer(x));
    assert_relative_eq!(value, n + 1.2_f64.ln(), max_relative = 1e-15);
    let want = [0.5 / n, -1.2 / n - 1.0 / 1.2, 0.8 / n];
    for i in 0..3 {
        assert_relative_eq!(g[i], want[i], max_relative = 1e-14);
    }
    // H·e₀ of |x|: (I − x xᵀ/|x|²)/|x| e₀; ln(max) does not depend on x₀.
    let (_, _, hv) = method_on_consumer_hvp(x, [1.0, 0.0, 0.0]);
    let h0 = [(1.0 - 0.25 / (n * n)) / n, 0.6 / (n * n * n), -0.4 / (n * n * n)];
    for i in 0..3 {
        assert_relative_eq!(hv[i], h0[i], max_relative = 1e-14);
    }
}

#[test]
fn return_in_tail_position_is_the_value() {
    // bug 65: x², x sin x, eˣ (x > 0) or cos x.
    for x in [-0.7_f64, 0.6] {
        let cases = [
            (0, 2.0 * x, 2.0),
            (1, x.sin() + x * x.cos(), 2.0 * x.cos() - x * x.sin()),
            (2, if x > 0.0 { x.exp() } else { -x.sin() }, if x > 0.0 { x.exp() } else { -x.cos() }),
        ];
        for (k, first, second) in cases {
            let (value, slope) = tail_return_grad(x, k);
            assert_eq!(value, tail_return(x, k));
            assert_relative_eq!(slope, first, max_relative = 1e-15);
            assert_relative_eq!(tail_return_jvp(x, k, 2.0).1, 2.0 * first, max_relative = 1e-15);
            assert_relative_eq!(tail_return_hvp(x, k, 1.0).2, second, max_relative = 1e-15);
        }
    }
}

/// The gradient of `f` (a function of a `Phase` and `dt`) at `(p, dt)` as a vector
/// `[x, v₀, v₁, dt]`, and `f` of such a vector.
fn phase_point(q: &[f64]) -> (Phase, f64) {
    (Phase { x: q[0], v: [q[1], q[2]] }, q[3])
}

#[test]
fn a_struct_literal_variable_takes_a_calls_value() {
    let q = [0.5, 1.0, -0.3, 0.1];
    let (p, dt) = phase_point(&q);
    let grad = |q: &[f64]| {
        let (p, dt) = phase_point(q);
        let (_, (g, gdt)) = stepped_literal_grad(p, dt);
        vec![g.x, g.v[0], g.v[1], gdt]
    };
    let (value, _) = stepped_literal_grad(p, dt);
    assert_eq!(value, stepped_literal(p, dt));
    let f = |q: &[f64]| {
        let (p, dt) = phase_point(q);
        stepped_literal(p, dt)
    };
    check_gradient(f, &q, &grad(&q), Tolerance::default()).expect("stepped_literal_grad");
    let d = [1.0, 0.0, 0.5, 0.2];
    let (dp, ddt) = phase_point(&d);
    let (_, _, (hp, hdt)) = stepped_literal_hvp(p, dt, dp, ddt);
    check_hvp(grad, &q, &d, &[hp.x, hp.v[0], hp.v[1], hdt], Tolerance::default())
        .expect("stepped_literal_hvp");
    // The same steps started from a call: the same value and derivatives, to rounding.
    let (twin, (tg, tdt)) = stepped_call_grad(p, dt);
    assert_relative_eq!(twin, value, max_relative = 1e-15);
    let g = grad(&q);
    for (a, b) in g.iter().zip([tg.x, tg.v[0], tg.v[1], tdt]) {
        assert_relative_eq!(*a, b, max_relative = 1e-14);
    }
    let (_, slope) = stepped_literal_jvp(p, dt, dp, ddt);
    let dot: f64 = g.iter().zip(&d).map(|(a, b)| a * b).sum();
    assert_relative_eq!(slope, dot, max_relative = 1e-14);
}

#[test]
fn a_struct_fields_copy_carried_by_a_loop_is_checked_against_the_budget_by_rustc() {
    // bug 66: five rotations by dt: v = R(5 dt) p.v, f = v₁ x + v₀.
    let (p, dt) = (Phase { x: 0.5, v: [1.0, -0.3] }, 0.1_f64);
    let (s, c) = (5.0 * dt).sin_cos();
    let v = [c * p.v[0] - s * p.v[1], s * p.v[0] + c * p.v[1]];
    let (value, (g, gdt)) = field_state_by_calls_grad(&p, dt);
    assert_relative_eq!(value, v[1] * p.x + v[0], max_relative = 1e-14);
    assert_relative_eq!(g.x, v[1], max_relative = 1e-14);
    // ∂v₀/∂v = (c, s)·…: ∂f/∂p.v₀ = x s + c, ∂f/∂p.v₁ = x c − s; ∂f/∂dt = 5 (x v₀ − v₁).
    assert_relative_eq!(g.v[0], p.x * s + c, max_relative = 1e-14);
    assert_relative_eq!(g.v[1], p.x * c - s, max_relative = 1e-14);
    assert_relative_eq!(gdt, 5.0 * (p.x * v[0] - v[1]), max_relative = 1e-13);
    let (_, _, (_, hdt)) = field_state_by_calls_hvp(&p, dt, &Phase { x: 0.0, v: [0.0; 2] }, 1.0);
    assert_relative_eq!(hdt, -25.0 * (p.x * v[1] + v[0]), max_relative = 1e-13);
    // In place, against finite differences.
    let q = [0.5, 1.0, -0.3, 0.1];
    let grad = |q: &[f64]| {
        let (p, dt) = phase_point(q);
        let (_, (g, gdt)) = field_state_in_place_grad(&p, dt);
        vec![g.x, g.v[0], g.v[1], gdt]
    };
    let f = |q: &[f64]| {
        let (p, dt) = phase_point(q);
        field_state_in_place(&p, dt)
    };
    check_gradient(f, &q, &grad(&q), Tolerance::default()).expect("field_state_in_place_grad");
    let d = [0.3, 1.0, 0.5, 0.2];
    let (dp, ddt) = phase_point(&d);
    let (p, dt) = phase_point(&q);
    let (_, _, (hp, hdt)) = field_state_in_place_hvp(&p, dt, &dp, ddt);
    check_hvp(grad, &q, &d, &[hp.x, hp.v[0], hp.v[1], hdt], Tolerance::default())
        .expect("field_state_in_place_hvp");
}
