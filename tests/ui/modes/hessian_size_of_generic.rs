// Checks that a Hessian whose size is an expression of the function's const generics (`N + 1`)
// is sized by the caller through the result's type, and that a wrong size is a compile error
// saying what the size must be and which number it is here (rustc reports it when it builds the
// call, and points at the call).
use autodiff_runtime::grad;

#[grad(hessian)]
fn f<const N: usize>(x: [f64; N], y: f64) -> f64 {
    let mut s = y * y;
    for i in 0..N {
        s += x[i] * x[i] * y;
    }
    s
}

fn main() {
    let right: [[f64; 4]; 4] = f_hessian([1.0, 2.0, 3.0], 0.5);
    let wrong: [[f64; 5]; 5] = f_hessian([1.0, 2.0, 3.0], 0.5);
    let _ = (right, wrong);
}
