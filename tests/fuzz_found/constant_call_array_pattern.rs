// Macro bug 33 (open): a call returning an array whose arguments are all constants (`c` left out
// of `wrt`) is a constant to the macro, and its value is then not known to be an array: a typed
// array pattern binding it is refused ("this array pattern binds a value that is not an array").
// Found by the fuzzer's call twin (seed 300266).
use autodiff_runtime::grad;

#[grad(jvp, hvp)]
pub fn g(c: f64) -> [f64; 1] {
    [c.sin()]
}

#[grad(jvp, hvp, wrt(x))]
pub fn f(c: f64, x: f64) -> f64 {
    let [t]: [f64; 1] = g(c);
    t * x
}

fn main() {
    let (y, dx) = f_grad(0.5, 2.0);
    assert_eq!(y, 0.5f64.sin() * 2.0);
    assert_eq!(dx, 0.5f64.sin());
}
