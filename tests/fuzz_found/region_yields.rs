// Macro bug 5: internal error "the forward transform (of the gradient) produced invalid IR (...
// a result reads %N where it is not defined)" when a branch or a loop yields a value that also
// exists outside it: a common subexpression, one value for two variables, or (for `hvp`) a
// variable a branch leaves unchanged.
use autodiff_runtime::grad;

// `x + y` is computed before the branch, which yields it.
#[grad(jvp)]
fn branch_yields_an_earlier_value(x: f64, y: f64) -> f64 {
    let t = x + y;
    let s = if x > 0.5 { x + y } else { x };
    s * t
}

// The branch's value is computed in its condition (a clamp).
#[grad(jvp)]
fn branch_yields_its_condition(x: f64) -> f64 {
    if x * 2.0 > 0.3 { x } else { x * 2.0 }
}

// Both variables get the value `x + 1.0` in the `else` branch.
#[grad(jvp)]
fn one_value_for_two_variables(x: f64) -> f64 {
    let mut s = x;
    let mut t = x;
    if x > 0.5 {
        s = x * 2.0;
        t = x * 3.0;
    } else {
        s += 1.0;
        t += 1.0;
    }
    s * t
}

// The loop carries `t + 1.0`, which the update of `s` computes first.
#[grad(jvp)]
fn loop_carries_a_common_subexpression(a: f64) -> f64 {
    let mut s = a;
    let mut t = a;
    for _ in 0..2 {
        s *= t + 1.0;
        t += 1.0;
    }
    s
}

// `hvp`: the `else` branch yields `x` unchanged, and `sin` (also `tanh`, `powi`, `powf`) of the
// result needs its tangent.
#[grad(hvp)]
fn branch_leaves_a_value_unchanged(x: f64) -> f64 {
    let s = if x >= 0.2 { x + 1.0 } else { x };
    s.sin()
}

fn main() {
    let _ = (
        branch_yields_an_earlier_value_jvp(1.0, 2.0, 1.0, 0.0),
        branch_yields_its_condition_jvp(1.0, 1.0),
    );
    let _ = (
        one_value_for_two_variables_jvp(1.0, 1.0),
        loop_carries_a_common_subexpression_jvp(1.0, 1.0),
    );
    let _ = branch_leaves_a_value_unchanged_hvp(1.0, 1.0);
}
