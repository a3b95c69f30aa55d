//! Hygiene corpus: user names that look like generated ones, and a module with a shadowed prelude.
//!
//! The generated code names adjoints `v_bar`, tangents `v_dot`, temporaries `t0, t1, ...` and
//! its own plumbing (direction parameters, loop indices of the Hessian); every function here
//! already uses such names for its own parameters and bindings, so a generator that does not
//! rename around the user's identifiers fails to compile or computes the wrong thing.

use autodiff_runtime::grad;

/// `p·((sin(xp) + x)² - sin(xp))`, with locals named `x_bar`, `p_bar`, `x_bar_1`, `x_dot` and
/// `x_bar_dot`.
#[grad(jvp, hvp, hessian)]
pub fn bar_names(x: f64, p: f64) -> f64 {
    let x_bar = x * p;
    let p_bar = x_bar.sin();
    let x_bar_1 = p_bar + x;
    let x_dot = x_bar_1 * x_bar_1;
    let x_bar_dot = x_dot - p_bar;
    x_bar_dot * p
}

/// `x·e^(x·x_bar) + x_bar²`: a parameter named `x_bar` next to `x`, and locals named like the
/// adjoint and tangent of `x_bar`.
#[grad(jvp, hvp, hessian)]
pub fn adjoint_params(x: f64, x_bar: f64) -> f64 {
    let x_bar_bar = x * x_bar;
    let x_dot = x_bar_bar.exp();
    let x_bar_dot = x_dot * x;
    x_bar_dot + x_bar * x_bar
}

/// `(e^(t0·t1) + t0)·t1 + e^(t0·t1)`: parameters `t0`, `t1` and locals `t2`, `out`, `grad`,
/// `hessian`.
#[grad(jvp, hvp, hessian)]
pub fn temp_names(t0: f64, t1: f64) -> f64 {
    let t2 = t0 * t1;
    let out = t2.exp();
    let grad = out + t0;
    let hessian = grad * t1;
    hessian + out
}

/// `x·cos(x_dot) + x²·x_dot²`: a parameter named like the direction of `x`, and locals named
/// like the tangent of that parameter.
#[grad(jvp, hvp, hessian)]
pub fn dot_names(x: f64, x_dot: f64) -> f64 {
    let x_dot_dot = x * x_dot;
    let x_dot_bar = x_dot.cos();
    x * x_dot_bar + x_dot_dot * x_dot_dot
}

/// `(v·i + sin(row))·row + e^v`: parameters `v`, `i`, `row` and locals `j`, `e`, `col`, `hv`, `h`,
/// names a Hessian loop or a direction vector would pick.
#[grad(jvp, hvp, hessian)]
pub fn direction_names(v: f64, i: f64, row: f64) -> f64 {
    let j = v * i;
    let e = row.sin();
    let col = j + e;
    let hv = col * row;
    let h = v.exp();
    hv + h
}

/// `out·(ln(1 + out²) + sin(out))`: one parameter, named `out`, and locals `out_bar`, `out_dot`
/// and `value`.
#[grad(jvp, hvp, hessian)]
pub fn single(out: f64) -> f64 {
    let out_bar = out * out;
    let out_dot = out_bar.ln_1p();
    let value = out_dot + out.sin();
    value * out
}

/// `cos(a·b) + a²` with `a` named `wave_hvp` and `b` named `wave_grad`: parameters named like the
/// functions generated for `wave`, one of which (`wave_hessian`) calls another (`wave_hvp`).
#[grad(jvp, hvp, hessian)]
pub fn wave(wave_hvp: f64, wave_grad: f64) -> f64 {
    let wave_jvp = wave_hvp * wave_grad;
    let wave_hessian = wave_jvp.cos();
    wave_hessian + wave_hvp * wave_hvp
}

/// `grad²·e^hessian - hessian`: a function named `hessian` whose parameters are `grad` and
/// `hessian`.
#[grad(jvp, hvp, hessian)]
pub fn hessian(grad: f64, hessian: f64) -> f64 {
    let out = grad * hessian.exp();
    out * grad - hessian
}

/// `i·Σ (k+1)·xₖ + i²`: the loop index `i` shadows the `f64` parameter `i`, which the loop's
/// sweep reads (`x_bar[i] = i * t0` took the index for the parameter, E0277); the index is
/// renamed `i_1` where its loop reads another `i`.
#[grad(jvp, hvp, hessian)]
#[allow(clippy::needless_range_loop)]
pub fn index_shadows_parameter(x: [f64; 3], i: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..3 {
        s += x[i] * (i as f64 + 1.0);
    }
    s * i + i * i
}

