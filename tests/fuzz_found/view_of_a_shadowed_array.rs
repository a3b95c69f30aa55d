// Macro bug 28: a view (`windows`, `chunks`, `let w = &x[a..b];`) read after the name of its
// array, or a name its range reads, was shadowed. Lowering reads `w[j]` as `x[a + j]` by name,
// so it read the new `x`: "this indexes an `f64`, which is not an array" when the new `x` is an
// `f64` (found by the fuzzer's shadowing in an iterator twin), and, silently, the wrong
// elements when it is another array. A view now reads the names as they were bound where it
// was made.
use autodiff_runtime::grad;

// The array shadowed by an `f64` in the body of a loop over its windows.
#[grad(hvp)]
fn windows_then_shadowed(x: [f64; 3]) -> f64 {
    let mut s = 0.5;
    for w in x.windows(2) {
        let x = s * 3.0;
        s += x * w[1] - w[0];
    }
    s
}

// The same with plain names.
#[grad(hvp)]
fn windows_plain(x: [f64; 3]) -> f64 {
    let mut s = 0.5;
    for w in x.windows(2) {
        let t = s * 3.0;
        s += t * w[1] - w[0];
    }
    s
}

// Shadowed by another array of the same length: `w` still reads the parameter.
#[grad(hvp)]
fn view_then_array(x: [f64; 3]) -> f64 {
    let w = &x[1..3];
    let x = [10.0, 20.0, 30.0];
    w[0] * w[1] + x[0]
}

// The range's start shadowed: `w` is `x[1..3]`.
#[grad(hvp)]
fn view_then_start(x: [f64; 4]) -> f64 {
    let i = 1;
    let w = &x[i..i + 2];
    let i = 3;
    w[1] * x[i] + w.len() as f64
}

fn main() {
    let x = [0.3, -1.2, 0.7];
    let v = [1.0, 0.5, -0.25];
    assert_eq!(windows_then_shadowed(x), windows_plain(x));
    assert_eq!(windows_then_shadowed_grad(x), windows_plain_grad(x));
    assert_eq!(windows_then_shadowed_hvp(x, v), windows_plain_hvp(x, v));
    // x₁x₂ + 10: the gradient (0, x₂, x₁), H·v = (0, v₂, v₁).
    assert_eq!(view_then_array(x), x[1] * x[2] + 10.0);
    assert_eq!(view_then_array_grad(x).1, [0.0, x[2], x[1]]);
    assert_eq!(view_then_array_hvp(x, v).2, [0.0, v[2], v[1]]);
    // x₂x₃ + 2.
    let x4 = [0.3, -1.2, 0.7, 2.0];
    assert_eq!(view_then_start(x4), x4[2] * x4[3] + 2.0);
    assert_eq!(view_then_start_grad(x4).1, [0.0, 0.0, x4[3], x4[2]]);
}
