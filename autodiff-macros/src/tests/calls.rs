//! Calls: how each argument fills the callee's partials and directions (one per parameter of the
//! callee that is an `f64` or an array of `f64`): a value's partial is kept and its tangent
//! passed, a constant of such a type gets a zero direction and its partial dropped, other
//! constants pass through, and a constant whose type the tokens do not tell is an error.

use expect_test::{Expect, expect};
use quote::quote;

use super::expand_pretty;
use super::lowering::check;
use crate::ctxt::Ctxt;
use crate::lower::lower;

/// The errors lowering reports for `src`, each as "message @ `spanned source text`".
fn expect_errors(attr: &str, src: &str, expected: Expect) {
    let mut cx = Ctxt::new();
    let args = crate::args::parse(&mut cx, attr.parse().unwrap_or_default());
    let item: syn::ItemFn = syn::parse_str(src).expect("test input is a function");
    lower(&mut cx, &item, &args);
    let errors: Vec<String> = cx
        .errors()
        .iter()
        .map(|e| format!("{e} @ `{}`", e.span().source_text().unwrap_or_default()))
        .collect();
    expected.assert_eq(&(errors.join("\n") + "\n"));
}

#[test]
fn each_constant_argument_is_classified_by_its_type() {
    check(
        "wrt(x)",
        "fn f(x: f64, c: f64, w: &[f64; 3], data: &[f64], m: &[[f64; 2]], n: usize, pair: (f64, usize), flag: bool, v: Vec<f64>) -> f64 {
            let k: f64 = K;
            let row = m[n];
            let a = [x, x, x];
            let c2 = c;
            g(x, c2) +
            g(x, 2.0, c, data[n], row, data, n, 3, pair.0, pair.1, k, n as f64, c * 2.0, &a, w, *w,
              std::f64::consts::PI, usize::MAX, flag, 1.0f32, v[n], [c, 1.0], -c, c.sqrt())
        }",
        expect![[r#"
            in x%0 c%1 w%2 active x%0
            a%3 = array x%0 x%0 x%0
            %4 = call g Value (x%0, c%1) dirs ()
            %5 = array c%1 1.0
            %6 = sqrt c%1
            %7 = call g Value (x%0, ext2/0.0, ext3/0.0, ext4/0.0, ext5/zero(), ext6, ext7, ext8, ext9/0.0, ext10, ext11/0.0, ext12/0.0, ext13/0.0, &a%3, ext14/&zero(), ext15/zero(), ext16/0.0, ext17, ext18, ext19, ext20/0.0, %5, ext21/0.0, %6) dirs ()
            %8 = add %4 %7
            out %8
            ext0 = K loops [] params []
            ext1 = m [n] loops [] params [m n]
            ext2 = 2.0 loops [] params []
            ext3 = c loops [] params [c]
            ext4 = data [n] loops [] params [data n]
            ext5 = m [n] loops [] params [m n]
            ext6 = data loops [] params [data]
            ext7 = n loops [] params [n]
            ext8 = 3 loops [] params []
            ext9 = pair . 0 loops [] params [pair]
            ext10 = pair . 1 loops [] params [pair]
            ext11 = K loops [] params []
            ext12 = n as f64 loops [] params [n]
            ext13 = c * 2.0 loops [] params [c]
            ext14 = w loops [] params [w]
            ext15 = * w loops [] params [w]
            ext16 = std :: f64 :: consts :: PI loops [] params []
            ext17 = usize :: MAX loops [] params []
            ext18 = flag loops [] params [flag]
            ext19 = 1.0f32 loops [] params []
            ext20 = v [n] loops [] params [v n]
            ext21 = - c loops [] params [c]
        "#]],
    );
}

#[test]
fn a_constant_of_a_type_the_tokens_do_not_tell_is_an_error_at_a_call_that_needs_it() {
    expect_errors(
        "wrt(x)",
        "fn f<const M: usize>(x: f64, model: Model) -> f64 {
            let k = K;
            let ok: f64 = K;
            let n: usize = N;
            g(x, K) + g(model.scale, x) + g(x, k) + g(x, consts::K + L)
                + g(x, ok) + g(x, n) + g(x, K * 2.0) + g(K, 2.0) + g(x, M) + g(x, M - 1)
        }",
        expect![[r#"
            `#[grad]` cannot tell whether `K` is an `f64`: a macro sees tokens, not types, and the derivatives of this call pass one direction for each `f64` or array argument and none for others; bind it to a local of its type first, such as `let k: f64 = K;` @ `K`
            `#[grad]` cannot tell whether `model.scale` is an `f64`: a macro sees tokens, not types, and the derivatives of this call pass one direction for each `f64` or array argument and none for others; bind it to a local of its type first, such as `let scale: f64 = model.scale;` @ `model.scale`
            `#[grad]` cannot tell whether `k` is an `f64`: a macro sees tokens, not types, and the derivatives of this call pass one direction for each `f64` or array argument and none for others; write the type in its `let`, such as `let k: f64 = ...;` @ `k`
            `#[grad]` cannot tell whether `consts::K + L` is an `f64`: a macro sees tokens, not types, and the derivatives of this call pass one direction for each `f64` or array argument and none for others; bind it to a local of its type first, such as `let c: f64 = consts::K + L;` @ `consts::K + L`
        "#]],
    );
}

#[test]
fn a_call_with_constants_in_different_positions() {
    let out = expand_pretty(
        quote!(hvp, wrt(theta, mu)),
        quote! {
            fn f(theta: f64, mu: f64, y: f64, w: &[f64; 2], n: usize) -> f64 {
                normal_lpdf(theta, mu, 2.0) + normal_lpdf(y, theta, mu) + h(&[theta, mu], w, n)
            }
        },
    );
    expect![[r#"
        #[allow(dead_code)]
        fn f(theta: f64, mu: f64, y: f64, w: &[f64; 2], n: usize) -> f64 {
            normal_lpdf(theta, mu, 2.0) + normal_lpdf(y, theta, mu) + h(&[theta, mu], w, n)
        }
        /// Value and gradient of `f` with respect to `theta`, `mu`, from one
        /// forward pass and one reverse (adjoint) sweep.
        ///
        /// Generated by `#[grad]`: returns `(value, gradient)`, the gradient in parameter order (a bare `f64` for one parameter).
        fn f_grad(theta: f64, mu: f64, y: f64, w: &[f64; 2], n: usize) -> (f64, (f64, f64)) {
            let (t0, (dnormal_lpdf_dtheta, dnormal_lpdf_dmu, _)): (f64, (f64, f64, f64)) = normal_lpdf_grad(
                theta,
                mu,
                2.0,
            );
            let (t1, (_, dnormal_lpdf_dtheta_1, dnormal_lpdf_dmu_1)): (f64, (f64, f64, f64)) = normal_lpdf_grad(
                y,
                theta,
                mu,
            );
            let t2 = [theta, mu];
            let (t3, (dh_d0, _)): (f64, ([f64; 2], _)) = h_grad(&t2, w, n);
            let theta_bar = dh_d0[0];
            let mu_bar = dh_d0[1];
            let theta_bar_1 = theta_bar + dnormal_lpdf_dtheta_1 + dnormal_lpdf_dtheta;
            let mu_bar_1 = mu_bar + dnormal_lpdf_dmu_1 + dnormal_lpdf_dmu;
            (t0 + t1 + t3, (theta_bar_1, mu_bar_1))
        }
        /// Value, gradient and Hessian-vector product H·v of `f` with respect to `theta`, `mu`, along (`theta_dot`, `mu_dot`).
        ///
        /// Generated by `#[grad(hvp)]` as forward mode over the reverse sweep; the Hessian is never formed. Returns `(value, gradient, H·v)`.
        fn f_hvp(
            theta: f64,
            mu: f64,
            y: f64,
            w: &[f64; 2],
            n: usize,
            theta_dot: f64,
            mu_dot: f64,
        ) -> (f64, (f64, f64), (f64, f64)) {
            let (
                t0,
                (dnormal_lpdf_dtheta, dnormal_lpdf_dmu, _),
                (dnormal_lpdf_dtheta_dot, dnormal_lpdf_dmu_dot, _),
            ): (f64, (f64, f64, f64), (f64, f64, f64)) = normal_lpdf_hvp(
                theta,
                mu,
                2.0,
                theta_dot,
                mu_dot,
                0.0,
            );
            let (
                t1,
                (_, dnormal_lpdf_dtheta_1, dnormal_lpdf_dmu_1),
                (_, dnormal_lpdf_dtheta_1_dot, dnormal_lpdf_dmu_1_dot),
            ): (f64, (f64, f64, f64), (f64, f64, f64)) = normal_lpdf_hvp(
                y,
                theta,
                mu,
                0.0,
                theta_dot,
                mu_dot,
            );
            let t2 = [theta, mu];
            let t3 = [theta_dot, mu_dot];
            let (t4, (dh_d0, _), (dh_d0_dot, _)): (f64, ([f64; 2], _), ([f64; 2], _)) = h_hvp(
                &t2,
                w,
                n,
                &t3,
                &::autodiff_runtime::__private::zero(),
            );
            let t5 = t0 + t1 + t4;
            let theta_bar = dh_d0[0];
            let theta_bar_dot = dh_d0_dot[0];
            let mu_bar = dh_d0[1];
            let mu_bar_dot = dh_d0_dot[1];
            let theta_bar_1 = theta_bar + dnormal_lpdf_dtheta_1 + dnormal_lpdf_dtheta;
            let theta_bar_1_dot = theta_bar_dot + dnormal_lpdf_dtheta_1_dot
                + dnormal_lpdf_dtheta_dot;
            let mu_bar_1 = mu_bar + dnormal_lpdf_dmu_1 + dnormal_lpdf_dmu;
            let mu_bar_1_dot = mu_bar_dot + dnormal_lpdf_dmu_1_dot + dnormal_lpdf_dmu_dot;
            (t5, (theta_bar_1, mu_bar_1), (theta_bar_1_dot, mu_bar_1_dot))
        }
        /// Not generated: `f_jvp` is a stand-in whose call is a compile error saying how to get it.
        #[doc(hidden)]
        #[allow(dead_code, clippy::too_many_arguments)]
        fn f_jvp<T0: ::autodiff_runtime::__private::JvpGenerated, T1, T2, T3, T4, T5, T6>(
            _: T0,
            _: T1,
            _: T2,
            _: T3,
            _: T4,
            _: T5,
            _: T6,
        ) -> (f64, f64) {
            ::core::panic!()
        }
    "#]].assert_eq(&out);
}