/// `Σ ((k+2)·xₖ)²`: a `let i` in the loop shadows the loop's index `i`, which the sweep reads after
/// the `let`.
#[grad(jvp, hvp, hessian)]
#[allow(clippy::needless_range_loop)]
pub fn let_shadows_index(x: [f64; 3]) -> f64 {
    let mut s = 0.0;
    for i in 0..3 {
        let i = x[i] * (i as f64 + 2.0);
        s += i * i;
    }
    s
}

/// `y²·Σ xₖ² + y`: a `let y` in the loop shadows the parameter `y`, which its own definition reads.
#[grad(jvp, hvp, hessian)]
#[allow(clippy::needless_range_loop)]
pub fn let_shadows_parameter(x: [f64; 3], y: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..3 {
        let y = x[i] * y;
        s += y * y;
    }
    s + y
}

/// `(x₀₀ + x₁₀)·(x₀₀ + x₁₁)`: an inner loop's index `i` shadows the outer loop's `i` (refused
/// before: indices were kept as the user's tokens, so a name had to mean one loop).
#[grad(jvp, hvp, hessian)]
#[allow(clippy::needless_range_loop)]
pub fn nested_index_shadows_outer(x: [[f64; 2]; 2]) -> f64 {
    let mut s = 0.0;
    for i in 0..2 {
        let w = x[i][0];
        for i in 0..2 {
            s += w * x[i][i];
        }
    }
    s
}

/// `x₀x₁·s` with `s` from the loop `s ← s + xᵢ·cos s`: a local `i` outside the loop, whose adjoint
/// the sweep of the loop over `i` starts from.
#[grad(jvp, hvp, hessian)]
#[allow(clippy::needless_range_loop)]
pub fn local_named_like_index(x: [f64; 3]) -> f64 {
    let i = x[0] * x[1];
    let mut s = 0.0_f64;
    for i in 0..3 {
        s += x[i] * s.cos();
    }
    s * i
}

/// Derivatives generated in a module where the prelude and the crate roots are shadowed.
///
/// Generated code that names `Option`, `Some`, `Vec`, `Default`, `core::...` or
/// `autodiff_runtime::...` without a leading `::` picks up these items instead and fails to
/// compile.
pub mod shadowed_prelude {
    use ::autodiff_runtime::grad;

    /// Shadows the prelude's `Option`.
    pub type Option = ();
    /// Shadows the prelude's `Result`.
    pub type Result = ();
    /// Shadows the prelude's `Some` (type and value).
    pub struct Some;
    /// Shadows the prelude's `None` (type and value).
    pub struct None;
    /// Shadows the prelude's `Ok` (type and value).
    pub struct Ok;
    /// Shadows the prelude's `Err` (type and value).
    pub struct Err;
    /// Shadows the prelude's `Vec`.
    pub struct Vec;
    /// Shadows the prelude's `Box`.
    pub struct Box;
    /// Shadows the prelude's `String`.
    pub struct String;
    /// Shadows the prelude's `Default`.
    pub trait Default {}
    /// Shadows the prelude's `Clone`.
    pub trait Clone {}
    /// Shadows the prelude's `Copy`.
    pub trait Copy {}
    /// Shadows the prelude's `Into`.
    pub trait Into {}
    /// Shadows the prelude's `From`.
    pub trait From {}
    /// Shadows the prelude's `Fn`.
    pub trait Fn {}
    /// Shadows the prelude's `Iterator`.
    pub trait Iterator {}
    /// Shadows the prelude's `IntoIterator`.
    pub trait IntoIterator {}
    /// Shadows the prelude's `drop`.
    pub fn drop() {}
    /// Shadows the `core` crate for paths without a leading `::`.
    pub mod core {}
    /// Shadows the `std` crate for paths without a leading `::`.
    pub mod std {}
    /// Shadows the runtime crate for paths without a leading `::`.
    pub mod autodiff_runtime {}

    /// `0.5·k·(x - 1)² + sin(x)·√k`.
    #[grad(jvp, hvp, hessian)]
    pub fn spring(x: f64, k: f64) -> f64 {
        let stretch = x - 1.0;
        let energy = 0.5 * k * stretch * stretch;
        energy + x.sin() * k.sqrt()
    }

    /// `w[0]·e^x + w[1]·x²`, differentiated in `x` only, with a passive slice.
    #[grad(wrt(x), jvp, hvp, hessian)]
    pub fn weighted(x: f64, w: &[f64]) -> f64 {
        let grown = x.exp();
        w[0] * grown + w[1] * x * x
    }
}
