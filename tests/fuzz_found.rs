//! Macro bugs found by the differential fuzzer (`tests/fuzz.rs`), each as a minimal reproducer:
//! a regression test once fixed, ignored until then (`cargo test --test fuzz_found -- --ignored`
//! runs those). The fuzzer does not steer clear of a bug it found: an open one is an ignored test
//! here, and the fuzzer keeps finding it until it is fixed.
//!
//! A bug that stops the expansion from compiling is a `trybuild` case in `tests/fuzz_found/`
//! that must compile and run; a wrong derivative is an ordinary test below. A lint that the
//! expansion trips is a function below too: this file denies clippy's lints, and CI runs clippy
//! on it (`trybuild` runs no clippy). Clippy reports them at the attribute of the user's function
//! (rustc's own lints are quiet in macro output, clippy's are not).

// The expansions of the functions below must be lint-free (bugs 8 and 11).
#![deny(warnings, clippy::all)]

use autodiff_runtime::grad;

/// Compiles and runs `tests/fuzz_found/<case>.rs`.
fn compiles(case: &str) {
    trybuild::TestCases::new().pass(format!("tests/fuzz_found/{case}.rs"));
}

#[test]
fn bug1_constant_locals_keep_their_type() {
    compiles("constant_locals");
}

#[test]
fn bug2_a_cast_compared_with_lt_keeps_its_parentheses() {
    compiles("cast_lt");
}

#[test]
fn bug3_state_of_an_inner_loop_read_after_it() {
    compiles("inner_loop_state");
}

#[test]
fn bug4_an_integer_let_in_a_loop() {
    compiles("integer_let");
}

#[test]
fn bug5_forward_mode_over_a_region_that_yields_an_existing_value() {
    compiles("region_yields");
}

#[test]
fn bug6_vjp_of_a_tuple_with_a_reference_parameter() {
    compiles("tuple_vjp_ref");
}

/// Macro bug 7: `f(x) = x₀²`, computed through a copy of `x` made in a loop and updated in an
/// inner loop. The reverse sweep accumulates the copy's adjoint the wrong way round
/// (`y_bar[k] += x_bar[k]` instead of `x_bar[k] += y_bar[k]`), so `f_grad` gives `x₀`, not `2x₀`.
#[grad(hvp)]
#[allow(clippy::needless_range_loop)]
pub fn square_through_a_copy(x: [f64; 1]) -> f64 {
    let mut s = 0.0;
    for _ in 0..1 {
        let mut y = x;
        for _ in 0..1 {
            y[0] *= x[0];
        }
        s += y[0];
    }
    s
}

#[test]
fn bug7_gradient_through_a_copy_of_a_parameter_in_a_loop() {
    let x = [1.5];
    assert_eq!(square_through_a_copy(x), 2.25);
    assert_eq!(square_through_a_copy_grad(x), (2.25, [3.0]));
    assert_eq!(square_through_a_copy_hvp(x, [1.0]).2, [2.0]);
}

/// Macro bug 9: in a loop, `t` equal to `s` (or with the same tangent, as `0.5 + s`), then an
/// inner loop updating `s`. The generated code gives the inner loop a copy of `s` (`s_1`) or of
/// its tangent (`s_dot_1`) to update, never written back: values and `f_jvp`'s derivatives come
/// out wrong. Here `f(a) = 9a`: `f_grad` and `f_hvp` return the value `a` (their gradients are
/// right) and `f_jvp` returns `a` and the derivative `1`.
#[grad(jvp, hvp)]
pub fn nine_times(a: f64) -> f64 {
    let mut s = a;
    for _ in 0..2 {
        let t = s;
        for _ in 0..2 {
            s += t;
        }
    }
    s
}

/// The same with an array.
#[grad(jvp)]
pub fn nine_times_in_an_array(a: f64) -> f64 {
    let mut y = [a, a];
    for _ in 0..2 {
        let t = y;
        for _ in 0..2 {
            y[0] += t[0];
        }
    }
    y[0]
}

/// The tangent's case: `t = 0.5 + s` has the tangent of `s`. `f_jvp` finds `∂f/∂m = 0` and
/// `∂f/∂x = 1`; `f_grad` is right.
#[grad(jvp)]
#[allow(clippy::needless_range_loop)]
pub fn offset_then_inner_loop(m: [f64; 2], x: f64) -> f64 {
    let mut s = x;
    for i in 0..2 {
        let t = 0.5 + s;
        for _ in 0..2 {
            s += t * m[i];
        }
    }
    s
}

#[test]
fn bug9_an_inner_loop_updates_a_copied_variable() {
    assert_eq!(nine_times(1.5), 13.5);
    assert_eq!(nine_times_grad(1.5), (13.5, 9.0));
    assert_eq!(nine_times_jvp(1.5, 1.0), (13.5, 9.0));
    assert_eq!(nine_times_hvp(1.5, 1.0), (13.5, 9.0, 0.0));
    assert_eq!(nine_times_in_an_array_jvp(1.5, 1.0), (13.5, 9.0));
}

#[test]
fn bug9_an_inner_loop_updates_a_variable_with_a_shared_tangent() {
    let (m, x) = ([0.5, 0.25], 1.0);
    let (_, (dm, dx)) = offset_then_inner_loop_grad(m, x);
    let along_x = offset_then_inner_loop_jvp(m, x, [0.0, 0.0], 1.0).1;
    let along_m0 = offset_then_inner_loop_jvp(m, x, [1.0, 0.0], 0.0).1;
    assert_eq!((along_x, along_m0), (dx, dm[0]));
}

