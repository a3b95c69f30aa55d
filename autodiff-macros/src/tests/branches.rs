//! Snapshots of the IR that lowering makes of branches (`if`, `else if`, short-circuit
//! conditions) and of vector outputs; every one is checked by the verifier.

use expect_test::expect;

use super::lowering::{check, lowered, text};
use crate::lower::Output;

#[test]
fn huber() {
    check(
        "",
        "fn huber(r: f64, delta: f64) -> f64 {
            if r.abs() <= delta { 0.5 * r * r } else { delta * (r.abs() - 0.5 * delta) }
        }",
        expect![[r#"
            in r%0 delta%1 active r%0 delta%1
            %2 = abs r%0
            %3 = test %2 Le delta%1
            if %3 {
              %4 = mul 0.5 r%0
              %5 = mul %4 r%0
              yield %5
            } else {
              %6 = abs r%0
              %7 = mul 0.5 delta%1
              %8 = sub %6 %7
              %9 = mul delta%1 %8
              yield %9
            } -> %10
            out %10
        "#]],
    );
}

#[test]
fn array_output() {
    let l = lowered(
        "",
        "fn polar(r: f64, theta: f64) -> [f64; 2] {
            [r * theta.cos(), r * theta.sin()]
        }",
    );
    assert_eq!(l.output, Output::Array);
    expect![[r#"
        in r%0 theta%1 active r%0 theta%1
        %2 = cos theta%1
        %3 = mul r%0 %2
        %4 = sin theta%1
        %5 = mul r%0 %4
        %6 = array %3 %5
        out %6
    "#]]
    .assert_eq(&text(&l.func));
}

#[test]
fn tuple_output() {
    let l = lowered(
        "",
        "fn polar(r: f64, theta: f64) -> (f64, f64) {
            let c = theta.cos();
            (r * c, r * theta.sin())
        }",
    );
    assert_eq!(l.output, Output::Tuple(2));
    expect![[r#"
        in r%0 theta%1 active r%0 theta%1
        c%2 = cos theta%1
        %3 = mul r%0 c%2
        %4 = sin theta%1
        %5 = mul r%0 %4
        out %3 %5
    "#]]
    .assert_eq(&text(&l.func));
}

#[test]
fn if_inside_a_loop() {
    check(
        "",
        "fn relu_sum<const N: usize>(x: &[f64; N]) -> f64 {
            let mut s = 0.0;
            for i in (0..N).rev() {
                if x[i] > 0.0 {
                    s += x[i];
                }
            }
            s
        }",
        expect![[r#"
            in x%0 active x%0
            for @0 in 0..N rev carry s%1 = 0.0 {
              %2 = load x%0 [@0]
              %3 = test %2 Gt 0.0
              if %3 {
                s_1%4 = add s%1 %2
                yield s_1%4
              } else {
                yield s%1
              } -> s_2%5
              yield s_2%5
            } -> s_3%6
            out s_3%6
        "#]],
    );
}

#[test]
fn else_if_chain() {
    check(
        "",
        "fn piecewise(x: f64) -> f64 {
            let mut y = x;
            if x < -1.0 {
                y = -1.0;
            } else if x > 1.0 {
                y = 1.0;
            } else {
                y *= x;
            }
            let z = if y >= 0.0 { y } else if y == -1.0 { 0.0 } else { -y };
            z + y
        }",
        expect![[r#"
            in x%0 active x%0
            %1 = test x%0 Lt -1.0
            if %1 {
              yield -1.0
            } else {
              %2 = test x%0 Gt 1.0
              if %2 {
                yield 1.0
              } else {
                y%3 = mul x%0 x%0
                yield y%3
              } -> y_1%4
              yield y_1%4
            } -> y_2%5
            %6 = test y_2%5 Ge 0.0
            if %6 {
              yield y_2%5
            } else {
              %7 = test y_2%5 Eq -1.0
              if %7 {
                yield 0.0
              } else {
                %8 = neg y_2%5
                yield %8
              } -> %9
              yield %9
            } -> z%10
            %11 = add z%10 y_2%5
            out %11
        "#]],
    );
}

#[test]
fn short_circuit() {
    check(
        "",
        "fn ramp(x: [f64; 4]) -> f64 {
            let mut s = 0.0;
            for i in 0..=3 {
                if i > 0 && x[i - 1] > 0.0 || !(x[i] < 1.0) {
                    s += x[i];
                }
            }
            s
        }",
        expect![[r#"
            in x%0 active x%0
            for @0 in 0..=3 carry s%1 = 0.0 {
              %3 = test @0 Gt 0
              if %3 {
                %2 = load x%0 [i-1]
                %4 = test %2 Gt 0.0
                yield %4
              } else {
                yield false
              } -> %5
              if %5 {
                yield true
              } else {
                %6 = load x%0 [@0]
                %7 = test !(%6 Lt 1.0)
                yield %7
              } -> %8
              if %8 {
                %9 = load x%0 [@0]
                s_1%10 = add s%1 %9
                yield s_1%10
              } else {
                yield s%1
              } -> s_2%11
              yield s_2%11
            } -> s_3%12
            out s_3%12
        "#]],
    );
}

#[test]
fn declared_then_assigned_in_branches_and_blocks() {
    check(
        "",
        "fn pick(x: f64, mut w: [[f64; 2]; 2]) -> f64 {
            let y;
            if x > 0.0 {
                y = x;
            } else {
                y = -x;
            }
            let b = {
                let t = 2.0 * y;
                t + 1.0
            };
            w[1] = [b, y];
            let m = if b > 1.0 { w } else { [[0.0; 2]; 2] };
            m[1][0] + w[0][1]
        }",
        expect![[r#"
            in x%0 w%1 active x%0 w%1
            %2 = test x%0 Gt 0.0
            if %2 {
              yield x%0
            } else {
              y%3 = neg x%0
              yield y%3
            } -> y_1%4
            t%5 = mul 2.0 y_1%4
            b%6 = add t%5 1.0
            %7 = array b%6 y_1%4
            w_1%8 = store w%1 [1] %7
            %9 = test b%6 Gt 1.0
            if %9 {
              yield w_1%8
            } else {
              %10 = fill 0.0 [2][2]
              yield %10
            } -> m%11
            %12 = load m%11 [1][0]
            %13 = load w_1%8 [0][1]
            %14 = add %12 %13
            out %14
        "#]],
    );
}

#[test]
fn variables_declared_without_a_value() {
    check(
        "",
        "fn late(x: [f64; 2]) -> f64 {
            let y;
            let z;
            let w: [f64; 2];
            if x[0] > 0.0 {
                y = x[0];
                w = x;
            } else {
                y = 1.0;
            }
            for i in 0..2 {
                z = x[i];
            }
            y
        }",
        expect![[r#"
            in x%0 active x%0
            %1 = load x%0 [0]
            %2 = test %1 Gt 0.0
            if %2 {
              yield %1
            } else {
              yield 1.0
            } -> y%3
            for @0 in 0..2 carry {
              z%4 = load x%0 [@0]
              yield 
            } -> 
            out y%3
        "#]],
    );
}
