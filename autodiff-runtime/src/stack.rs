//! Checks of sizes the macro cannot compute. At compile time, evaluated by rustc in a `const`
//! block: the stack the generated reverse sweeps use for stored values (so an oversized sweep is a
//! compile error, never a stack overflow at run time), and the sizes of a Hessian or Jacobian
//! that the caller writes in the result's type. At run time: the lengths of the buffers and
//! directions of a slice parameter.

/// Runs `sweep`, one variant of a derivative function's body, in a stack frame of its own. A
/// function whose loops are swept in several ways (stored in arrays of one capacity or another,
/// or checkpointed) holds each way in a closure and calls the one it takes through this: inlined
/// into the function, every variant's arrays would be in the function's frame, whose stack probes
/// touch each of its pages on every call, whichever variant runs (at 512 KiB, about a
/// microsecond).
#[inline(never)]
pub fn variant<R>(sweep: impl FnOnce() -> R) -> R {
    sweep()
}

/// [`variant`] for a variant that takes the function's shared references as its parameters
/// (`variant_with(stored, (alphas, means))` runs `stored(alphas, means)`): each reaches the
/// variant's frame as a parameter of the function that is not inlined, which LLVM marks
/// `noalias` (nothing writes the memory behind a `&T` while the call lasts). A reference the
/// closure captures is read from the closure's environment, a pointer LLVM knows nothing
/// about. Measured on ADBench's GMM (BENCHMARKS.md, "GMM: the references passed to the
/// variant"): with the references captured, LLVM kept the copies of each component's arrays
/// into and out of their storage, 7 % of the gradient's instructions at d = 10.
#[inline(always)]
pub fn variant_with<Args, S: Sweep<Args>>(sweep: S, args: Args) -> S::Out {
    sweep.run(args)
}

/// [`variant_with`] for a variant whose storage is small (a page or less): called in line, as
/// a plain call of the closure. Out of line, a variant called in a loop (ADBench's GMM at
/// d = 2 calls `logsumexp_grad` once per point) pays the call and the copy of its result each
/// time; the frame it would keep apart is at most a page larger.
#[inline(always)]
pub fn variant_inline<Args, S: Sweep<Args>>(sweep: S, args: Args) -> S::Out {
    sweep.call(args)
}

/// A variant of a derivative function's body that takes its arguments `Args` (a tuple of up to
/// 12) as parameters: implemented for closures of that many parameters.
pub trait Sweep<Args> {
    /// The variant's result.
    type Out;
    /// Runs the variant in a frame of its own, each argument a parameter of that frame.
    fn run(self, args: Args) -> Self::Out;
    /// Runs the variant in the caller's frame.
    fn call(self, args: Args) -> Self::Out;
}

impl<F: FnOnce() -> R, R> Sweep<()> for F {
    type Out = R;
    #[inline(always)]
    fn run(self, (): ()) -> R {
        variant(self)
    }
    #[inline(always)]
    fn call(self, (): ()) -> R {
        self()
    }
}

/// Implements [`Sweep`] for closures of the parameters `$a`, through `$run`, a function not
/// inlined that takes each as a parameter of its own.
macro_rules! sweep {
    ($run:ident: $($a:ident),+) => {
        #[inline(never)]
        #[allow(non_snake_case, clippy::too_many_arguments)]
        fn $run<F: FnOnce($($a),+) -> R, R, $($a),+>(sweep: F, $($a: $a),+) -> R {
            sweep($($a),+)
        }

        impl<F: FnOnce($($a),+) -> R, R, $($a),+> Sweep<($($a,)+)> for F {
            type Out = R;
            #[inline(always)]
            #[allow(non_snake_case)]
            fn run(self, ($($a,)+): ($($a,)+)) -> R {
                $run(self, $($a),+)
            }
            #[inline(always)]
            #[allow(non_snake_case)]
            fn call(self, ($($a,)+): ($($a,)+)) -> R {
                self($($a),+)
            }
        }
    };
}

sweep!(run1: A);
sweep!(run2: A, B);
sweep!(run3: A, B, C);
sweep!(run4: A, B, C, D);
sweep!(run5: A, B, C, D, E);
sweep!(run6: A, B, C, D, E, G);
sweep!(run7: A, B, C, D, E, G, H);
sweep!(run8: A, B, C, D, E, G, H, I);
sweep!(run9: A, B, C, D, E, G, H, I, J);
sweep!(run10: A, B, C, D, E, G, H, I, J, K);
sweep!(run11: A, B, C, D, E, G, H, I, J, K, L);
sweep!(run12: A, B, C, D, E, G, H, I, J, K, L, M);

/// The longest message, in bytes (longer ones are cut).
const BUF: usize = 1024;

/// Fails to compile, saying both numbers, when `bytes` exceeds `budget`.
pub const fn check_stack(bytes: usize, budget: usize) {
    if bytes <= budget {
        return;
    }
    let mut buf = [0u8; BUF];
    let mut n = 0;
    n = push(&mut buf, n, b"the reverse sweep of this `#[grad]` function stores ");
    n = push_number(&mut buf, n, bytes);
    n = push(&mut buf, n, b" bytes on the stack, over the budget of ");
    n = push_number(&mut buf, n, budget);
    n = push(&mut buf, n, b" bytes; checkpoint its loops with `#[grad(checkpoint)]` (a few snapshots instead of every step) or take fewer snapshots with `#[grad(checkpoint(s = 4))]`, or raise the budget with `#[grad(stack = BYTES)]` (the thread must have that much stack to spare)");
    let (text, _) = buf.split_at(n);
    match core::str::from_utf8(text) {
        Ok(message) => panic!("{}", message),
        Err(_) => {
            panic!("the reverse sweep of this `#[grad]` function stores more than its stack budget")
        }
    }
}

