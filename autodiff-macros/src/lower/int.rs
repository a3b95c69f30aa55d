//! Integer expressions in the places that need them (indices, loop bounds, array lengths,
//! integer `let`s), with a message per place for what they may not read.

use proc_macro2::TokenStream;
use syn::Expr;

use super::Lower;
use super::konst::{Bad, Konst, Mode};
use crate::ir::Int;

/// Where an integer expression is, for messages.
#[derive(Clone, Copy)]
pub(super) enum IntCtx {
    /// An index: `x[i]`.
    Index,
    /// A bound of a `for` loop's range.
    Bound,
    /// The length in `[v; N]`.
    Length,
    /// The value of an integer variable: `let j = (i + 1) % N;`.
    Let,
    /// An operand of a comparison of integers.
    Compare,
    /// What is added to or assigned to an integer counter: `idx += 2`.
    Counter,
}

impl IntCtx {
    fn what(self) -> &'static str {
        match self {
            IntCtx::Index => "indices",
            IntCtx::Bound => "loop bounds",
            IntCtx::Length => "array lengths",
            IntCtx::Let => "integer variables",
            IntCtx::Compare => "comparisons of integers",
            IntCtx::Counter => "updates of integer counters",
        }
    }

    fn example(self) -> &'static str {
        match self {
            IntCtx::Index => "`x[(i + N - 1) % N]`",
            IntCtx::Bound => "`0..N`, `i + 1..N` or `0..data.len()`",
            IntCtx::Length => "`[0.0; N]`",
            IntCtx::Let => "`let j = (i + 1) % N;`",
            IntCtx::Compare => "`i + 1 < N`",
            IntCtx::Counter => "`idx += 2` or `idx += n`",
        }
    }
}

impl Lower<'_> {
    /// `e` as an integer expression of the IR; reports what it may not read (placeholder `0`).
    pub(super) fn int_expr(&mut self, e: &Expr, ctx: IntCtx) -> Int {
        self.int_konst(e, ctx).map(|k| k.to_int()).unwrap_or_else(|| Int::lit(0))
    }

    /// `e` as an integer constant expression, or `None` after reporting why it is not one.
    pub(super) fn int_konst(&mut self, e: &Expr, ctx: IntCtx) -> Option<Konst> {
        match self.konst(e, Mode::Int) {
            Ok(k) => Some(k),
            Err(Bad::Reported) => None,
            Err(Bad::Real(at)) => {
                self.int_error(at, ctx, true);
                None
            }
            Err(Bad::Syntax(at)) => {
                self.int_error(at, ctx, false);
                None
            }
        }
    }

    fn int_error(&mut self, at: TokenStream, ctx: IntCtx, real: bool) {
        let (what, example) = (ctx.what(), ctx.example());
        let message = if real {
            format!(
                "`#[grad]` does not support {what} that read `f64` values; they are integer expressions of loop variables, integer parameters and constants, such as {example}"
            )
        } else {
            format!(
                "`#[grad]` supports in {what} only integer arithmetic (`+ - * / %`) on literals, loop variables, integer parameters, constants and `.len()`, such as {example}"
            )
        };
        self.cx.error_spanned(at, message);
    }
}
