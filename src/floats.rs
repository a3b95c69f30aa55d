//! Functions over `f32` and over a type parameter `T: Float`: each supported method over `f32`,
//! `f64` and `T` (`sin::single`, `sin::double`, `sin::generic`), and functions with loops,
//! branches, arrays, literals, constants, casts, calls and checkpointed loops. `tests/floats.rs`
//! checks the `f32` ones against the `f64` closed forms to `f32` precision, and the generic ones
//! at `f64` against the `f64` ones bit for bit, and at `f32` against the `f32` ones.

use autodiff_runtime::{Float, grad};

/// Defines, for each `name: |params| body`, a module `name` with the body over `f32` (`single`),
/// over `f64` (`double`) and over `T: Float` (`generic`), each under `#[grad(jvp, hvp, hessian)]`.
macro_rules! methods {
    ($($name:ident: |$($x:ident),+| $body:expr;)+) => {$(
        #[doc = concat!("`", stringify!($body), "` over `f32`, `f64` and `T: Float`.")]
        pub mod $name {
            use autodiff_runtime::{Float, grad};

            /// Over `f32`.
            #[grad(jvp, hvp, hessian)]
            pub fn single($($x: f32),+) -> f32 {
                $body
            }

            /// Over `f64`.
            #[grad(jvp, hvp, hessian)]
            pub fn double($($x: f64),+) -> f64 {
                $body
            }

            /// Over `T: Float`.
            #[grad(jvp, hvp, hessian)]
            pub fn generic<T: Float>($($x: T),+) -> T {
                $body
            }
        }
    )+};
}

methods! {
    sin: |x| x.sin();
    cos: |x| x.cos();
    tan: |x| x.tan();
    asin: |x| x.asin();
    acos: |x| x.acos();
    atan: |x| x.atan();
    sinh: |x| x.sinh();
    cosh: |x| x.cosh();
    tanh: |x| x.tanh();
    asinh: |x| x.asinh();
    acosh: |x| x.acosh();
    atanh: |x| x.atanh();
    exp: |x| x.exp();
    exp2: |x| x.exp2();
    exp_m1: |x| x.exp_m1();
    ln: |x| x.ln();
    ln_1p: |x| x.ln_1p();
    log2: |x| x.log2();
    log10: |x| x.log10();
    sqrt: |x| x.sqrt();
    cbrt: |x| x.cbrt();
    powi_3: |x| x.powi(3);
    powi_neg2: |x| x.powi(-2);
    powi_0: |x| x.powi(0);
    recip: |x| x.recip();
    abs: |x| x.abs();
    signum: |x| x.signum();
    floor: |x| x.floor();
    ceil: |x| x.ceil();
    round: |x| x.round();
    trunc: |x| x.trunc();
    atan2: |y, x| y.atan2(x);
    log: |x, b| x.log(b);
    powf: |x, y| x.powf(y);
    hypot: |x, y| x.hypot(y);
    min: |a, b| a.min(b);
    max: |a, b| a.max(b);
    mul_add: |a, b, c| a.mul_add(b, c);
    clamp: |x, lo, hi| x.clamp(lo, hi);
    exp_sin_sqrt: |x, y| x.sin().exp() * y.sqrt();
    ln_hypot: |x, y| x.hypot(y).ln();
}

/// The methods called through the type: `f32::sin(x)`, `f64::sin(x)`, `T::sin(x)`, and
/// `Float::cos(x)` for a type parameter.
pub mod ufcs {
    use autodiff_runtime::{Float, grad};

    /// `f32::sin(x) * f32::cos(x)`.
    #[grad(jvp, hvp, hessian)]
    pub fn single(x: f32) -> f32 {
        f32::sin(x) * f32::cos(x)
    }

    /// `f64::sin(x) * f64::cos(x)`.
    #[grad(jvp, hvp, hessian)]
    pub fn double(x: f64) -> f64 {
        f64::sin(x) * f64::cos(x)
    }

    /// `T::sin(x) * Float::cos(x)`.
    #[grad(jvp, hvp, hessian)]
    pub fn generic<T: Float>(x: T) -> T {
        T::sin(x) * Float::cos(x)
    }
}

/// `x.powf(2.5)`: a literal exponent, as each type writes it.
pub mod powf_lit {
    use autodiff_runtime::{Float, grad};

    /// Over `f32`.
    #[grad(jvp, hvp, hessian)]
    pub fn single(x: f32) -> f32 {
        x.powf(2.5)
    }

    /// Over `f64`.
    #[grad(jvp, hvp, hessian)]
    pub fn double(x: f64) -> f64 {
        x.powf(2.5)
    }