/// Fails to compile when `got`, the size `name` that the caller wrote, is not `want`: `what` says
/// what `name` must be, and the message adds both numbers.
pub const fn check_size(got: usize, want: usize, what: &str, name: &str) {
    if got == want {
        return;
    }
    let mut buf = [0u8; BUF];
    let mut n = 0;
    n = push(&mut buf, n, what.as_bytes());
    n = push(&mut buf, n, b", which is ");
    n = push_number(&mut buf, n, want);
    n = push(&mut buf, n, b" here, not ");
    n = push_number(&mut buf, n, got);
    n = push(&mut buf, n, b"; write ");
    n = push_number(&mut buf, n, want);
    n = push(&mut buf, n, b" for `");
    n = push(&mut buf, n, name.as_bytes());
    n = push(&mut buf, n, b"` in the result's type");
    let (text, _) = buf.split_at(n);
    match core::str::from_utf8(text) {
        Ok(message) => panic!("{}", message),
        Err(_) => panic!("a size written in the result's type of a `#[grad]` function is wrong"),
    }
}

/// Panics, at the caller of the generated function, when a buffer or a direction of a slice has
/// `got` elements where its slice has `want`: `what` names both (a short buffer would leave part
/// of a gradient unwritten, a long one would hide a mistake).
///
/// Inlined, so that the optimiser knows the lengths equal past it and drops the bounds checks of
/// the buffer's writes in the loops that follow; the panic itself is out of line.
#[track_caller]
#[inline]
pub fn check_len(got: usize, want: usize, what: &str) {
    if got != want {
        wrong_len(got, want, what);
    }
}

/// The panic of [`check_len`], kept out of the generated function's code.
#[track_caller]
#[cold]
#[inline(never)]
fn wrong_len(got: usize, want: usize, what: &str) -> ! {
    panic!("{what}, which is {want}, not {got}");
}

const fn push(buf: &mut [u8; BUF], mut n: usize, text: &[u8]) -> usize {
    let mut i = 0;
    while i < text.len() && n < buf.len() {
        buf[n] = text[i];
        n += 1;
        i += 1;
    }
    n
}

const fn push_number(buf: &mut [u8; BUF], n: usize, value: usize) -> usize {
    let mut digits = [0u8; 20];
    let (mut len, mut v) = (0, value);
    loop {
        digits[len] = b'0' + (v % 10) as u8;
        len += 1;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    let mut out = [0u8; 20];
    let mut i = 0;
    while i < len {
        out[i] = digits[len - 1 - i];
        i += 1;
    }
    let (used, _) = out.split_at(len);
    push(buf, n, used)
}

#[cfg(test)]
mod tests {
    use super::{check_size, check_stack, variant_inline, variant_with};

    #[test]
    fn a_variant_gets_its_arguments_in_order_in_line_or_not() {
        let (x, w) = ([1.0, 2.0], [3.0, 5.0]);
        let dot = |x: &[f64; 2], w: &[f64; 2]| x[0] * w[0] + x[1] * w[1];
        assert_eq!(variant_with(dot, (&x, &w)), 13.0);
        assert_eq!(variant_inline(dot, (&x, &w)), 13.0);
        assert_eq!(variant_with(|| 7.0, ()), 7.0);
        assert_eq!(variant_inline(|| 7.0, ()), 7.0);
        // Twelve, the most `Sweep` takes, each in its place.
        let v: [f64; 12] = core::array::from_fn(|i| (i + 1) as f64);
        let weigh = |a: &f64,
                     b: &f64,
                     c: &f64,
                     d: &f64,
                     e: &f64,
                     f: &f64,
                     g: &f64,
                     h: &f64,
                     i: &f64,
                     j: &f64,
                     k: &f64,
                     l: &f64| {
            [a, b, c, d, e, f, g, h, i, j, k, l]
                .iter()
                .enumerate()
                .map(|(n, x)| n as f64 * **x)
                .sum::<f64>()
        };
        let args =
            (&v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9], &v[10], &v[11]);
        let want: f64 = (0..12).map(|n| (n * (n + 1)) as f64).sum();
        assert_eq!(variant_with(weigh, args), want);
        assert_eq!(variant_inline(weigh, args), want);
    }

    #[test]
    fn within_budget_passes_and_over_budget_says_both_numbers() {
        check_stack(100, 100);
        let err = std::panic::catch_unwind(|| check_stack(8_000_000, 524_288)).unwrap_err();
        let text = err.downcast_ref::<String>().cloned().unwrap_or_default();
        assert!(
            text.contains("stores 8000000 bytes") && text.contains("budget of 524288 bytes"),
            "{text}"
        );
    }

    #[test]
    fn a_wrong_size_says_what_it_must_be() {
        check_size(4, 4, "", "M");
        let err = std::panic::catch_unwind(|| check_size(5, 4, "`M` must be `N + 1`", "M"));
        let text = err.unwrap_err().downcast_ref::<String>().cloned().unwrap_or_default();
        assert_eq!(
            text,
            "`M` must be `N + 1`, which is 4 here, not 5; write 4 for `M` in the result's type"
        );
    }
}
