//! Snapshots of the IR that lowering makes of loops and arrays; every one is checked by the
//! verifier. The helpers are shared with the snapshots of branches and outputs.

use expect_test::{Expect, expect};

use crate::ctxt::Ctxt;
use crate::ir::{print, verify};
use crate::lower::{Lowered, lower};

/// Lowers `src` (a function) with the options `attr`, asserting that it is accepted.
pub(super) fn lowered(attr: &str, src: &str) -> Lowered {
    let mut cx = Ctxt::new();
    let args = crate::args::parse(&mut cx, attr.parse().unwrap_or_default());
    let item: syn::ItemFn = syn::parse_str(src).expect("test input is a function");
    let l = lower(&mut cx, &item, &args);
    let errors: Vec<String> = cx.errors().iter().map(ToString::to_string).collect();
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(verify(&l.func), Ok(()));
    l
}

/// The IR's text, followed by its constants (the user's tokens, and the loops and parameters
/// they read).
pub(super) fn text(f: &crate::ir::Func) -> String {
    let mut out = print(f);
    for (i, e) in f.exts.iter().enumerate() {
        let tokens = e.tokens.to_string();
        let loops: Vec<String> = e.loops.iter().map(|l| format!("@{}", l.0)).collect();
        out += &format!(
            "ext{i} = {tokens} loops [{}] params [{}]\n",
            loops.join(" "),
            e.params.join(" ")
        );
    }
    out
}

pub(super) fn check(attr: &str, src: &str, expected: Expect) {
    expected.assert_eq(&text(&lowered(attr, src).func));
}

