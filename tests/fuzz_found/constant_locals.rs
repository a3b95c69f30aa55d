// Macro bug 1: locals whose values are constants lose their `f64` type in the expansion, so a
// method called on them does not compile there (E0689, "ambiguous numeric type `{float}`").
use autodiff_runtime::grad;

// `f64::ln(1.0 + y[0])` becomes `(1.0 + 0.0).ln()`.
#[grad]
fn unannotated_zeros(a: f64) -> f64 {
    let y = [0.0; 1];
    a * f64::ln(1.0 + y[0])
}

// The annotation is dropped: `let t0 = [0.5]; (t0[0] + 1.0).ln()`.
#[grad]
fn annotated_literals(a: f64) -> f64 {
    let y: [f64; 1] = [0.5];
    a * (y[0] + 1.0).ln()
}

// A carried scalar started at a literal: `let mut s = 2.0;` and then `s.cos()` in the loop.
#[grad]
fn carried_from_a_literal(a: f64) -> f64 {
    let mut s: f64 = 2.0;
    for _ in 0..2 {
        s += a * s.cos();
    }
    s
}

// An element set to a literal, in an array that is otherwise not constant: `(0.5 * 0.5).ln_1p()`.
#[grad]
fn element_set_to_a_literal(x: [f64; 2], a: f64) -> f64 {
    let mut y = x;
    y[0] = 0.5;
    a * f64::ln_1p(y[0] * y[0])
}

fn main() {
    let _ = (unannotated_zeros_grad(1.0), annotated_literals_grad(1.0));
    let _ = (carried_from_a_literal_grad(1.0), element_set_to_a_literal_grad([1.0, 2.0], 1.0));
}
