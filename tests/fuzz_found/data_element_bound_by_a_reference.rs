// Macro bug 47 (fuzzer seed 201292, its iterator twin): an element of `&[f64]` data bound by a
// reference pattern (`for &v in data`, `.zip(data).map(|(i, &v)| ..)`) kept the type of the
// reference, `&f64`, as a constant: passed to a called function's `f64` parameter it was taken
// for a constant of another type, passed through with no partial or direction, and the call of
// `g_grad` or `g_jvp` had one argument too few and a partial too few in its pattern (E0061,
// E0308). `&v` now binds `v` to the value behind the reference.
use autodiff_runtime::grad;

#[grad(jvp, hvp)]
fn g(a: f64, b: f64) -> f64 {
    a * b.sin()
}

#[grad(jvp, hvp, wrt(x))]
fn f(x: [f64; 2], data: &[f64]) -> f64 {
    let mut s = 0.0;
    for &v in data {
        s += g(v, x[0]);
    }
    s + (0..data.len()).zip(data).map(|(i, &v)| g(v, x[1] * (i as f64 + 1.0))).sum::<f64>()
}

// The same function reading the data by index.
#[grad(jvp, hvp, wrt(x))]
#[allow(clippy::needless_range_loop)]
fn plain(x: [f64; 2], data: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..data.len() {
        s += g(data[i], x[0]);
    }
    let mut t = -0.0;
    for i in 0..data.len() {
        t += g(data[i], x[1] * (i as f64 + 1.0));
    }
    s + t
}

fn main() {
    let (x, data, dx) = ([0.4, -0.9], [1.5, -0.25, 0.75], [1.0, 0.5]);
    assert_eq!(f(x, &data), plain(x, &data));
    assert_eq!(f_grad(x, &data), plain_grad(x, &data));
    assert_eq!(f_jvp(x, &data, dx), plain_jvp(x, &data, dx));
    assert_eq!(f_hvp(x, &data, dx), plain_hvp(x, &data, dx));
    // f = Σ dᵢ sin x₀ + Σ dᵢ sin((i + 1) x₁).
    let (_, g) = f_grad(x, &data);
    let sum: f64 = data.iter().sum();
    let g1: f64 = (0..3).map(|i| data[i] * (i as f64 + 1.0) * ((i as f64 + 1.0) * x[1]).cos()).sum();
    assert!((g[0] - sum * x[0].cos()).abs() < 1e-12 && (g[1] - g1).abs() < 1e-12, "{g:?}");
}
