//! Sinking into branches: snapshots of the IR after the pass (what moves, what is copied into
//! both sides of an `else if`, what stays), the values of the sunk function equal to the bit to
//! the original's (run by the interpreter), and gradients free of the NaN of the side not taken.

use expect_test::{Expect, expect};

use super::interp::{Consts, Val, run};
use super::lowering::{lowered, text};
use crate::args;
use crate::ctxt::Ctxt;
use crate::expand::{Failure, derivatives};
use crate::ir::{Func, verify};
use crate::transform::sink;

/// `src` lowered, and sunk (verified).
fn sunk(src: &str) -> (Func, Func) {
    let f = lowered("", src).func;
    let g = sink(&f);
    assert_eq!(verify(&g), Ok(()), "{}", text(&g));
    (f, g)
}

/// Checks the IR of `src` after sinking against `expected`, and that it computes what `src`
/// does, to the bit, at each of `points` (one `f64` parameter).
fn check(src: &str, points: &[f64], expected: Expect) {
    let (f, g) = sunk(src);
    expected.assert_eq(&text(&g));
    for x in points {
        let run_at = |h: &Func| run(h, &[Val::F(*x)], &Consts::default())[0].f().to_bits();
        assert_eq!(run_at(&f), run_at(&g), "at {x}");
    }
}

/// The value, gradient and H·v (along 1) of `src` (one `f64` parameter) at `x`, by the whole
/// pipeline run through the interpreter.
fn derivatives_at(src: &str, x: f64) -> (f64, f64, f64) {
    let l = lowered("hvp", src);
    let mut cx = Ctxt::new();
    let args = args::parse(&mut cx, "hvp".parse().unwrap_or_default());
    let d = match derivatives(&l, &args, false) {
        Ok(d) => d,
        Err(Failure::Internal(e)) => panic!("{e}"),
    };
    let grad = run(&d.grad, &[Val::F(x)], &Consts::default());
    let hvp = d.hvp.map(|h| run(&h, &[Val::F(x), Val::F(1.0)], &Consts::default()));
    let hvp = hvp.unwrap_or_default();
    assert_eq!((grad[0].f(), grad[1].f()), (hvp[0].f(), hvp[1].f()), "_grad and _hvp at {x}");
    (grad[0].f(), grad[1].f(), hvp[2].f())
}

const DISK: &str = "fn f(x: f64) -> f64 {
    let r = (1.0 - x * x).sqrt();
    if x.abs() < 1.0 { r } else { 0.0 }
}";