/// Macro bug 8: the expansion tripped clippy's `self_assignment` (`x0_bar_dot[1] = x0_bar_dot[1];`
/// in an `f_hvp`), `misrefactored_assign_op` (`s1_bar += s1_bar + s1_bar * t0;`),
/// `assign_op_pattern` (`s1_dot_1 = 0.3125 * s1_dot_1;`), `let_and_return` (`let s = a + x[1]; s`
/// in a branch of an `f_hvp`), `type_complexity` (the signature of an `f_hvp` with array
/// parameters) and `neg_multiply` (`(0.25 - 1.25) * x` folded into `-1.0 * x`). The fuzzer's
/// programs used to allow these lints; this function showed some.
#[grad(hvp)]
pub fn lints_of_an_hvp(x: [f64; 2], a: f64) -> f64 {
    let y = x;
    let mut s = a;
    if a > 0.5 {
        s += y[1];
    } else {
        s *= 2.0;
    }
    s * y[0]
}

#[test]
fn bug8_the_expansion_is_lint_free() {
    let hvp = lints_of_an_hvp_hvp([1.0, 2.0], 1.0, [1.0, 0.0], 0.0);
    assert_eq!(hvp, (3.0, ([3.0, 1.0], 1.0), ([0.0, 1.0], 1.0)));
}

/// `$stored` under `#[grad(jvp, hvp)]` and the same function, `$checkpointed`, under
/// `#[grad(jvp, hvp, <option>)]`: twins whose derivatives must agree to the bit.
macro_rules! stored_and_checkpointed {
    ([$($option:tt)*] $stored:ident, $checkpointed:ident($($params:tt)*) { $($body:tt)* }) => {
        #[grad(jvp, hvp)]
        pub fn $stored($($params)*) -> f64 { $($body)* }

        /// The same, checkpointed.
        #[grad(jvp, hvp, $($option)*)]
        pub fn $checkpointed($($params)*) -> f64 { $($body)* }
    };
}

// Macro bug 10: a checkpointed sweep and the stored one gave gradients that differed in the
// last bits. The stored sweep of the outer loop recomputed the inner loop, and loop fusion
// joined the inner loop's sweep (a reduction, `(0..i).rev()`) to that recomputation, so its
// adjoints were summed in the other order; the checkpointed sweep's closure was not fused. Now
// fusion reaches into a checkpoint's closures, and runs after dead code is gone, so that it
// does not depend on what either sweep recomputed without using.
stored_and_checkpointed! {
    [checkpoint(s = 2)] sum_of_sines_stored, sum_of_sines_checkpointed(a: f64) {
        let mut s: f64 = 0.5;
        for i in 0..7 {
            s *= a;
            let mut t: f64 = 0.0;
            for j in 0..i {
                t += ((j as f64) * 0.25 - a).sin();
            }
            s += t;
        }
        s * s
    }
}

#[test]
fn bug10_a_checkpointed_sweep_equals_the_stored_one_to_the_bit() {
    let a = -0.4844703683793068;
    assert_eq!(sum_of_sines_checkpointed_grad(a), sum_of_sines_stored_grad(a));
    assert_eq!(sum_of_sines_checkpointed_hvp(a, 0.7), sum_of_sines_stored_hvp(a, 0.7));
}

/// Macro bug 11: clippy's `misrefactored_assign_op` on the sweep's `s_bar += s_bar + t0;`
/// (`s̄ = s̄ + (s̄ + t₀)`, from `s += t` with `t` reading `s` twice), which it reads as a
/// mistake for `s_bar += t0`. Now written `s_bar = s_bar + t0 + s_bar;`.
#[grad(jvp)]
pub fn update_reading_the_state_twice(x: f64) -> f64 {
    let mut s = x;
    for _ in 0..2 {
        let t = x.mul_add(x, s) + s / x;
        s += t;
    }
    s
}

#[test]
fn bug11_an_update_of_an_adjoint_by_itself_is_lint_free() {
    let x = 1.5;
    let (y, d) = update_reading_the_state_twice_grad(x);
    assert_eq!(y, update_reading_the_state_twice(x));
    let h = 1e-6;
    let fd =
        (update_reading_the_state_twice(x + h) - update_reading_the_state_twice(x - h)) / (2.0 * h);
    assert!((d - fd).abs() < 1e-6 * d.abs(), "{d} {fd}");
}

#[test]
fn bug12_13_a_constant_parameter_passed_to_a_call() {
    compiles("constant_parameter_argument");
}

#[test]
fn bug14_15_18_22_methods_on_values_rust_cannot_type() {
    compiles("untyped_receivers");
}

#[test]
fn bug16_hypot_of_a_state_that_is_not_differentiated() {
    compiles("hypot_of_a_constant");
}

// Macro bug 17: as bug 10, from the other side. The stored sweep keeps the state after the
// inner loop and runs the inner loop's sweep (a reduction) backwards; the checkpointed sweep
// recomputes the inner loop from the state before it, and fusion joined the inner sweep to that
// recomputation, forwards. `f_hvp`'s H·v differed in the last bits. A sweep that only
// accumulates now runs in its loop's own order, fused or not.
stored_and_checkpointed! {
    [checkpoint] inner_reduction_stored, inner_reduction_checkpointed(a: f64, m: f64) {
        let mut s = a;
        for _ in 0..4 {
            for j in 0..8 {
                s += -(m * (j as f64));
            }
            s += s / (1.0 + m * m);
        }
        s
    }
}

#[test]
fn bug17_a_checkpointed_sweep_that_recomputes_an_inner_reduction() {
    let (a, m, da, dm) = (-0.18, 1.34, 0.3, 0.87);
    assert_eq!(inner_reduction_checkpointed_grad(a, m), inner_reduction_stored_grad(a, m));
    let hvp = inner_reduction_stored_hvp(a, m, da, dm);
    assert_eq!(inner_reduction_checkpointed_hvp(a, m, da, dm), hvp);
}

// Macro bug 19: with bug 17's fix, a stored sweep that only accumulates runs forwards, but a
// checkpointed one ran backwards through `revolve`, so the gradient differed in the last bits.
// A checkpointed loop whose sweep only accumulates now needs no snapshots: one loop runs the
// sweep of each iteration from its state, then steps to the next state, in the loop's order.
stored_and_checkpointed! {
    [checkpoint] accumulating_sweep_stored, accumulating_sweep_checkpointed(q: &[f64; 1], a: f64) {
        let mut s = a;
        let mut y: [f64; 2] = [0.0; 2];
        for i in 1..=2 {
            y[i % 2] = i as f64;
            y[(i + 1) % 2] = y[1].asinh().min(0.3);
            for _ in 0..=i {
                s -= y[(i + 1) % 2];
                s += (y[(i + 1) % 2] + (i as f64)) * (q[0] * q[0]).ln_1p();
                s += q[0];
            }
        }
        s = s.hypot(2.5);
        (s.sin() * s.sin()).ln_1p()
    }
}

