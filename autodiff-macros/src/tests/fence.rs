//! The fence: each unsupported construct gives its message at its span, and every error in a
//! function is reported.

use expect_test::{Expect, expect};

use crate::ctxt::Ctxt;
use crate::lower::lower;

/// The errors lowering reports for `src`, each as "message @ `spanned source text`".
fn errors(attr: &str, src: &str) -> Vec<String> {
    let mut cx = Ctxt::new();
    let args = crate::args::parse(&mut cx, attr.parse().unwrap_or_default());
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

fn expect_errors(attr: &str, src: &str, expected: Expect) {
    expected.assert_eq(&(errors(attr, src).join("\n") + "\n"));
}

#[test]
fn loops_other_than_for_over_a_range() {
    expect_errors(
        "",
        "fn f(x: f64, again: Option<f64>, mode: i32, data: &[f64]) -> f64 {
            let mut y = x;
            while let Some(v) = again { y *= v; }
            loop { y *= 0.5; }
            let w = 2.0 * loop { break 2.0; };
            for v in data.iter() { y += v; }
            for v in &data { y += v; }
            for v in data { y += v; }
            for (i, v) in data.iter().enumerate() { y += v; }
            for i in (0..4).step_by(2) { y += x; }
            for i in 0.. { y += x; }
            let z = match mode { 0 => x, _ => -x };
            y + z
        }",
        expect![[r#"
            `#[grad]` does not support `while let`; write `while` with a comparison as the condition @ `let`
            this `loop` never ends: `#[grad]` needs a `break` in it, as in `if done { break; }` @ `loop`
            `#[grad]` does not support a `loop` as a value; bind its value first, as in `let r = loop { … break v; … };`, or assign it, `r = loop { … };` @ `loop`
            `#[grad]` supports only ranges with both bounds, such as `0..N` or `1..=n` @ `0..`
        "#]],
    );
}

#[test]
fn break_continue_labels_closures_and_iterator_chains() {
    expect_errors(
        "",
        "fn f(x: [f64; 4], data: &[f64]) -> f64 {
            let mut s = 0.0;
            'outer: for i in 0..4 {
                if x[i] > 1.0 { break; }
                if x[i] < 0.0 { continue; }
                s += x[i];
            }
            let t = data.iter().map(|v| v * v).sum::<f64>();
            let u = 'b: { 2.0 };
            let sq = |v: f64| v * v;
            for i in 0..4 {
                for j in 0..4 {
                    if x[j] > x[i] { break 'outer; }
                    if x[j] < 0.0 { continue 'outer; }
                    let z = if x[j] > 2.0 { break } else { x[j] };
                    s += z;
                }
            }
            s + t + u
        }",
        expect![[r#"
            `#[grad]` does not support labelled blocks; use a block without a label @ `'b:`
            `#[grad]` does not support `break` with a label; a label names a loop around it, as in `'outer: for … { for … { break 'outer; } }` (labelled blocks are not supported) @ `break`
            `#[grad]` does not support `continue` with a label; a label names a loop around it, as in `'outer: for … { for … { continue 'outer; } }` @ `continue`
            `#[grad]` does not support `break` inside an expression; write it as a statement of the loop's body (or of an `if` there), as in `if done { break; }` @ `break`
        "#]],
    );
}

#[test]
fn early_return_and_integer_variables() {
    expect_errors(
        "",
        "fn f(x: [f64; 4], y: f64) -> f64 {
            let mut s = 0.0;
            let mut k = 0;
            for i in 0..4 {
                if x[i] > 10.0 { return s; }
                k += 1;
                k = y;
                s = i;
                s += x[k];
            }
            s
        }",
        expect![[r#"
            `#[grad]` cannot assign an `f64` value to the integer variable `k`; declare an `f64` variable instead, such as `let mut k = 0.0;` @ `k = y`
            `i` is an integer; convert it with `i as f64` to use it as an `f64` @ `i`
            `#[grad]` holds the integer counter `k` as a number from its update inside an `if` or a `match`, or in a loop that may end early (where it has no closed form): it supports comparing it, `+`, `-` and `*` on it, and reading it as `k as f64`, not reading it as an index, a bound or another integer, nor dividing it; compute such an index from the loop variables @ `k`
        "#]],
    );
}

#[test]
fn indices_and_bounds_that_read_f64_values() {
    expect_errors(
        "",
        "fn f(x: [f64; 4], y: f64, data: &[f64]) -> f64 {
            let mut s = 0.0;
            for i in 0..y {
                s += x[s] + data[y] + x[data[i]];
                let j = i + y;
                s += x[2.0];
            }
            s
        }",
        expect![[r#"
            `#[grad]` does not support loop bounds that read `f64` values; they are integer expressions of loop variables, integer parameters and constants, such as `0..N`, `i + 1..N` or `0..data.len()` @ `y`
            `#[grad]` does not support indices that read `f64` values; they are integer expressions of loop variables, integer parameters and constants, such as `x[(i + N - 1) % N]` @ `s`
            `#[grad]` does not support indices that read `f64` values; they are integer expressions of loop variables, integer parameters and constants, such as `x[(i + N - 1) % N]` @ `y`
            `#[grad]` does not support indices that read `f64` values; they are integer expressions of loop variables, integer parameters and constants, such as `x[(i + N - 1) % N]` @ `data`
            `i` is an integer; convert it with `i as f64` to use it as an `f64` @ `i`
            `#[grad]` does not support indices that read `f64` values; they are integer expressions of loop variables, integer parameters and constants, such as `x[(i + N - 1) % N]` @ `2.0`
        "#]],
    );
}

#[test]
fn branches_and_assignments_of_different_types() {
    expect_errors(
        "",
        "fn f(x: [f64; 2], y: f64, c: bool) -> f64 {
            let mut z = y;
            let a = if y > 0.0 { x } else { y };
            if y < 1.0 { z = x; }
            let b = if c { y } else { 0.0 };
            let d = y > 0.0;
            let e = if y > 2.0 { y };
            z + x
        }",
        expect![[r#"
            `#[grad]` needs both branches of this `if` to give the same type; they give `[f64; 2]` and `f64` @ `if`
            `z` holds a value of type `f64`; this assigns a value of type `[f64; 2]` @ `x`
            `#[grad]` supports as conditions only comparisons (`<`, `<=`, `>`, `>=`, `==`, `!=`) of `f64` values or of integers and the body's `bool` variables (`let done = err < tol;`), combined with `&&`, `||` and `!` @ `c`
            this `if` is used as a value, so it needs an `else` branch giving a value too @ `if`
            expected an `f64` value, found an array `[f64; 2]`; index it, as in `x[i]` @ `x`
        "#]],
    );
}

/// A loop variable may shadow an enclosing loop's (each is a loop of its own), but a name bound
/// to an expression of the outer one cannot be read under the inner one.
#[test]
fn names_that_mean_something_else_under_a_shadowing_loop() {
    expect_errors(
        "",
        "fn f(x: [[f64; 4]; 4]) -> f64 {
            let mut s = 0.0;
            for i in 0..4 {
                let j = (i + 1) % 4;
                for i in 0..4 {
                    s += x[i][j];
                }
                for k in 0..4 {
                    let i = k;
                    for k in 0..2 {
                        s += x[i][k];
                    }
                }
            }
            s
        }",
        expect![[r#"
            `#[grad]` cannot use `j` here: it stands for `(i + 1) % 4`, which reads `i`, and `i` means something else here; rename one of the two @ `j`
            `#[grad]` cannot use `i` here: it stands for `k`, which reads `k`, and `k` means something else here; rename one of the two @ `i`
        "#]],
    );
}

#[test]
fn signatures_with_arrays_vectors_and_generics() {
    expect_errors(
        "",
        "fn f<'a, const N: usize, T>(x: [f32; N], data: &'a [f64], t: T) -> Vec<f64> {
            x[0]
        }",
        expect![[r#"
            `#[grad]` does not support lifetime parameters; write references without a named lifetime, such as `&[f64]` @ `'a`
            `#[grad]` does not support type parameters other than the function's scalar type; write the function for `f64`, `f32` or a type parameter `T: Float` (const generic parameters such as `const N: usize` are supported) @ `T`
            `#[grad]` functions must return `f64`, an array `[f64; N]` or a tuple of those (`(f64, f64)`, `(f64, [f64; N])`), not `Vec<f64>` @ `Vec<f64>`
            `#[grad]` differentiates values of the function's scalar type, here `f64`, and arrays of them, not `[f32; N]`; to pass `x` through as a constant, list the differentiated parameters with `wrt(...)` (the scalar type is `f64` unless the function returns `f32`s or has a type parameter `T: Float`) @ `[f32; N]`
        "#]],
    );
    expect_errors(
        "",
        "fn g(v: Vec<f64>, n: usize) -> f64 { v[0] }",
        expect![[r#"
            `#[grad]` does not differentiate `Vec<f64>` taken by value; take `v` as a slice `&[f64]` (constant data, or differentiated when `wrt(...)` names it, its gradient written into a buffer) or as an array `[f64; N]` @ `Vec<f64>`
        "#]],
    );
    // Refused by value next to a parameter that is differentiated too (it was a silent constant).
    expect_errors(
        "",
        "fn g2(v: Vec<f64>, x: f64) -> f64 { v[0] * x }",
        expect![[r#"
            `#[grad]` does not differentiate `Vec<f64>` taken by value; take `v` as a slice `&[f64]` (constant data, or differentiated when `wrt(...)` names it, its gradient written into a buffer) or as an array `[f64; N]` @ `Vec<f64>`
        "#]],
    );
    expect_errors(
        "",
        "fn h(v: &Vec<f64>) -> f64 { v[0] }",
        expect![[r#"
            `h` has no `f64` parameter to differentiate: a slice such as `&Vec<f64>` is constant data unless `wrt(...)` names it; write `#[grad(wrt(v))]` to differentiate `v` @ `&Vec<f64>`
        "#]],
    );
    expect_errors(
        "",
        "fn k(n: i32) -> f64 { n as f64 }",
        expect![[r#"
        `k` has no `f64` parameter to differentiate @ `k`
    "#]],
    );
    expect_errors(
        "wrt(v, idx)",
        "fn m(x: f64, v: &[f64], idx: [usize; 3]) -> (f64, f64) { x }",
        expect![[r#"
            `wrt` names `idx`, of type `[usize; 3]`, but only `f64` parameters, arrays of `f64` and slices `&[f64]` can be differentiated (`f64` is the function's scalar type) @ `idx`
            `#[grad]` needs a function returning a tuple to end with a tuple of 2 values, such as `(a, b)` @ `x`
        "#]],
    );
}

#[test]
fn powi_exponents_and_sin_cos_outside_a_tuple_let() {
    expect_errors(
        "wrt(x, y)",
        "fn f(x: f64, y: f64, p: f64, n: i32) -> f64 {
            let a = x.powi(y) + x.powi(2.0) + x.powi(n as f64);
            let b = x.powi(y as i32) + x.powi(p.round() as i32) + x.powi(if n > 0 { n } else { 1 });
            let c = x.sin_cos().0 + f64::sin_cos(y).1;
            let d = x.sin_cos();
            let (e, g) = (x, y);
            let (s, (c2, _)) = x.sin_cos();
            a + b + c + d + e + g + s + c2
        }",
        expect![[r#"
            the exponent of `powi` is an `i32`, not an `f64` value; use `powf` for an `f64` exponent @ `y`
            the exponent of `powi` is an `i32`, not an `f64` value; use `powf` for an `f64` exponent @ `2.0`
            the exponent of `powi` is an `i32`, not an `f64` value; use `powf` for an `f64` exponent @ `n as f64`
            the exponent of `powi` is an integer constant and cannot read `f64` values; use `powf` for an exponent computed from `f64` values @ `y`
            `#[grad]` supports as the exponent of `powi` an integer literal or an integer constant: an integer parameter, a `const`, or integer arithmetic on them and on loop variables cast to `i32`, such as `i as i32 + 1` @ `p.round()`
            `#[grad]` supports as the exponent of `powi` an integer literal or an integer constant: an integer parameter, a `const`, or integer arithmetic on them and on loop variables cast to `i32`, such as `i as i32 + 1` @ `if n > 0 { n } else { 1 }`
            this tuple pattern binds a value that is not a tuple @ `(c2, _)`
            `#[grad]` does not support a tuple here; bind its parts with a pattern, as in `let (a, b) = ...;` @ `d`
        "#]],
    );
}
