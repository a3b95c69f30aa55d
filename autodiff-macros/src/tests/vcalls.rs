//! Calls of functions returning arrays and tuples: what lowering reads of a callee's value from
//! the tokens (a typed `let`, a pattern, the place the value goes), the IR of the calls after the
//! reverse transform (`g_fwd` in the forward pass, `g_rev` in the sweep) and after forward mode
//! over the unsplit one (`g_jvp`, and the vector callee's `g_hvp`), and the generated code of a
//! caller and of a vector callee in every mode, its VJP's halves and a loop keeping residuals.

use expect_test::{Expect, expect};
use quote::quote;

use super::expand_pretty;
use super::lowering::{check, lowered, text};
use crate::args;
use crate::ctxt::Ctxt;
use crate::expand::{Failure, derivatives};

/// The IR of the gradient and of H·v of `src` under `attr`.
fn check_derived(attr: &str, src: &str, vector: bool, expected: Expect) {
    let l = lowered(attr, src);
    let mut cx = Ctxt::new();
    let args = args::parse(&mut cx, attr.parse().unwrap_or_default());
    let d = match derivatives(&l, &args, vector) {
        Ok(d) => d,
        Err(Failure::Internal(e)) => panic!("{e}"),
    };
    let hvp = d.hvp.as_ref().map(text).unwrap_or_default();
    expected.assert_eq(&format!("{}---\n{hvp}", text(&d.grad)));
}

