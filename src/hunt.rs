//! Reproducers found by a bug hunt over loops, branches, calls and checkpoints, each reduced to a
//! minimal function. All are fixed; each stays as a
//! regression test (`tests/hunt.rs`, against closed forms or the chain rule step by step), and
//! since this crate denies warnings and `clippy::all`, as a lint check of the generated code.

// The user's loops index arrays by their loop variable, as the reproducers were written.
#![allow(clippy::needless_range_loop)]

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

pub mod call_result_yielded {
    //! Fixed bug: the result of a call that is read only as a loop's or a branch's result (`s = g(s, x)` as
    //! the last update of a loop-carried `s`; `if c { g(x, x) } else { x }`) is bound to `_`
    //! (`let (_, (d…)) = g_grad(s, x);`), then assigned: "cannot find value `s_1`". `codegen/reads.rs`
    //! (`collect`) does not count the yields of loops, branches and checkpoints as reads.

    use autodiff_runtime::grad;

    /// A reproducer (see the module's documentation).
    #[grad(jvp, hvp)]
    pub fn scaled(a: f64, b: f64) -> f64 {
        a * b
    }

    /// s = x · x · x
    #[grad(jvp, hvp)]
    pub fn call_yielded_by_loop(x: f64) -> f64 {
        let mut s = x;
        for _ in 0..2 {
            s = scaled(s, x);
        }
        s
    }

    /// x² for x > 0
    #[grad(jvp, hvp)]
    pub fn call_yielded_by_branch(x: f64) -> f64 {
        if x > 0.0 { scaled(x, x) } else { x }
    }
}

pub mod cast_in_comparison {
    //! Fixed bug: a comparison whose left side is a cast (`(n as f64) < x`) is emitted without the
    //! parentheses, `n as f64 < x`, which Rust parses as generic arguments of `f64` (a parse error in
    //! the expansion). `codegen/expr.rs`, `cond`: operands are parenthesised only below `Prec::Sum`,
    //! and a cast (`Prec::Cast`) before `<` needs them.

    use autodiff_runtime::grad;

    /// A reproducer (see the module's documentation).
    #[grad(jvp, hvp)]
    pub fn cast_compare(x: f64, n: i32) -> f64 {
        if (n as f64) < x { x * x } else { x }
    }

    /// A reproducer (see the module's documentation).
    #[grad]
    pub fn index_compare(x: [f64; 3]) -> f64 {
        let mut s = 0.0;
        for i in 0..3 {
            if (i as f64) < 1.5 {
                s += x[i];
            }
        }
        s
    }
}

pub mod checkpoint_inner_bound_index {
    //! Fixed bug: with `checkpoint`, an outer loop whose inner loop's bounds depend on the outer index
    //! (`for j in 0..i`) does not compile: the outer sweep's closure binds its index as `_`, while the
    //! inner checkpoint's trip count reads it ("cannot find value `i`"). `block_reads` in
    //! `codegen/body.rs` does not look at a nested `Checkpoint`'s range.

    use autodiff_runtime::grad;

    /// A reproducer (see the module's documentation).
    #[grad(hvp, checkpoint)]
    pub fn checkpointed_triangle(x: [f64; 3]) -> f64 {
        let mut s = x[0];
        for i in 0..3 {
            for j in 0..i {
                s *= x[j];
            }
        }
        s
    }
}

pub mod checkpoint_literal_lower_bound {
    //! Fixed bug: a checkpointed loop whose lower bound is a nonzero literal (`for i in 1..3`) does not
    //! compile: its trip count is emitted as `(3).saturating_sub(1)`, a method call on an ambiguous
    //! `{integer}` (E0689; `codegen/body.rs`, `checkpoint`: `(#end).saturating_sub(#lo)`). The same
    //! with a bound depending on an outer index: `(3).saturating_sub(i)`.

    use autodiff_runtime::grad;

    /// A reproducer (see the module's documentation).
    #[grad(checkpoint)]
    pub fn checkpointed_from_one(x: [f64; 3]) -> f64 {
        let mut s = x[0];
        for i in 1..3 {
            s *= x[i];
        }
        s
    }

    /// A reproducer (see the module's documentation).
    #[grad(checkpoint)]
    pub fn checkpointed_suffix(x: [f64; 3]) -> f64 {
        let mut s = x[0];
        for i in 0..3 {
            for j in i..3 {
                s *= x[j];
            }
        }
        s
    }
}

pub mod stack_budget_not_monotonic {
    //! Fixed bug: the stack budget is not monotonic. With `stack = 176` this function compiles; with
    //! `stack = 200` (more room) it is refused: "need 240 bytes ... raise the budget with
    //! `#[grad(stack = 240)]`", and likewise 400 is refused while 240 passes. The snapshot count is
    //! chosen from the budget for the gradient's state, then the H·v sweep (whose snapshots also
    //! carry the tangents) needs more than the budget. The errors' suggestions mislead the same way:
    //! at `stack = 64` the gradient's error says 88, and 88 is then refused for H·v (176).

    use autodiff_runtime::grad;

    /// A reproducer (see the module's documentation).
    #[grad(hvp, stack = 200)]
    pub fn budgeted(x: [f64; 3]) -> f64 {
        let mut s = 0.1;
        let mut y = x;
        for t in 0..20 {
            for i in 0..3 {
                y[i] = (y[i] + s * 0.1).sin();
            }
            s = s * 0.9 + y[t % 3];
        }
        s
    }

    /// A reproducer (see the module's documentation).
    #[grad(hvp)]
    pub fn unbudgeted(x: [f64; 3]) -> f64 {
        let mut s = 0.1;
        let mut y = x;
        for t in 0..20 {
            for i in 0..3 {
                y[i] = (y[i] + s * 0.1).sin();
            }
            s = s * 0.9 + y[t % 3];
        }
        s
    }
}

pub mod suffixed_loop_bound {
    //! Fixed bug: the type suffix of a loop bound is dropped: `for i in 0..3_usize` is emitted as
    //! `for i in 0..3`, so an integer method called on the index before anything fixes its type
    //! (`i.abs_diff(1)`) is ambiguous in the generated code (E0689) though `f` compiles.

    use autodiff_runtime::grad;

    /// A reproducer (see the module's documentation).
    #[grad]
    pub fn suffixed_bound(x: [f64; 3]) -> f64 {
        let mut s = 0.0;
        for i in 0..3_usize {
            s += x[i.abs_diff(1)] * (i as f64);
        }
        s
    }
}

pub mod typed_literal_carried {
    //! Fixed bug: a loop-carried `f64` declared with its type (`let mut s: f64 = 0.5;`, or `0.5_f64`) and
    //! then used as a method receiver in the loop: the generated functions declare it as
    //! `let mut s = 0.5;` (type and suffix dropped, `codegen/body.rs` `let mut #id = #init;`), and
    //! rustc cannot call `sin` on an ambiguous `{float}` (E0689). `f` itself compiles.

    use autodiff_runtime::grad;

    /// A reproducer (see the module's documentation).
    #[grad(jvp, hvp)]
    pub fn annotated(x: f64) -> f64 {
        let mut s: f64 = 0.5;
        for _ in 0..3 {
            s = s.sin() + x;
        }
        s
    }

    /// A reproducer (see the module's documentation).
    #[grad(jvp, hvp)]
    pub fn suffixed(x: f64) -> f64 {
        let mut s = 0.5_f64;
        for _ in 0..3 {
            s = s.sin() * x;
        }
        s
    }
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
