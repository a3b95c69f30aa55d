//! The sugar in front of the IR, each idiom against the form it means written by hand: the IR
//! that lowering makes of both is the same, text for text (so every transform sees the same
//! function), the labelled exits compute what Rust computes (the IR interpreter against
//! the function compiled), and the refusals name what to write.

// The functions run natively are written as the IR is tested on them, with index loops.
#![allow(clippy::needless_range_loop)]

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

#[test]
fn a_loop_value_is_a_variable_assigned_before_break() {
    same(
        "fn f(x: f64) -> f64 { let mut y = x * x + 2.0; let r = loop { y *= 0.5; if y < 1.0 { break y * x; } }; r + x }",
        "fn f(x: f64) -> f64 { let mut y = x * x + 2.0; let mut r = 0.0; loop { y *= 0.5; if y < 1.0 { r = y * x; break; } } r + x }",
    );
    // The loop reads the name the `let` binds: a variable of its own, then the `let`.
    same(
        "fn f(x: f64) -> f64 { let y = x; let y = loop { if y < 1.0 { break y * 2.0; } }; y }",
        "fn f(x: f64) -> f64 { let y = x; let mut value = 0.0; loop { if y < 1.0 { value = y * 2.0; break; } } let y = value; y }",
    );
    // Assigned.
    same(
        "fn f(x: f64) -> f64 { let mut r = x; let mut y = x; r = loop { y *= 0.5; if y < 1.0 { break y + r; } }; r }",
        "fn f(x: f64) -> f64 { let mut r = x; let mut y = x; loop { y *= 0.5; if y < 1.0 { r = y + r; break; } } r }",
    );
}

#[test]
fn a_loop_value_of_the_function_an_array_a_tuple() {
    same(
        "fn f(x: f64) -> f64 { let mut g = x; loop { let n = 0.5 * (g + x / g); if (n - g).abs() < 1e-9 { break n; } g = n; } }",
        "fn f(x: f64) -> f64 { let mut g = x; let mut value = 0.0; loop { let n = 0.5 * (g + x / g); if (n - g).abs() < 1e-9 { value = n; break; } g = n; } value }",
    );
    same(
        "fn f(x: f64) -> f64 { let mut y = x; let z = loop { y *= 0.5; if y < 1.0 { break [y, 2.0 * y]; } }; z[0] * z[1] }",
        "fn f(x: f64) -> f64 { let mut y = x; let mut z = [0.0; 2]; loop { y *= 0.5; if y < 1.0 { z = [y, 2.0 * y]; break; } } z[0] * z[1] }",
    );
    same(
        "fn f(x: [f64; 2]) -> f64 { let mut y = x; let z: [f64; 2] = loop { y[0] *= 0.5; if y[0] < 1.0 { break y; } }; z[1] }",
        "fn f(x: [f64; 2]) -> f64 { let mut y = x; let mut z: [f64; 2] = [0.0; 2]; loop { y[0] *= 0.5; if y[0] < 1.0 { z = y; break; } } z[1] }",
    );
    same(
        "fn f(x: f64) -> f64 { let mut y = x; let (a, b) = loop { y *= 0.5; if y < 1.0 { break (y, y * y); } }; a + b }",
        "fn f(x: f64) -> f64 { let mut y = x; let mut value = (0.0, 0.0); loop { y *= 0.5; if y < 1.0 { value = (y, y * y); break; } } let (a, b) = value; a + b }",
    );
}

#[test]
fn a_let_without_a_value_assigned_in_a_loop() {
    same(
        "fn f(x: f64) -> f64 { let mut y = x; let r; loop { y *= 0.5; if y < 1.0 { r = y * x; break; } } r }",
        "fn f(x: f64) -> f64 { let mut y = x; let mut r = 0.0; loop { y *= 0.5; if y < 1.0 { r = y * x; break; } } r }",
    );
}

#[test]
fn a_loop_value_of_no_known_type_is_refused() {
    let e = refused("fn f(x: f64) -> f64 { let n = loop { if x > 1.0 { break 3; } }; x }");
    assert!(e[0].contains("needs the type of the value this `loop` gives"), "{e:?}");
    let e = refused(
        "fn f(x: f64) -> f64 { let mut y = x; let z = loop { y *= 0.5; let t = [y, y]; if y < 1.0 { break t; } }; z[0] }",
    );
    assert!(
        e[0].contains(
            "write the type of the `loop`'s value on the `let`, as in `let z: [f64; 2] = loop"
        ),
        "{e:?}"
    );
}

