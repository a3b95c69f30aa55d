// A callee differentiates all its `f64` and array parameters, and its caller passes it values and
// constants in any position: a constant's partial is dropped and its direction is zero; an
// integer or a slice passes through, with no partial and no direction.
use autodiff_runtime::grad;

#[grad(jvp, hvp)]
fn scale(x: f64, c: f64) -> f64 {
    x * c
}

#[grad(jvp, hvp)]
fn weighted(w: [f64; 2], x: f64, n: usize, data: &[f64]) -> f64 {
    (w[0] + w[1] * x) * n as f64 + data[0]
}

#[grad(jvp, hvp, wrt(x))]
fn caller(x: f64, c: f64, data: &[f64]) -> f64 {
    scale(x, 2.0).sin() + scale(c, x) + weighted([1.0, c], x, 3, data) + weighted([x, x], c, 2, data)
}

fn main() {
    let data = [0.5];
    let (_, d) = caller_grad(0.5, 3.0, &data);
    let expected = 2.0 * 1.0_f64.cos() + 3.0 + 3.0 * 3.0 + 2.0 * (1.0 + 3.0);
    assert!((d - expected).abs() < 1e-12);
    let (_, slope) = caller_jvp(0.5, 3.0, &data, 1.0);
    assert!((slope - expected).abs() < 1e-12);
    let (_, g, _) = caller_hvp(0.5, 3.0, &data, 1.0);
    assert!((g - expected).abs() < 1e-12);
}