#[test]
fn a_chain_read_by_one_side_moves_into_it() {
    check(
        DISK,
        &[0.6, 2.0, 1.0, -1.0],
        expect![[r#"
            in x%0 active x%0
            %4 = abs x%0
            %5 = test %4 Lt 1.0
            if %5 {
              %1 = mul x%0 x%0
              %2 = sub 1.0 %1
              r%3 = sqrt %2
              yield r%3
            } else {
              yield 0.0
            } -> %6
            out %6
        "#]],
    );
}

#[test]
fn the_derivatives_of_the_side_taken_ignore_the_nan_of_the_other() {
    // √(1 − x²) on (−1, 1): 0.8, −0.75 and −1/0.512 at 0.6; 0 outside, and at ±1.
    let (value, slope, curvature) = derivatives_at(DISK, 0.6);
    assert_eq!((value, slope), (0.8, -0.75));
    assert!((curvature + 1.0 / 0.512).abs() < 1e-12, "{curvature}");
    for x in [2.0, 1.0, -1.0] {
        assert_eq!(derivatives_at(DISK, x), (0.0, 0.0, 0.0), "at {x}");
    }
    let shifted = "fn f(x: f64) -> f64 {
        let u = (x - 10.0).sqrt();
        if x > 5.0 { u * x } else { x * x }
    }";
    assert_eq!(derivatives_at(shifted, 1.0), (1.0, 2.0, 2.0));
}

#[test]
fn a_value_read_by_both_sides_on_every_path_stays() {
    // Also what the condition reads, and what is read after the branch.
    check(
        "fn f(x: f64) -> f64 {
            let s = x.sin();
            let c = x.cos();
            let y = if c > 0.0 { s * 2.0 } else { s };
            y + c
        }",
        &[0.5, 2.5],
        expect![[r#"
            in x%0 active x%0
            s%1 = sin x%0
            c%2 = cos x%0
            %3 = test c%2 Gt 0.0
            if %3 {
              %4 = mul s%1 2.0
              yield %4
            } else {
              yield s%1
            } -> y%5
            %6 = add y%5 c%2
            out %6
        "#]],
    );
}

#[test]
fn a_value_read_by_two_branches_or_by_a_call_stays() {
    // Read by two `if`s on the same condition: it stays, and so does what it reads. A call is
    // not moved (its sweep would call `g_grad` again), what it reads neither.
    check(
        "fn f(x: f64) -> f64 {
            let r = x.sqrt();
            let a = if x > 0.0 { r } else { 0.0 };
            let b = if x > 0.0 { r * r } else { 1.0 };
            let q = x.ln();
            let v = g(q);
            let c = if x > 1.0 { v } else { 0.0 };
            a + b + c
        }",
        &[2.0, 0.5],
        expect![[r#"
            in x%0 active x%0
            r%1 = sqrt x%0
            %2 = test x%0 Gt 0.0
            if %2 {
              yield r%1
            } else {
              yield 0.0
            } -> a%3
            %4 = test x%0 Gt 0.0
            if %4 {
              %5 = mul r%1 r%1
              yield %5
            } else {
              yield 1.0
            } -> b%6
            q%7 = ln x%0
            v%8 = call g Value (q%7) dirs ()
            %9 = test x%0 Gt 1.0
            if %9 {
              yield v%8
            } else {
              yield 0.0
            } -> c%10
            %11 = add a%3 b%6
            %12 = add %11 c%10
            out %12
        "#]],
    );
}

#[test]
fn else_if_chains() {
    // Read by the middle arm alone: into the outer `else`, then into the inner `if`.
    check(
        "fn f(x: f64) -> f64 {
            let r = (1.0 - x * x).sqrt();
            if x < -1.0 { -x } else if x < 1.0 { r } else { x }
        }",
        &[-2.0, 0.5, 3.0],
        expect![[r#"
            in x%0 active x%0
            %4 = test x%0 Lt -1.0
            if %4 {
              %5 = neg x%0
              yield %5
            } else {
              %6 = test x%0 Lt 1.0
              if %6 {
                %1 = mul x%0 x%0
                %2 = sub 1.0 %1
                r%3 = sqrt %2
                yield r%3
              } else {
                yield x%0
              } -> %7
              yield %7
            } -> %8
            out %8
        "#]],
    );
    // Read by the first two arms: into both sides of the outer `if`, under new names in the
    // `else` side, then into the inner `if`. Not into a third arm that does not read it.
    check(
        "fn f(x: f64) -> f64 {
            let u = (x - 10.0).sqrt();
            let v = u + 1.0;
            if x > 20.0 { v * x } else if x > 10.0 { v } else { x * x }
        }",
        &[1.0, 11.0, 26.0],
        expect![[r#"
            in x%0 active x%0
            %4 = test x%0 Gt 20.0
            if %4 {
              %1 = sub x%0 10.0
              u%2 = sqrt %1
              v%3 = add u%2 1.0
              %5 = mul v%3 x%0
              yield %5
            } else {
              %6 = test x%0 Gt 10.0
              if %6 {
                %12 = sub x%0 10.0
                u%11 = sqrt %12
                v%10 = add u%11 1.0
                yield v%10
              } else {
                %7 = mul x%0 x%0
                yield %7
              } -> %8
              yield %8
            } -> %9
            out %9
        "#]],
    );
}

#[test]
fn inside_a_loop_body_and_not_into_one() {
    // In a loop body, into the body's branch (the load of `y[i]` too, not that of `x[i]`, which
    // the condition reads); from before the loop, not into the loop (it would be computed in
    // every iteration).
    let (f, g) = sunk(
        "fn f(x: [f64; 3], y: [f64; 3], z: f64) -> f64 {
            let w = z.sqrt();
            let mut s = 0.0;
            for i in 0..3 {
                let r = (1.0 - y[i] * x[i]).sqrt();
                if x[i].abs() < 1.0 { s += r * w; }
            }
            s
        }",
    );
    expect![[r#"
        in x%0 y%1 z%2 active x%0 y%1 z%2
        w%3 = sqrt z%2
        for @0 in 0..3 carry s%4 = 0.0 {
          %6 = load x%0 [@0]
          %10 = abs %6
          %11 = test %10 Lt 1.0
          if %11 {
            %5 = load y%1 [@0]
            %7 = mul %5 %6
            %8 = sub 1.0 %7
            r%9 = sqrt %8
            %12 = mul r%9 w%3
            s_1%13 = add s%4 %12
            yield s_1%13
          } else {
            yield s%4
          } -> s_2%14
          yield s_2%14
        } -> s_3%15
        out s_3%15
    "#]]
    .assert_eq(&text(&g));
    let x = Val::A([0.5, 2.0, -0.25].map(Val::F).to_vec());
    let y = Val::A([1.5, 0.5, 3.0].map(Val::F).to_vec());
    let inputs = [x, y, Val::F(3.0)];
    let bits = |h: &Func| run(h, &inputs, &Consts::default())[0].f().to_bits();
    assert_eq!(bits(&f), bits(&g));
}
