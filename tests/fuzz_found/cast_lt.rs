// Macro bug 2: `(n as f64) < a` is emitted as `n as f64 < a`, which Rust reads as the start of
// generic arguments: the expansion does not parse.
use autodiff_runtime::grad;

#[grad]
fn f(a: f64, n: usize) -> f64 {
    if (n as f64) < a { a * a } else { a }
}

fn main() {
    let _ = f_grad(1.0, 2);
}
