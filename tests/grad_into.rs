//! `#[grad(into)]`'s `f_grad_into`: the value returned and the gradient of each differentiated
//! array written into the caller's `&mut [f64; N]`, overwriting it. Every gradient equals
//! `f_grad`'s to the bit and the closed form to rounding, for a body without loops, a loop
//! over a const generic, a stored loop, a checkpointed one, several parameters, a slice beside
//! an array, a nested array, an undifferentiated scalar parameter, a `while` loop, `f32`, a generic float, and
//! a call of another `#[grad]` function taking the array whole.
#![allow(clippy::needless_range_loop)]

use autodiff_runtime::grad;

/// No loop: x₀·x₁ + sin(x₂).
#[grad(into)]
fn plain(x: [f64; 3]) -> f64 {
    x[0] * x[1] + x[2].sin()
}

/// Σᵢ (xᵢ²/2 + 0.3·xᵢ) over a const generic length: the sweep fused with the loop.
#[grad(into)]
fn quad<const N: usize>(x: &[f64; N]) -> f64 {
    let mut s = 0.0;
    for i in 0..N {
        s += 0.5 * x[i] * x[i] + 0.3 * x[i];
    }
    s
}

/// A recurrence s ← sin(s + xᵢ) over a known length: its sweep reads stored values.
#[grad(into)]
fn chain(x: &[f64; 6]) -> f64 {
    let mut s = 0.5;
    for i in 0..6 {
        s = (s + x[i]).sin();
    }
    s
}

/// The same recurrence, checkpointed.
#[grad(into, checkpoint(s = 2))]
fn chain_checkpointed(x: &[f64; 6]) -> f64 {
    let mut s = 0.5;
    for i in 0..6 {
        s = (s + x[i]).sin();
    }
    s
}

/// The same recurrence over a const generic length: stored or checkpointed, as rustc decides.
#[grad(into)]
fn chain_generic<const N: usize>(x: &[f64; N]) -> f64 {
    let mut s = 0.5;
    for i in 0..N {
        s = (s + x[i]).sin();
    }
    s
}

/// Two arrays: Σᵢ aᵢ·bᵢ², one buffer each, in order.
#[grad(into)]
fn weighted(a: &[f64; 4], b: [f64; 4]) -> f64 {
    let mut s = 0.0;
    for i in 0..4 {
        s += a[i] * b[i] * b[i];
    }
    s
}

/// An array and a slice: Σᵢ aᵢ·cos(yᵢ) for i < 3, the slice's buffer checked for its length.
#[grad(into, wrt(a, y))]
fn mixed(a: &[f64; 3], y: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..3 {
        s += a[i] * y[i].cos();
    }
    s
}

/// A nested array: Σᵢ mᵢ₀·mᵢ₁.
#[grad(into)]
fn pairs(m: &[[f64; 2]; 3]) -> f64 {
    let mut s = 0.0;
    for i in 0..3 {
        s += m[i][0] * m[i][1];
    }
    s
}

/// An undifferentiated scalar beside the array: c·Σᵢ xᵢ³.
#[grad(into, wrt(x))]
fn cubes(x: &[f64; 3], c: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..3 {
        s += c * x[i] * x[i] * x[i];
    }
    s
}

/// Over `f32`: Σᵢ xᵢ·sin(xᵢ), the buffer `&mut [f32; 4]`.
#[grad(into)]
fn waves(x: [f32; 4]) -> f32 {
    let mut s = 0.0;
    for i in 0..4 {
        s += x[i] * x[i].sin();
    }
    s
}

/// Generic over the float type: Σᵢ xᵢ² over a const generic length.
#[grad(into)]
fn squares<T: autodiff_runtime::Float, const N: usize>(x: &[T; N]) -> T {
    let mut s = T::zero();
    for i in 0..N {
        s = s + x[i] * x[i];
    }
    s
}

/// Σᵢ xᵢ³, called with the array whole.
#[grad]
fn cubed(x: [f64; 3]) -> f64 {
    x[0] * x[0] * x[0] + x[1] * x[1] * x[1] + x[2] * x[2] * x[2]
}

