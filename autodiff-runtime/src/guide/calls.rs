//! Calls of other functions and methods, and derivatives written by hand.
//!
//! # Calls of scalar functions
//!
//! A `#[grad]` body may call a function `g` returning one `f64`, an array of `f64`, a tuple of
//! them (vector callees are [below](#calls-of-functions-returning-arrays-and-tuples)) or a struct
//! (see [`structs`](super::structs)). The call
//! is differentiated through `g`'s derivative functions, found by name next to `g`
//! (`module::g` → `module::g_grad`, `Self::g` → `Self::g_grad`):
//!
//! | the caller's | calls | so `g` needs |
//! | --- | --- | --- |
//! | `_grad`, `_vjp` | `g_grad` once, in the forward pass: value and partials together, the partials kept for the sweep | `#[grad]` |
//! | `_jvp` | `g_jvp` | `#[grad(jvp)]` |
//! | `_hvp`, `_hessian` | `g_hvp` | `#[grad(hvp)]` |
//!
//! `g` is never recomputed for its derivatives. A call whose arguments are all constants (no
//! differentiated value flows in: `weight(k)`, `lookup(i)`) is a constant, needs no derivative
//! functions. When a derivative function the caller needs was not generated (`g` has `#[grad]`
//! without `hvp`, say), the compile error is at the call, names the missing function and says
//! how to get it:
//!
//! ```compile_fail
//! use autodiff_runtime::grad;
//!
//! #[grad]
//! fn g(x: f64) -> f64 {
//!     x.sin()
//! }
//!
//! #[grad(hvp)]
//! fn f(x: f64) -> f64 {
//!     g(x) * x // error: the `_hvp` of `g` is not generated (add `hvp` to its `#[grad]`)
//! }
//! ```
//!
//! # The contract of `g_grad`, `g_jvp`, `g_hvp`
//!
//! The derivative functions are plain Rust functions with fixed names: writing them by hand is
//! how you give `#[grad]` a derivative it cannot derive (a numerically stable formula, a
//! special function from another crate, a closed form). Their contract, for
//! `g(p1, p2, …) -> f64`:
//!
//! ```text
//! fn g_grad(p1, p2, …) -> (f64, G)                    // value, and the partials
//! fn g_jvp(p1, p2, …, d1, d2, …) -> (f64, f64)        // value, and Σ ∂g/∂pᵢ · dᵢ
//! fn g_hvp(p1, p2, …, d1, d2, …) -> (f64, G, G)       // value, partials, and H·d
//! ```
//!
//! The partials `G` and the directions `dᵢ` are one per parameter of `g` that is an `f64` or an
//! array of `f64` (by value or as `&[f64; N]`), in parameter order: a bare value for one, a
//! tuple for several, each of its parameter's type (the direction of a `&[f64; N]` parameter is
//! a `&[f64; N]`). A struct parameter deriving `Differentiable` (a receiver included) has one
//! partial, a value of its type, and one direction, of its parameter's type (`&Model` for
//! `&Model`, `Model` for `Model`), except a receiver's, which is `&Self` for `self` and `&self`
//! alike: `fn energy_hvp(&self, x, self_dot: &Self, x_dot) -> (f64, (Self, f64), (Self, f64))`.
//! Integer, `bool`, slice and other parameters have none. This is what `#[grad]` on `g` without
//! `wrt` generates, and it does not depend on the call: a model calls `normal_lpdf(x, mean, sd)`
//! as `normal_lpdf(theta[j], mu, tau)` and as `normal_lpdf(y[j], theta[j], sigma)`, with the
//! data `y` and `sigma` constant. At each call the caller reads what each argument is:
//!
//! - a value (computed from differentiated parameters, or a local variable): its partial is
//!   kept and its tangent is the direction;
//! - a constant `f64` or array of `f64` (a literal, an `f64` parameter left out of `wrt`,
//!   `data[i]` of `f64` data, `n as f64`, a constant `[f64; N]` parameter): its partial is
//!   dropped and its direction is zero,
//!   `let (lp, (_, dlp_dtheta, _)) = normal_lpdf_grad(y[j], theta[j], sigma);` and
//!   `normal_lpdf_jvp(y[j], theta[j], sigma, 0.0, theta_dot[j], 0.0)`;
//! - any other constant (an integer, a `bool`, a slice): passed through.
//!
//! The macro reads this from the tokens: the declared types of parameters and typed `let`s,
//! literals, casts, indexing, tuple fields, arithmetic, `f64::consts`. A constant whose type it
//! cannot see, a `const` item from outside or a field of a struct, is a compile error at the
//! argument, which says to bind it to a typed local first (`let k: f64 = K;`); a call whose
//! arguments are all constants needs nothing.
//!
//! ```
//! use autodiff_runtime::grad;
//!
//! /// The log-density of a normal distribution.
//! #[grad(jvp, hvp)]
//! fn normal_lpdf(x: f64, mean: f64, sd: f64) -> f64 {
//!     let z = (x - mean) / sd;
//!     -0.5 * z * z - sd.ln() - 0.5 * (2.0 * std::f64::consts::PI).ln()
//! }
//!
//! /// A prior on `mu` and the likelihood of the data `y` (constant) with scale `tau`.
//! #[grad(jvp, hvp, hessian)]
//! fn model(mu: f64, tau: f64, y: &[f64]) -> f64 {
//!     let mut lp = normal_lpdf(mu, 0.0, 5.0); // constants: partials dropped, zero directions
//!     for i in 0..y.len() {
//!         lp += normal_lpdf(y[i], mu, tau);
//!     }
//!     lp
//! }
//!
//! let (mu, tau, y) = (0.5_f64, 2.0_f64, [1.0, -0.5, 2.5]);
//! let (_, (d_mu, d_tau)) = model_grad(mu, tau, &y);
//! let sum_r: f64 = y.iter().map(|yi| yi - mu).sum();
//! let sum_r2: f64 = y.iter().map(|yi| (yi - mu) * (yi - mu)).sum();
//! assert!((d_mu - (-mu / 25.0 + sum_r / (tau * tau))).abs() < 1e-14);
//! assert!((d_tau - (sum_r2 / tau.powi(3) - 3.0 / tau)).abs() < 1e-14);
//! let h: [[f64; 2]; 2] = model_hessian(mu, tau, &y);
//! assert!((h[0][0] - (-1.0 / 25.0 - 3.0 / (tau * tau))).abs() < 1e-14);
//! assert!((h[0][1] - (-2.0 * sum_r / tau.powi(3))).abs() < 1e-14);
//! ```
//!
//! So call only functions that differentiate all their `f64` and array parameters: no `wrt` on
//! a callee. A callee whose `wrt` leaves out a parameter has one partial and one direction fewer
//! than its callers pass, and rustc reports that at the call, as a mismatched type ("expected
//! `(f64, (f64, f64))`, found `(f64, f64)`") or a count of arguments ("this function takes 3
//! arguments but 4 arguments were supplied"). `#[grad] fn scale(x: f64, c: f64)` called as
//! `scale(x, 2.0)` returns both partials, and the caller drops the second. Because the caller's
//! second order goes through `g_hvp`, a custom rule either works at second order or the build
//! says what is missing; it is never silently wrong. Do not put `#[grad]` on a `g` whose
//! derivatives you write by hand (the names would clash). Check hand-written derivatives
//! against finite differences in a test, with [`check_gradient`](crate::check_gradient) and
//! [`check_hvp`](crate::check_hvp):
//!
//! ```
//! use autodiff_runtime::{Tolerance, check_gradient, check_hvp, grad};
//!
//! /// `ln(eᵃ + eᵇ)`, computed stably: it overflows for no finite input.
//! fn lse(a: f64, b: f64) -> f64 {
//!     let m = a.max(b);
//!     m + ((a - m).exp() + (b - m).exp()).ln()
//! }
//!
//! /// The weight of `a`, `eᵃ / (eᵃ + eᵇ)`.
//! fn weight(a: f64, b: f64) -> f64 {
//!     1.0 / (1.0 + (b - a).exp())
//! }
//!
//! fn lse_grad(a: f64, b: f64) -> (f64, (f64, f64)) {
//!     let p = weight(a, b);
//!     (lse(a, b), (p, 1.0 - p))
//! }
//!
//! fn lse_jvp(a: f64, b: f64, a_dot: f64, b_dot: f64) -> (f64, f64) {
//!     let p = weight(a, b);
//!     (lse(a, b), p * a_dot + (1.0 - p) * b_dot)
//! }
//!
//! /// H = p (1 − p) [[1, −1], [−1, 1]].
//! fn lse_hvp(a: f64, b: f64, a_dot: f64, b_dot: f64) -> (f64, (f64, f64), (f64, f64)) {
//!     let p = weight(a, b);
//!     let h = p * (1.0 - p) * (a_dot - b_dot);
//!     (lse(a, b), (p, 1.0 - p), (h, -h))
//! }
//!
//! #[grad(jvp, hvp)]
//! fn tempered(x: f64, y: f64, t: f64) -> f64 {
//!     t * lse(x * t, y) + t * t
//! }
//!
//! // At x·t = 1000 the naive ln(e^{xt} + e^y) overflows; the hand-written rule does not:
//! // ∂/∂x = t² w, ∂/∂y = t (1 − w), ∂/∂t = lse + x t w + 2t, with w = weight(xt, y).
//! let (_, (gx, gy, gt)) = tempered_grad(500.0, 999.0, 2.0);
//! let w = weight(1000.0, 999.0);
//! assert_eq!((gx, gy), (4.0 * w, 2.0 * (1.0 - w)));
//! assert!((gt - (lse(1000.0, 999.0) + 1000.0 * w + 4.0)).abs() < 1e-12);
//!
//! // Elsewhere, against finite differences.
//! let p = [0.5, 0.3, 2.0];
//! let f = |q: &[f64]| tempered(q[0], q[1], q[2]);
//! let grad = |q: &[f64]| {
//!     let (_, (gx, gy, gt)) = tempered_grad(q[0], q[1], q[2]);
//!     vec![gx, gy, gt]
//! };
//! check_gradient(f, &p, &grad(&p), Tolerance::default()).expect("tempered_grad");
//! let v = [1.0, 0.5, -0.5];
//! let (_, _, (hx, hy, ht)) = tempered_hvp(p[0], p[1], p[2], v[0], v[1], v[2]);
//! check_hvp(grad, &p, &v, &[hx, hy, ht], Tolerance::default()).expect("tempered_hvp");
//! ```
//!
//! Calls with generic arguments (`g::<3>(x)`) and calls of closures other than those bound in
//! the body (which are inlined, see [`subset`](super::subset)) are not supported; methods are called by method syntax (see [`structs`](super::structs)).
//!
//! # Calls of functions returning arrays and tuples
//!
//! `let h: [f64; 4] = layer(w, b, x);` and `let (s, c) = polar(r, t);` call a vector function
//! `g` (one returning `[f64; M]`, nested arrays, a tuple of `f64`s, or a tuple of `f64`s and
//! arrays). Its partials would be a Jacobian, so the caller goes through the products instead:
//!
//! | the caller's | calls | so `g` needs |
//! | --- | --- | --- |
//! | `_grad`, `_vjp` | `g_fwd` in the forward pass for the value and the residuals, `g_rev` in the sweep with them and the value's cotangent | `#[grad]` |
//! | `_jvp` | `g_jvp` | `#[grad(jvp)]` (or `hvp`) |
//! | `_hvp`, `_hessian` | `g_jvp` in the forward pass, `g_hvp` in the sweep | `#[grad(hvp)]` |
//!
//! For `g(p1, p2, …) -> R`, with `G` and `dᵢ` as for a scalar `g` (one per `f64` or array
//! parameter, in order):
//!
//! ```text
//! fn g_fwd(p1, p2, …) -> (R, Res)                                    // value, residuals
//! fn g_rev(p1, p2, …, residuals: Res, out_bar: R) -> G               // Σ out_barₖ ∂gₖ/∂pᵢ
//! fn g_vjp(p1, p2, …, out_bar: R) -> (R, G)                          // value, Σ out_barₖ ∂gₖ/∂pᵢ
//! fn g_jvp(p1, p2, …, d1, d2, …) -> (R, R)                           // value, Σ ∂g/∂pᵢ · dᵢ
//! fn g_hvp(p1, p2, …, out_bar: R, d1, d2, …, out_bar_dot: R) -> (R, G, R, G)
//!     // value, g_vjp's cotangents, g_jvp's value_dot, and the derivative of g_vjp's cotangents
//!     // along (d1, d2, …, out_bar_dot)
//! ```
//!
//! `out_bar` and `out_bar_dot` have `g`'s return type `R`, taken by value. `g_fwd` and `g_rev`
//! are the two halves of `g_vjp`, as in JAX's `custom_vjp` (`fwd` returns the value and the
//! residuals, `bwd` takes them with the cotangent): the residuals `Res` are whatever `g_fwd`
//! keeps for `g_rev` (a tuple of `f64`s, `bool`s and arrays of them, nested past twelve parts,
//! `()` for none), which the caller never names. `#[grad]` on `g` writes them from `g_vjp`
//! itself, split where its forward pass ends (the residuals are the values of the forward pass
//! that its sweep reads), so `g` runs once per call and `g_rev` computes `g_vjp`'s cotangents by
//! the same operations; for a `g` returning a struct, taking a struct, or with a loop of unknown
//! length, `g_fwd` is `(g(..), ())` and `g_rev` calls `g_vjp` (and a `g` with a slice
//! parameter, whose `g_vjp` writes into buffers, has neither). A caller keeps the residuals of a
//! call in a loop like any value its sweep reads (stored per iteration, the storage's type
//! inferred by rustc; or, checkpointed, recomputed by `g_fwd` from a snapshot), and does not
//! count them against the stack budget (the macro does not know their size). A caller generic
//! over its float type (`T: Float`) calls `g` and `g_vjp` instead, as H·v does (`g_jvp` in its
//! forward pass, `g_hvp` in its sweep).
//!
//! This is what `#[grad(hvp)]` on `g` generates, and it can be written by hand for a rule of
//! your own (the workspace's `src/vcalls.rs` has `normalize(x) = x / |x|` with hand-written
//! `normalize_fwd`, which keeps `(u, |x|)`, `_rev`, `_vjp`, `_jvp` and `_hvp`, checked against
//! finite differences, the `_hvp`'s last part as the derivative of `_vjp` along
//! `(d, out_bar_dot)`, and `_rev` against `_vjp` to the bit). A rule with nothing to keep writes
//! `fn g_fwd(x: X) -> (R, ()) { (g(x), ()) }` and
//! `fn g_rev(x: X, _: (), out_bar: R) -> G { g_vjp(x, out_bar).1 }`. The caller reads constant
//! arguments as for a scalar callee (a zero direction, a dropped cotangent).
//!
//! The macro sees tokens, not types, so it reads the call's value's type from the tokens: a
//! typed `let` (`let h: [f64; 4] = layer(..)`), a tuple or array pattern whose parts are plain
//! names (`let (s, c) = polar(..)`, `let [a, b] = rhs(..)`), the function's returned value, or
//! an assignment to a variable whose type is known (`s = euler(s, k, 0.1)`, or `h = next` for
//! `let next = layer(..)`). A value bound without its type and then read as an array (indexed,
//! `h[i]` or `m[i][j]`, updated by element, iterated, `for v in h` or `h.iter()`, or lent to a
//! call, `g(&h)`), or indexed where it is (`rhs(s, k)[1]`), is an array of as many dimensions
//! as its deepest index reads (one if none does), whose lengths are the callee's `g_shape`:
//!
//! ```text
//! const g_shape: [usize; R] = [M, K];   // for g(..) -> [[f64; K]; M]: the dimensions, outermost first
//! ```
//!
//! which `#[grad]` writes next to the derivatives of a function returning an array (not when
//! the lengths read one of its const generic parameters, which a constant item cannot: bind the
//! value of such a call with its type). The caller writes the call's type as
//! `[[f64; g_shape[1]]; g_shape[0]]` (`module::g_shape` for `module::g(..)`,
//! `<Quat>::rotate_shape` for a method `q.rotate(..)` of a struct value whose type is known), so
//! a hand-written rule that callers bind without the type defines it too; without it, rustc's
//! "cannot find value `g_shape`" is at the call. A value only passed on whole (`let p = polar(..);
//! norm(p)`) is one `f64` to the macro, and a callee returning an array then says at the call to
//! write the type; so does a tuple read without its pattern or type (`let p = pair(r, t); p.0`,
//! `pair(r, t).0`), and a pattern that does not tell (`let (a, ..) = g(x)`) is an error that says to
//! write the type. A callee without the derivative function the caller needs is an error at the
//! call that names it (rustc's "cannot find function `g_rev`" for a `g` without `#[grad]`; for a
//! `g` whose `#[grad]` lacks `jvp` or `hvp`, an error saying to add it). A call that writes into
//! a caller's array (`qtimesx(&q, &x, &mut y)`, the C style) is refused at the `&mut` argument,
//! with the message to return the array instead and bind it
//! (`let y: [f64; 3] = qtimesx(&q, &x);`).
//!
//! ```
//! use autodiff_runtime::{Tolerance, check_gradient, check_hvp, grad};
//!
//! #[grad(hvp)]
//! fn polar(r: f64, t: f64) -> [f64; 2] {
//!     [r * t.cos(), r * t.sin()]
//! }
//!
//! #[grad(hvp)]
//! fn rotate(v: [f64; 2], a: f64) -> (f64, f64) {
//!     let (s, c) = a.sin_cos();
//!     (c * v[0] - s * v[1], s * v[0] + c * v[1])
//! }
//!
//! /// The squared distance to (1, 1) of the point at (r, t), rotated by a.
//! #[grad(jvp, hvp)]
//! fn miss(r: f64, t: f64, a: f64) -> f64 {
//!     let p: [f64; 2] = polar(r, t);
//!     let (x, y) = rotate(p, a);
//!     (x - 1.0) * (x - 1.0) + (y - 1.0) * (y - 1.0)
//! }
//!
//! /// `miss` with `polar`'s value bound without its type and read by element: its type is
//! /// `[f64; polar_shape[0]]`.
//! #[grad(jvp, hvp)]
//! fn miss_inline(r: f64, t: f64, a: f64) -> f64 {
//!     let p = polar(r, t);
//!     let (s, c) = a.sin_cos();
//!     let (x, y) = (c * p[0] - s * p[1], s * p[0] + c * p[1]);
//!     (x - 1.0) * (x - 1.0) + (y - 1.0) * (y - 1.0)
//! }
//!
//! // A rotation keeps the norm: miss = r² − 2r(cos(t + a) + sin(t + a)) + 2.
//! let q = [2.0, 0.3, 0.4];
//! let (value, (gr, gt, ga)) = miss_grad(q[0], q[1], q[2]);
//! let (c, s) = ((q[1] + q[2]).cos(), (q[1] + q[2]).sin());
//! assert!((value - (4.0 - 4.0 * (c + s) + 2.0)).abs() < 1e-12);
//! assert!((gr - (2.0 * q[0] - 2.0 * (c + s))).abs() < 1e-12);
//! assert!((gt - ga).abs() < 1e-12 && (gt - (-2.0 * q[0] * (c - s))).abs() < 1e-12);
//!
//! let grad = |p: &[f64]| {
//!     let (_, (a, b, c)) = miss_grad(p[0], p[1], p[2]);
//!     vec![a, b, c]
//! };
//! let v = [1.0, -0.5, 0.25];
//! let (_, _, (hr, ht, ha)) = miss_hvp(q[0], q[1], q[2], v[0], v[1], v[2]);
//! check_hvp(grad, &q, &v, &[hr, ht, ha], Tolerance::default()).expect("miss_hvp");
//! let f = |p: &[f64]| miss(p[0], p[1], p[2]);
//! check_gradient(f, &q, &grad(&q), Tolerance::default()).expect("miss_grad");
//! let (again, (ar, at, aa)) = miss_inline_grad(q[0], q[1], q[2]);
//! let (_, (br, bt, ba)) = miss_grad(q[0], q[1], q[2]);
//! assert!((again - value).abs() < 1e-12);
//! assert!((ar - br).abs() < 1e-12 && (at - bt).abs() < 1e-12 && (aa - ba).abs() < 1e-12);
//! ```
//!
//! The workspace's `tests/vcalls.rs` checks, against finite differences in every mode: `polar`
//! and callers of it in branches, a two-layer perceptron through `layer` twice (gradient and
//! H·v), RK4 through `rhs(state, k) -> [f64; 2]` four times a step for 100 steps (stored and
//! checkpointed), a recurrent `h = layer(w, b, &h)` six times (stored and checkpointed, against
//! its inline twin to the bit), vector functions calling vector functions, a tuple of an `f64`
//! and an array. A gradient through a vector callee runs the callee's forward pass once per call
//! (`g_fwd`), as the same code written inline does: the perceptron's gradient through calls costs
//! 1.00× its inline twin's (1.46–1.48× when `g_vjp` ran the forward pass again;
//! `BENCHMARKS.md`).
//!
//! ```compile_fail
//! use autodiff_runtime::grad;
//!
//! #[grad]
//! fn polar(r: f64, t: f64) -> [f64; 2] {
//!     [r * t.cos(), r * t.sin()]
//! }
//!
//! #[grad]
//! fn norm(p: [f64; 2]) -> f64 {
//!     (p[0] * p[0] + p[1] * p[1]).sqrt()
//! }
//!
//! #[grad]
//! fn first(r: f64, t: f64) -> f64 {
//!     let p = polar(r, t); // error at the call: write the type, `let p: [f64; 2] = polar(r, t);`
//!     norm(p) // (passed on whole only: `p[0]`, `&p` or `for v in p` would say it is an array)
//! }
//! ```
