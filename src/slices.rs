//! Functions of slices whose length is known only at run time, differentiated because `wrt(...)`
//! names them: their gradients and H·v are written into the caller's buffers (`x_bar: &mut [f64]`,
//! `x_bar_dot: &mut [f64]`), never on the heap. Reductions over `0..x.len()` store nothing; a loop
//! that carries state from step to step is checkpointed. `tests/slices.rs` checks them against
//! closed forms and finite differences, and against their array twins bit for bit.

use autodiff_runtime::{Float, grad};

/// The extended (chained) Rosenbrock function Σᵢ 100 (xᵢ₊₁ − xᵢ²)² + (1 − xᵢ)² over a slice: the
/// index form of `loops::ext_rosenbrock`.
#[grad(wrt(x), jvp, hvp)]
pub fn ext_rosenbrock_slice(x: &[f64]) -> f64 {
    let mut f = 0.0;
    for i in 0..x.len() - 1 {
        let a = x[i + 1] - x[i] * x[i];
        let b = 1.0 - x[i];
        f += 100.0 * a * a + b * b;
    }
    f
}

/// A hand-written gradient of [`ext_rosenbrock_slice`] into the caller's buffer, as one would
/// write it for speed: each component written once, the next one's share carried.
pub fn ext_rosenbrock_slice_by_hand(x: &[f64], grad: &mut [f64]) -> f64 {
    assert_eq!(grad.len(), x.len(), "the gradient has the length of `x`");
    let n = x.len();
    let mut value = 0.0;
    let mut carry = 0.0;
    for i in 0..n - 1 {
        let a = x[i + 1] - x[i] * x[i];
        let b = 1.0 - x[i];
        value += 100.0 * a * a + b * b;
        let a_bar = 200.0 * a;
        grad[i] = carry - 2.0 * b - 2.0 * x[i] * a_bar;
        carry = a_bar;
    }
    grad[n - 1] = carry;
    value
}

/// The extended Rosenbrock function by `windows(2)` over a slice.
#[grad(wrt(x), hvp)]
pub fn ext_rosenbrock_windows(x: &[f64]) -> f64 {
    x.windows(2)
        .map(|w| {
            let a = w[1] - w[0] * w[0];
            let b = 1.0 - w[0];
            100.0 * a * a + b * b
        })
        .sum()
}

/// The lessons' function Σᵢ sin(xᵢ)·xᵢ₋₁ (cyclic) over a slice: a ring of run-time length.
#[grad(wrt(x), jvp, hvp)]
pub fn lessons_slice(x: &[f64]) -> f64 {
    let n = x.len();
    let mut s = 0.0;
    for i in 0..n {
        s += x[i].sin() * x[(i + n - 1) % n];
    }
    s
}

/// A linear model's squared loss over constant data: a slice of weights, a scalar bias, and data
/// slices passed through.
#[grad(wrt(w, b), jvp, hvp)]
pub fn least_squares(w: &[f64], b: f64, xs: &[f64], ys: &[f64]) -> f64 {
    let mut loss = 0.0;
    for k in 0..ys.len() {
        let mut y = b;
        for j in 0..w.len() {
            y += w[j] * xs[k * w.len() + j];
        }
        let r = y - ys[k];
        loss += r * r;
    }
    0.5 * loss
}

/// A recurrence `p ← p·sin(xᵢ) + xᵢ` over a slice: the loop carries `p`, so its sweep is
/// checkpointed (its length is known only at run time).
#[allow(clippy::needless_range_loop)]
#[grad(wrt(x, y), jvp, hvp)]
pub fn recurrence(x: &[f64], y: f64) -> f64 {
    let mut p = y;
    for i in 0..x.len() {
        p = p * x[i].sin() + x[i];
    }
    p
}

/// [`recurrence`] over an array: its derivatives are those of the slice form, to the bit.
#[allow(clippy::needless_range_loop)]
#[grad(jvp, hvp)]
pub fn recurrence_array<const N: usize>(x: [f64; N], y: f64) -> f64 {
    let mut p = y;
    for i in 0..N {
        p = p * x[i].sin() + x[i];
    }
    p
}

/// Huber's loss summed over residuals `xᵢ − dᵢ`: a branch in a loop over a slice.
#[grad(wrt(x), jvp, hvp)]
pub fn huber_sum(x: &[f64], d: &[f64], delta: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        let r = x[i] - d[i];
        s += if r.abs() <= delta { 0.5 * r * r } else { delta * (r.abs() - 0.5 * delta) };
    }
    s
}

