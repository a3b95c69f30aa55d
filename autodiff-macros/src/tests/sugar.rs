//! The sugar in front of the IR, each idiom against the form it means written by hand: the IR
//! that lowering makes of both is the same, text for text (so every transform sees the same
//! function), and the refusals name what to write.

use crate::ctxt::Ctxt;
use crate::ir::{print, verify};
use crate::lower::lower;

/// The IR text of `src`, or its errors.
fn ir(src: &str) -> Result<String, Vec<String>> {
    let mut cx = Ctxt::new();
    let args = crate::args::parse(&mut cx, proc_macro2::TokenStream::new());
    let item: syn::ItemFn = syn::parse_str(src).expect("test input is a function");
    let l = lower(&mut cx, &item, &args);
    let errors: Vec<String> = cx.errors().iter().map(ToString::to_string).collect();
    if !errors.is_empty() {
        return Err(errors);
    }
    assert_eq!(verify(&l.func), Ok(()));
    Ok(print(&l.func))
}

/// `sugar` and `plain` lower to the same IR.
fn same(sugar: &str, plain: &str) {
    let (a, b) = (ir(sugar), ir(plain));
    assert!(b.is_ok(), "the hand-written form is refused: {b:?}");
    assert_eq!(a, b, "\nsugar: {sugar}\nplain: {plain}");
}

/// The errors of `src`.
fn refused(src: &str) -> Vec<String> {
    ir(src).expect_err("refused")
}

#[test]
fn iter_mut_in_a_for_loop_is_the_index_loop() {
    same(
        "fn f(x: [f64; 3], a: f64) -> f64 { let mut y = x; for v in y.iter_mut() { *v = v.sin() * a; } y[0] }",
        "fn f(x: [f64; 3], a: f64) -> f64 { let mut y = x; for i in 0..y.len() { y[i] = y[i].sin() * a; } y[0] }",
    );
    same(
        "fn f(x: [f64; 3], a: f64) -> f64 { let mut y = x; for v in &mut y { *v *= a; } y[0] }",
        "fn f(x: [f64; 3], a: f64) -> f64 { let mut y = x; for i in 0..y.len() { y[i] *= a; } y[0] }",
    );
}

#[test]
fn iter_mut_with_enumerate_zip_and_rev() {
    same(
        "fn f(x: [f64; 3]) -> f64 { let mut y = x; for (i, v) in y.iter_mut().enumerate() { *v += x[i] * x[i]; } y[1] }",
        "fn f(x: [f64; 3]) -> f64 { let mut y = x; for i in 0..y.len() { y[i] += x[i] * x[i]; } y[1] }",
    );
    same(
        "fn f(x: [f64; 3], w: [f64; 3]) -> f64 { let mut y = x; for (v, w) in y.iter_mut().zip(w.iter()) { *v *= w; } y[2] }",
        "fn f(x: [f64; 3], w: [f64; 3]) -> f64 { let mut y = x; for i in 0..y.len().min(w.len()) { let w = &w[i]; y[i] *= w; } y[2] }",
    );
    same(
        "fn f(x: [f64; 3]) -> f64 { let mut y = x; let mut s = 0.0; for v in y.iter_mut().rev() { s = s * 0.5 + *v; *v = s; } y[0] }",
        "fn f(x: [f64; 3]) -> f64 { let mut y = x; let mut s = 0.0; for i in (0..y.len()).rev() { s = s * 0.5 + y[i]; y[i] = s; } y[0] }",
    );
}

#[test]
fn iter_mut_in_for_each_and_nested() {
    same(
        "fn f(x: [f64; 3], s: f64) -> f64 { let mut y = x; y.iter_mut().for_each(|v| *v *= s); y[0] }",
        "fn f(x: [f64; 3], s: f64) -> f64 { let mut y = x; for i in 0..y.len() { y[i] *= s; } y[0] }",
    );
    same(
        "fn f(x: [f64; 4]) -> f64 { let mut m = [[x[0], x[1]], [x[2], x[3]]]; for row in m.iter_mut() { for v in row.iter_mut() { *v = v.exp(); } } m[0][0] }",
        "fn f(x: [f64; 4]) -> f64 { let mut m = [[x[0], x[1]], [x[2], x[3]]]; for i in 0..m.len() { for j in 0..m[i].len() { m[i][j] = m[i][j].exp(); } } m[0][0] }",
    );
}

#[test]
fn iter_mut_refusals_say_what_to_write() {
    let e = refused(
        "fn f(x: [f64; 3]) -> f64 { let mut y = x; y.iter_mut().map(|v| *v * 2.0).sum::<f64>() }",
    );
    assert!(
        e[0].contains("`iter_mut` in a `for` loop or a `for_each` only, not followed by `map`"),
        "{e:?}"
    );
    let e = refused(
        "fn f(x: [f64; 3]) -> f64 { let mut y = x; for v in y.iter_mut() { let y = 2.0; *v *= y; } y[0] }",
    );
    assert!(e[0].contains("reads `*v` as `y[i]` in this loop, and this binding of `y`"), "{e:?}");
    let e = refused(
        "fn f(x: [f64; 3]) -> f64 { let mut y = x; for p in y.iter_mut().enumerate() { *p.1 *= 2.0; } y[0] }",
    );
    assert!(e[0].contains("an element of `iter_mut` bound to a name"), "{e:?}");
}