#[test]
fn bug19_a_checkpointed_sweep_that_only_accumulates() {
    let (q, a) = ([-1.1061019934473428], -1.273947503503102);
    let stored = accumulating_sweep_stored_grad(&q, a);
    assert_eq!(accumulating_sweep_checkpointed_grad(&q, a), stored);
    let stored = accumulating_sweep_stored_hvp(&q, a, &[0.3], -0.7);
    assert_eq!(accumulating_sweep_checkpointed_hvp(&q, a, &[0.3], -0.7), stored);
}

// Macro bug 20: as bug 19, for an outer loop whose sweep only accumulates but holds an inner
// loop that is itself checkpointed (`checkpoint(s = 1)` checkpoints every loop): the inner
// checkpointed sweep passes the outer accumulators through, which was not recognised as
// accumulating, so the outer sweep ran backwards through `revolve` while the stored one ran
// forwards. Additivity now follows an adjoint through a checkpointed sweep as through a loop.
stored_and_checkpointed! {
    [checkpoint(s = 1)] inner_chain_stored, inner_chain_checkpointed(m: [f64; 3], a: f64) {
        let mut s = a;
        for i in 0..6 {
            let mut t = m[i % 3] * (i as f64);
            for j in 0..8 {
                t = t.hypot(t + m[j % 3]);
            }
            s += t;
        }
        s
    }
}

#[test]
fn bug20_a_checkpointed_sweep_inside_one_that_only_accumulates() {
    let (m, a) = ([-0.14, 1.03, -0.07], 1.27);
    assert_eq!(inner_chain_checkpointed_grad(m, a), inner_chain_stored_grad(m, a));
    let v = [0.3, -0.2, 0.5];
    assert_eq!(inner_chain_checkpointed_hvp(m, a, v, 1.0), inner_chain_stored_hvp(m, a, v, 1.0));
}

/// Macro bug 21: clippy's `unused_unit` on a checkpoint whose state is empty (here the sweep
/// needs no state: `s.max(2.0 + s)` is `2.0 + s` whatever `s` is): the step closure was written
/// `|_, ()| { () }`. A closure with no state to give back now ends without `()`.
#[grad(jvp, hvp)]
pub fn checkpoint_without_state(steps: usize, a: f64, x: [f64; 2]) -> f64 {
    let mut s = a;
    for i in 0..steps {
        s = s.max(2.0 + s);
        let y = [x[1].min(i as f64), a];
        s += y[i % 2];
    }
    s
}

#[test]
fn bug21_a_checkpoint_without_state_is_lint_free() {
    let (y, (da, dx)) = checkpoint_without_state_grad(3, 0.5, [0.25, 1.5]);
    assert_eq!(y, checkpoint_without_state(3, 0.5, [0.25, 1.5]));
    assert_eq!((da, dx), (2.0, [0.0, 1.0]));
}

/// Macro bug 23: clippy's `neg_multiply` on `-1.0 * x`, where the user wrote `(2.0 - 3.0) * x`
/// and the literals were folded (bug 8 had shown it with `(0.25 - 1.25) * x`). Now written `-x`.
#[grad(jvp, hvp)]
pub fn folded_minus_one(a: f64) -> f64 {
    let s = a * 0.5;
    (2.0 - 3.0) * (0.75 * s.tanh()).atanh() + s
}

#[test]
fn bug23_a_product_with_minus_one_is_lint_free() {
    let a = 0.3_f64;
    let t = 0.75 * (0.5 * a).tanh();
    let d = 0.5 - 0.75 * 0.5 * (1.0 - (0.5 * a).tanh().powi(2)) / (1.0 - t * t);
    let (y, g) = folded_minus_one_grad(a);
    assert_eq!(y, folded_minus_one(a));
    assert!((g - d).abs() < 1e-15, "{g} {d}");
}

/// Macro bug 24: rustc's `unused_variables` on a loop index in the expansion: the adjoint of `s`
/// is `-1 + 1 = 0`, so the sweep of the loop updating `s` only writes `x_bar[i] = x_bar[i]`
/// (not written at all), and `for i in 0..2 {}` kept the name of its index. An index that the
/// written loop does not read is `_`; and since then, dead-code elimination drops a loop that
/// carries its values through unchanged, so no empty loop is left (the macro's snapshot
/// `a_sweep_that_carries_its_adjoint_through_unchanged_is_dropped`).
#[grad(jvp, hvp)]
#[allow(clippy::needless_range_loop)]
pub fn cancelling_state(x: [f64; 2], data: &[f64]) -> f64 {
    let mut s = 0.5;
    let mut y: [f64; 1] = [0.0; 1];
    y[0] += x[1];
    for i in 0..2 {
        s -= x[i] + (i as f64) * 0.25;
    }
    y[0] *= 1.25;
    for i in 0..data.len() {
        s += data[i] * (data[i] + x[i % 2]);
    }
    x[0] - s + s + y[0]
}

#[test]
fn bug24_a_loop_whose_sweep_writes_nothing() {
    let (y, g) = cancelling_state_grad([1.0, 2.0], &[0.5]);
    assert_eq!((y, g), (cancelling_state([1.0, 2.0], &[0.5]), [1.0, 1.25]));
}

#[test]
fn bug25_filter_over_the_tuples_of_enumerate_and_zip() {
    compiles("filter_over_tuples");
}

#[test]
fn bug26_min_and_max_of_lengths_in_a_constant() {
    compiles("min_in_a_constant");
}

#[test]
fn bug27_a_variable_named_like_a_called_derivative() {
    compiles("shadows_a_callee");
}