    /// Over `T: Float`.
    #[grad(jvp, hvp, hessian)]
    pub fn generic<T: Float>(x: T) -> T {
        x.powf(T::from(2.5).unwrap())
    }
}

/// `max(x, 0)` written with `if`, its zeros as each type writes them.
pub mod relu {
    use autodiff_runtime::{Float, grad};

    /// Over `f32`.
    #[grad(jvp, hvp, hessian)]
    pub fn single(x: f32) -> f32 {
        if x > 0.0 { x } else { 0.0 }
    }

    /// Over `f64`.
    #[grad(jvp, hvp, hessian)]
    pub fn double(x: f64) -> f64 {
        if x > 0.0 { x } else { 0.0 }
    }

    /// Over `T: Float`.
    #[grad(jvp, hvp, hessian)]
    pub fn generic<T: Float>(x: T) -> T {
        if x > T::zero() { x } else { T::zero() }
    }
}

/// `let (s, c) = x.sin_cos();` and a field of it, in each spelling.
pub mod sin_cos {
    use autodiff_runtime::{Float, grad};

    /// Over `f32`.
    #[grad(jvp, hvp, hessian)]
    pub fn single(x: f32) -> f32 {
        let (s, c) = f32::sin_cos(x);
        s * c + x.sin_cos().0
    }

    /// Over `f64`.
    #[grad(jvp, hvp, hessian)]
    pub fn double(x: f64) -> f64 {
        let (s, c) = f64::sin_cos(x);
        s * c + x.sin_cos().0
    }

    /// Over `T: Float`.
    #[grad(jvp, hvp, hessian)]
    pub fn generic<T: Float>(x: T) -> T {
        let (s, c) = T::sin_cos(x);
        s * c + x.sin_cos().0
    }
}

/// Literals, `std::f32::consts`, a suffixed literal, integers and a constant cast to `f32`, an
/// `f32` array and an integer exponent: the `f32` twin of [`literals_f64`].
#[grad(jvp, hvp, hessian)]
pub fn literals_f32(x: f32, y: [f32; 2], k: i32, data: &[f64]) -> f32 {
    let c = std::f32::consts::PI * 0.1 * 3.0;
    let n = 3;
    let d = data[0] as f32;
    let mut s = 1.5_f32 * x + c * y[0] + (n as f32) * y[1] + d * x * x;
    s += x.powi(k) + f32::EPSILON * y[1] + 1e-3 * x.exp();
    s
}

/// The `f64` twin of [`literals_f32`].
#[grad(jvp, hvp, hessian)]
pub fn literals_f64(x: f64, y: [f64; 2], k: i32, data: &[f64]) -> f64 {
    let c = std::f64::consts::PI * 0.1 * 3.0;
    let n = 3;
    let d = data[0];
    let mut s = 1.5_f64 * x + c * y[0] + (n as f64) * y[1] + d * x * x;
    s += x.powi(k) + f64::EPSILON * y[1] + 1e-3 * x.exp();
    s
}

/// The generic twin of [`literals_f64`]: constants as generic code writes them.
#[grad(jvp, hvp, hessian)]
pub fn literals_gen<T: Float>(x: T, y: [T; 2], k: i32, data: &[f64]) -> T {
    let c = T::from(std::f64::consts::PI).unwrap() * T::from(0.1).unwrap() * T::from(3.0).unwrap();
    let n = 3;
    let d = T::from(data[0]).unwrap();
    let mut s = T::from(1.5).unwrap() * x + c * y[0] + T::from(n).unwrap() * y[1] + d * x * x;
    s = s + x.powi(k) + T::epsilon() * y[1] + T::from(1e-3).unwrap() * x.exp();
    s
}

/// The lessons' function Σᵢ sin(xᵢ)·xᵢ₋₁ (cyclic) over `f32`: the benchmark's `f32` kernel. It
/// takes `x` by reference, as [`lessons_f32_by_hand`] does: passing `[f32; M]` by value costs a
/// copy at every call (about 11 ns at M = 10, a third of the gradient), which a benchmark of the
/// derivatives should not compare.
#[grad(jvp, hvp)]
pub fn lessons_f32<const M: usize>(x: &[f32; M]) -> f32 {
    let mut s = 0.0;
    for i in 0..M {
        s += x[i].sin() * x[(i + M - 1) % M];
    }
    s
}

/// The lessons' function over `T: Float` (a reduction over a ring, split at its wrap-around).
#[grad(jvp, hvp)]
pub fn lessons_gen<T: Float, const M: usize>(x: &[T; M]) -> T {
    let mut s = T::zero();
    for i in 0..M {
        s = s + x[i].sin() * x[(i + M - 1) % M];
    }
    s
}

