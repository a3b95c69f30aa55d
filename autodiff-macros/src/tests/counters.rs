//! Integer counters: what is refused, with its message at its span (and nothing reported
//! twice), and the closed forms as the expansion writes them.

use expect_test::{Expect, expect};
use proc_macro2::TokenStream;
use quote::quote;

use crate::ctxt::Ctxt;
use crate::lower::lower;

/// The errors lowering reports for `src`, each as "message @ `spanned source text`".
fn errors(src: &str) -> Vec<String> {
    let mut cx = Ctxt::new();
    let args = crate::args::parse(&mut cx, proc_macro2::TokenStream::new());
    let item: syn::ItemFn = syn::parse_str(src).expect("test input is a function");
    lower(&mut cx, &item, &args);
    cx.errors()
        .iter()
        .map(|e| {
            let text = e.span().source_text().unwrap_or_default();
            format!("{e} @ `{text}`")
        })
        .collect()
}

fn expect_errors(src: &str, expected: Expect) {
    expected.assert_eq(&(errors(src).join("\n") + "\n"));
}

fn no_errors(src: &str) {
    assert_eq!(errors(src), Vec::<String>::new());
}

#[test]
fn a_counter_advanced_in_a_branch() {
    expect_errors(
        "fn f(x: [f64; 8]) -> f64 {
            let mut s = 0.0;
            let mut idx = 0;
            for i in 0..4 {
                s += x[idx];
                if x[i] > 0.0 { idx += 1; }
            }
            let mut k = 0;
            if s > 1.0 { k += 2; } else { k = 1; }
            match k { 0 => s += x[k], _ => {} }
            s + x[idx] + x[k]
        }",
        expect![[r#"
            `#[grad]` holds the integer counter `idx` as a number from its update inside an `if` or a `match`, or in a loop that may end early (where it has no closed form): it supports comparing it, `+`, `-` and `*` on it, and reading it as `idx as f64`, not reading it as an index, a bound or another integer, nor dividing it; compute such an index from the loop variables @ `idx`
            `#[grad]` holds the integer counter `k` as a number from its update inside an `if` or a `match`, or in a loop that may end early (where it has no closed form): it supports comparing it, `+`, `-` and `*` on it, and reading it as `k as f64`, not reading it as an index, a bound or another integer, nor dividing it; compute such an index from the loop variables @ `k`
            `#[grad]` holds the integer counter `idx` as a number from its update inside an `if` or a `match`, or in a loop that may end early (where it has no closed form): it supports comparing it, `+`, `-` and `*` on it, and reading it as `idx as f64`, not reading it as an index, a bound or another integer, nor dividing it; compute such an index from the loop variables @ `idx`
            `#[grad]` holds the integer counter `k` as a number from its update inside an `if` or a `match`, or in a loop that may end early (where it has no closed form): it supports comparing it, `+`, `-` and `*` on it, and reading it as `k as f64`, not reading it as an index, a bound or another integer, nor dividing it; compute such an index from the loop variables @ `k`
        "#]],
    );
}

/// Where the function's scalar type cannot hold every count, a counter is not held as a number:
/// updating one in a branch, or in a loop that may end early, is refused at the update.
#[test]
fn a_counter_in_a_branch_of_an_f32_function() {
    expect_errors(
        "fn f(x: [f32; 8]) -> f32 {
            let mut s = 0.0;
            let mut n = 0;
            for i in 0..8 {
                if x[i] > 0.0 { n += 1; }
                s += x[i];
            }
            let mut k = 0;
            while s > 1.0 { s *= 0.5; k += 1; }
            s / n as f32 + k as f32
        }",
        expect![[r#"
            `#[grad]` does not support updating the integer counter `n` inside an `if` or a `match` in a function over `f32` or a generic float: its value after the branch would depend on the branch taken, and the function's scalar type cannot hold every count; update it on every path, compute the index from the loop variables, or count in an `f64` variable @ `n += 1`
            `#[grad]` does not support updating the integer counter `k` in a loop that may end early (`while`, `loop`, or a `for` loop with `break` or `return`) in a function over `f32` or a generic float: its value there has no closed form, and the function's scalar type cannot hold every count; in a `for` loop over a range without `break`, compute the index from the loop variable, or count in an `f64` variable @ `while`
        "#]],
    );
}

#[test]
fn a_counter_set_or_scaled_in_a_loop() {
    expect_errors(
        "fn f(x: [f64; 8]) -> f64 {
            let mut s = 0.0;
            let mut idx = 0;
            let mut k = 1;
            let mut m = 0;
            for i in 0..4 {
                idx = 0;
                s += x[idx + i];
                k *= 2;
                m = m + 1;
                s += x[m];
            }
            s + x[idx] + x[k % 8] + x[m]
        }",
        expect![[r#"
            `#[grad]` supports only `idx += ...` and `idx -= ...` on the integer counter `idx` inside a loop it is declared outside of; declare `idx` inside the loop if each iteration starts it afresh, or compute the index from the loop variables @ `idx = 0`
            `#[grad]` supports only `k += ...` and `k -= ...` on the integer counter `k` inside a loop it is declared outside of; declare `k` inside the loop if each iteration starts it afresh, or compute the index from the loop variables @ `k *= 2`
        "#]],
    );
}

#[test]
fn amounts_the_loop_cannot_sum() {
    // `e` (advanced by an immutable `let` of the loop variable) and `g` are summed.
    expect_errors(
        "fn f(x: [f64; 8]) -> f64 {
            let mut s = 0.0;
            let mut a = 0;
            let mut b = 0;
            let mut c = 0;
            let mut d = 0;
            let mut e = 0;
            let mut g = 0;
            for i in 0..4 {
                let mut step = 1;
                step += i;
                a += step;
                b += b;
                c += x[i] as usize;
                d += i * i;
                let w = 2 * i + 1;
                e += w;
                g += 1;
                s += x[a % 8] + x[b % 8] + x[c % 8] + x[d % 8] + x[e % 8] + x[g % 8];
            }
            s + x[a % 8] + x[g % 8]
        }",
        expect![[r#"
            `#[grad]` cannot sum what this loop adds to the integer counter `a`: `step` is declared inside the loop; an amount may read constants, loop variables and integer variables declared before the loop or as immutable `let`s in it @ `step`
            `#[grad]` cannot sum what this loop adds to the integer counter `b`: it reads `b`, a counter the loop advances too; an amount may read constants, loop variables and integer variables declared before the loop or as immutable `let`s in it @ `b`
            `#[grad]` does not support updates of integer counters that read `f64` values; they are integer expressions of loop variables, integer parameters and constants, such as `idx += 2` or `idx += n` @ `x`
            `#[grad]` cannot give the integer counter `d` a closed form in this loop: each iteration must advance it by the same amount or by an amount linear in `i` (as `d += i` or an inner loop over `i + 1..n` does); compute the index from the loop variables instead @ `i * i`
        "#]],
    );
}

#[test]
fn inner_loops_the_counter_cannot_be_summed_over() {
    expect_errors(
        "fn f(x: [f64; 8], n: usize) -> f64 {
            let mut s = 0.0;
            let mut a = 0;
            let mut b = 0;
            let mut c = 0;
            for i in 0..n {
                for j in 0..i {
                    for _ in 0..j {
                        a += 1;
                    }
                }
                for _ in i + 2..n {
                    b += 1;
                }
                let m = i + 1;
                for _ in m..n {
                    c += 1;
                }
                s += x[a % 8] + x[b % 8] + x[c % 8];
            }
            s
        }",
        expect![[r#"
            `#[grad]` cannot give the integer counter `a` a closed form in this loop: each iteration must advance it by the same amount or by an amount linear in `i` (as `a += i` or an inner loop over `i + 1..n` does); compute the index from the loop variables instead @ `0..n`
            `#[grad]` cannot sum what this loop adds to the integer counter `b`: the range may run backwards (start after its end) for some `i`, and its trip count is then not `n - i - 2`; write a range that cannot, such as `0..n`, or `i + 1..n` in `for i in 0..n` @ `i + 2..n`
        "#]],
    );
}

#[test]
fn a_counter_read_after_a_loop_that_may_run_backwards() {
    expect_errors(
        "fn f(x: [f64; 8], n: usize) -> f64 {
            let mut s = 0.0;
            let mut a = 0;
            let mut b = 0;
            for i in 1..n {
                a += i;
                b += 2;
                s += x[a % 8] + x[b % 8];
            }
            s + x[a % 8] + x[b % 8] + a as f64
        }",
        expect![[r#"
            `#[grad]` cannot give the integer counter `a` a value after the loop over `1..n`: what an iteration adds depends on the loop variable, and the macro cannot tell that the range is not reversed; read `a` inside the loop, or compute the index from the loop variables @ `a`
            `#[grad]` cannot give the integer counter `a` a value after the loop over `1..n`: what an iteration adds depends on the loop variable, and the macro cannot tell that the range is not reversed; read `a` inside the loop, or compute the index from the loop variables @ `a`
        "#]],
    );
}

#[test]
fn assignments_to_integers_that_are_not_counters() {
    expect_errors(
        "fn f(x: [f64; 8], y: f64) -> f64 {
            let k = 0;
            let (mut a, b) = (1, 2);
            let mut c = 0;
            for i in 0..4 {
                i += 1;
            }
            k += 1;
            a += b;
            c = y;
            x[k] + x[a] + x[c]
        }",
        expect![[r#"
            `#[grad]` does not support assigning to the loop variable `i`; a loop runs over its whole range, one value of `i` per iteration @ `i += 1`
            `#[grad]` does not support assigning to the integer variable `k`, which is not a counter: a counter is declared with `let mut k = ...;` (then `k += 1` is read as its closed form); or compute each value from the loop variables, as in `let k = 2 * i + 1;` @ `k += 1`
            `#[grad]` cannot assign an `f64` value to the integer variable `c`; declare an `f64` variable instead, such as `let mut c = 0.0;` @ `c = y`
        "#]],
    );
}

#[test]
fn what_a_counter_declared_inside_a_loop_may_read() {
    // Summed over the inner loops only: `i * i` and the range `i + 2..n` are constants there;
    // after `1..n`, which may run backwards, the sum of `j` is not known, and reading `k` is
    // refused.
    expect_errors(
        "fn f(x: [f64; 8], n: usize) -> f64 {
            let mut s = 0.0;
            for i in 0..4 {
                let mut k = 0;
                for _ in 0..3 {
                    k += i * i;
                }
                for _ in i + 2..n {
                    k += 1;
                }
                for j in 1..n {
                    k += j;
                }
                s += x[k % 8];
            }
            s
        }",
        expect![[r#"
            `#[grad]` cannot give the integer counter `k` a value after the loop over `1..n`: what an iteration adds depends on the loop variable, and the macro cannot tell that the range is not reversed; read `k` inside the loop, or compute the index from the loop variables @ `k`
        "#]],
    );
}

#[test]
fn supported_forms_report_nothing() {
    // A counter set and scaled outside loops, advanced in a block, in a `let`'s block, by an
    // immutable `let` of the loop (whose name is gone where the sum is read), in `for _`, over a
    // collection, by `for_each`, through a closure that reads it, and read in a loop bound, a
    // condition and a cast; and one starting at a `const` from outside (`base += 1` says it is
    // an integer).
    no_errors(
        "fn f(x: [f64; 16], data: &[f64], n: usize) -> f64 {
            let mut s = 0.0;
            let mut k = 1;
            k = 2 * k + 1;
            k *= 2;
            k -= 1;
            for i in 0..3 {
                { k += 1; }
                let a = { k += 2; x[k % 16] };
                let half = n / 2;
                k += half + i;
                s += a;
            }
            for _ in 0..2 {
                k += 1;
            }
            for v in data {
                s += v * x[k % 16];
                k += 1;
            }
            x.iter().for_each(|v| {
                s += v * x[k % 16];
                k += 1;
            });
            let at = |j: usize| x[(k + j) % 16];
            let mut base = OFFSET;
            for _ in 0..2 {
                s += x[base % 16];
                base += 1;
            }
            for j in k % 4..k % 4 + 2 {
                if k % 2 == 1 {
                    s += at(j) * k as f64;
                }
            }
            s
        }",
    );
}

/// The generated functions of `#[grad(attr)] item` whose names end with `suffix`, formatted.
fn generated(attr: TokenStream, item: TokenStream, suffix: &str) -> String {
    let mut file: syn::File = syn::parse2(crate::expand::expand(attr, item)).expect("it parses");
    file.items.retain(|i| match i {
        syn::Item::Fn(f) => !super::is_stand_in(f) && f.sig.ident.to_string().ends_with(suffix),
        _ => false,
    });
    prettyplease::unparse(&file)
}

#[test]
fn the_expansion_of_adbench_gmm_unpacking() {
    // At column `j`, row `i`: `D + Σ_{t<j} (D − t − 1) + (i − j − 1)`, the triangular number
    // written `j * j.saturating_sub(1) / 2` and subtracted after every term is added; after the
    // loops, `D (D + 1) / 2` as `D * D - D * D.saturating_sub(1) / 2`.
    let item = quote! {
        fn qtimesx<const D: usize, const ICF: usize>(icf: [f64; ICF], v: &[f64; D]) -> f64 {
            let mut qv = [0.0; D];
            let mut idx = D;
            for j in 0..D {
                for i in j + 1..D {
                    qv[i] += icf[idx] * v[j];
                    idx += 1;
                }
            }
            let mut s = 0.0;
            for i in 0..D {
                s += qv[i] * qv[i];
            }
            s + icf[idx - 1]
        }
    };
    expect![[r#"
        /// Value and gradient of `qtimesx` with respect to `icf`, from one
        /// forward pass and one reverse (adjoint) sweep.
        ///
        /// Generated by `#[grad]`: returns `(value, gradient)`, the gradient in parameter order (a bare `f64` for one parameter).
        #[allow(clippy::needless_range_loop)]
        fn qtimesx_grad<const D: usize, const ICF: usize>(
            icf: [f64; ICF],
            v: &[f64; D],
        ) -> (f64, [f64; ICF]) {
            let mut qv = [0.0; D];
            for j in 0..D {
                for i in j + 1..D {
                    qv[i] += icf[D + D * j + i - 2 * j - j * j.saturating_sub(1) / 2 - 1] * v[j];
                }
            }
            let mut qv_bar = [0.0; D];
            let mut s = 0.0;
            for i in 0..D {
                let t0 = qv[i];
                s += t0 * t0;
                qv_bar[i] = 2.0 * t0;
            }
            let t1 = s + icf[D * D - D * D.saturating_sub(1) / 2 - 1];
            let mut icf_bar = [0.0; ICF];
            icf_bar[D * D - D * D.saturating_sub(1) / 2 - 1] = 1.0;
            for j in 0..D {
                for i in j + 1..D {
                    icf_bar[D + D * j + i - 2 * j - j * j.saturating_sub(1) / 2 - 1]
                        += qv_bar[i] * v[j];
                }
            }
            (t1, icf_bar)
        }
    "#]].assert_eq(&generated(quote!(wrt(icf)), item, "_grad"));
}

#[test]
fn the_expansion_of_a_stride_in_a_loop_without_a_variable() {
    // `for _` gets a variable to write the counter with; the counter's closed form `2 * i` is
    // what the twin would write, and after the loop `8`.
    let item = quote! {
        fn strided(x: [f64; 9]) -> f64 {
            let mut s = 0.0;
            let mut idx = 0;
            for _ in 0..4 {
                s += x[idx] * x[idx + 1];
                idx += 2;
            }
            s * x[idx]
        }
    };
    expect![[r#"
        /// Value and gradient of `strided` with respect to `x`, from one
        /// forward pass and one reverse (adjoint) sweep.
        ///
        /// Generated by `#[grad]`: returns `(value, gradient)`, the gradient in parameter order (a bare `f64` for one parameter).
        #[allow(clippy::needless_range_loop)]
        fn strided_grad(x: [f64; 9]) -> (f64, [f64; 9]) {
            let mut s = 0.0;
            for i in 0..4 {
                s += x[2 * i] * x[2 * i + 1];
            }
            let t0 = x[8];
            let t1 = s * t0;
            let mut x_bar = [0.0; 9];
            x_bar[8] = s;
            for i in 0..4 {
                x_bar[2 * i + 1] += t0 * x[2 * i];
                x_bar[2 * i] += t0 * x[2 * i + 1];
            }
            (t1, x_bar)
        }
    "#]].assert_eq(&generated(quote!(), item, "_grad"));
}

#[test]
fn an_inner_range_that_reads_a_counter_the_loop_advances() {
    // `m`'s trip count `n - k` changes with `k` inside the loop: refused, not summed with a
    // stale `k`.
    expect_errors(
        "fn f(x: [f64; 8], n: usize) -> f64 {
            let mut s = 0.0;
            let mut k = 0;
            let mut m = 0;
            for _ in 0..3 {
                k += 1;
                for _ in k..n {
                    m += 1;
                }
                s += x[m % 8] + x[k % 8];
            }
            s
        }",
        expect![[r#"
            `#[grad]` cannot sum what this loop adds to the integer counter `m`: its range reads `k`, a counter the outer loop advances; an amount may read constants, loop variables and integer variables declared before the loop or as immutable `let`s in it @ `k..n`
        "#]],
    );
}