/// The outputs of `src` (a function of one `[f64; 3]`) run by the IR interpreter at `x`.
fn interpreted(src: &str, x: [f64; 3]) -> f64 {
    use super::interp::{Consts, Val, run};
    let l = super::lowering::lowered("", src);
    let input = Val::A(x.iter().map(|v| Val::F(*v)).collect());
    match run(&l.func, &[input], &Consts::default()).as_slice() {
        [Val::F(v)] => *v,
        other => panic!("not one f64: {other:?}"),
    }
}

/// Defines `f` as a Rust function and checks that the IR lowered from the same source
/// computes what Rust does, bit for bit, at `points`.
macro_rules! as_rust_does {
    ($points:expr, $($item:tt)*) => {{
        $($item)*
        let src = stringify!($($item)*);
        for x in $points {
            assert_eq!(interpreted(src, x).to_bits(), f(x).to_bits(), "at {x:?}: {src}");
        }
    }};
}

const POINTS: [[f64; 3]; 6] = [
    [0.3, 0.5, 0.2],
    [0.9, 1.5, -0.2],
    [-0.5, 0.4, 1.2],
    [1.3, -1.2, 0.7],
    [0.1, -0.3, -1.5],
    [2.0, 0.2, 0.4],
];

#[test]
fn labelled_break_and_continue_out_of_nested_loops() {
    as_rust_does!(
        POINTS,
        fn f(x: [f64; 3]) -> f64 {
            let mut s = 0.0;
            'rows: for i in 0..3 {
                for j in 0..3 {
                    if x[i] * x[j] > 1.0 {
                        break 'rows;
                    }
                    if x[j] < 0.0 {
                        continue 'rows;
                    }
                    s += x[i] * x[j];
                }
                s *= 1.1;
            }
            s
        }
    );
    // Three loops deep, `continue 'a` and `break 'a` from the innermost.
    as_rust_does!(
        POINTS,
        fn f(x: [f64; 3]) -> f64 {
            let mut s = 0.0;
            'a: for i in 0..3 {
                for j in 0..3 {
                    for k in 0..3 {
                        if x[i] + x[j] + x[k] > 2.0 {
                            continue 'a;
                        }
                        if x[k] < -1.0 {
                            break 'a;
                        }
                        s += x[i] * x[j] * x[k];
                    }
                    s *= 0.9;
                }
                s += 1.0;
            }
            s
        }
    );
}

#[test]
fn labelled_exits_of_while_and_loop() {
    as_rust_does!(
        POINTS,
        fn f(x: [f64; 3]) -> f64 {
            let mut t = x[0] * x[0];
            'outer: while t < 10.0 {
                for i in 0..3 {
                    if x[i] < 0.0 {
                        t += 1.0;
                        continue 'outer;
                    }
                    t *= 1.0 + x[i] * x[i];
                }
                t += 0.5;
            }
            t
        }
    );
    // A labelled `loop` whose value a `break` gives from a loop inside it.
    as_rust_does!(
        POINTS,
        fn f(x: [f64; 3]) -> f64 {
            let mut y = 0.25;
            let r = 'search: loop {
                for i in 0..3 {
                    if y * x[i].abs() > 1.0 {
                        break 'search y * x[i];
                    }
                }
                y *= 1.5;
            };
            r + y
        }
    );
    // A label no exit names is only a name.
    as_rust_does!(
        POINTS,
        #[allow(unused_labels)]
        fn f(x: [f64; 3]) -> f64 {
            let mut s = 0.0;
            'unused: for i in 0..3 {
                s += x[i];
            }
            s
        }
    );
}