/// 2·cubed(x) + x₀: the array's gradient is the callee's plus a term.
#[grad(into)]
fn calls(x: [f64; 3]) -> f64 {
    2.0 * cubed(x) + x[0]
}

/// A loop of run-time length: s += x₀·x₁ while s < 3, its iterations on a tape.
#[grad(into)]
fn grow(x: [f64; 2]) -> f64 {
    let mut s = 0.0;
    while s < 3.0 {
        s += x[0] * x[1];
    }
    s
}

/// Bits of a slice, for comparing to the bit.
fn bits(v: &[f64]) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}

/// Asserts `g` is `closed` to rounding, relative to the component's size.
fn close(what: &str, g: &[f64], closed: &[f64]) {
    for (i, (a, b)) in g.iter().zip(closed).enumerate() {
        assert!((a - b).abs() <= 1e-14 * b.abs().max(1.0), "{what}[{i}]: {a} against {b}");
    }
}

/// The gradient of the recurrence s ← sin(s + xᵢ) from s₀ = 0.5, by hand: the value and the
/// product of the cosines after each step.
fn chain_closed(x: &[f64]) -> (f64, Vec<f64>) {
    let mut s = 0.5;
    let mut cos = Vec::new();
    for xi in x {
        cos.push((s + xi).cos());
        s = (s + xi).sin();
    }
    let g = (0..x.len()).map(|i| cos[i..].iter().product()).collect();
    (s, g)
}

const X6: [f64; 6] = [0.3, -1.2, 0.7, 2.1, -0.4, 1.5];

#[test]
fn plain_without_a_loop() {
    let x = [0.7, -1.3, 0.4];
    let (value, by_value) = plain_grad(x);
    let mut g = [f64::NAN; 3];
    assert_eq!(plain_grad_into(x, &mut g).to_bits(), value.to_bits());
    assert_eq!(bits(&g), bits(&by_value));
    close("plain", &g, &[x[1], x[0], x[2].cos()]);
}

#[test]
fn quad_over_a_const_generic_overwrites_the_buffer() {
    let x: [f64; 16] = core::array::from_fn(|i| (1.7 * i as f64 + 0.7).sin());
    let (value, by_value) = quad_grad(&x);
    let mut g = [123.0; 16];
    assert_eq!(quad_grad_into(&x, &mut g).to_bits(), value.to_bits());
    assert_eq!(bits(&g), bits(&by_value));
    let closed: Vec<f64> = x.iter().map(|xi| xi + 0.3).collect();
    close("quad", &g, &closed);
}

#[test]
fn stored_checkpointed_and_generic_loops() {
    let (value, closed) = chain_closed(&X6);
    let (v, by_value) = chain_grad(&X6);
    let mut g = [f64::NAN; 6];
    assert_eq!(chain_grad_into(&X6, &mut g).to_bits(), v.to_bits());
    assert_eq!(bits(&g), bits(&by_value));
    assert!((v - value).abs() <= 1e-15);
    close("chain", &g, &closed);

    let (vc, by_value_c) = chain_checkpointed_grad(&X6);
    let mut gc = [f64::NAN; 6];
    assert_eq!(chain_checkpointed_grad_into(&X6, &mut gc).to_bits(), vc.to_bits());
    assert_eq!(bits(&gc), bits(&by_value_c));
    close("chain_checkpointed", &gc, &closed);

    let (vg, by_value_g) = chain_generic_grad(&X6);
    let mut gg = [f64::NAN; 6];
    assert_eq!(chain_generic_grad_into(&X6, &mut gg).to_bits(), vg.to_bits());
    assert_eq!(bits(&gg), bits(&by_value_g));
    close("chain_generic", &gg, &closed);
}

#[test]
fn several_parameters_one_buffer_each_in_order() {
    let (a, b) = ([0.5, -1.0, 2.0, 0.25], [1.5, 0.3, -0.7, 2.2]);
    let (value, (ga, gb)) = weighted_grad(&a, b);
    let (mut ia, mut ib) = ([9.0; 4], [9.0; 4]);
    assert_eq!(weighted_grad_into(&a, b, &mut ia, &mut ib).to_bits(), value.to_bits());
    assert_eq!((bits(&ia), bits(&ib)), (bits(&ga), bits(&gb)));
    close("weighted a", &ia, &b.map(|bi| bi * bi));
    let closed: Vec<f64> = a.iter().zip(&b).map(|(ai, bi)| 2.0 * ai * bi).collect();
    close("weighted b", &ib, &closed);
}