#[test]
fn bug28_a_view_read_after_its_array_is_shadowed() {
    compiles("view_of_a_shadowed_array");
}

#[test]
fn bug29_a_const_generic_named_like_a_stand_ins_type_parameter() {
    compiles("stand_in_generics");
}

#[test]
fn bug30_match_on_the_index_of_an_enumerate_loop() {
    compiles("match_in_enumerate");
}

#[test]
fn bug31_a_struct_parameter_shadowed_in_a_loop() {
    compiles("struct_parameter_shadowed");
}

#[test]
fn bug32_a_local_named_like_a_struct_parameters_direction() {
    compiles("struct_parameter_dot");
}

#[test]
fn bug33_a_constant_call_bound_by_an_array_pattern() {
    compiles("constant_call_array_pattern");
}

#[test]
fn bug58_a_local_named_private_bar_in_a_vector_jvp() {
    compiles("private_bar_vector_jvp");
}

#[test]
fn bug34_a_slice_read_before_and_inside_a_checkpointed_loop() {
    compiles("slice_before_a_checkpointed_loop");
}

#[test]
fn bug35_a_slice_stored_under_one_side_of_a_branch() {
    compiles("slice_stored_in_a_branch");
}

#[test]
fn bug36_a_slice_gradient_set_under_one_side_of_a_branch() {
    compiles("slice_zeroed_in_a_branch");
}

#[test]
fn bug37_a_slice_gradient_set_then_added_under_a_branch() {
    compiles("slice_gradient_set_then_added");
}

#[test]
fn bug38_a_slice_in_a_function_with_stored_and_checkpointed_variants() {
    compiles("slice_in_a_stored_or_checkpointed_body");
}

#[test]
fn bug63_a_buffer_named_apart_in_each_variant() {
    compiles("buffer_named_apart_in_each_variant");
}

#[test]
fn bug39_a_slice_in_checkpointed_loops_nested_under_branches() {
    compiles("slice_in_nested_checkpointed_loops");
}

#[test]
fn bug40_a_typed_let_of_a_generic_constant() {
    compiles("typed_let_of_a_generic_constant");
}

#[test]
fn bug44_a_constant_parameter_named_like_a_called_derivative() {
    compiles("constant_named_like_a_callee");
}

#[test]
fn bug45_a_call_in_a_while_loop_with_a_name_that_shadows_it() {
    compiles("callee_named_in_a_while_loop");
}

#[test]
fn bug47_a_data_element_bound_by_a_reference_pattern_passed_to_a_call() {
    compiles("data_element_bound_by_a_reference");
}

#[test]
fn bug48_an_array_field_of_a_calls_struct_read_whole() {
    compiles("call_struct_array_field_read_whole");
}

#[test]
fn bug49_a_slice_buffer_through_a_checkpointed_loop_in_nested_branches() {
    compiles("slice_buffer_through_nested_branches");
}

#[test]
fn bug53_an_array_parameter_dereferenced_into_a_call() {
    compiles("array_parameter_dereferenced_into_a_call");
}

#[test]
fn bug50_two_slices_in_a_checkpointed_loop_under_a_branch() {
    compiles("slice_loop_under_a_branch");
}

#[test]
fn bug51_the_reverse_half_of_a_vector_function_of_many_parameters() {
    compiles("rev_of_many_parameters");
}

#[test]
fn bug54_an_array_field_length_in_a_loop_closure() {
    compiles("field_length_in_a_loop_closure");
}

#[test]
fn bug55_a_residual_named_with_a_leading_underscore() {
    compiles("residual_with_an_underscore");
}

#[test]
fn bug70_an_array_of_structs_shadowed_by_a_local() {
    compiles("shadowed_array_of_structs");
}

/// The length of the rings of bugs 41 to 43: a `const` item, which the macro cannot read, so
/// that a ring reduction over it is split at its wrap-around (`transform/wrap.rs`).
const RING: usize = 3;

/// Whether `a` and `b` are equal to the bit, component by component (`0.0` and `-0.0` alike).
fn same_bits(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits() || *x == *y)
}

/// `|a − b| ≤ 1e-14 (1 + |b|)` for every component.
fn close(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() <= 1e-14 * (1.0 + y.abs()))
}

// Macro bugs 41 to 43 (fuzzer seeds 300035, 300039, 300056: the loop-exit twin differed from
// `f` in the last bit). A reduction over a ring, `for i in 0..N` reading `x[(i + N - 1) % N]`,
// is split at its wrap-around, and the split's sweep adds the wrap-around iteration's
// contributions after the others'; the same loop with a `break` (a loop of unknown length,
// not split) adds them in the order of the iterations. An adjoint with contributions from
// both, past two or onto a value, came out in the last bit otherwise. The split is now made only
// where its sweep adds every adjoint as the loop's would, to the bit.

/// Bug 41 (seed 300035, `f_hvp`'s H·w, no checkpoint): an element, `w[0]`, read in every
/// iteration of the ring: `f = w₀² + w₀ Σ xᵢ xᵢ₋₁`.
#[grad(jvp, hvp)]
#[allow(clippy::needless_range_loop)]
pub fn ring_times_an_element(x: [f64; RING], w: [f64; 2]) -> f64 {
    let mut s = w[0] * w[0];
    for i in 0..RING {
        s += w[0] * x[i] * x[(i + RING - 1) % RING];
    }
    s
}

/// [`ring_times_an_element`] with its loop as a `for` with `break`.
#[grad(jvp, hvp)]
#[allow(clippy::needless_range_loop)]
pub fn ring_times_an_element_exits(x: [f64; RING], w: [f64; 2]) -> f64 {
    let mut s = w[0] * w[0];
    for i in 0..RING + 2 {
        if i >= RING {
            break;
        }
        s += w[0] * x[i] * x[(i + RING - 1) % RING];
    }
    s
}