#[test]
fn more_forms_are_accepted() {
    for src in [
        "fn f(mut y: [f64; 3]) -> f64 { for v in y.iter_mut() { *v *= 2.0; } y[0] }",
        "fn f(x: [f64; 3]) -> f64 { let mut y = x; y.iter_mut().for_each(|v: &mut f64| *v *= 2.0); y[0] }",
        "fn f(x: [f64; 3]) -> f64 { let mut y = x; for v in y.iter_mut().take(2).step_by(1) { *v = -*v; } y[0] }",
        "fn f(x: f64) -> f64 { let mut y = x; let r: f64; loop { y *= 0.5; if y < 1.0 { r = y; break; } } r }",
    ] {
        assert!(ir(src).is_ok(), "{src}: {:?}", ir(src));
    }
    // A labelled `loop`'s value given from a `loop` inside it.
    as_rust_does!(
        POINTS,
        fn f(x: [f64; 3]) -> f64 {
            let mut y = x[0] * x[0] + 2.0;
            let mut k = 0.0;
            let r = 'a: loop {
                loop {
                    y *= 0.5 + 0.1 * x[1];
                    if y < 1.0 {
                        break 'a y * x[2] + k;
                    }
                    if y < 1.5 {
                        break;
                    }
                }
                k += 1.0;
                y += 0.3;
            };
            r * 2.0
        }
    );
}

#[test]
fn a_match_on_a_float_is_its_if_chain() {
    same(
        "fn f(x: f64, y: f64) -> f64 { match x * y { v if v > 1.0 => v.ln(), 0.0 => y, -0.5..=0.5 => x, v => v * v } }",
        "fn f(x: f64, y: f64) -> f64 { let m = x * y; if (m) > 1.0 { let v = m; v.ln() } else if m == 0.0 { y } else if m >= -0.5 && m <= 0.5 { x } else { let v = m; v * v } }",
    );
    same(
        "fn f(x: f64) -> f64 { match x { t if t > 0.0 => t.sqrt(), _ => -x } }",
        "fn f(x: f64) -> f64 { if (x) > 0.0 { let t = x; t.sqrt() } else { -x } }",
    );
    let errors = refused("fn f(x: [f64; 2]) -> f64 { match x { _ => x[0] } }");
    assert!(errors[0].contains("not on arrays"), "{errors:?}");
}

#[test]
fn an_unwrapped_reduce_is_a_fold_from_the_first_element() {
    same(
        "fn f(x: [f64; 3]) -> f64 { x.iter().copied().reduce(f64::max).unwrap() }",
        "fn f(x: [f64; 3]) -> f64 { let mut acc = 0.0; let mut first = true; for i in 0..x.len() { if first { acc = x[i]; first = false; } else { acc = f64::max(acc, x[i]); } } acc }",
    );
    same(
        "fn f(x: [f64; 3]) -> f64 { x.iter().map(|v| v * v).filter(|v| *v > 0.5).reduce(|a, b| a * b).expect(\"one\").sqrt() }",
        "fn f(x: [f64; 3]) -> f64 { let mut acc = 0.0; let mut first = true; for i in 0..x.len() { let v = x[i]; let elem = v * v; if elem > 0.5 { if first { acc = elem; first = false; } else { acc = acc * elem; } } } acc.sqrt() }",
    );
    let errors =
        refused("fn f(x: [f64; 3]) -> f64 { x.iter().copied().reduce(f64::max).unwrap_or(0.0) }");
    assert!(
        errors[0].contains("`reduce(f)` is rewritten when its `Option` is unwrapped"),
        "{errors:?}"
    );
}

#[test]
fn a_destructuring_assignment_is_a_let_and_one_assignment_per_place() {
    same(
        "fn f(x: [f64; 2]) -> f64 { let (mut a, mut b) = (x[0], x[1]); for _ in 0..3 { (a, b) = (b, a * b); } a + b }",
        "fn f(x: [f64; 2]) -> f64 { let (mut a, mut b) = (x[0], x[1]); for _ in 0..3 { let (a_1, b_1) = (b, a * b); a = a_1; b = b_1; } a + b }",
    );
    same(
        "fn f(x: [f64; 2]) -> f64 { let mut y = x; let mut a = 0.0; ([y[1], _], a) = ([y[0] * 2.0, 0.0], y[1]); y[1] + a }",
        "fn f(x: [f64; 2]) -> f64 { let mut y = x; let mut a = 0.0; let ([y_1, _], a_1) = ([y[0] * 2.0, 0.0], y[1]); y[1] = y_1; a = a_1; y[1] + a }",
    );
}