#[test]
fn a_slice_beside_an_array() {
    let (a, y) = ([0.5, -1.0, 2.0], vec![0.1, 0.9, -2.0]);
    let mut y_bar = vec![7.0; 3];
    let (value, ga) = mixed_grad(&a, &y, &mut y_bar);
    let (mut ia, mut iy) = ([7.0; 3], vec![7.0; 3]);
    assert_eq!(mixed_grad_into(&a, &y, &mut ia, &mut iy).to_bits(), value.to_bits());
    assert_eq!((bits(&ia), bits(&iy)), (bits(&ga), bits(&y_bar)));
    close("mixed a", &ia, &[y[0].cos(), y[1].cos(), y[2].cos()]);
    let closed: Vec<f64> = a.iter().zip(&y).map(|(ai, yi)| -ai * yi.sin()).collect();
    close("mixed y", &iy, &closed);
}

#[test]
fn a_nested_array_and_an_undifferentiated_scalar() {
    let m = [[1.0, 2.0], [-0.5, 0.25], [3.0, -1.5]];
    let (value, by_value) = pairs_grad(&m);
    let mut g = [[f64::NAN; 2]; 3];
    assert_eq!(pairs_grad_into(&m, &mut g).to_bits(), value.to_bits());
    assert_eq!(bits(g.as_flattened()), bits(by_value.as_flattened()));
    close("pairs", g.as_flattened(), &[2.0, 1.0, 0.25, -0.5, -1.5, 3.0]);

    let x = [0.5, -1.0, 2.0];
    let (value, by_value) = cubes_grad(&x, 1.5);
    let mut g = [f64::NAN; 3];
    assert_eq!(cubes_grad_into(&x, 1.5, &mut g).to_bits(), value.to_bits());
    assert_eq!(bits(&g), bits(&by_value));
    close("cubes", &g, &x.map(|xi| 4.5 * xi * xi));
}

#[test]
fn over_f32_and_a_generic_float() {
    let x = [0.5_f32, -1.0, 2.0, 0.25];
    let (value, by_value) = waves_grad(x);
    let mut g = [f32::NAN; 4];
    assert_eq!(waves_grad_into(x, &mut g).to_bits(), value.to_bits());
    assert_eq!(g.map(f32::to_bits), by_value.map(f32::to_bits));
    for (gi, xi) in g.iter().zip(&x) {
        let closed = xi.sin() + xi * xi.cos();
        assert!((gi - closed).abs() <= 1e-6 * closed.abs().max(1.0), "{gi} against {closed}");
    }

    let x = [0.5, -1.0, 2.0];
    let (value, by_value) = squares_grad(&x);
    let mut g = [f64::NAN; 3];
    assert_eq!(squares_grad_into(&x, &mut g).to_bits(), value.to_bits());
    assert_eq!(bits(&g), bits(&by_value));
    close("squares", &g, &x.map(|xi| 2.0 * xi));
}

#[test]
fn a_call_with_the_array_whole() {
    let x = [0.5, -1.0, 2.0];
    let (value, by_value) = calls_grad(x);
    let mut g = [f64::NAN; 3];
    assert_eq!(calls_grad_into(x, &mut g).to_bits(), value.to_bits());
    assert_eq!(bits(&g), bits(&by_value));
    close("calls", &g, &[6.0 * 0.25 + 1.0, 6.0, 24.0]);
}

#[test]
fn a_while_loop() {
    // 0.35 nine times passes 3: s = 9·x₀x₁, ∇s = 9·(x₁, x₀).
    let x = [0.5, 0.7];
    let (value, by_value) = grow_grad(x);
    let mut g = [f64::NAN; 2];
    assert_eq!(grow_grad_into(x, &mut g).to_bits(), value.to_bits());
    assert_eq!(bits(&g), bits(&by_value));
    close("grow", &g, &[9.0 * 0.7, 9.0 * 0.5]);
}
