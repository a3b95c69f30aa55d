//! Reproducers found by a bug hunt over loops, branches, calls and checkpoints, each reduced to a
//! minimal function. Functions here compile with rustc: [`else_block_opening_with_if`] gives
//! wrong values (its tests in `tests/hunt.rs` fail), the others before `inner_loop_then_cost!`
//! reproduce a lint in the generated code, so `cargo clippy --workspace --all-targets -- -D
//! warnings` fails on them until the macro is fixed (their numbers are right). Reproducers that do
//! not compile at all live in `tests/ui/hunt/`, run by `tests/hunt.rs` as trybuild pass cases; once
//! their bug is fixed they move here, from `inner_loop_then_cost!` on, and stay as regression tests.

use autodiff_runtime::grad;

/// A loop whose branches keep `s̄` constant along the direction (every update is linear in `s`):
/// `_hvp` emits `x_bar_dot[i] = x_bar_dot[i];` (the tangent of `x̄ᵢ += s̄` with `ṡ̄ = 0`) and
/// `x_bar_dot[0] = x_bar_dot[0];` after the loop, which `clippy::self_assignment` (deny-by-default
/// in `clippy::all`) rejects.
#[grad(jvp, hvp)]
#[allow(clippy::needless_range_loop)]
pub fn piecewise_linear_steps(x: [f64; 2]) -> f64 {
    let mut s = x[0];
    for i in 0..2 {
        if s > 1.0 {
            s = s * 0.5 + x[i];
        } else {
            s += x[i] * x[i];
        }
    }
    s
}

/// A loop-carried value updated by an `if` expression, `s = if c { s * xᵢ } else { s + xᵢ }`:
/// the generated forward loops write `s = s * x[i];` and `s = s + x[i];` in the branches, which
/// `clippy::assign_op_pattern` rejects (the user's code has no such statement).
#[grad(jvp, hvp)]
#[allow(clippy::needless_range_loop)]
pub fn branch_expression_update(x: [f64; 3]) -> f64 {
    let mut s = 0.3;
    for i in 0..3 {
        s = if s > 0.5 { s * x[i] } else { s + x[i] };
    }
    s
}

/// An `else` block that opens with an `if` statement and goes on (here with a loop), inside a
/// loop: the generated code writes `if i == 0 { … } else if s > 0.0 { … }` and then the rest of
/// the `else` block after the whole `if`, so it runs on both sides. `codegen/body.rs`,
/// `is_lone_if`, takes the `else` block for one `if` because no `;` or `let` follows it at the
/// top level (a `for` loop or another `if` has no `;`). The value and every derivative are wrong:
/// at (2, 3), `f = 36` but `_grad` returns 144.
#[grad(jvp, hvp)]
pub fn else_block_opening_with_if(x: [f64; 2]) -> f64 {
    let mut s = x[0];
    for i in 0..2 {
        if i == 0 {
            s *= 1.5;
        } else {
            if s > 0.0 {
                s *= x[1];
            }
            for _ in 0..2 {
                s *= x[0];
            }
        }
    }
    s
}

/// The state after each step of an outer loop updated by an inner loop (`s *= b` twice), then a
/// cost accumulated from it: `t = sin(a b²) + sin(a b⁴)`. The body every function of this shape
/// below shares.
///
/// The bug (fixed): "internal error in `#[grad]`: the reverse transform produced invalid IR" for
/// an outer loop holding an inner loop whose result is read afterwards by something the sweep
/// needs stored (`t += s.sin()`): the outer loop stored the inner loop's result, so the outer
/// sweep's recomputation (`transform/reverse/replay.rs`, `recompute`: "all defs mapped → skip")
/// did not replay the inner loop, whose own sweep then read values of the inner iterations that
/// existed nowhere. The common shape of a time loop: update the state, then accumulate a cost
/// from it. Now the plan (`transform/plan.rs`) stores no result of an inner loop that runs again
/// in the outer sweep: that run gives it.
macro_rules! inner_loop_then_cost {
    ($name:ident, $($option:tt)*) => {
        #[doc = concat!(
            "`t = sin(a b²) + sin(a b⁴)` by an outer loop over an inner loop, with `#[grad(",
            stringify!($($option)*), ")]`: see `inner_loop_then_cost!`."
        )]
        #[grad($($option)*)]
        pub fn $name(a: f64, b: f64) -> f64 {
            let mut s = a;
            let mut t = 0.0;
            for _ in 0..2 {
                for _ in 0..2 {
                    s *= b;
                }
                t += s.sin();
            }
            t
        }
    };
}

inner_loop_then_cost!(inner_loop_then_cost, jvp, hvp);
inner_loop_then_cost!(inner_loop_then_cost_checkpointed, hvp, checkpoint(s = 2));

/// [`inner_loop_then_cost`] over `steps` steps, a number known only at run time: the outer loop
/// is checkpointed, the inner one stored within a step. `t = Σₖ sin(a b²ᵏ)`, `k = 1..=steps`.
#[grad(hvp, wrt(a, b))]
pub fn inner_loop_then_cost_steps(a: f64, b: f64, steps: usize) -> f64 {
    let mut s = a;
    let mut t = 0.0;
    for _ in 0..steps {
        for _ in 0..2 {
            s *= b;
        }
        t += s.sin();
    }
    t
}

/// The array form of [`inner_loop_then_cost`], the same bug: an inner loop updates the state
/// (`yⱼ = sin yⱼ`), a second one accumulates a cost from it (`s += sin yₖ`).
/// `s = Σₖ sin(sin xₖ) + sin(sin(sin xₖ))`.
#[grad(jvp, hvp)]
#[allow(clippy::needless_range_loop)]
pub fn inner_array_loop_then_cost(x: [f64; 2]) -> f64 {
    let mut s = 0.0;
    let mut y = x;
    for _ in 0..2 {
        for j in 0..2 {
            y[j] = y[j].sin();
        }
        for k in 0..2 {
            s += y[k].sin();
        }
    }
    s
}

/// A branch computing the same product twice (`x * p`, then `p * x`) and yielding the second:
/// `f = 2xy` for `x > 0`, `f = y` otherwise.
///
/// The bug (fixed): `#[grad(jvp)]` failed with "internal error ... the forward transform produced
/// invalid IR": the forward transform's builder merges the two products, and the primal yield
/// was copied without being resolved before the block's scope (where the merge is recorded) was
/// closed (`transform/forward.rs`, `for_loop` and `branch`: `l.yields.clone()` /
/// `yields.to_vec()`). Now every transform closes a block with `Builder::end_yielding`, which
/// resolves the yields first.
#[grad(jvp, hvp)]
#[allow(clippy::assign_op_pattern)]
pub fn repeated_product_in_branch(x: f64, y: f64) -> f64 {
    let mut s = 0.0;
    let mut p = y;
    if x > 0.0 {
        s = x * p;
        p = p * x;
    }
    s + p
}

/// The loop form of [`repeated_product_in_branch`], the same bug: `p = x²` and `q = x²`, so
/// `f = 2x²`.
#[grad(jvp, hvp)]
#[allow(clippy::assign_op_pattern)]
pub fn repeated_product_in_loop(x: f64) -> f64 {
    let mut p = 1.0;
    let mut q = 0.0;
    for _ in 0..2 {
        q = p * x;
        p = x * p;
    }
    p + q
}