#[test]
fn a_callee_s_value_is_typed_by_where_it_goes() {
    check(
        "",
        "fn f(r: f64, t: f64, s0: [f64; 2]) -> [f64; 2] {
            let (x, y) = polar(r, t);
            let (m, d): (f64, [f64; 3]) = centered(&[x, y, r]);
            let h: [f64; 2] = rhs(s0, m);
            let [a, b] = rhs(h, d[1]);
            let mut s = s0;
            s = rhs(s, a * b);
            let mut p = (x, y);
            p = polar(p.0, p.1);
            let c = scalar(p.0, 2.0);
            rhs([s[0], c], p.1)
        }",
        expect![[r#"
            in r%0 t%1 s0%2 active r%0 t%1 s0%2
            x%3 y%4 = call polar -> tuple2 Value (r%0, t%1) dirs ()
            %5 = array x%3 y%4 r%0
            m%6 d%7 = call centered -> tuple2 Value (&%5) dirs ()
            h%8 = call rhs -> array Value (s0%2, m%6) dirs ()
            %9 = load d%7 [1]
            %10 = call rhs -> array Value (h%8, %9) dirs ()
            a%11 = load %10 [0]
            b%12 = load %10 [1]
            %13 = mul a%11 b%12
            s%14 = call rhs -> array Value (s0%2, %13) dirs ()
            p%15 p_1%16 = call polar -> tuple2 Value (x%3, y%4) dirs ()
            c%17 = call scalar Value (p%15, ext0/0.0) dirs ()
            %18 = load s%14 [0]
            %19 = array %18 c%17
            %20 = call rhs -> array Value (%19, p_1%16) dirs ()
            out %20
            ext0 = 2.0 loops [] params []
        "#]],
    );
}

#[test]
fn the_sweep_calls_the_vjp_and_forward_mode_over_it_the_callee_s_hvp() {
    check_derived(
        "hvp",
        "fn f(r: f64, t: f64) -> f64 {
            let (x, y) = polar(r, t);
            x * y
        }",
        false,
        expect![[r#"
            in r%0 t%1 active r%0 t%1
            x%2 y%3 x_res%5 = call polar -> tuple2 Fwd (r%0, t%1) dirs ()
            %4 = mul x%2 y%3
            r_bar%6 t_bar%7 = call polar -> tuple2 Rev (r%0, t%1) residuals (x_res%5) bars (y%3 x%2)
            out %4 r_bar%6 t_bar%7
            ---
            in r%0 t%1 r_dot%9 t_dot%10 active r%0 t%1
            x%2 y%3 x_dot%11 y_dot%12 = call polar -> tuple2 Jvp (r%0, t%1) dirs (r_dot%9 t_dot%10)
            %4 = mul x%2 y%3
            %7 %8 r_bar%5 t_bar%6 %16 %17 r_bar_dot%18 t_bar_dot%19 = call polar -> tuple2 VjpJvp (r%0, t%1) bars (y%3 x%2) dirs (r_dot%9 t_dot%10) bar_dots (y_dot%12 x_dot%11)
            out %4 r_bar%5 t_bar%6 r_bar_dot%18 t_bar_dot%19
        "#]],
    );
}

#[test]
fn a_part_with_no_cotangent_gets_a_zero_and_a_vector_function_s_hvp_differentiates_its_cotangent() {
    check_derived(
        "hvp",
        "fn f(s: [f64; 2], k: f64) -> [f64; 2] {
            let (a, _) = pair(s, k);
            let d: [f64; 2] = rhs(s, a);
            d
        }",
        true,
        expect![[r#"
            in s%0 k%1 out_bar%7 active s%0 k%1
            a%2 %3 a_res%5 = call pair -> tuple2 Fwd (s%0, k%1) dirs ()
            d%4 d_res%6 = call rhs -> array Fwd (s%0, a%2) dirs ()
            s_bar%8 a_bar%9 = call rhs -> array Rev (s%0, a%2) residuals (d_res%6) bars (out_bar%7)
            s_bar%10 k_bar%11 = call pair -> tuple2 Rev (s%0, k%1) residuals (a_res%5) bars (a_bar%9 0.0)
            for @0 in 0..2 carry s_bar%12 = s_bar%8 {
              %13 = load s_bar%12 [@0]
              %14 = load s_bar%10 [@0]
              %15 = add %13 %14
              %16 = store s_bar%12 [@0] %15
              yield %16
            } -> s_bar%17
            out d%4 s_bar%17 k_bar%11
            ---
            in s%0 k%1 out_bar%5 s_dot%19 k_dot%20 out_bar_dot%21 active s%0 k%1
            a%2 %3 a_dot%22 %23 = call pair -> tuple2 Jvp (s%0, k%1) dirs (s_dot%19 k_dot%20)
            d%4 d_dot%24 = call rhs -> array Jvp (s%0, a%2) dirs (s_dot%19 a_dot%22)
            %8 s_bar%6 a_bar%7 %25 s_bar_dot%26 a_bar_dot%27 = call rhs -> array VjpJvp (s%0, a%2) bars (out_bar%5) dirs (s_dot%19 a_dot%22) bar_dots (out_bar_dot%21)
            %11 %12 s_bar%9 k_bar%10 %28 %29 s_bar_dot%30 k_bar_dot%31 = call pair -> tuple2 VjpJvp (s%0, k%1) bars (a_bar%7 0.0) dirs (s_dot%19 k_dot%20) bar_dots (a_bar_dot%27 0.0)
            for @0 in 0..2 carry s_bar%13 = s_bar%6, s_bar_dot%32 = s_bar_dot%26 {
              %14 = load s_bar%13 [@0]
              %33 = load s_bar_dot%32 [@0]
              %15 = load s_bar%9 [@0]
              %34 = load s_bar_dot%30 [@0]
              %16 = add %14 %15
              %35 = add %33 %34
              %17 = store s_bar%13 [@0] %16
              %36 = store s_bar_dot%32 [@0] %35
              yield %17 %36
            } -> s_bar%18 s_bar_dot%37
            out d%4 s_bar%18 k_bar%10 d_dot%24 s_bar_dot%37 k_bar_dot%31
        "#]],
    );
}

#[test]
fn a_caller_in_every_mode() {
    let out = expand_pretty(
        quote!(jvp, hvp),
        quote! {
            fn through_polar(r: f64, t: f64) -> f64 {
                let (x, y) = polar(r, t);
                x * y * y + x.sin()
            }
        },
    );
    expect![[r#"
        #[allow(dead_code)]
        fn through_polar(r: f64, t: f64) -> f64 {
            let (x, y) = polar(r, t);
            x * y * y + x.sin()
        }
        /// Value and gradient of `through_polar` with respect to `r`, `t`, from one
        /// forward pass and one reverse (adjoint) sweep.
        ///
        /// Generated by `#[grad]`: returns `(value, gradient)`, the gradient in parameter order (a bare `f64` for one parameter).
        fn through_polar_grad(r: f64, t: f64) -> (f64, (f64, f64)) {
            let ((x, y), x_res): ((f64, f64), _) = polar_fwd(r, t);
            let t0 = x * y;
            let x_bar = x.cos() + y * y;
            let y_bar = 2.0 * t0;
            let (r_bar, t_bar): (f64, f64) = polar_rev(r, t, x_res, (x_bar, y_bar));
            (t0 * y + x.sin(), (r_bar, t_bar))
        }
        /// Value and directional derivative of `through_polar` along (`r_dot`, `t_dot`), by forward (tangent) mode.
        ///
        /// Generated by `#[grad(jvp)]`: returns `(value, ∇through_polar·v)`.
        fn through_polar_jvp(r: f64, t: f64, r_dot: f64, t_dot: f64) -> (f64, f64) {
            let ((x, y), (x_dot, y_dot)): ((f64, f64), (f64, f64)) = polar_jvp(
                r,
                t,
                r_dot,
                t_dot,
            );
            let t0 = x * y;
            (t0 * y + x.sin(), (x_dot * y + y_dot * x) * y + y_dot * t0 + x_dot * x.cos())
        }
        /// Value, gradient and Hessian-vector product H·v of `through_polar` with respect to `r`, `t`, along (`r_dot`, `t_dot`).
        ///
        /// Generated by `#[grad(hvp)]` as forward mode over the reverse sweep; the Hessian is never formed. Returns `(value, gradient, H·v)`.
        fn through_polar_hvp(
            r: f64,
            t: f64,
            r_dot: f64,
            t_dot: f64,
        ) -> (f64, (f64, f64), (f64, f64)) {
            let ((x, y), (x_dot, y_dot)): ((f64, f64), (f64, f64)) = polar_jvp(
                r,
                t,
                r_dot,
                t_dot,
            );
            let t0 = x * y;
            let t1 = x_dot * y + y_dot * x;
            let t2 = x.sin();
            let t3 = t0 * y + t2;
            let x_bar = x.cos() + y * y;
            let x_bar_dot = y_dot * (2.0 * y) - x_dot * t2;
            let y_bar = 2.0 * t0;
            let y_bar_dot = t1 * 2.0;
            let (
                (_, _),
                (r_bar, t_bar),
                (_, _),
                (r_bar_dot, t_bar_dot),
            ): ((f64, f64), (f64, f64), (f64, f64), (f64, f64)) = polar_hvp(
                r,
                t,
                (x_bar, y_bar),
                r_dot,
                t_dot,
                (x_bar_dot, y_bar_dot),
            );
            (t3, (r_bar, t_bar), (r_bar_dot, t_bar_dot))
        }
    "#]]
    .assert_eq(&out);
}

#[test]
fn a_vector_function_s_vjp_jvp_and_hvp() {
    let out = expand_pretty(
        quote!(hvp),
        quote! {
            fn polar(r: f64, t: f64) -> (f64, f64) {
                (r * t.cos(), r * t.sin())
            }
        },
    );
    expect![[r#"
        #[allow(dead_code)]
        fn polar(r: f64, t: f64) -> (f64, f64) {
            (r * t.cos(), r * t.sin())
        }
        /// Value of `polar` and the vector-Jacobian product with the cotangent (`out_bar`, `out_bar_1`), with respect to `r`, `t`,
        /// from one forward pass and one reverse (adjoint) sweep.
        ///
        /// Generated by `#[grad]` for a function with several outputs: returns `(value, cotangents)`, the cotangents in parameter order.
        fn polar_vjp(
            r: f64,
            t: f64,
            (out_bar, out_bar_1): (f64, f64),
        ) -> ((f64, f64), (f64, f64)) {
            let t0 = t.cos();
            let t1 = r * t0;
            let t2 = t.sin();
            let t3 = r * t2;
            let r_bar = out_bar_1 * t2 + out_bar * t0;
            let t_bar = out_bar_1 * r * t0 - out_bar * r * t2;
            ((t1, t3), (r_bar, t_bar))
        }
        /// Value and directional derivative of `polar` along (`r_dot`, `t_dot`), by forward (tangent) mode.
        ///
        /// Generated by `#[grad(jvp)]`: returns `(value, ∇polar·v)`.
        fn polar_jvp(r: f64, t: f64, r_dot: f64, t_dot: f64) -> ((f64, f64), (f64, f64)) {
            let t0 = t.cos();
            let t1 = t.sin();
            let t2 = r * t0;
            ((t2, r * t1), (r_dot * t0 - t_dot * t1 * r, r_dot * t1 + t_dot * t0 * r))
        }
        /// The forward half of `polar_vjp`: the value of `polar` and the residuals that `polar_rev` reads.
        ///
        /// Generated by `#[grad]` for a function with several outputs: a caller's gradient runs it in its forward pass,
        /// keeps the residuals, and passes them to `polar_rev` in its sweep, so that `polar` runs once per call.
        fn polar_fwd(r: f64, t: f64) -> ((f64, f64), (f64, f64)) {
            let t0 = t.cos();
            let t1 = t.sin();
            ((r * t0, r * t1), (t1, t0))
        }
        /// The reverse half of `polar_vjp`: the vector-Jacobian product with the cotangent (`out_bar`, `out_bar_1`), with respect to `r`, `t`,
        /// from the residuals that `polar_fwd` returned with the value.
        ///
        /// Generated by `#[grad]` for a function with several outputs: returns the cotangents in parameter order, as `polar_vjp` does.
        fn polar_rev(
            r: f64,
            _t: f64,
            (t0, t1): (f64, f64),
            (out_bar, out_bar_1): (f64, f64),
        ) -> (f64, f64) {
            let r_bar = out_bar_1 * t0 + out_bar * t1;
            let t_bar = out_bar_1 * r * t1 - out_bar * r * t0;
            (r_bar, t_bar)
        }
        /// The forward mode of `polar_vjp`: value, cotangents with respect to `r`, `t`, and the derivatives of both along
        /// the directions of the parameters and of the cotangent, (`r_dot`, `t_dot`, `out_bar_dot`, `out_bar_1_dot`).
        ///
        /// Generated by `#[grad(hvp)]` for a function with several outputs: returns `(value, cotangents, value_dot, cotangents_dot)`;
        /// a caller's H·v runs it for the sweep of a call of `polar`.
        fn polar_hvp(
            r: f64,
            t: f64,
            (out_bar, out_bar_1): (f64, f64),
            r_dot: f64,
            t_dot: f64,
            (out_bar_dot, out_bar_1_dot): (f64, f64),
        ) -> ((f64, f64), (f64, f64), (f64, f64), (f64, f64)) {
            let t0 = t.cos();
            let t1 = t.sin();
            let t2 = t_dot * t1;
            let t3 = r * t0;
            let t4 = r_dot * t0 - t2 * r;
            let t5 = t_dot * t0;
            let t6 = r * t1;
            let t7 = r_dot * t1 + t5 * r;
            let t8 = out_bar_1 * t1;
            let t9 = out_bar_1_dot * t1 + t5 * out_bar_1;
            let t10 = out_bar_1 * r;
            let t11 = t10 * t0;
            let t12 = (out_bar_1_dot * r + r_dot * out_bar_1) * t0 - t2 * t10;
            let t13 = out_bar * t0;
            let t14 = out_bar_dot * t0 - t2 * out_bar;
            let t15 = out_bar * r;
            let r_bar = t8 + t13;
            let r_bar_dot = t9 + t14;
            let t_bar = t11 - t15 * t1;
            let t_bar_dot = t12 - ((out_bar_dot * r + r_dot * out_bar) * t1 + t5 * t15);
            ((t3, t6), (r_bar, t_bar), (t4, t7), (r_bar_dot, t_bar_dot))
        }
        /// Not generated: `polar_grad` is a stand-in whose call is a compile error saying how to get it.
        #[doc(hidden)]
        #[allow(dead_code, clippy::too_many_arguments)]
        fn polar_grad<T0: ::autodiff_runtime::__private::ScalarCallee, T1>(
            _: T0,
            _: T1,
        ) -> (f64, (f64, f64)) {
            ::core::panic!()
        }
    "#]]
    .assert_eq(&out);
}

#[test]
fn a_perceptron_through_a_layer_and_constant_data() {
    let out = expand_pretty(
        quote!(wrt(w1, b1, w2, b2), hvp),
        quote! {
            pub fn mlp(
                w1: &[[f64; 4]; 4],
                b1: &[f64; 4],
                w2: &[[f64; 4]; 4],
                b2: &[f64; 4],
                x: &[f64; 4],
            ) -> f64 {
                let h: [f64; 4] = layer(w1, b1, x);
                let o: [f64; 4] = layer(w2, b2, &h);
                let mut loss = 0.0;
                for i in 0..4 {
                    loss += o[i] * o[i];
                }
                0.5 * loss
            }
        },
    );
    expect![[r#"
        #[allow(dead_code)]
        pub fn mlp(
            w1: &[[f64; 4]; 4],
            b1: &[f64; 4],
            w2: &[[f64; 4]; 4],
            b2: &[f64; 4],
            x: &[f64; 4],
        ) -> f64 {
            let h: [f64; 4] = layer(w1, b1, x);
            let o: [f64; 4] = layer(w2, b2, &h);
            let mut loss = 0.0;
            for i in 0..4 {
                loss += o[i] * o[i];
            }
            0.5 * loss
        }
        /// Value and gradient of `mlp` with respect to `w1`, `b1`, `w2`, `b2`, from one
        /// forward pass and one reverse (adjoint) sweep.
        ///
        /// Generated by `#[grad]`: returns `(value, gradient)`, the gradient in parameter order (a bare `f64` for one parameter).
        #[allow(clippy::needless_range_loop)]
        pub fn mlp_grad(
            w1: &[[f64; 4]; 4],
            b1: &[f64; 4],
            w2: &[[f64; 4]; 4],
            b2: &[f64; 4],
            x: &[f64; 4],
        ) -> (f64, ([[f64; 4]; 4], [f64; 4], [[f64; 4]; 4], [f64; 4])) {
            let (h, h_res): ([f64; 4], _) = layer_fwd(w1, b1, x);
            let (o, o_res): ([f64; 4], _) = layer_fwd(w2, b2, &h);
            let mut o_bar = [0.0; 4];
            let mut loss = 0.0;
            for i in 0..4 {
                let t0 = o[i];
                loss += t0 * t0;
                o_bar[i] = t0;
            }
            let (w2_bar, b2_bar, h_bar): ([[f64; 4]; 4], [f64; 4], [f64; 4]) = layer_rev(
                w2,
                b2,
                &h,
                o_res,
                o_bar,
            );
            let (w1_bar, b1_bar, _): ([[f64; 4]; 4], [f64; 4], _) = layer_rev(
                w1,
                b1,
                x,
                h_res,
                h_bar,
            );
            (0.5 * loss, (w1_bar, b1_bar, w2_bar, b2_bar))
        }
        /// Value, gradient and Hessian-vector product H·v of `mlp` with respect to `w1`, `b1`, `w2`, `b2`, along (`w1_dot`, `b1_dot`, `w2_dot`, `b2_dot`).
        ///
        /// Generated by `#[grad(hvp)]` as forward mode over the reverse sweep; the Hessian is never formed. Returns `(value, gradient, H·v)`.
        #[allow(clippy::too_many_arguments)]
        #[allow(clippy::needless_range_loop)]
        pub fn mlp_hvp(
            w1: &[[f64; 4]; 4],
            b1: &[f64; 4],
            w2: &[[f64; 4]; 4],
            b2: &[f64; 4],
            x: &[f64; 4],
            w1_dot: &[[f64; 4]; 4],
            b1_dot: &[f64; 4],
            w2_dot: &[[f64; 4]; 4],
            b2_dot: &[f64; 4],
        ) -> (
            f64,
            ([[f64; 4]; 4], [f64; 4], [[f64; 4]; 4], [f64; 4]),
            ([[f64; 4]; 4], [f64; 4], [[f64; 4]; 4], [f64; 4]),
        ) {
            let (h, h_dot): ([f64; 4], [f64; 4]) = layer_jvp(
                w1,
                b1,
                x,
                w1_dot,
                b1_dot,
                &::autodiff_runtime::__private::zero(),
            );
            let (o, o_dot): ([f64; 4], [f64; 4]) = layer_jvp(w2, b2, &h, w2_dot, b2_dot, &h_dot);
            let mut o_bar = [0.0; 4];
            let mut o_bar_dot = [0.0; 4];
            let mut loss = 0.0;
            for i in 0..4 {
                let t0 = o[i];
                loss += t0 * t0;
                o_bar[i] = t0;
                o_bar_dot[i] = o_dot[i];
            }
            let (
                _,
                (w2_bar, b2_bar, h_bar),
                _,
                (w2_bar_dot, b2_bar_dot, h_bar_dot),
            ): (
                [f64; 4],
                ([[f64; 4]; 4], [f64; 4], [f64; 4]),
                [f64; 4],
                ([[f64; 4]; 4], [f64; 4], [f64; 4]),
            ) = layer_hvp(w2, b2, &h, o_bar, w2_dot, b2_dot, &h_dot, o_bar_dot);
            let (
                _,
                (w1_bar, b1_bar, _),
                _,
                (w1_bar_dot, b1_bar_dot, _),
            ): (
                [f64; 4],
                ([[f64; 4]; 4], [f64; 4], _),
                [f64; 4],
                ([[f64; 4]; 4], [f64; 4], _),
            ) = layer_hvp(
                w1,
                b1,
                x,
                h_bar,
                w1_dot,
                b1_dot,
                &::autodiff_runtime::__private::zero(),
                h_bar_dot,
            );
            (
                0.5 * loss,
                (w1_bar, b1_bar, w2_bar, b2_bar),
                (w1_bar_dot, b1_bar_dot, w2_bar_dot, b2_bar_dot),
            )
        }
        /// Not generated: `mlp_jvp` is a stand-in whose call is a compile error saying how to get it.
        #[doc(hidden)]
        #[allow(dead_code, clippy::too_many_arguments)]
        pub fn mlp_jvp<
            T0: ::autodiff_runtime::__private::JvpGenerated,
            T1,
            T2,
            T3,
            T4,
            T5,
            T6,
            T7,
            T8,
        >(_: T0, _: T1, _: T2, _: T3, _: T4, _: T5, _: T6, _: T7, _: T8) -> (f64, f64) {
            ::core::panic!()
        }
    "#]]
    .assert_eq(&out);
}

/// The items of an expansion that `keep` keeps, in the expansion's order.
fn items(out: &str, keep: impl Fn(&syn::Item) -> bool) -> String {
    let mut file = syn::parse_file(out).unwrap_or_else(|e| panic!("{e}"));
    file.items.retain(keep);
    prettyplease::unparse(&file)
}

/// The functions of an expansion named in `names`, in the expansion's order.
fn pick(out: &str, names: &[&str]) -> String {
    items(
        out,
        |i| matches!(i, syn::Item::Fn(f) if names.contains(&f.sig.ident.to_string().as_str())),
    )
}

#[test]
fn a_layer_split_in_halves_and_a_stored_loop_that_keeps_its_calls_residuals() {
    let layer = expand_pretty(
        quote!(),
        quote! {
            pub fn layer(w: &[[f64; 4]; 4], b: &[f64; 4], x: &[f64; 4]) -> [f64; 4] {
                let mut h = [0.0; 4];
                for i in 0..4 {
                    let mut z = b[i];
                    for j in 0..4 {
                        z += w[i][j] * x[j];
                    }
                    h[i] = z.tanh();
                }
                h
            }
        },
    );
    // `layer_fwd` is the forward pass of `layer_vjp`, returning the `tanh`s its sweep reads;
    // `layer_rev` is the sweep, reading them: `layer` runs once per call.
    expect![[r#"
        /// The forward half of `layer_vjp`: the value of `layer` and the residuals that `layer_rev` reads.
        ///
        /// Generated by `#[grad]` for a function with several outputs: a caller's gradient runs it in its forward pass,
        /// keeps the residuals, and passes them to `layer_rev` in its sweep, so that `layer` runs once per call.
        #[allow(clippy::needless_range_loop)]
        pub fn layer_fwd(w: &[[f64; 4]; 4], b: &[f64; 4], x: &[f64; 4]) -> ([f64; 4], [f64; 4]) {
            let mut h = [0.0; 4];
            let mut saved = [0.0; 4];
            for i in 0..4 {
                ::autodiff_runtime::__private::outer_loop();
                let z = b[i];
                let mut z_1 = z;
                for j in 0..4 {
                    z_1 += w[i][j] * x[j];
                }
                let t0 = z_1.tanh();
                saved[i] = t0;
                h[i] = t0;
            }
            (h, saved)
        }
        /// The reverse half of `layer_vjp`: the vector-Jacobian product with the cotangent (`out_bar`), with respect to `w`, `b`, `x`,
        /// from the residuals that `layer_fwd` returned with the value.
        ///
        /// Generated by `#[grad]` for a function with several outputs: returns the cotangents in parameter order, as `layer_vjp` does.
        #[allow(clippy::needless_range_loop)]
        pub fn layer_rev(
            w: &[[f64; 4]; 4],
            _b: &[f64; 4],
            x: &[f64; 4],
            saved: [f64; 4],
            out_bar: [f64; 4],
        ) -> ([[f64; 4]; 4], [f64; 4], [f64; 4]) {
            let mut b_bar = [0.0; 4];
            let mut w_bar = [[0.0; 4]; 4];
            let mut x_bar = [0.0; 4];
            let mut h_bar = out_bar;
            for i in (0..4).rev() {
                ::autodiff_runtime::__private::outer_loop();
                let t0 = saved[i];
                let t1 = h_bar[i];
                h_bar[i] = 0.0;
                let z_3_bar = t1 * (1.0 - t0 * t0);
                for j in 0..4 {
                    x_bar[j] += z_3_bar * w[i][j];
                    w_bar[i][j] = z_3_bar * x[j];
                }
                b_bar[i] = z_3_bar;
            }
            (w_bar, b_bar, x_bar)
        }
    "#]].assert_eq(&pick(&layer, &["layer_fwd", "layer_rev"]));
    let recurrent = expand_pretty(
        quote!(wrt(w, b)),
        quote! {
            pub fn recurrent(w: &[[f64; 4]; 4], b: &[f64; 4], x: &[f64; 4]) -> f64 {
                let mut h = [x[0], x[1], x[2], x[3]];
                for _ in 0..6 {
                    h = layer(w, b, &h);
                }
                let mut loss = 0.0;
                for v in h {
                    loss += v * v;
                }
                0.5 * loss
            }
        },
    );
    // Each iteration keeps the residuals of its call in `h_res_saved`, whose type rustc infers
    // from the store; the sweep passes them to `layer_rev` and does not call `layer_fwd` again.
    expect![[r#"
        /// Value and gradient of `recurrent` with respect to `w`, `b`, from one
        /// forward pass and one reverse (adjoint) sweep.
        ///
        /// Generated by `#[grad]`: returns `(value, gradient)`, the gradient in parameter order (a bare `f64` for one parameter).
        #[allow(clippy::needless_range_loop)]
        pub fn recurrent_grad(
            w: &[[f64; 4]; 4],
            b: &[f64; 4],
            x: &[f64; 4],
        ) -> (f64, ([[f64; 4]; 4], [f64; 4])) {
            let mut h = [x[0], x[1], x[2], x[3]];
            let mut h_saved = [[0.0; 4]; 6];
            let mut h_res_saved = [::autodiff_runtime::__private::Residuals::zeroed(); 6];
            for i in 0..6 {
                h_saved[i] = h;
                let (h_2, h_2_res): ([f64; 4], _) = layer_fwd(w, b, &h);
                h_res_saved[i] = h_2_res;
                h = h_2;
            }
            let mut h_bar = [0.0; 4];
            let mut loss = 0.0;
            for i in 0..4 {
                let v = h[i];
                loss += v * v;
                h_bar[i] = v;
            }
            let t0 = 0.5 * loss;
            let mut w_bar = [[0.0; 4]; 4];
            let mut b_bar = [0.0; 4];
            for i in (0..6).rev() {
                ::autodiff_runtime::__private::outer_loop();
                let h_1 = h_saved[i];
                let h_2_res_1 = h_res_saved[i];
                let (w_bar_1, b_bar_1, h_3_bar): ([[f64; 4]; 4], [f64; 4], [f64; 4]) = layer_rev(
                    w,
                    b,
                    &h_1,
                    h_2_res_1,
                    h_bar,
                );
                for j in 0..4 {
                    ::autodiff_runtime::__private::outer_loop();
                    for k in 0..4 {
                        w_bar[j][k] += w_bar_1[j][k];
                    }
                }
                for l in 0..4 {
                    b_bar[l] += b_bar_1[l];
                }
                h_bar = h_3_bar;
            }
            (t0, (w_bar, b_bar))
        }
    "#]].assert_eq(&pick(&recurrent, &["recurrent_grad"]));
}

#[test]
fn an_array_value_bound_without_its_type_reads_its_lengths_from_the_callee_s_shape() {
    // The callee writes its dimensions; a generic one (over its value's length) does not.
    let outer = expand_pretty(
        quote!(),
        quote! {
            pub fn outer(a: [f64; 2], b: [f64; 3]) -> [[f64; 3]; 2] {
                [[a[0] * b[0], a[0] * b[1], a[0] * b[2]], [a[1] * b[0], a[1] * b[1], a[1] * b[2]]]
            }
        },
    );
    expect![[r#"
        /// The dimensions of `outer`'s value, outermost first: what a caller's `#[grad]` writes the type of `let h = outer(..);` with, when the `let` does not.
        #[allow(dead_code, non_upper_case_globals)]
        pub const outer_shape: [usize; 2] = [2, 3];
    "#]]
    .assert_eq(&items(&outer, |i| matches!(i, syn::Item::Const(_))));
    let repeated = expand_pretty(
        quote!(),
        quote! {
            fn repeated<const N: usize>(x: f64) -> [f64; N] {
                [x; N]
            }
        },
    );
    assert!(!repeated.contains("repeated_shape"), "{repeated}");
    // The caller: `m` is indexed two deep, `outer(a, b)[1][0]` in place, `next` assigned to a
    // typed variable, `p` lent.
    let caller = expand_pretty(
        quote!(),
        quote! {
            fn energy(a: [f64; 2], b: [f64; 3]) -> f64 {
                let m = outer(a, b);
                let mut h = [0.0; 2];
                let next = pair(a[0]);
                h = next;
                let p = pair(b[2]);
                m[0][1] + outer(a, b)[1][0] + h[1] + norm(&p)
            }
        },
    );
    expect![[r#"
        /// Value and gradient of `energy` with respect to `a`, `b`, from one
        /// forward pass and one reverse (adjoint) sweep.
        ///
        /// Generated by `#[grad]`: returns `(value, gradient)`, the gradient in parameter order (a bare `f64` for one parameter).
        #[allow(clippy::needless_range_loop)]
        fn energy_grad(a: [f64; 2], b: [f64; 3]) -> (f64, ([f64; 2], [f64; 3])) {
            let (m, m_res): ([[f64; outer_shape[1]]; outer_shape[0]], _) = outer_fwd(a, b);
            let t0 = a[0];
            let (next, next_res): ([f64; 2], _) = pair_fwd(t0);
            let t1 = b[2];
            let (p, p_res): ([f64; pair_shape[0]], _) = pair_fwd(t1);
            let (t2, dnorm_dp): (f64, [f64; pair_shape[0]]) = norm_grad(&p);
            let t3 = m[0][1] + m[1][0] + next[1] + t2;
            let mut next_bar = [0.0; 2];
            next_bar[1] = 1.0;
            let mut t4 = [[0.0; outer_shape[1]]; outer_shape[0]];
            t4[1][0] = 1.0;
            let (a_bar, b_bar): ([f64; 2], [f64; 3]) = outer_rev(a, b, m_res, t4);
            let mut m_bar = [[0.0; outer_shape[1]]; outer_shape[0]];
            m_bar[0][1] = 1.0;
            let t5: f64 = pair_rev(t1, p_res, dnorm_dp);
            let mut b_bar_1 = b_bar;
            b_bar_1[2] = b_bar[2] + t5;
            let t6: f64 = pair_rev(t0, next_res, next_bar);
            let mut a_bar_1 = a_bar;
            a_bar_1[0] = a_bar[0] + t6;
            let (a_bar_2, b_bar_2): ([f64; 2], [f64; 3]) = outer_rev(a, b, m_res, m_bar);
            for j in 0..2 {
                a_bar_1[j] += a_bar_2[j];
            }
            for k in 0..3 {
                b_bar_1[k] += b_bar_2[k];
            }
            (t3, (a_bar_1, b_bar_1))
        }
    "#]]
    .assert_eq(&pick(&caller, &["energy_grad"]));
}

#[test]
fn a_free_function_returning_a_struct_names_its_type_for_untyped_callers() {
    let expansion = |item| expand_pretty(quote!(), item);
    let types = |out: &str| items(out, |i| matches!(i, syn::Item::Type(_)));
    let free = expansion(quote! {
        pub fn turn(q: &Quat, a: f64) -> Quat {
            Quat { w: q.w * a, x: q.x }
        }
    });
    expect![[r#"
        /// The type of `turn`'s value: what a caller's `#[grad]` binds `let r = turn(..);` with, when the `let` does not say and the body reads `r` as a struct.
        #[allow(dead_code, non_camel_case_types)]
        pub type turn_value = Quat;
    "#]]
    .assert_eq(&types(&free));
    // Not in an `impl` (it names `Self`), nor generic.
    let in_impl = expansion(quote! {
        pub fn turn(q: &Quat, a: f64) -> Self {
            Self { w: q.w * a, x: q.x }
        }
    });
    let generic = expansion(quote! {
        pub fn turn<const N: usize>(q: &Quat, a: [f64; N]) -> Quat {
            Quat { w: q.w * a[0], x: q.x }
        }
    });
    assert_eq!(types(&in_impl) + &types(&generic), "");
}