#[test]
fn lesson_ring_sum() {
    check(
        "",
        "fn f(x: [f64; N]) -> f64 {
            let mut s = 0.0;
            for i in 0..N {
                s += x[i].sin() * x[(i + N - 1) % N];
            }
            s
        }",
        expect![[r#"
            in x%0 active x%0
            for @0 in 0..N carry s%1 = 0.0 {
              %2 = load x%0 [@0]
              %3 = sin %2
              %4 = load x%0 [(i+N-1)%N]
              %5 = mul %3 %4
              s_1%6 = add s%1 %5
              yield s_1%6
            } -> s_2%7
            out s_2%7
        "#]],
    );
}

#[test]
fn explicit_euler() {
    check(
        "wrt(x0, k)",
        "fn euler(x0: f64, k: f64, dt: f64) -> f64 {
            let mut x = x0;
            for _ in 0..N {
                x = x - dt * k * x;
            }
            x
        }",
        expect![[r#"
            in x0%0 k%1 dt%2 active x0%0 k%1
            for @0 in 0..N carry x%3 = x0%0 {
              %4 = mul dt%2 k%1
              %5 = mul %4 x%3
              x_1%6 = sub x%3 %5
              yield x_1%6
            } -> x_2%7
            out x_2%7
        "#]],
    );
}

#[test]
fn gaussian_negative_log_likelihood() {
    check(
        "",
        "fn nll(mu: f64, log_sigma: f64, data: &[f64]) -> f64 {
            let sigma = log_sigma.exp();
            let mut s = 0.0;
            for i in 0..data.len() {
                let z = (data[i] - mu) / sigma;
                s += 0.5 * z * z + log_sigma;
            }
            s + 0.5 * (data.len() as f64) * (2.0 * std::f64::consts::PI).ln()
        }",
        expect![[r#"
            in mu%0 log_sigma%1 active mu%0 log_sigma%1
            sigma%2 = exp log_sigma%1
            for @0 in 0..data.len() carry s%3 = 0.0 {
              %4 = sub ext0 mu%0
              z%5 = div %4 sigma%2
              %6 = mul 0.5 z%5
              %7 = mul %6 z%5
              %8 = add %7 log_sigma%1
              s_1%9 = add s%3 %8
              yield s_1%9
            } -> s_2%10
            %11 = mul 0.5 ext1
            %12 = mul 2.0 ext2
            %13 = ln %12
            %14 = mul %11 %13
            %15 = add s_2%10 %14
            out %15
            ext0 = data [i] loops [@0] params [data]
            ext1 = data . len () as f64 loops [] params [data]
            ext2 = std :: f64 :: consts :: PI loops [] params []
        "#]],
    );
}

#[test]
fn lennard_jones_triangular_loops() {
    check(
        "",
        "fn lj(p: [[f64; 3]; 8]) -> f64 {
            let mut e = 0.0;
            for i in 0..8 {
                for j in i + 1..8 {
                    let mut r2 = 0.0;
                    for k in 0..3 {
                        let d = p[i][k] - p[j][k];
                        r2 += d * d;
                    }
                    let s6 = (1.0 / r2).powi(3);
                    e += 4.0 * (s6 * s6 - s6);
                }
            }
            e
        }",
        expect![[r#"
            in p%0 active p%0
            for @0 in 0..8 carry e%1 = 0.0 {
              for @1 in i+1..8 carry e_1%2 = e%1 {
                for @2 in 0..3 carry r2%3 = 0.0 {
                  %4 = load p%0 [@0][@2]
                  %5 = load p%0 [@1][@2]
                  d%6 = sub %4 %5
                  %7 = mul d%6 d%6
                  r2_1%8 = add r2%3 %7
                  yield r2_1%8
                } -> r2_2%9
                %10 = div 1.0 r2_2%9
                s6%11 = powi3 %10
                %12 = mul s6%11 s6%11
                %13 = sub %12 s6%11
                %14 = mul 4.0 %13
                e_2%15 = add e_1%2 %14
                yield e_2%15
              } -> e_3%16
              yield e_3%16
            } -> e_4%17
            out e_4%17
        "#]],
    );
}

#[test]
fn dense_layer_with_tanh_and_squared_loss() {
    check(
        "wrt(w, b)",
        "fn layer(w: [[f64; 16]; 16], b: [f64; 16], x: &[f64; 16], y: &[f64; 16]) -> f64 {
            let mut loss = 0.0;
            for i in 0..16 {
                let mut a = b[i];
                for j in 0..16 {
                    a += w[i][j] * x[j];
                }
                let d = a.tanh() - y[i];
                loss += d * d;
            }
            loss / 16.0
        }",
        expect![[r#"
            in w%0 b%1 x%2 y%3 active w%0 b%1
            for @0 in 0..16 carry loss%4 = 0.0 {
              a%5 = load b%1 [@0]
              for @1 in 0..16 carry a_1%6 = a%5 {
                %7 = load w%0 [@0][@1]
                %8 = mul %7 ext0
                a_2%9 = add a_1%6 %8
                yield a_2%9
              } -> a_3%10
              %11 = tanh a_3%10
              d%12 = sub %11 ext1
              %13 = mul d%12 d%12
              loss_1%14 = add loss%4 %13
              yield loss_1%14
            } -> loss_2%15
            %16 = div loss_2%15 16.0
            out %16
            ext0 = x [j] loops [@1] params [x]
            ext1 = y [i] loops [@0] params [y]
        "#]],
    );
}

#[test]
fn element_updates_in_a_loop() {
    check(
        "",
        "fn smooth(x: &[f64; 4]) -> f64 {
            let mut y = [0.0; 4];
            for i in 1..4 {
                y[i] += x[i] - x[i - 1];
                y[i] *= 2.0;
            }
            let z = y;
            z[3] + y[1]
        }",
        expect![[r#"
            in x%0 active x%0
            y%1 = fill 0.0 [4]
            for @0 in 1..4 carry y_1%2 = y%1 {
              %3 = load x%0 [@0]
              %4 = load x%0 [i-1]
              %5 = sub %3 %4
              %6 = load y_1%2 [@0]
              %7 = add %6 %5
              y_2%8 = store y_1%2 [@0] %7
              %9 = load y_2%8 [@0]
              %10 = mul %9 2.0
              y_3%11 = store y_2%8 [@0] %10
              yield y_3%11
            } -> y_4%12
            %13 = load y_4%12 [3]
            %14 = load y_4%12 [1]
            %15 = add %13 %14
            out %15
        "#]],
    );
}

#[test]
fn integer_lets_and_constants_are_substituted() {
    check(
        "",
        "fn shift(x: [f64; N], data: &[f64], n: usize) -> f64 {
            let mut s = 0.0;
            for i in 0..N {
                let j = (i + N - 1) % N;
                let k: usize = j * 2;
                let m = n - 1;
                s += x[j] * data[k] * (i as f64) + data[m] * (j + 1) as f64;
            }
            s
        }",
        expect![[r#"
            in x%0 active x%0
            for @0 in 0..N carry s%1 = 0.0 {
              %2 = load x%0 [(i+N-1)%N]
              %3 = mul %2 ext0
              %4 = mul %3 ext1
              %5 = mul ext2 ext3
              %6 = add %4 %5
              s_1%7 = add s%1 %6
              yield s_1%7
            } -> s_2%8
            out s_2%8
            ext0 = data [(i + N - 1) % N * 2] loops [@0] params [data]
            ext1 = i as f64 loops [@0] params []
            ext2 = data [n - 1] loops [] params [data n]
            ext3 = ((i + N - 1) % N + 1) as f64 loops [@0] params []
        "#]],
    );
}

#[test]
fn matrix_vector_product_returns_an_array() {
    check(
        "wrt(a)",
        "fn matvec(a: &[[f64; 3]; 2], v: [f64; 3], n: usize) -> [f64; 2] {
            let mut y = [0.0; 2];
            for i in 0..a.len() {
                let row = a[i];
                let k = i;
                for j in 0..row.len() {
                    y[k] += row[j] * v[j];
                }
            }
            for i in (1..=n).rev() {
                y[0] -= v[i % 3];
            }
            y
        }",
        expect![[r#"
            in a%0 v%1 active a%0
            y%2 = fill 0.0 [2]
            for @0 in 0..2 carry y_1%3 = y%2 {
              row%4 = load a%0 [@0]
              for @1 in 0..3 carry y_2%5 = y_1%3 {
                %6 = load row%4 [@1]
                %7 = mul %6 ext0
                %8 = load y_2%5 [@0]
                %9 = add %8 %7
                y_3%10 = store y_2%5 [@0] %9
                yield y_3%10
              } -> y_4%11
              yield y_4%11
            } -> y_5%12
            for @2 in 1..=n rev carry y_6%13 = y_5%12 {
              %14 = load y_6%13 [0]
              %15 = sub %14 ext1
              y_7%16 = store y_6%13 [0] %15
              yield y_7%16
            } -> y_8%17
            out y_8%17
            ext0 = v [j] loops [@1] params [v]
            ext1 = v [i % 3] loops [@2] params [v]
        "#]],
    );
}

#[test]
fn rows_of_constant_data_stay_constants() {
    check(
        "",
        "fn fit(c: [f64; 3], points: &[[f64; 3]], m: usize) -> f64 {
            let mut s = 0.0;
            for p in 0..points.len() {
                let row = points[p];
                let last = m - 1;
                for k in 0..row.len() {
                    s += c[k] * row[k] + row[last] * (row.len() as f64);
                }
            }
            s
        }",
        expect![[r#"
            in c%0 active c%0
            for @0 in 0..points.len() carry s%1 = 0.0 {
              for @1 in 0..points[p].len() carry s_1%2 = s%1 {
                %3 = load c%0 [@1]
                %4 = mul %3 ext1
                %5 = mul ext2 ext3
                %6 = add %4 %5
                s_2%7 = add s_1%2 %6
                yield s_2%7
              } -> s_3%8
              yield s_3%8
            } -> s_4%9
            out s_4%9
            ext0 = points [p] loops [@0] params [points]
            ext1 = points [p] [k] loops [@0 @1] params [points]
            ext2 = points [p] [m - 1] loops [@0] params [points m]
            ext3 = points [p] . len () as f64 loops [@0] params [points]
        "#]],
    );
}

#[test]
fn parameters_record_shapes_references_and_const_generics() {
    let l = lowered(
        "wrt(x, w)",
        "fn f<const N: usize>(x: &[f64; N], w: [[f64; 2]; K], d: [f64; 3], n: usize) -> f64 {
            let mut s = 0.0;
            for i in 0..N {
                s += x[i] * w[i % K][1] * d[n];
            }
            s
        }",
    );
    let shapes: Vec<(String, bool, Option<String>)> = l
        .params
        .iter()
        .map(|p| {
            let ty = p.input.map(|v| crate::lower::ty_text(l.func.ty(v)));
            (p.ident.to_string(), p.by_ref, ty)
        })
        .collect();
    assert_eq!(
        shapes,
        [
            ("x".into(), true, Some("[f64; N]".into())),
            ("w".into(), false, Some("[[f64; 2]; K]".into())),
            ("d".into(), false, Some("[f64; 3]".into())),
            ("n".into(), false, None),
        ]
    );
    let dims = |v: crate::ir::Var| l.func.ty(v).shape().map(|s| s.dims.clone()).unwrap_or_default();
    let (x, w) = (l.func.inputs[0], l.func.inputs[1]);
    assert_eq!((dims(x)[0].generic, dims(w)[0].generic, dims(w)[1].value), (true, false, Some(2)));
    let crate::ir::Stmt::For(lp) = &l.func.body[0] else { panic!("a loop") };
    assert!(lp.range.hi.generic && lp.range.lo.value == Some(0));
}
