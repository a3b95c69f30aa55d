//! Loops whose length is decided while they run: the IR that `while`, `loop`, `break`,
//! `continue` and `return` lower to, and their derivatives (the sweep from a tape, forward mode
//! over it) checked numerically with the IR interpreter, alone and nested in other regions.

use expect_test::{Expect, expect};
use quote::quote;

use super::interp::{Consts, Val};
use super::loops::check_with;
use crate::args::Args;
use crate::ctxt::Ctxt;
use crate::ir::{Func, print};
use crate::lower::lower;
use crate::transform::{Seed, dead_code, plan, reverse};

fn lowered(item: proc_macro2::TokenStream) -> Func {
    let mut cx = Ctxt::new();
    let item: syn::ItemFn = syn::parse2(item).expect("test input is a function");
    let f = lower(&mut cx, &item, &Args::default()).func;
    assert!(cx.is_ok(), "lowering reported errors");
    f
}

fn snapshot(item: proc_macro2::TokenStream, lowered_ir: Expect, reversed: Expect) {
    let f = lowered(item);
    lowered_ir.assert_eq(&print(&f));
    let plans = plan(
        &f,
        crate::transform::Options {
            budget: 1 << 20,
            snapshots: Some(4),
            checkpoint_unsized: false,
            tier: None,
        },
    );
    reversed.assert_eq(&print(&dead_code(&reverse(&f, &plans, Seed::One))));
}

fn f(x: f64) -> Val {
    Val::F(x)
}

fn array(xs: &[f64]) -> Val {
    Val::A(xs.iter().map(|x| Val::F(*x)).collect())
}

