// Macro bug 4: an integer `let` in a loop, read only by a constant `f64` expression: the
// expansion drops the `let` but still prints its name (E0425, "cannot find value `n`").
use autodiff_runtime::grad;

#[grad]
fn f(a: f64) -> f64 {
    let mut s = a;
    for i in 0..3 {
        let n = i;
        s += n as f64;
    }
    s * s
}

fn main() {
    let _ = f_grad(1.0);
}
