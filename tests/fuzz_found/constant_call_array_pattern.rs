// Macro bug 33 (fixed): a call returning an array whose arguments are all constants (`c` left out
// of `wrt`) was a constant to the macro, and its value was then not known to be an array: a
// typed array pattern binding it was refused ("this array pattern binds a value that is not an
// array"), and a name bound with the array's type was "an `f64`" where indexed. Such a call is
// now a call of the IR that nothing differentiates (`g(c)` only, in every derivative). Found by
// the fuzzer's call twin (seed 300266).
use autodiff_runtime::grad;

#[grad(jvp, hvp)]
pub fn g(c: f64) -> [f64; 1] {
    [c.sin()]
}

#[grad(jvp, hvp)]
pub fn pair(a: f64, b: f64) -> [f64; 2] {
    [a * b, a - b]
}

#[grad(jvp, hvp, wrt(x))]
pub fn f(c: f64, x: f64) -> f64 {
    let [t]: [f64; 1] = g(c);
    t * x
}

#[grad(jvp, hvp, wrt(x))]
pub fn h(c: f64, x: f64) -> f64 {
    let [a, b]: [f64; 2] = pair(c, 2.0);
    let p: [f64; 2] = pair(1.5, c);
    let (u, v): (f64, f64) = (p[0], p[1]);
    a * x * x + b * x + u * v * x
}

fn main() {
    let (y, dx) = f_grad(0.5, 2.0);
    assert_eq!(y, 0.5f64.sin() * 2.0);
    assert_eq!(dx, 0.5f64.sin());
    assert_eq!(f_jvp(0.5, 2.0, 3.0), (y, 3.0 * 0.5f64.sin()));
    assert_eq!(f_hvp(0.5, 2.0, 3.0), (y, dx, 0.0));
    // h = a x² + b x + u v x with a = 2c, b = c - 2, u = 1.5c, v = 1.5 - c.
    let (c, x) = (0.5f64, 2.0f64);
    let (a, b, uv) = (2.0 * c, c - 2.0, 1.5 * c * (1.5 - c));
    let (y, dx) = h_grad(c, x);
    assert_eq!(y, h(c, x));
    assert!((y - (a * x * x + b * x + uv * x)).abs() < 1e-14);
    assert!((dx - (2.0 * a * x + b + uv)).abs() < 1e-14);
    let (_, d) = h_jvp(c, x, 0.5);
    assert!((d - 0.5 * dx).abs() < 1e-14);
    let (_, g2, hv) = h_hvp(c, x, 0.5);
    assert_eq!(g2, dx);
    assert!((hv - 0.5 * 2.0 * a).abs() < 1e-14);
}