#[test]
fn bug41_a_ring_reduction_reading_an_element_in_every_iteration() {
    let (x, w) = ([1.48, -1.16, 1.06], [0.3, 0.66]);
    let (v, vw) = ([-0.09, 0.23, -0.46], [-0.35, 1.45]);
    let ring = x[0] * x[2] + x[1] * x[0] + x[2] * x[1];
    let around = |k: usize| x[(k + 2) % 3] + x[(k + 1) % 3];
    let (y, (gx, gw)) = ring_times_an_element_grad(x, w);
    assert_eq!(y, ring_times_an_element(x, w));
    let want = [w[0] * around(0), w[0] * around(1), w[0] * around(2)];
    assert!(close(&gx, &want) && close(&gw, &[2.0 * w[0] + ring, 0.0]), "{gx:?} {gw:?}");
    let twin = ring_times_an_element_exits_grad(x, w);
    assert!(same_bits(&[&twin.1.0[..], &twin.1.1[..]].concat(), &[&gx[..], &gw[..]].concat()));
    // H·v: ∂²f/∂w₀² = 2, ∂²f/∂w₀∂xₖ = xₖ₋₁ + xₖ₊₁, ∂²f/∂xₖ∂xₖ±₁ = w₀.
    let (_, _, (hx, hw)) = ring_times_an_element_hvp(x, w, v, vw);
    let hxk = |k: usize| vw[0] * around(k) + w[0] * (v[(k + 2) % 3] + v[(k + 1) % 3]);
    let dot = (0..3).map(|k| v[k] * around(k)).sum::<f64>();
    assert!(close(&hx, &[hxk(0), hxk(1), hxk(2)]) && close(&hw, &[2.0 * vw[0] + dot, 0.0]));
    let (_, _, (tx, tw)) = ring_times_an_element_exits_hvp(x, w, v, vw);
    assert!(same_bits(&[&tx[..], &tw[..]].concat(), &[&hx[..], &hw[..]].concat()));
}

/// Bug 42 (seed 300039, the gradient against the twin under `checkpoint(s = 4)`): a scalar
/// parameter read in every iteration of the ring: `f = g²`, `g = sin a + (a + 0.2) Σ xᵢ`.
#[grad(jvp, hvp)]
#[allow(clippy::needless_range_loop)]
pub fn ring_scaled(a: f64, x: [f64; RING]) -> f64 {
    let mut s = a.sin();
    for i in 0..RING {
        s += (a + 0.2) * x[(i + RING - 1) % RING];
    }
    s * s
}

/// [`ring_scaled`] with its loop as a `for` with `break`, checkpointed online.
#[grad(jvp, hvp, checkpoint(s = 4))]
#[allow(clippy::needless_range_loop)]
pub fn ring_scaled_exits(a: f64, x: [f64; RING]) -> f64 {
    let mut s = a.sin();
    for i in 0..RING + 3 {
        if i >= RING {
            break;
        }
        s += (a + 0.2) * x[(i + RING - 1) % RING];
    }
    s * s
}

#[test]
fn bug42_a_ring_reduction_reading_a_scalar_in_every_iteration() {
    let (a, x): (f64, _) = (0.3, [1.48, -1.16, 1.06]);
    let sum = x[0] + x[1] + x[2];
    let g = a.sin() + (a + 0.2) * sum;
    let (y, (ga, gx)) = ring_scaled_grad(a, x);
    assert_eq!(y, ring_scaled(a, x));
    let want = [2.0 * g * (a.cos() + sum), 2.0 * g * (a + 0.2)];
    assert!(close(&[ga, gx[0], gx[1], gx[2]], &[want[0], want[1], want[1], want[1]]));
    let (_, (ta, tx)) = ring_scaled_exits_grad(a, x);
    assert!(same_bits(&[ta, tx[0], tx[1], tx[2]], &[ga, gx[0], gx[1], gx[2]]));
    let (va, vx) = (0.6, [-0.09, 0.23, -0.46]);
    let (_, _, (ha, hx)) = ring_scaled_hvp(a, x, va, vx);
    let (_, _, (sa, sx)) = ring_scaled_exits_hvp(a, x, va, vx);
    assert!(same_bits(&[sa, sx[0], sx[1], sx[2]], &[ha, hx[0], hx[1], hx[2]]));
}

/// Bug 43 (seed 300056, `f_vjp` against the twin under `checkpoint(s = 3)`): a ring read at two
/// indices and again after the loop, so that its adjoint holds a value when the loop's sweep
/// starts: `y = [S m₂, S + a]`, `S = a + Σ mᵢ mᵢ₋₁`.
#[grad(jvp, jacobian)]
#[allow(clippy::needless_range_loop)]
pub fn ring_read_after(m: [f64; RING], a: f64) -> [f64; 2] {
    let mut s = a;
    for i in 0..RING {
        s += m[i] * m[(i + RING - 1) % RING];
    }
    [s * m[2], s + a]
}

/// [`ring_read_after`] with its loop as a `for` with `break`, checkpointed online.
#[grad(jvp, jacobian, checkpoint(s = 3))]
#[allow(clippy::needless_range_loop)]
pub fn ring_read_after_exits(m: [f64; RING], a: f64) -> [f64; 2] {
    let mut s = a;
    for i in 0..RING + 3 {
        if i >= RING {
            break;
        }
        s += m[i] * m[(i + RING - 1) % RING];
    }
    [s * m[2], s + a]
}

#[test]
fn bug43_a_ring_read_after_its_reduction() {
    let (m, a, u) = ([1.48, -1.16, 1.06], 0.25, [0.7, -0.4]);
    let s = a + m[0] * m[2] + m[1] * m[0] + m[2] * m[1];
    let (y, (gm, ga)) = ring_read_after_vjp(m, a, u);
    assert_eq!(y, ring_read_after(m, a));
    let bar = u[0] * m[2] + u[1];
    let around = |k: usize| m[(k + 2) % 3] + m[(k + 1) % 3];
    let want = [bar * around(0), bar * around(1), bar * around(2) + u[0] * s, bar + u[1]];
    assert!(close(&[gm[0], gm[1], gm[2], ga], &want), "{gm:?} {ga}");
    let (_, (tm, ta)) = ring_read_after_exits_vjp(m, a, u);
    assert!(same_bits(&[tm[0], tm[1], tm[2], ta], &[gm[0], gm[1], gm[2], ga]));
}

