//! Snapshots of the IR text form after lowering and after each transform.

use expect_test::{Expect, expect};
use quote::quote;

use crate::args::Args;
use crate::ctxt::Ctxt;
use crate::ir::print;
use crate::lower::lower;
use crate::transform::{Seed, dead_code, forward, plan, reverse};

fn check(item: proc_macro2::TokenStream, lowered: Expect, reversed: Expect, hvp: Expect) {
    let mut cx = Ctxt::new();
    let item: syn::ItemFn = syn::parse2(item).expect("test input is a function");
    let f = lower(&mut cx, &item, &Args::default()).func;
    assert!(cx.is_ok());
    lowered.assert_eq(&print(&f));
    let plans = plan(
        &f,
        crate::transform::Options {
            budget: 1 << 20,
            snapshots: None,
            checkpoint_unsized: false,
            tier: None,
        },
    );
    let grad = dead_code(&reverse(&f, &plans, Seed::One));
    reversed.assert_eq(&print(&grad));
    hvp.assert_eq(&print(&dead_code(&forward(&grad))));
}

#[test]
fn mutation_is_renamed_and_fan_out_accumulates() {
    check(
        quote! {
            fn h(x: f64, y: f64) -> f64 {
                let mut s = x * y;
                s += x.sin();
                let unused = (x - 10.0).sqrt();
                s * x
            }
        },
        expect![[r#"
            in x%0 y%1 active x%0 y%1
            s%2 = mul x%0 y%1
            %3 = sin x%0
            s_1%4 = add s%2 %3
            %5 = sub x%0 10.0
            unused%6 = sqrt %5
            %7 = mul s_1%4 x%0
            out %7
        "#]],
        expect![[r#"
            in x%0 y%1 active x%0 y%1
            s%2 = mul x%0 y%1
            %3 = sin x%0
            s_1%4 = add s%2 %3
            %7 = mul s_1%4 x%0
            %8 = cos x%0
            %9 = mul x%0 %8
            y_bar%10 = mul x%0 x%0
            %11 = add s_1%4 %9
            x_bar%12 = add %11 s%2
            out %7 x_bar%12 y_bar%10
        "#]],
        expect![[r#"
            in x%0 y%1 x_dot%13 y_dot%14 active x%0 y%1
            s%2 = mul x%0 y%1
            %15 = mul x_dot%13 y%1
            %16 = mul y_dot%14 x%0
            s_dot%17 = add %15 %16
            %3 = sin x%0
            %18 = cos x%0
            %19 = mul x_dot%13 %18
            s_1%4 = add s%2 %3
            s_1_dot%20 = add s_dot%17 %19
            %7 = mul s_1%4 x%0
            %21 = mul s_1_dot%20 x%0
            %22 = mul x_dot%13 s_1%4
            %23 = add %21 %22
            %24 = mul x_dot%13 %3
            %9 = mul x%0 %18
            %26 = mul %24 x%0
            %28 = sub %19 %26
            y_bar%10 = mul x%0 x%0
            %29 = mul 2.0 x%0
            y_bar_dot%30 = mul x_dot%13 %29
            %11 = add s_1%4 %9
            %31 = add s_1_dot%20 %28
            x_bar%12 = add %11 s%2
            x_bar_dot%32 = add %31 s_dot%17
            out %7 x_bar%12 y_bar%10 %23 x_bar_dot%32 y_bar_dot%30
        "#]],
    );
}
