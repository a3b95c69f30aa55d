// Macro bug 51: a vector function with more than twelve differentiated parameters whose reverse
// sweep is not split (here for its `while` loop, a loop of unknown length): its `g_rev`, the
// reverse half a caller's gradient calls, declared its cotangents packed in tuples of tuples (as
// the residuals are, at most twelve to a tuple) and returned `g_vjp`'s, one flat tuple (E0308,
// "expected a tuple with 7 elements, found one with 13 elements"). It now returns them as
// `g_vjp` and a split `g_rev` do, one tuple. Found by the fuzzer's loop-exit twin (`f_wh`,
// seeds 300216 and 300352).
use autodiff_runtime::grad;

/// `[a₀a₁², a₂ + … + a₁₂]`.
#[grad]
#[allow(clippy::too_many_arguments)]
fn g(
    a0: f64,
    a1: f64,
    a2: f64,
    a3: f64,
    a4: f64,
    a5: f64,
    a6: f64,
    a7: f64,
    a8: f64,
    a9: f64,
    a10: f64,
    a11: f64,
    a12: f64,
) -> [f64; 2] {
    let mut p = a0;
    let mut w = 0.0;
    while w < 2.0 {
        w += 1.0;
        p *= a1;
    }
    [p, a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9 + a10 + a11 + a12]
}

/// `g(a, b, a, …, a) = [ab², 11a]` multiplied out: `h = 11a²b²`, through `g_fwd` and `g_rev`.
#[grad]
fn h(a: f64, b: f64) -> f64 {
    let [p, q] = g(a, b, a, a, a, a, a, a, a, a, a, a, a);
    p * q
}

fn main() {
    let (a, b) = (1.5, -0.5);
    let args = (a, b, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0);
    let (a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) = args;
    let (value, residuals) = g_fwd(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12);
    assert_eq!(value, [a * b * b, 77.0]);
    let out_bar = [2.0, 3.0];
    let c = g_rev(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, residuals, out_bar);
    let cotangents = [c.0, c.1, c.2, c.3, c.4, c.5, c.6, c.7, c.8, c.9, c.10, c.11, c.12];
    let (_, v) = g_vjp(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, out_bar);
    let from_vjp = [v.0, v.1, v.2, v.3, v.4, v.5, v.6, v.7, v.8, v.9, v.10, v.11, v.12];
    assert_eq!(cotangents, from_vjp);
    // By hand: ∂/∂a₀ = 2b², ∂/∂a₁ = 2·2ab, the rest 3.
    let mut expected = [3.0; 13];
    (expected[0], expected[1]) = (2.0 * b * b, 4.0 * a * b);
    assert_eq!(cotangents, expected);
    let (value, (da, db)) = h_grad(a, b);
    assert_eq!((value, da, db), (11.0 * a * a * b * b, 22.0 * a * b * b, 22.0 * a * a * b));
}