// Macro bug 46 (fuzzer seed 300456, `f_vjp` of the loop-exit twin under `checkpoint(s = 1)`
// differed from `f`'s in the last bit). A loop that holds an inner loop of unknown length is
// checkpointed, and its sweep, where it only accumulates (`s` read by `y[i] += s`, and added to),
// runs in the loop's own order like the stored sweep's. The inner loop's sweep passes the
// adjoint of `s`, which it only adds to, through the branch of its exit flag and drops it: that
// dead read of the accumulator made the sweep look like one that does more than accumulate, so it
// ran from snapshots, backwards, and rounded `s̄ + ȳ₁ + ȳ₀` in the other order. A sweep is now
// judged on what its body computes that something reads.

/// `f = s y₀ + y₁`, where the outer loop adds `s` into `y[i]` and the inner one adds 0.25 to `s`
/// `2 − i` times: `s = x + 0.75`, `y = [x, x + 0.5]`, `f' = 2x + 1.75`.
#[grad]
#[allow(clippy::needless_range_loop)]
pub fn added_in_an_inner_loop(x: f64) -> f64 {
    let mut s = x;
    let mut y = [0.0; 2];
    for i in 0..2 {
        y[i] += s;
        for _ in i..2 {
            s += 0.25;
        }
    }
    s * y[0] + y[1]
}

/// [`added_in_an_inner_loop`] with its inner loop as a `loop` with `break` on a float counter,
/// checkpointed online in one snapshot.
#[grad(checkpoint(s = 1))]
#[allow(clippy::needless_range_loop)]
pub fn added_in_an_inner_loop_exits(x: f64) -> f64 {
    let mut s = x;
    let mut y = [0.0; 2];
    for i in 0..2 {
        y[i] += s;
        let mut w = i as f64;
        loop {
            if w >= 2.0 {
                break;
            }
            w += 1.0;
            s += 0.25;
        }
    }
    s * y[0] + y[1]
}

/// [`added_in_an_inner_loop`] with its inner loop as a `loop` whose exit test comes after a
/// statement (`added_in_an_inner_loop_exits`'s is first, read as a `while` since bug 69): the
/// rest of the body under the `break`'s flag, one last iteration that only exits.
#[grad(checkpoint(s = 1))]
#[allow(clippy::needless_range_loop)]
pub fn added_in_an_inner_loop_flagged(x: f64) -> f64 {
    let mut s = x;
    let mut y = [0.0; 2];
    for i in 0..2 {
        y[i] += s;
        let mut w = i as f64;
        loop {
            w += 1.0;
            if w > 2.0 {
                break;
            }
            s += 0.25;
        }
    }
    s * y[0] + y[1]
}

/// [`added_in_an_inner_loop`] with its inner loop as a `while`, checkpointed online.
#[grad(checkpoint(s = 2))]
#[allow(clippy::needless_range_loop)]
pub fn added_in_an_inner_loop_while(x: f64) -> f64 {
    let mut s = x;
    let mut y = [0.0; 2];
    for i in 0..2 {
        y[i] += s;
        let mut w = i as f64;
        while w < 2.0 {
            w += 1.0;
            s += 0.25;
        }
    }
    s * y[0] + y[1]
}

/// [`added_in_an_inner_loop`] with its outer loop over a count given at run time, checkpointed
/// offline in one snapshot.
#[grad(checkpoint(s = 1), wrt(x))]
#[allow(clippy::needless_range_loop)]
pub fn added_in_an_inner_loop_for(x: f64, steps: usize) -> f64 {
    let mut s = x;
    let mut y = [0.0; 2];
    for i in 0..steps {
        y[i] += s;
        for _ in i..2 {
            s += 0.25;
        }
    }
    s * y[0] + y[1]
}

#[test]
fn bug46_a_sweep_that_accumulates_around_an_inner_loop_of_unknown_length() {
    // At 0.1, (x + s) + 1 and (x + 1) + s differ in the last bit.
    for x in [0.1, 0.3, -1.7, 2.9] {
        let (y, g) = added_in_an_inner_loop_grad(x);
        assert_eq!(y, added_in_an_inner_loop(x));
        assert!(close(&[g], &[2.0 * x + 1.75]), "{g} at {x}");
        let h = 1e-6;
        let fd = (added_in_an_inner_loop(x + h) - added_in_an_inner_loop(x - h)) / (2.0 * h);
        assert!((fd - g).abs() < 1e-8, "{fd} {g}");
        let twins = [
            added_in_an_inner_loop_exits_grad(x),
            added_in_an_inner_loop_flagged_grad(x),
            added_in_an_inner_loop_while_grad(x),
            added_in_an_inner_loop_for_grad(x, 2),
        ];
        for (k, (ty, tg)) in twins.into_iter().enumerate() {
            assert!(same_bits(&[ty, tg], &[y, g]), "twin {k} at {x}: {tg:?}, not {g:?}");
        }
    }
}

// Bug 56 (fuzzer seed 9588, the iterator twin's H·w in the last bit): a row bound by
// `zip(m.iter().copied())` (or `for row in m.iter()`, or `let row = m[i];`) and read by its
// elements summed a row's cotangents into a row adjoint first and added that row into `m`'s
// after, where `m[i][j]` written out adds each into `m`'s adjoint where it is read. A load from
// a row is now a load from its array (`transform/stores.rs`): the same sweep, to the bit.

/// `sin(s₃) q₀₁`, `s` updated from the rows of `q` read by index.
#[grad(jvp, hvp)]
#[allow(clippy::needless_range_loop)]
pub fn rows_by_index(q: &[[f64; 2]; 3]) -> f64 {
    let mut s = q[2][1];
    for i in 0..3 {
        s += (s + q[i][(i + 1) % 2]) * (q[i][0] + q[i][1]);
    }
    s.sin() * q[0][1]
}