#[test]
fn a_chain_over_an_array_literal_runs_over_its_count() {
    same(
        "fn f(a: f64, b: f64) -> f64 { [a, b * b, 0.5].iter().sum::<f64>() }",
        "fn f(a: f64, b: f64) -> f64 { let mut sum = -0.0; for i in 0..3 { sum += ([a, b * b, 0.5])[i]; } sum }",
    );
    same(
        "fn f(a: f64) -> f64 { [a; 4].iter().product::<f64>() }",
        "fn f(a: f64) -> f64 { let mut product = 1.0; for i in 0..4 { product *= ([a; 4])[i]; } product }",
    );
}

#[test]
fn a_loop_beginning_with_its_exit_test_is_a_while_loop() {
    same(
        "fn f(x: [f64; 3]) -> f64 { let mut s = 0.0; let mut i = 0; loop { if i >= 3 { break; } s += x[i] * x[i]; i += 1; } s }",
        "fn f(x: [f64; 3]) -> f64 { let mut s = 0.0; let mut i = 0; while !(i >= 3) { s += x[i] * x[i]; i += 1; } s }",
    );
    // Through a `bool`, unread after the test or read.
    same(
        "fn f(x: f64) -> f64 { let mut y = x; loop { let stop = y < 1.0; if stop { break; } y *= 0.5; } y }",
        "fn f(x: f64) -> f64 { let mut y = x; while !(y < 1.0) { y *= 0.5; } y }",
    );
    same(
        "fn f(x: f64) -> f64 { let mut y = x; loop { let more: bool = y >= 1.0; if !more { break; } y *= 0.5; if more { y += 0.1; } } y }",
        "fn f(x: f64) -> f64 { let mut y = x; while !(!(y >= 1.0)) { let more: bool = y >= 1.0; y *= 0.5; if more { y += 0.1; } } y }",
    );
    // Its own label, and other exits in the body.
    same(
        "fn f(x: f64) -> f64 { let mut y = x; 'a: loop { if y < 1.0 { break 'a; } y *= 0.5; if y < 2.0 { continue 'a; } y -= 0.1; if y < 1.5 { break; } } y }",
        "fn f(x: f64) -> f64 { let mut y = x; 'a: while !(y < 1.0) { y *= 0.5; if y < 2.0 { continue 'a; } y -= 0.1; if y < 1.5 { break; } } y }",
    );
}

#[test]
fn a_loop_whose_exit_test_does_not_begin_it_stays_a_loop() {
    // A statement before the test (it runs once more than the rest), and a test leaving an
    // outer loop: not `while` loops, and computing what Rust does.
    as_rust_does!(
        POINTS,
        fn f(x: [f64; 3]) -> f64 {
            let mut y = x[0] * x[0] + 2.0;
            loop {
                y *= 0.5 + 0.1 * x[1];
                if y < 1.0 {
                    break;
                }
                y -= 0.1 * x[2];
            }
            y
        }
    );
    as_rust_does!(
        POINTS,
        fn f(x: [f64; 3]) -> f64 {
            let mut y = x[0] * x[0] + 2.0;
            let mut n = 0.0;
            'o: loop {
                loop {
                    if y < 1.0 {
                        break 'o;
                    }
                    y *= 0.5 + 0.1 * x[1];
                    if y < 2.0 {
                        break;
                    }
                }
                y -= 0.1 * x[2];
                n += 1.0;
            }
            y + n
        }
    );
}

#[test]
fn a_loop_beginning_with_its_exit_test_computes_what_rust_does() {
    as_rust_does!(
        POINTS,
        fn f(x: [f64; 3]) -> f64 {
            let mut s = 0.0;
            let mut i = 0;
            'l: loop {
                let stop = i >= 3;
                if stop {
                    break 'l;
                }
                s += x[i] * x[i];
                i += 1;
                if s > 4.0 {
                    break;
                }
            }
            s + i as f64
        }
    );
    as_rust_does!(
        POINTS,
        fn f(x: [f64; 3]) -> f64 {
            let mut y = x[0] * x[0] + 2.0;
            let mut n = 0.0;
            loop {
                let more = y >= 1.0 + x[1].abs();
                if !more {
                    break;
                }
                y *= 0.5;
                n += 1.0;
                if n < 2.0 {
                    continue;
                }
                y += 0.1 * x[2];
            }
            y + n
        }
    );
}
