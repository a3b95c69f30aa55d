//! Splitting loops over a ring at their wrap-around: which indices lowering recognises as
//! `(i + m - k) % m`, which loops the split applies to, and that the split loops compute the
//! same values as the loop they replace, to the bit, for every length (run by the interpreter).

use super::interp::{Consts, Val, run};
use super::lowering::lowered;
use crate::ir::{Block, Func, Stmt, verify};
use crate::transform::split_wraps;

/// The `k` of every wrap-around index of a load in `block` (`None` for other indices), in order.
fn wraps(block: &Block, out: &mut Vec<Option<u64>>) {
    for s in block {
        match s {
            Stmt::Load { index, .. } => {
                out.extend(index.iter().map(|i| i.wrap.as_ref().map(|w| w.back)))
            }
            Stmt::For(l) => wraps(&l.body, out),
            Stmt::If(b) => {
                wraps(&b.then, out);
                wraps(&b.otherwise, out);
            }
            _ => {}
        }
    }
}

/// The wrap-around indices of the loads of `f(x: [f64; N])` whose loop over `0..N` reads
/// `x[index]` (after `x[i]`).
fn recognised(index: &str) -> Vec<Option<u64>> {
    let src = format!(
        "fn f(x: [f64; N]) -> f64 {{
            let mut s = 0.0;
            for i in 0..N {{
                let j = {index};
                s += x[i] * x[j];
            }}
            s
        }}"
    );
    let mut out = Vec::new();
    wraps(&lowered("", &src).func.body, &mut out);
    out
}

#[test]
fn wrap_around_indices_are_recognised_as_linear_forms() {
    assert_eq!(recognised("(i + N - 1) % N"), [None, Some(1)]);
    assert_eq!(recognised("(N - 1 + i) % N"), [None, Some(1)]);
    assert_eq!(recognised("(i + (N - 2)) % N"), [None, Some(2)]);
    assert_eq!(recognised("(N + i - 3) % N"), [None, Some(3)]);
    // Literal lengths: `(i + 4) % 5` is the previous element, `(i + 1) % 5` four back.
    assert_eq!(recognised("(i + 4) % 5"), [None, Some(1)]);
    assert_eq!(recognised("(i + 1) % 5"), [None, Some(4)]);
    // Not a wrap-around index of `i`: another modulus, the next element, twice the index.
    assert_eq!(recognised("(i + M - 1) % N"), [None, None]);
    assert_eq!(recognised("(i + 1) % N"), [None, None]);
    assert_eq!(recognised("(i + i + N - 1) % N"), [None, None]);
    assert_eq!(recognised("(i + N) % N"), [None, None]);
    assert_eq!(recognised("i % N"), [None, None]);
}

/// How many loops `block` has at its own level.
fn loops(block: &Block) -> usize {
    block.iter().filter(|s| matches!(s, Stmt::For(_))).count()
}

/// `f` lowered, and split.
fn split(src: &str) -> (Func, Func) {
    let f = lowered("", src).func;
    let g = split_wraps(&f);
    assert_eq!(verify(&g), Ok(()));
    (f, g)
}

/// Runs `f` and `g` on the same `x` of length `n` (with `N = n`, `x` for every input); their
/// outputs must be equal to the bit.
fn same_values(f: &Func, g: &Func, n: usize) {
    let consts = Consts { ints: [("N".to_owned(), n as i64)].into(), ..Consts::default() };
    let x = Val::A((0..n).map(|k| Val::F((0.9 + 0.61 * k as f64).sin() + 0.2)).collect());
    let bits = |out: Vec<Val>| out.iter().flat_map(Val::flat).map(f64::to_bits).collect::<Vec<_>>();
    let inputs: Vec<Val> = f.inputs.iter().map(|_| x.clone()).collect();
    assert_eq!(bits(run(f, &inputs, &consts)), bits(run(g, &inputs, &consts)), "N = {n}");
}