/// [`rows_by_index`] with the rows bound by an iterator chain.
#[grad(jvp, hvp)]
pub fn rows_by_iterator(q: &[[f64; 2]; 3]) -> f64 {
    let s = (0..3).zip(q.iter().copied()).fold(q[2][1], |mut s, (i, row)| {
        s += (s + row[(i + 1) % 2]) * (row[0] + row[1]);
        s
    });
    s.sin() * q[0][1]
}

/// [`rows_by_index`] with each row bound by a `let`.
#[grad(jvp, hvp)]
pub fn rows_by_let(q: &[[f64; 2]; 3]) -> f64 {
    let mut s = q[2][1];
    for (i, r) in q.iter().enumerate() {
        let row = *r;
        s += (s + row[(i + 1) % 2]) * (row[0] + row[1]);
    }
    s.sin() * q[0][1]
}

#[test]
fn bug56_a_row_read_by_its_elements_adds_its_cotangents_where_they_are_read() {
    let q = [[0.0781, -0.3908], [-1.3387, -0.1087], [0.4772, 1.4209]];
    let flat = |g: [[f64; 2]; 3]| g.concat();
    let (y, g) = rows_by_index_grad(&q);
    let at = |p: &[f64]| rows_by_index(&[[p[0], p[1]], [p[2], p[3]], [p[4], p[5]]]);
    let fd = autodiff_runtime::numeric_gradient(at, &flat(q));
    assert!(flat(g).iter().zip(&fd).all(|(a, b)| (a - b).abs() < 1e-7), "{g:?} {fd:?}");
    for k in 0..50 {
        let w = [[0.3 + 0.01 * k as f64, -0.7], [0.2, 0.9], [-0.4, 0.5 - 0.003 * k as f64]];
        let (_, _, hw) = rows_by_index_hvp(&q, &w);
        for (name, (ty, tg), (_, _, thw)) in [
            ("iterator", rows_by_iterator_grad(&q), rows_by_iterator_hvp(&q, &w)),
            ("let", rows_by_let_grad(&q), rows_by_let_hvp(&q, &w)),
        ] {
            assert!(same_bits(&[ty], &[y]) && same_bits(&flat(tg), &flat(g)), "{name}: gradient");
            assert!(same_bits(&flat(thw), &flat(hw)), "{name}: H·w {thw:?}, not {hw:?}");
        }
    }
}

// Bug 57 (fuzzer seed 9803, an internal error): the one-pass Jacobian widened a function whose
// branch condition depends on the seeds through a call's value (`m < s && c` with `s` from a
// call) while neither side of the inner branch of `&&` does: the branch was kept as it was,
// reading the condition's old name ("widening a kernel of the Jacobian produced invalid IR").
// Such a branch now declines the widening, and the Jacobian is made column by column.

#[grad(jvp, hvp)]
pub fn damped_sine(x: f64, k: usize) -> f64 {
    let w = k as f64 + 1.0;
    (w * x).sin() / w
}

/// The fuzzer's program, shortened: `s1` from a call, then updated on a condition that reads it
/// (`m < max(.., s1) && ..`), in a checkpointed loop (a loop of run-time length stored in
/// capacity tiers is not widened).
#[grad(jvp, jacobian, checkpoint(s = 2))]
#[allow(clippy::needless_range_loop)]
pub fn condition_on_a_calls_value(data: &[f64], steps: usize, m0: [[f64; 1]; 1]) -> [f64; 2] {
    let n = steps as f64;
    let mut s1 = (n * 0.25).sin() / (damped_sine(n + m0[0][0], steps).tanh().exp() + 0.5);
    let mut y2: [f64; 2] = [0.0; 2];
    for i in 0..steps {
        let t = i as f64;
        s1 += n.powi(2) - t * 0.25;
        if i % 2 == 1 {
            s1 += (0.75 * t.tanh()).acos().powi(3) + m0[0][0];
        } else if m0[0][0] < (t * 0.25).max(s1) && (1.0 + t * 0.25 * (t * 0.25)).powf(0.75) <= 0.1 {
            let a = y2[(i + 1) % 2] / (2.0 + n.sin());
            let s4 = (1.0 + a * a).log10();
            let s5 = (y2[steps % 2] + 0.2) * 2.0;
            s1 += s1 / (2.0 + s5.atan2(s4).sin());
        } else {
            y2[i % 2] = -n;
        }
    }
    let mut s7: f64 = 0.0;
    for i in (0..data.len()).rev() {
        if data[i] < 0.25 {
            s7 += data[i] * (1.0 + n * n).ln();
        }
    }
    let y = y2[(steps + 1) % 2];
    [(1.0 + y * y).ln() * (n * 0.25 - 0.5) + s1 + s7, s1 - n - (s1 * s1).ln_1p() + y]
}

#[test]
fn bug57_a_branch_on_a_calls_value_in_a_one_pass_jacobian() {
    let data = [0.1, 0.7, -0.2];
    for (m, steps) in [(0.5, 3), (-0.7, 4), (1.3, 5)] {
        let (y, j) = condition_on_a_calls_value_jacobian(&data, steps, [[m]]);
        assert_eq!(y, condition_on_a_calls_value(&data, steps, [[m]]));
        let h = 1e-6;
        let (yp, ym) = (
            condition_on_a_calls_value(&data, steps, [[m + h]]),
            condition_on_a_calls_value(&data, steps, [[m - h]]),
        );
        for r in 0..2 {
            let fd = (yp[r] - ym[r]) / (2.0 * h);
            assert!((j[r][0] - fd).abs() < 1e-7 * (1.0 + fd.abs()), "{m}: row {r} {j:?} {fd}");
        }
    }
}

// Bug 59 (fuzzer seed 9975, refused): an element of a view of a constant array
// (`w[0]` of `c.windows(2)`, `c` left out of `wrt`) passed to a call was "cannot tell whether
// `w[0]` is an `f64`": a view had no type. It is now a sequence of its array's elements.

#[grad(jvp, hvp)]
pub fn scaled_atan(c: f64, x: f64) -> f64 {
    (c * x).atan()
}

