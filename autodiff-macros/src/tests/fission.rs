//! Loop fission (`transform/fission.rs`) on lowered functions: a loop carrying a sum and an
//! independent array update becomes two behind a test of its trip count (or none, when the
//! macro knows it), in a plain and a triangular loop; a loop whose parts share a computation,
//! or whose sum reads the updated array, stays whole. The interpreted results are unchanged to
//! the bit on both sides of the threshold.

use expect_test::expect;

use super::interp::{Consts, Val, run};
use super::lowering::{lowered, text};
use crate::ir::{Block, Func, Stmt, verify};
use crate::transform::fission;

/// The `for` loops in `block`, nested blocks included.
fn loops(block: &Block) -> usize {
    block
        .iter()
        .map(|s| match s {
            Stmt::For(l) => 1 + loops(&l.body),
            Stmt::If(b) => loops(&b.then) + loops(&b.otherwise),
            _ => 0,
        })
        .sum()
}

/// `src` lowered, and split.
fn both(src: &str) -> (Func, Func) {
    let f = lowered("", src).func;
    let g = fission(&f);
    assert_eq!(verify(&g), Ok(()), "{}", text(&g));
    (f, g)
}

/// Runs `f` and `g` on the same `x` and `y` of length `n` (`N = n`): equal to the bit.
fn same_values(f: &Func, g: &Func, n: usize) {
    let consts = Consts { ints: [("N".to_owned(), n as i64)].into(), ..Consts::default() };
    let arr = |a: f64| Val::A((0..n).map(|k| Val::F((a + 0.77 * k as f64).cos() - 0.1)).collect());
    let bits = |out: Vec<Val>| out.iter().flat_map(Val::flat).map(f64::to_bits).collect::<Vec<_>>();
    let inputs = [arr(0.3), arr(1.1)];
    assert_eq!(bits(run(f, &inputs, &consts)), bits(run(g, &inputs, &consts)), "N = {n}");
}

fn same_at_every_size(f: &Func, g: &Func) {
    for n in [1, 3, 15, 16, 17, 20, 40] {
        same_values(f, g, n);
    }
}

#[test]
fn a_sum_and_an_array_update_split_behind_the_trip_count() {
    let (f, g) = both(
        "fn f(x: [f64; N], y: [f64; N]) -> f64 {
            let mut s = 0.5;
            let mut u = [0.25; N];
            for i in 0..N {
                let a = x[i];
                s += a * y[i];
                u[i] += a * 3.0;
            }
            s * u[0] + u[N - 1]
        }",
    );
    // The loop as it was, and its two parts: three loops.
    assert_eq!((loops(&f.body), loops(&g.body)), (1, 3), "{}", text(&g));
    expect![[r#"
        in x%0 y%1 active x%0 y%1
        u%2 = fill 0.25 [N]
        long%44 = test N Ge 16
        if long%44 {
          for @1 in 0..N carry s%19 = 0.5 {
            a%21 = load x%0 [@1]
            %22 = load y%1 [@1]
            %23 = mul a%21 %22
            s_1%24 = add s%19 %23
            yield s_1%24
          } -> s_2%20
          for @2 in 0..N carry u_1%25 = u%2 {
            a%27 = load x%0 [@2]
            %28 = mul a%27 3.0
            %29 = load u_1%25 [@2]
            %30 = add %29 %28
            u_2%31 = store u_1%25 [@2] %30
            yield u_2%31
          } -> u_3%26
          yield s_2%20 u_3%26
        } else {
          for @3 in 0..N carry s%32 = 0.5, u_1%33 = u%2 {
            a%36 = load x%0 [@3]
            %37 = load y%1 [@3]
            %38 = mul a%36 %37
            s_1%39 = add s%32 %38
            %40 = mul a%36 3.0
            %41 = load u_1%33 [@3]
            %42 = add %41 %40
            u_2%43 = store u_1%33 [@3] %42
            yield s_1%39 u_2%43
          } -> s_2%34 u_3%35
          yield s_2%34 u_3%35
        } -> s_2%13 u_3%14
        %15 = load u_3%14 [0]
        %16 = mul s_2%13 %15
        %17 = load u_3%14 [N-1]
        %18 = add %16 %17
        out %18
    "#]]
    .assert_eq(&text(&g));
    same_at_every_size(&f, &g);
}

#[test]
fn a_triangular_sweep_splits_its_long_rows() {
    // The sweep of `q[r] += l[c][r] * x[c]`, as the reverse transform writes it (GMM's).
    let (f, g) = both(
        "fn f(x: [f64; N], y: [f64; N]) -> f64 {
            let mut xb = [0.0; N];
            let mut lb = [[0.0; N]; N];
            for c in 0..N {
                let mut acc = xb[c];
                for r in c + 1..N {
                    let t = y[r];
                    acc += t * x[r];
                    lb[c][r] += t * x[c];
                }
                xb[c] = acc;
            }
            xb[0] + lb[0][N - 1] * xb[N - 1]
        }",
    );
    assert_eq!((loops(&f.body), loops(&g.body)), (2, 4), "{}", text(&g));
    assert!(text(&g).contains("Ge (c+1)+16"), "{}", text(&g));
    same_at_every_size(&f, &g);
}

#[test]
fn a_known_trip_count_decides_alone() {
    let src = |n: usize| {
        format!(
            "fn f(x: [f64; N], y: [f64; N]) -> f64 {{
                let mut s = 0.0;
                let mut u = [0.0; N];
                for i in 0..{n} {{
                    let a = x[i % N];
                    s += a * y[i % N];
                    u[i % N] += a;
                }}
                s + u[0]
            }}"
        )
    };
    let (_, short) = both(&src(15));
    let (f, long) = both(&src(16));
    // No test of the trip count: the loop whole at 15 iterations, split at 16.
    assert_eq!((loops(&short.body), loops(&long.body)), (1, 2), "{}", text(&long));
    assert!(!text(&long).contains("if"), "{}", text(&long));
    same_values(&f, &long, 5);
}

#[test]
fn shared_computations_and_dependent_parts_stay_whole() {
    // Both parts need `exp`: not computed twice.
    let (_, g) = both(
        "fn f(x: [f64; N]) -> f64 {
            let mut s = 0.0;
            let mut u = [0.0; N];
            for i in 0..N {
                let e = x[i].exp();
                s += e;
                u[i] += e;
            }
            s + u[0]
        }",
    );
    assert_eq!(loops(&g.body), 1, "{}", text(&g));
    // The sum reads the array the loop updates.
    let (_, g) = both(
        "fn f(x: [f64; N]) -> f64 {
            let mut s = 0.0;
            let mut u = [1.0; N];
            for i in 0..N {
                s += u[i] * x[i];
                u[i] += x[i];
            }
            s + u[0]
        }",
    );
    assert_eq!(loops(&g.body), 1, "{}", text(&g));
    // A plain store waits on no load: not split for.
    let (_, g) = both(
        "fn f(x: [f64; N]) -> f64 {
            let mut s = 0.0;
            let mut u = [1.0; N];
            for i in 0..N {
                let a = x[i];
                s += a;
                u[i] = a * 2.0;
            }
            s + u[0]
        }",
    );
    assert_eq!(loops(&g.body), 1, "{}", text(&g));
}