/// A hand-written gradient of [`lessons_f32`], as one would write it for speed: the form of
/// `oracles::handwritten::lessons_grad` in `f32`, one forward sweep that carries the previous
/// coordinate and the next one's sine and cosine, and writes each component once.
pub fn lessons_f32_by_hand<const M: usize>(x: &[f32; M]) -> (f32, [f32; M]) {
    const { assert!(M >= 1, "the lessons' function needs at least one coordinate") };
    let mut grad = [0.0; M];
    let (s_first, c_first) = x[0].sin_cos();
    let (mut s, mut c) = (s_first, c_first);
    let mut prev = x[M - 1];
    let mut value = 0.0;
    for j in 0..M - 1 {
        let (s_next, c_next) = x[j + 1].sin_cos();
        value += s * prev;
        grad[j] = c * prev + s_next;
        prev = x[j];
        (s, c) = (s_next, c_next);
    }
    // The last iteration wraps: its successor is x₀ (itself when M = 1).
    value += s * prev;
    grad[M - 1] = c * prev + s_first;
    (value, grad)
}

/// Explicit Euler for `x' = -k x` over `f32`, its state carried and stored for the sweep, with a
/// branch in the loop.
#[grad(jvp, hvp)]
pub fn euler_f32(x0: f32, k: f32) -> f32 {
    let mut x = x0;
    for _ in 0..200 {
        x -= 0.01 * k * x;
        if x < 0.5 {
            x *= 1.01;
        }
    }
    x
}

/// [`euler_f32`] over `T: Float`.
#[grad(jvp, hvp)]
pub fn euler_gen<T: Float>(x0: T, k: T) -> T {
    let mut x = x0;
    for _ in 0..200 {
        x = x - T::from(0.01).unwrap() * k * x;
        if x < T::from(0.5).unwrap() {
            x = x * T::from(1.01).unwrap();
        }
    }
    x
}

/// [`euler_gen`] over `f64`: its derivatives are those of `euler_gen` at `f64`, to the bit.
#[grad(jvp, hvp)]
pub fn euler_f64(x0: f64, k: f64) -> f64 {
    let mut x = x0;
    for _ in 0..200 {
        x -= 0.01 * k * x;
        if x < 0.5 {
            x *= 1.01;
        }
    }
    x
}

/// A damped oscillator over `f32` whose loop of 5 000 steps is checkpointed (4 snapshots).
#[grad(hvp, checkpoint(s = 4))]
pub fn oscillator_f32(x0: f32, v0: f32, c: f32) -> f32 {
    let mut x = x0;
    let mut v = v0;
    for _ in 0..5000 {
        let a = -x - c * v;
        v += 0.001 * a;
        x += 0.001 * v;
    }
    x * x + v
}

/// [`oscillator_f32`] over `T: Float`.
#[grad(hvp, checkpoint(s = 4))]
pub fn oscillator_gen<T: Float>(x0: T, v0: T, c: T) -> T {
    let mut x = x0;
    let mut v = v0;
    let h = T::from(0.001).unwrap();
    for _ in 0..5000 {
        let a = -x - c * v;
        v = v + h * a;
        x = x + h * v;
    }
    x * x + v
}

/// A callee over `T: Float`, called from [`caller_gen`] and [`caller_f32`].
#[grad(jvp, hvp)]
pub fn softplus<T: Float>(x: T) -> T {
    (T::one() + x.exp()).ln()
}

/// Calls [`softplus`] with values and a constant, over `T: Float`.
#[grad(jvp, hvp)]
pub fn caller_gen<T: Float>(x: T, y: [T; 2]) -> T {
    softplus(x * y[0]) + softplus(y[1]) * softplus(T::from(2.0).unwrap())
}

/// Calls [`softplus`] at `f32`.
#[grad(jvp, hvp)]
pub fn caller_f32(x: f32, y: [f32; 2]) -> f32 {
    softplus(x * y[0]) + softplus(y[1]) * softplus(2.0_f32)
}

/// A vector function over `f32`, with its Jacobian.
#[grad(jvp, jacobian)]
pub fn polar_f32(r: f32, t: f32) -> (f32, f32) {
    (r * t.cos(), r * t.sin())
}

/// A vector function over `T: Float`, with its Jacobian.
#[grad(jvp, jacobian)]
pub fn polar_gen<T: Float>(r: T, t: T) -> [T; 2] {
    [r * t.cos(), r * t.sin()]
}
