// Bug: a loop-carried `f64` declared with its type (`let mut s: f64 = 0.5;`, or `0.5_f64`) and
// then used as a method receiver in the loop: the generated functions declare it as
// `let mut s = 0.5;` (type and suffix dropped, `codegen/body.rs` `let mut #id = #init;`), and
// rustc cannot call `sin` on an ambiguous `{float}` (E0689). `f` itself compiles.
use autodiff_runtime::grad;

#[grad(jvp, hvp)]
fn annotated(x: f64) -> f64 {
    let mut s: f64 = 0.5;
    for _ in 0..3 {
        s = s.sin() + x;
    }
    s
}

#[grad(jvp, hvp)]
fn suffixed(x: f64) -> f64 {
    let mut s = 0.5_f64;
    for _ in 0..3 {
        s = s.sin() * x;
    }
    s
}

fn main() {
    // s ← sin s + x, ds/dx ← cos(s)·ds/dx + 1, by the chain rule.
    let x = 0.7_f64;
    let (mut s, mut d) = (0.5_f64, 0.0);
    for _ in 0..3 {
        d = s.cos() * d + 1.0;
        s = s.sin() + x;
    }
    let (value, slope) = annotated_grad(x);
    assert_eq!(value, annotated(x));
    assert!((slope - d).abs() < 1e-12);
    // s ← x sin s, ds/dx ← sin s + x cos(s)·ds/dx.
    let (mut s, mut d) = (0.5_f64, 0.0);
    for _ in 0..3 {
        d = s.sin() + x * s.cos() * d;
        s = s.sin() * x;
    }
    let (value, slope) = suffixed_grad(x);
    assert_eq!(value, suffixed(x));
    assert!((slope - d).abs() < 1e-12);
}