/// A `&Vec<f64>` is a slice: Σ xᵢ⁴ / 4 + (Σ xᵢ)².
#[allow(clippy::ptr_arg)]
#[grad(wrt(x), hvp)]
pub fn vec_quartic(x: &Vec<f64>) -> f64 {
    let mut q = 0.0;
    let mut s = 0.0;
    for v in x.iter() {
        q += 0.25 * v.powi(4);
        s += v;
    }
    q + s * s
}

/// A slice of points `&[[f64; 2]]`: Σᵢ |pᵢ₊₁ − pᵢ|², the squared length of a polyline.
#[grad(wrt(p), jvp, hvp)]
pub fn polyline(p: &[[f64; 2]]) -> f64 {
    let mut s = 0.0;
    for i in 0..p.len() - 1 {
        let dx = p[i + 1][0] - p[i][0];
        let dy = p[i + 1][1] - p[i][1];
        s += dx * dx + dy * dy;
    }
    s
}

/// Two moments of a slice, a vector function: `f_vjp` writes its cotangent into a buffer.
#[allow(clippy::needless_range_loop)]
#[grad(wrt(x), jvp)]
pub fn moments(x: &[f64]) -> (f64, f64) {
    let mut s = 0.0;
    let mut q = 0.0;
    for i in 0..x.len() {
        s += x[i];
        q += x[i] * x[i];
    }
    (s, q)
}

/// The extended Rosenbrock function over a slice of `f32`.
#[grad(wrt(x), jvp, hvp)]
pub fn ext_rosenbrock_f32(x: &[f32]) -> f32 {
    let mut f = 0.0;
    for i in 0..x.len() - 1 {
        let a = x[i + 1] - x[i] * x[i];
        let b = 1.0 - x[i];
        f += 100.0 * a * a + b * b;
    }
    f
}

/// The extended Rosenbrock function over a slice of `T: Float`.
#[grad(wrt(x), jvp, hvp)]
pub fn ext_rosenbrock_gen<T: Float>(x: &[T]) -> T {
    let mut f = T::zero();
    let hundred = T::from(100.0).unwrap();
    for i in 0..x.len() - 1 {
        let a = x[i + 1] - x[i] * x[i];
        let b = T::one() - x[i];
        f = f + (hundred * a * a + b * b);
    }
    f
}

/// A vector function of a slice and a scalar, `(y·x₀·x₁, sin x₀, y²)`: its `_vjp` and its `_hvp`
/// (forward over the vjp) write the slice's cotangent and its tangent into buffers, after the
/// three parts of the cotangent and of its tangent.
#[grad(wrt(x, y), hvp)]
pub fn vector_of_slice(x: &[f64], y: f64) -> (f64, f64, f64) {
    (y * x[0] * x[1], x[0].sin(), y * y)
}

/// [`ext_rosenbrock_slice`] with `accumulate`: `_grad` and `_hvp` add the gradient and H·v into
/// the caller's buffers.
#[grad(wrt(x), hvp, accumulate)]
pub fn ext_rosenbrock_acc(x: &[f64]) -> f64 {
    let mut f = 0.0;
    for i in 0..x.len() - 1 {
        let a = x[i + 1] - x[i] * x[i];
        let b = 1.0 - x[i];
        f += 100.0 * a * a + b * b;
    }
    f
}

/// [`huber_sum`] with `accumulate`: each component of its gradient is one term, so adding into
/// a buffer is the same arithmetic as overwriting and then adding.
#[grad(wrt(x), hvp, accumulate)]
pub fn huber_sum_acc(x: &[f64], d: &[f64], delta: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        let r = x[i] - d[i];
        s += if r.abs() <= delta { 0.5 * r * r } else { delta * (r.abs() - 0.5 * delta) };
    }
    s
}

/// [`recurrence`] with `accumulate`: a checkpointed sweep adding into the buffers.
#[allow(clippy::needless_range_loop)]
#[grad(wrt(x, y), hvp, accumulate)]
pub fn recurrence_acc(x: &[f64], y: f64) -> f64 {
    let mut p = y;
    for i in 0..x.len() {
        p = p * x[i].sin() + x[i];
    }
    p
}

/// [`vector_of_slice`] with `accumulate`: `_vjp` and `_hvp` add into the buffers, from code
/// with no loop.
#[grad(wrt(x, y), hvp, accumulate)]
pub fn vector_of_slice_acc(x: &[f64], y: f64) -> (f64, f64, f64) {
    (y * x[0] * x[1], x[0].sin(), y * y)
}
