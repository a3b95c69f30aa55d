//! What the generated code puts at the head of an outer loop's body, for the optimiser.

use core::sync::atomic::{Ordering, compiler_fence};

/// Starts the body of a loop that holds other loops, in generated code: a compiler fence (no
/// instruction) that keeps LLVM from vectorizing the outer loop across its iterations.
///
/// When LLVM unrolls a nest's inner loops completely (short rows of a constant length), the
/// outer loop becomes its innermost loop, and its vectorizer may run two iterations side by
/// side: in a row-major array that is two rows, read and written element by element through
/// strided gathers (`movsd` and `movhpd` pairs) instead of the rows' contiguous elements. In
/// ADBench's GMM at d = 10 that made the generated gradient 1.14 × the hand-written one against
/// 0.96 with this fence (BENCHMARKS.md, "GMM at d = 10: outer loops kept scalar"). The fence
/// orders only memory accesses the compiler could move across it; values in registers, the
/// inner loops and their vectorization are not affected.
#[inline(always)]
pub fn outer_loop() {
    compiler_fence(Ordering::SeqCst);
}