/// `Σᵢ atan(cᵢ x)` over the first elements of `c`'s windows.
#[grad(wrt(x), jvp, hvp)]
pub fn over_windows(x: f64, c: &[f64; 4]) -> f64 {
    c.windows(2).map(|w| scaled_atan(w[0], x)).sum()
}

/// [`over_windows`] by index.
#[grad(wrt(x), jvp, hvp)]
#[allow(clippy::needless_range_loop)]
pub fn over_windows_by_index(x: f64, c: &[f64; 4]) -> f64 {
    let mut s = 0.0;
    for i in 0..3 {
        s += scaled_atan(c[i], x);
    }
    s
}

#[test]
fn bug59_an_element_of_a_view_of_a_constant_array_passed_to_a_call() {
    let c = [0.3, -1.2, 0.8, 2.0];
    for x in [0.4, -0.9, 1.7] {
        let (y, g) = over_windows_grad(x, &c);
        let exact: f64 = c[..3].iter().map(|ci| ci / (1.0 + (ci * x) * (ci * x))).sum();
        assert!(close(&[y, g], &[over_windows(x, &c), exact]), "{g} {exact}");
        let (yi, gi) = over_windows_by_index_grad(x, &c);
        assert!(same_bits(&[y, g], &[yi, gi]));
        let (_, _, hv) = over_windows_hvp(x, &c, 1.0);
        let (_, _, hvi) = over_windows_by_index_hvp(x, &c, 1.0);
        assert!(same_bits(&[hv], &[hvi]), "{hv} {hvi}");
    }
}

// Bug 67 (fuzzer seed 1802 × 300, program 1995, one ulp): in a loop that may end early, a row
// copied from an array and read by its elements (`let e = h[0]; .. e[0].hypot(0.5) .. e[0]`)
// was not read from the array, as it is in a `for` loop (bug 56): its sweep summed the row's
// cotangents first and added the row after, another order of additions than the `for` loop's.

/// A loop over two steps that scales `s` and adds `√(h₀₀² + ¼)` (when `x₀ < ⅔`) and `h₀₀`,
/// then `Σᵢ sin(i + s)` over a triangle of steps, by `for` loops.
#[grad(jvp, hvp)]
pub fn row_read_in_a_for(h: [[f64; 1]; 2], x: [f64; 3]) -> f64 {
    let mut s = x[0] * x[1];
    for r in 0..2 {
        for j in 0..2 {
            if x[j] <= 1.25 {
                s *= 1.0 + 0.25 * (r as f64 * 0.25).atan2(x[2]).atan();
            }
        }
        let e = h[0];
        if x[0] * 3.0 < 2.0 {
            s += e[0].hypot(0.5) + 1.125;
        }
        s += e[0];
    }
    for r in 1..3 {
        let mut u = -0.0;
        for j in 0..r {
            u += (j as f64 + s).sin();
        }
        s += u;
    }
    s
}

/// [`row_read_in_a_for`] by loops that may end early.
#[grad(jvp, hvp)]
pub fn row_read_in_a_loop_that_may_end_early(h: [[f64; 1]; 2], x: [f64; 3]) -> f64 {
    let mut s = x[0] * x[1];
    for r in 0..5 {
        if r >= 2 {
            break;
        }
        for j in 0..2 {
            if j >= 2 {
                break;
            }
            if x[j] <= 1.25 {
                s *= 1.0 + 0.25 * (r as f64 * 0.25).atan2(x[2]).atan();
            }
        }
        let e = h[0];
        if x[0] * 3.0 < 2.0 {
            s += e[0].hypot(0.5) + 1.125;
        }
        s += e[0];
    }
    for r in 1..6 {
        if r >= 3 {
            break;
        }
        let mut u = -0.0;
        for j in 0..r {
            if j >= r {
                break;
            }
            u += (j as f64 + s).sin();
        }
        s += u;
    }
    s
}

#[test]
fn bug67_a_row_read_by_its_elements_in_a_loop_that_may_end_early() {
    // Points near the fuzzer's: at some the two orders of additions round apart.
    let mut points =
        vec![(-0.13793608457613593, [-0.038306930696765606, 0.5281300558797009, 0.83])];
    points.extend((0..20).map(|k| {
        let t = f64::from(k);
        ((0.37 * t).sin() * 0.9, [(0.71 * t).cos() + 0.3, (1.3 * t).sin() - 0.1, 0.4])
    }));
    for (h, x) in points {
        let h = [[h], [0.0]];
        let (y, (gh, gx)) = row_read_in_a_loop_that_may_end_early_grad(h, x);
        let (yf, (fh, fx)) = row_read_in_a_for_grad(h, x);
        assert!(same_bits(&[y, gh[0][0], gh[1][0]], &[yf, fh[0][0], fh[1][0]]), "{gh:?} {fh:?}");
        assert!(same_bits(&gx, &fx), "{gx:?} {fx:?}");
        // Against central differences in h₀₀.
        let at = |v: f64| row_read_in_a_for([[v], [0.0]], x);
        let e = 1e-6;
        let fd = (at(h[0][0] + e) - at(h[0][0] - e)) / (2.0 * e);
        assert!((gh[0][0] - fd).abs() < 1e-6 * (1.0 + fd.abs()), "{} {fd}", gh[0][0]);
        let d = ([[1.0], [0.5]], [0.3, -0.2, 0.7]);
        let (_, _, (hh, hx)) = row_read_in_a_loop_that_may_end_early_hvp(h, x, d.0, d.1);
        let (_, _, (fhh, fhx)) = row_read_in_a_for_hvp(h, x, d.0, d.1);
        assert!(same_bits(&[hh[0][0], hh[1][0]], &[fhh[0][0], fhh[1][0]]));
        assert!(same_bits(&hx, &fhx), "{hx:?} {fhx:?}");
    }
}

#[test]
fn bug69_a_counter_stepped_in_a_loop_after_its_exit_test_read_as_an_index() {
    compiles("stepped_after_an_exit_test");
}