#[test]
fn a_ring_reduction_is_split_and_computes_the_same_values() {
    let (f, g) = split(
        "fn f(x: [f64; N], y: [f64; N]) -> f64 {
            let mut s = 0.0;
            for i in 0..N {
                let d = x[i] - x[(i + N - 2) % N];
                let w = (i + 1) as f64;
                if d > 0.0 { s += w * d * d; } else { s += w * y[(i + N - 1) % N].sin(); }
            }
            s
        }",
    );
    assert_eq!((loops(&f.body), loops(&g.body)), (1, 2));
    for n in 0..=7 {
        if n != 1 {
            same_values(&f, &g, n);
        }
    }
    // The second loop reads `x[i - 2]` and `x[i - 1]`; the first, the wrap-around iterations,
    // the indices as written.
    let text = super::lowering::text(&g);
    assert!(text.contains("for @0 in 2..N"), "{text}");
    assert!(text.contains("[i-2]") && text.contains("[i-1]"), "{text}");
    assert!(text.contains("in 0..::core::cmp::min(N,2)") && text.contains("[(i+N-2)%N]"), "{text}");
}

#[test]
fn loops_that_a_split_would_not_pay_for_are_left_alone() {
    let unsplit = |body: &str| {
        let src = format!("fn f(x: [f64; N], y: [f64; 5]) -> f64 {{ let mut s = 0.0; {body} s }}");
        let (f, g) = split(&src);
        assert_eq!(loops(&g.body), loops(&f.body), "{body}");
    };
    // Reversed, inclusive, not from 0, over another length.
    unsplit("for i in (0..N).rev() { s += x[i] * x[(i + N - 1) % N]; }");
    unsplit("for i in 1..N { s += x[i] * x[(i + N - 1) % N]; }");
    unsplit("for i in 0..M { s += x[i] * x[(i + N - 1) % N]; }");
    // Carried state that is not a sum (its sweep would store it), a loop inside.
    unsplit("for i in 0..N { s = s * x[(i + N - 1) % N]; }");
    unsplit("for i in 0..N { for _ in 0..2 { s += x[(i + N - 1) % N]; } }");
    // Five iterations back; a quarter of a known length.
    unsplit("for i in 0..N { s += x[(i + N - 5) % N]; }");
    unsplit("for i in 0..5 { s += y[(i + 3) % 5]; }");
    // The wrap-around index reads constant data only.
    unsplit("for i in 0..N { let c = [1.0; N]; s += x[i] * c[(i + N - 1) % N]; }");
}

/// The split's sweep adds the wrap-around iterations' contributions after the others': a loop
/// where that would change an adjoint's sum (so that the gradient would differ in the last bits
/// from the loop's own sweep, which a `for` loop with `break` keeps) is left alone.
#[test]
fn loops_whose_split_would_reorder_a_sum_are_left_alone() {
    let unsplit = |body: &str| {
        let src = format!(
            "fn f(x: [f64; N], a: f64, y: [f64; 5]) -> f64 {{ let mut s = 0.0; {body} s }}"
        );
        let (f, g) = split(&src);
        assert_eq!(loops(&g.body), loops(&f.body), "{body}");
    };
    let split_once = |body: &str| {
        let src = format!(
            "fn f(x: [f64; N], a: f64, y: [f64; 5]) -> f64 {{ let mut s = 0.0; {body} s }}"
        );
        let (f, g) = split(&src);
        assert_eq!(loops(&g.body), loops(&f.body) + 1, "{body}");
    };
    // Split: each element of `x` gets two contributions, into a zero adjoint; `y[0]` is read
    // after the loop, `x` is not.
    split_once("for i in 0..N { s += x[i] * x[(i + N - 1) % N]; } s += y[0];");
    // A scalar read in every iteration: its adjoint sums them all.
    unsplit("for i in 0..N { s += a * x[(i + N - 1) % N]; }");
    // An element read in every iteration, or at an index that is not one-to-one in `i`.
    unsplit("for i in 0..N { s += x[0] * x[(i + N - 1) % N]; }");
    unsplit("for i in 0..N { s += y[i % 5] * x[(i + N - 1) % N]; }");
    // Three indices: three contributions to an element.
    unsplit("for i in 0..N { s += x[i] * x[(i + N - 1) % N] * x[(i + N - 2) % N]; }");
    // Two indices, but the adjoint holds something when the sweep of the loop starts: the array
    // is read after the loop, or the loop runs in another loop.
    unsplit("for i in 0..N { s += x[i] * x[(i + N - 1) % N]; } s += x[0];");
    unsplit("for _ in 0..2 { for i in 0..N { s += x[i] * x[(i + N - 1) % N]; } }");
}