#[test]
fn a_while_loop_tests_its_condition_before_the_first_iteration_and_after_each() {
    snapshot(
        quote! {
            fn halve(x: f64, tol: f64) -> f64 {
                let mut y = x;
                while y > tol {
                    y *= 0.5 + 0.1 * y.sin();
                }
                y
            }
        },
        expect![[r#"
            in x%0 tol%1 active x%0 tol%1
            %2 = test x%0 Gt tol%1
            while @0 if %2 carry y%3 = x%0 {
              %4 = sin y%3
              %5 = mul 0.1 %4
              %6 = add 0.5 %5
              y_1%7 = mul y%3 %6
              %8 = test y_1%7 Gt tol%1
              yield y_1%7
            } again %8 -> y_2%9
            out y_2%9
        "#]],
        expect![[r#"
            in x%0 tol%1 active x%0 tol%1
            %2 = test x%0 Gt tol%1
            while tape4 @0 if %2 carry y%3 = x%0 {
              %4 = sin y%3
              %5 = mul 0.1 %4
              %6 = add 0.5 %5
              y_1%7 = mul y%3 %6
              %8 = test y_1%7 Gt tol%1
              yield y_1%7
            } again %8 -> y_2%9
            checkpoint4 @0 from tape state  (y%12) {
              %13 = sin y%12
              %14 = mul 0.1 %13
              %15 = add 0.5 %14
              y_1%16 = mul y%12 %15
              yield y_1%16
            } back (y%18) carry y_bar%10 = 1.0 {
              %19 = sin y%18
              %20 = mul 0.1 %19
              %21 = add 0.5 %20
              %24 = mul y_bar%10 %21
              %25 = mul y_bar%10 y%18
              %26 = mul %25 0.1
              %27 = cos y%18
              %28 = mul %26 %27
              y_bar%29 = add %24 %28
              yield y_bar%29
            } -> y_bar%30
            out y_2%9 y_bar%30 0.0
        "#]],
    );
}

#[test]
fn a_loop_with_a_final_break_keeps_its_test_and_others_become_flags() {
    snapshot(
        quote! {
            fn newton(a: f64) -> f64 {
                let mut x = a;
                loop {
                    let step = (x * x - a) / (2.0 * x);
                    x -= step;
                    if step.abs() < 1e-12 {
                        break;
                    }
                }
                x
            }
        },
        expect![[r#"
            in a%0 active a%0
            while @0 if true carry x%1 = a%0 {
              %2 = mul x%1 x%1
              %3 = sub %2 a%0
              %4 = mul 2.0 x%1
              step%5 = div %3 %4
              x_1%6 = sub x%1 step%5
              %7 = abs step%5
              %8 = test %7 Lt 1e-12
              %9 = test !(%8)
              yield x_1%6
            } again %9 -> x_2%10
            out x_2%10
        "#]],
        expect![[r#"
            in a%0 active a%0
            while tape4 @0 if true carry x%1 = a%0 {
              %2 = mul x%1 x%1
              %3 = sub %2 a%0
              %4 = mul 2.0 x%1
              step%5 = div %3 %4
              x_1%6 = sub x%1 step%5
              %7 = abs step%5
              %8 = test %7 Lt 1e-12
              %9 = test !(%8)
              yield x_1%6
            } again %9 -> x_2%10
            checkpoint4 @0 from tape state  (x%13) {
              %14 = mul x%13 x%13
              %15 = sub %14 a%0
              %16 = mul 2.0 x%13
              step%17 = div %15 %16
              x_1%18 = sub x%13 step%17
              yield x_1%18
            } back (x%22) carry x_bar%11 = 1.0, a_bar%12 = 0.0 {
              %23 = mul x%22 x%22
              %24 = sub %23 a%0
              %25 = mul 2.0 x%22
              step%26 = div %24 %25
              %32 = div x_bar%11 %25
              %34 = mul %32 step%26
              %36 = mul %34 2.0
              %37 = mul %32 %25
              %39 = add x_bar%11 %36
              x_bar%40 = sub %39 %37
              a_bar%41 = add a_bar%12 %32
              yield x_bar%40 a_bar%41
            } -> x_bar%42 a_bar%43
            a_bar%44 = add x_bar%42 a_bar%43
            out x_2%10 a_bar%44
        "#]],
    );
}

#[test]
fn gradients_and_hvps_through_loops_of_unknown_length() {
    let consts = Consts::default();
    // A `while` loop, the sweep from its tape.
    let halve = lowered(quote! {
        fn halve(x: f64, k: f64) -> f64 {
            let mut y = x;
            let mut n = 0.0;
            while y > 0.1 {
                y *= k + 0.1 * y.sin();
                n += y;
            }
            y * n
        }
    });
    check_with(&halve, &[f(3.0), f(0.6)], &[f(0.5), f(-1.0)], &consts);
    // Never entered.
    check_with(&halve, &[f(0.05), f(0.6)], &[f(0.5), f(-1.0)], &consts);
    // `break` and `continue` in a `for` loop over an array, with a value that only accumulates.
    let sums = lowered(quote! {
        fn sums(x: [f64; 6], c: f64) -> f64 {
            let mut s = 0.0;
            let mut p = 1.0;
            for i in 0..6 {
                if x[i] < 0.0 {
                    continue;
                }
                p *= x[i] + c;
                if p > 20.0 {
                    break;
                }
                s += p.ln();
            }
            s + p
        }
    });
    let x = [1.5, -0.3, 2.0, 0.7, 3.0, 1.2];
    check_with(
        &sums,
        &[array(&x), f(0.4)],
        &[array(&[1.0, 0.5, -0.3, 0.2, 0.1, 2.0]), f(1.0)],
        &consts,
    );
    // `return` from inside nested loops.
    let search = lowered(quote! {
        fn search(x: [f64; 4], t: f64) -> f64 {
            let mut s = 0.0;
            for i in 0..4 {
                for j in 0..4 {
                    s += x[i] * x[j];
                    if s > t {
                        return s * t;
                    }
                }
                s *= 0.5;
            }
            s
        }
    });
    let x = [0.5, 1.0, -0.2, 0.8];
    let v = array(&[0.3, -0.5, 1.0, 0.2]);
    for t in [0.4, 1.0, 100.0] {
        check_with(&search, &[array(&x), f(t)], &[v.clone(), f(0.7)], &consts);
    }
}

#[test]
fn loops_of_unknown_length_nested_in_other_regions() {
    let consts = Consts::default();
    // A Newton solve in each step of an outer loop (implicit Euler for y' = -y³ + u), stored.
    let implicit = lowered(quote! {
        fn implicit(y0: f64, u: f64, h: f64) -> f64 {
            let mut y = y0;
            for _ in 0..5 {
                let mut z = y;
                loop {
                    let r = z - y + h * (z * z * z - u);
                    let step = r / (1.0 + 3.0 * h * z * z);
                    z -= step;
                    if step.abs() < 1e-13 {
                        break;
                    }
                }
                y = z;
            }
            y
        }
    });
    check_with(&implicit, &[f(1.2), f(0.3), f(0.1)], &[f(1.0), f(-0.5), f(0.2)], &consts);
    // A `while` loop in a branch, and one in a `while` loop.
    let branchy = lowered(quote! {
        fn branchy(x: f64, k: f64) -> f64 {
            let mut y = x;
            if x > 1.0 {
                while y > 0.5 {
                    y *= k;
                }
            } else {
                y = y * y;
            }
            let mut outer = 0.0;
            let mut z = y;
            while outer < 3.0 {
                let mut w = z;
                while w < 4.0 {
                    w = w * 1.5 + k;
                }
                z = w.sqrt() * k;
                outer += 1.0;
            }
            z
        }
    });
    for x in [3.0, 0.7] {
        check_with(&branchy, &[f(x), f(0.8)], &[f(0.5), f(-1.0)], &consts);
    }
    // An array carried by a `while` loop.
    let power = lowered(quote! {
        fn power(v: [f64; 3], a: f64) -> f64 {
            let mut x = v;
            let mut norm = 10.0;
            while norm > 1.0 {
                let y = [a * x[0] + x[1], x[0] - a * x[2], x[1] * x[2]];
                norm = (y[0] * y[0] + y[1] * y[1] + y[2] * y[2]).sqrt();
                x = [y[0] / 2.0, y[1] / 2.0, y[2] / 2.0];
            }
            x[0] + 2.0 * x[1] + x[2] * norm
        }
    });
    let v = array(&[1.0, 2.0, 0.5]);
    check_with(&power, &[v, f(0.9)], &[array(&[0.1, -0.3, 0.2]), f(0.5)], &consts);
}

#[test]
fn the_doc_comment_states_the_sweeps_cost_beside_offline_revolve_and_the_memory() {
    let online = super::expand_pretty(
        quote!(checkpoint(s = 16)),
        quote! {
            fn halve(x: f64, tol: f64) -> f64 {
                let mut y = x;
                while y > tol {
                    y *= 0.5;
                }
                y
            }
        },
    );
    let doc: String = online.lines().filter(|l| l.trim_start().starts_with("///")).collect();
    for words in [
        "checkpointed online",
        "16 snapshots of its state, 128 bytes",
        "944 bytes of bookkeeping",
        "online_steps(n, 16)",
        "none while n ≤ 16",
        "schedule_steps(n, 16)` = r·n − C(16 + r, r − 1)",
    ] {
        assert!(doc.contains(words), "{words:?} missing from the doc:\n{doc}");
    }
    let implicit = super::expand_pretty(
        quote!(implicit('solve)),
        quote! {
            fn root(a: f64) -> f64 {
                let mut x = a;
                'solve: loop {
                    let step = (x * x - a) / (2.0 * x);
                    x -= step;
                    if step.abs() < 1e-14 {
                        break;
                    }
                }
                x
            }
        },
    );
    let doc: String = implicit.lines().filter(|l| l.trim_start().starts_with("///")).collect();
    assert!(doc.contains("differentiated at its fixed point"), "{doc}");
    assert!(!doc.contains("checkpointed online"), "{doc}");
}
