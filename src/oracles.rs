//! Reference derivatives for the workloads with loops, branches and arrays that `#[grad]` is to
//! learn: closed forms to test generated code against, and hand-written kernels to time it against.
//!
//! The functions at the top level are the primals and the closed forms (`*_gradient`, `*_hv`,
//! `*_hessian`), each written straight from its formula, index by index, for clarity rather than
//! speed. [`handwritten`] holds the gradient and Hessian-vector kernels an expert would write:
//! fused sweeps, no heap, with the signatures the generated functions will have
//! (`f_grad(x) -> (value, gradient)` and `f_hvp(x, x_dot) -> (value, gradient, H·x_dot)`).
//! `tests/oracles.rs` checks every closed form against central finite differences and every kernel
//! against the closed forms; `benches/loops.rs` times the kernels.
//!
//! The workloads:
//! - [`lessons`]: `Σᵢ sin(xᵢ) x_{i−1}`, cyclic, for any `N ≥ 1`;
//! - [`extended_rosenbrock`]: the chained Rosenbrock function, for any `N ≥ 2` (benchmarked at 100);
//! - [`layer_loss`]: the squared loss of a dense `tanh` layer in its weights and biases
//!   (benchmarked at 16 × 16, 272 parameters);
//! - [`lj_energy`]: the Lennard-Jones energy of a cluster of atoms, with [`lj_forces`];
//! - [`euler_decay`]: explicit Euler steps of `x′ = −kx`, with [`euler_decay_gradient`];
//! - [`gaussian_nll`]: a Gaussian negative log-likelihood in `(μ, σ)`;
//! - [`huber`]: the Huber loss, a function with a branch.

// ---------------------------------------------------------------------------------------------
// The lessons' function.

/// The lessons' function `f(x) = Σᵢ sin(xᵢ) x_{i−1}`, cyclic (`x_{−1} = x_{N−1}`), for `N ≥ 1`.
///
/// Its derivatives, which hold for every `N ≥ 1` when the contributions of the terms are added
/// (each `xⱼ` appears in term `j` as `sin(xⱼ) x_{j−1}` and in term `j + 1` as `sin(x_{j+1}) xⱼ`):
/// - `∂f/∂xⱼ = cos(xⱼ) x_{j−1} + sin(x_{j+1})` ([`lessons_gradient`]);
/// - `(H v)ⱼ = −sin(xⱼ) x_{j−1} vⱼ + cos(xⱼ) v_{j−1} + cos(x_{j+1}) v_{j+1}` ([`lessons_hv`]).
///
/// For `N = 2` both neighbours of `xⱼ` are the same coordinate: the gradient formula still holds
/// (`∂f/∂x₀ = cos(x₀) x₁ + sin(x₁)`, two different terms), and `H₀₁ = cos x₀ + cos x₁` is the sum of
/// the two neighbour entries. For `N = 1`, `f = x₀ sin x₀`, `f′ = x₀ cos x₀ + sin x₀` and
/// `f″ = 2 cos x₀ − x₀ sin x₀`: the neighbour entries land on the diagonal.
pub fn lessons<const N: usize>(x: [f64; N]) -> f64 {
    const { assert!(N >= 1, "the lessons' function needs at least one coordinate") };
    let mut sum = 0.0;
    let mut prev = x[N - 1];
    for xi in x {
        sum += xi.sin() * prev;
        prev = xi;
    }
    sum
}

/// Closed-form gradient of [`lessons`]: `∂f/∂xⱼ = cos(xⱼ) x_{j−1} + sin(x_{j+1})`, cyclic.
pub fn lessons_gradient<const N: usize>(x: [f64; N]) -> [f64; N] {
    ring_gradient(x, 1)
}

/// Closed-form gradient of Σᵢ sin(xᵢ)·x_{i−k} (cyclic; [`lessons`] for `k = 1`):
/// `∂f/∂xⱼ = cos(xⱼ) x_{j−k} + sin(x_{j+k})`.
pub fn ring_gradient<const N: usize>(x: [f64; N], k: usize) -> [f64; N] {
    const { assert!(N >= 1, "the lessons' function needs at least one coordinate") };
    core::array::from_fn(|j| x[j].cos() * x[(j + N - k % N) % N] + x[(j + k) % N].sin())
}

/// Closed-form Hessian-vector product of [`lessons`]:
/// `(H v)ⱼ = −sin(xⱼ) x_{j−1} vⱼ + cos(xⱼ) v_{j−1} + cos(x_{j+1}) v_{j+1}`, cyclic.
pub fn lessons_hv<const N: usize>(x: [f64; N], v: [f64; N]) -> [f64; N] {
    ring_hv(x, v, 1)
}

/// Closed-form Hessian-vector product of Σᵢ sin(xᵢ)·x_{i−k} (cyclic):
/// `(H v)ⱼ = −sin(xⱼ) x_{j−k} vⱼ + cos(xⱼ) v_{j−k} + cos(x_{j+k}) v_{j+k}`.
pub fn ring_hv<const N: usize>(x: [f64; N], v: [f64; N], k: usize) -> [f64; N] {
    const { assert!(N >= 1, "the lessons' function needs at least one coordinate") };
    core::array::from_fn(|j| {
        let (prev, next) = ((j + N - k % N) % N, (j + k) % N);
        -x[j].sin() * x[prev] * v[j] + x[j].cos() * v[prev] + x[next].cos() * v[next]
    })
}

/// Dense Hessian of [`lessons`], for small `N` (it is `N²` numbers on the stack).
///
/// Term `i`, `sin(xᵢ) p` with `p = x_{i−1}`, adds `−sin(xᵢ) p` to `Hᵢᵢ` and `cos xᵢ` to `H_{i,i−1}`
/// and `H_{i−1,i}`; the entries are added, so for `N = 2` and `N = 1`, where those positions
/// coincide, the contributions sum as the derivatives do.
pub fn lessons_hessian<const N: usize>(x: [f64; N]) -> [[f64; N]; N] {
    const { assert!(N >= 1, "the lessons' function needs at least one coordinate") };
    let mut h = [[0.0; N]; N];
    for (i, xi) in x.iter().enumerate() {
        let prev = (i + N - 1) % N;
        h[i][i] -= xi.sin() * x[prev];
        h[i][prev] += xi.cos();
        h[prev][i] += xi.cos();
    }
    h
}

// ---------------------------------------------------------------------------------------------
// The extended (chained) Rosenbrock function.

/// The extended Rosenbrock function in its chained form,
/// `f(x) = Σ_{i=0}^{N−2} 100 (x_{i+1} − xᵢ²)² + (1 − xᵢ)²`, for `N ≥ 2`; minimal (0) at
/// `(1, …, 1)`.
///
/// This is the chained variant (every consecutive pair is coupled, as in
/// `examples/newton_cg.rs`), not the separable one that sums over the disjoint pairs
/// `(x_{2i}, x_{2i+1})`. For `N = 2` it is the 2-D Rosenbrock function of the benchmark corpus.
/// With `dᵢ = x_{i+1} − xᵢ²`:
/// - `∂f/∂xⱼ = [j ≤ N−2] (−400 xⱼ dⱼ − 2 (1 − xⱼ)) + [j ≥ 1] 200 d_{j−1}`;
/// - `Hⱼⱼ = [j ≤ N−2] (1200 xⱼ² − 400 x_{j+1} + 2) + [j ≥ 1] 200`, `H_{j,j+1} = −400 xⱼ`, and
///   every other entry is zero (the Hessian is tridiagonal).
pub fn extended_rosenbrock<const N: usize>(x: [f64; N]) -> f64 {
    const { assert!(N >= 2, "the extended Rosenbrock function needs at least two coordinates") };
    x.windows(2)
        .map(|pair| {
            let d = pair[1] - pair[0] * pair[0];
            let a = 1.0 - pair[0];
            100.0 * d * d + a * a
        })
        .sum()
}

/// Closed-form gradient of [`extended_rosenbrock`].
pub fn extended_rosenbrock_gradient<const N: usize>(x: [f64; N]) -> [f64; N] {
    const { assert!(N >= 2, "the extended Rosenbrock function needs at least two coordinates") };
    core::array::from_fn(|j| {
        let mut g = 0.0;
        if j + 1 < N {
            g += -400.0 * x[j] * (x[j + 1] - x[j] * x[j]) - 2.0 * (1.0 - x[j]);
        }
        if j >= 1 {
            g += 200.0 * (x[j] - x[j - 1] * x[j - 1]);
        }
        g
    })
}

/// Closed-form Hessian-vector product of [`extended_rosenbrock`]:
/// `(H v)ⱼ = Hⱼⱼ vⱼ − 400 xⱼ v_{j+1} − 400 x_{j−1} v_{j−1}`, the off-diagonal terms where they exist.
pub fn extended_rosenbrock_hv<const N: usize>(x: [f64; N], v: [f64; N]) -> [f64; N] {
    const { assert!(N >= 2, "the extended Rosenbrock function needs at least two coordinates") };
    core::array::from_fn(|j| {
        let mut hv = 0.0;
        if j + 1 < N {
            hv += (1200.0 * x[j] * x[j] - 400.0 * x[j + 1] + 2.0) * v[j] - 400.0 * x[j] * v[j + 1];
        }
        if j >= 1 {
            hv += 200.0 * v[j] - 400.0 * x[j - 1] * v[j - 1];
        }
        hv
    })
}

/// Dense Hessian of [`extended_rosenbrock`], for small `N` (it is `N²` numbers on the stack).
pub fn extended_rosenbrock_hessian<const N: usize>(x: [f64; N]) -> [[f64; N]; N] {
    const { assert!(N >= 2, "the extended Rosenbrock function needs at least two coordinates") };
    let mut h = [[0.0; N]; N];
    for i in 0..N - 1 {
        // Term i couples xᵢ and x_{i+1}.
        h[i][i] += 1200.0 * x[i] * x[i] - 400.0 * x[i + 1] + 2.0;
        h[i + 1][i + 1] += 200.0;
        h[i][i + 1] -= 400.0 * x[i];
        h[i + 1][i] -= 400.0 * x[i];
    }
    h
}

// ---------------------------------------------------------------------------------------------
// A dense tanh layer with a squared loss.

/// The size of the benchmarked layer: 16 inputs, 16 outputs, so `16 · 16 + 16 = 272` parameters.
pub const LAYER: usize = 16;

/// The squared loss of a dense `tanh` layer of `M` outputs and `K` inputs, in its weights `w` and
/// biases `b`, for a fixed input `x` and target `y`:
/// `L = Σᵢ (tanh(zᵢ) − yᵢ)²` with `zᵢ = Σⱼ w[i][j] x[j] + b[i]`.
///
/// `L = Σᵢ φᵢ(zᵢ)` with `φᵢ(z) = (tanh z − yᵢ)²`, and `zᵢ` is linear in the parameters with
/// `∂zᵢ/∂w[i][j] = x[j]`, `∂zᵢ/∂b[i] = 1`; so the gradient is `φᵢ′(zᵢ) x[j]` and `φᵢ′(zᵢ)`, and the
/// Hessian is `Σᵢ φᵢ″(zᵢ) aᵢ aᵢᵀ`, where `aᵢ` is the gradient of `zᵢ` (see [`layer_hv`]).
pub fn layer_loss<const M: usize, const K: usize>(
    w: [[f64; K]; M],
    b: [f64; M],
    x: [f64; K],
    y: [f64; M],
) -> f64 {
    let mut loss = 0.0;
    for i in 0..M {
        let mut z = b[i];
        for j in 0..K {
            z += w[i][j] * x[j];
        }
        let r = z.tanh() - y[i];
        loss += r * r;
    }
    loss
}

/// The pre-activations `zᵢ = Σⱼ w[i][j] x[j] + b[i]` of the layer of [`layer_loss`].
fn pre_activations<const M: usize, const K: usize>(
    w: &[[f64; K]; M],
    b: &[f64; M],
    x: &[f64; K],
) -> [f64; M] {
    core::array::from_fn(|i| b[i] + w[i].iter().zip(x).map(|(wij, xj)| wij * xj).sum::<f64>())
}

/// `φ′(z) = 2 (tanh z − y) sech² z`, the derivative of one output's loss `(tanh z − y)²`.
fn loss_slope(z: f64, y: f64) -> f64 {
    let sech2 = 1.0 / (z.cosh() * z.cosh());
    2.0 * (z.tanh() - y) * sech2
}

/// `φ″(z) = 2 sech⁴ z − 4 (tanh z − y) tanh z sech² z`, the second derivative of `(tanh z − y)²`.
fn loss_curvature(z: f64, y: f64) -> f64 {
    let sech2 = 1.0 / (z.cosh() * z.cosh());
    let t = z.tanh();
    2.0 * sech2 * sech2 - 4.0 * (t - y) * t * sech2
}

/// Closed-form gradient of [`layer_loss`] in `(w, b)`: `∂L/∂w[i][j] = φᵢ′(zᵢ) x[j]`,
/// `∂L/∂b[i] = φᵢ′(zᵢ)`, with `φᵢ′(z) = 2 (tanh z − yᵢ) sech² z`.
pub fn layer_gradient<const M: usize, const K: usize>(
    w: [[f64; K]; M],
    b: [f64; M],
    x: [f64; K],
    y: [f64; M],
) -> ([[f64; K]; M], [f64; M]) {
    let z = pre_activations(&w, &b, &x);
    let slope: [f64; M] = core::array::from_fn(|i| loss_slope(z[i], y[i]));
    (core::array::from_fn(|i| core::array::from_fn(|j| slope[i] * x[j])), slope)
}

/// Closed-form Hessian-vector product of [`layer_loss`] along `(w_dir, b_dir)`:
/// `H = Σᵢ φᵢ″(zᵢ) aᵢ aᵢᵀ`, so the row-`i` block of `H v` is `φᵢ″(zᵢ) (aᵢ · v) aᵢ`, where
/// `aᵢ · v = Σⱼ w_dir[i][j] x[j] + b_dir[i]` and
/// `φᵢ″(z) = 2 sech⁴ z − 4 (tanh z − yᵢ) tanh z sech² z`.
pub fn layer_hv<const M: usize, const K: usize>(
    w: [[f64; K]; M],
    b: [f64; M],
    x: [f64; K],
    y: [f64; M],
    w_dir: [[f64; K]; M],
    b_dir: [f64; M],
) -> ([[f64; K]; M], [f64; M]) {
    let z = pre_activations(&w, &b, &x);
    let along = pre_activations(&w_dir, &b_dir, &x);
    let scale: [f64; M] = core::array::from_fn(|i| loss_curvature(z[i], y[i]) * along[i]);
    (core::array::from_fn(|i| core::array::from_fn(|j| scale[i] * x[j])), scale)
}

// ---------------------------------------------------------------------------------------------
// Lennard-Jones.

/// The Lennard-Jones energy `E = Σ_{i<j} 4ε ((σ/rᵢⱼ)¹² − (σ/rᵢⱼ)⁶)` of `A` atoms at `positions`;
/// each pair's term is minimal (`−ε`) at `r = 2^{1/6} σ`.
pub fn lj_energy<const A: usize>(positions: [[f64; 3]; A], epsilon: f64, sigma: f64) -> f64 {
    let mut energy = 0.0;
    for i in 0..A {
        for j in i + 1..A {
            let [dx, dy, dz] = core::array::from_fn(|k| positions[i][k] - positions[j][k]);
            let r = (dx * dx + dy * dy + dz * dz).sqrt();
            let q = sigma / r;
            energy += 4.0 * epsilon * (q.powi(12) - q.powi(6));
        }
    }
    energy
}

/// The forces `F = −∇E` on the atoms of [`lj_energy`]:
/// `Fᵢ = Σ_{j≠i} 24 ε (2 (σ/r)¹² − (σ/r)⁶) (pᵢ − pⱼ) / r²`, with `r = |pᵢ − pⱼ|`.
///
/// The pair forces are equal and opposite, so the forces sum to zero, and they are central, so
/// their torques sum to zero too.
pub fn lj_forces<const A: usize>(
    positions: [[f64; 3]; A],
    epsilon: f64,
    sigma: f64,
) -> [[f64; 3]; A] {
    let mut forces = [[0.0; 3]; A];
    for i in 0..A {
        for j in i + 1..A {
            let d: [f64; 3] = core::array::from_fn(|k| positions[i][k] - positions[j][k]);
            let r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
            let s6 = (sigma * sigma / r2).powi(3);
            // −dE/dr / r, the factor that turns the separation vector into the force on atom i.
            let scale = 24.0 * epsilon * (2.0 * s6 * s6 - s6) / r2;
            for k in 0..3 {
                forces[i][k] += scale * d[k];
                forces[j][k] -= scale * d[k];
            }
        }
    }
    forces
}

// ---------------------------------------------------------------------------------------------
// Explicit Euler.

/// `steps` explicit Euler steps of `x′ = −k x` from `x0` with step `dt`:
/// `x ← x + dt (−k x)`, whose exact result is `x0 (1 − k dt)^steps` ([`euler_decay_closed_form`]).
pub fn euler_decay(x0: f64, k: f64, dt: f64, steps: u32) -> f64 {
    let mut x = x0;
    for _ in 0..steps {
        x += dt * (-k * x);
    }
    x
}

/// The closed form `x_N = x0 (1 − k dt)^N` of [`euler_decay`] with `N = steps`.
pub fn euler_decay_closed_form(x0: f64, k: f64, dt: f64, steps: u32) -> f64 {
    x0 * (1.0 - k * dt).powf(f64::from(steps))
}

/// Closed-form partial derivatives `(∂x_N/∂x0, ∂x_N/∂k)` of [`euler_decay`]:
/// `(1 − k dt)^N` and `−N dt x0 (1 − k dt)^{N−1}`; for `N = 0`, `(1, 0)`.
pub fn euler_decay_gradient(x0: f64, k: f64, dt: f64, steps: u32) -> (f64, f64) {
    if steps == 0 {
        return (1.0, 0.0);
    }
    let factor = 1.0 - k * dt;
    let n = f64::from(steps);
    (factor.powf(n), -n * dt * x0 * factor.powf(n - 1.0))
}

// ---------------------------------------------------------------------------------------------
// Gaussian negative log-likelihood.

/// The Gaussian negative log-likelihood of `data` without its constant,
/// `nll(μ, σ) = Σᵢ (½ zᵢ² + ln σ)` with `zᵢ = (dᵢ − μ)/σ`; needs `σ > 0`.
///
/// It is minimal at the sample mean and the population standard deviation of `data`.
pub fn gaussian_nll(mu: f64, sigma: f64, data: &[f64]) -> f64 {
    let mut sum = 0.0;
    for d in data {
        let z = (d - mu) / sigma;
        sum += 0.5 * z * z + sigma.ln();
    }
    sum
}

/// Sums `(Σ zᵢ, Σ zᵢ²)` over `data`, with `zᵢ = (dᵢ − μ)/σ`, and the count `n` as a float.
fn standardized_sums(mu: f64, sigma: f64, data: &[f64]) -> (f64, f64, f64) {
    let z = data.iter().map(|d| (d - mu) / sigma);
    let sum_z: f64 = z.clone().sum();
    let sum_z2: f64 = z.map(|z| z * z).sum();
    // Exact for any slice that fits in memory (fewer than 2⁵³ elements).
    let n = data.len() as f64;
    (n, sum_z, sum_z2)
}

/// Closed-form gradient `(∂nll/∂μ, ∂nll/∂σ) = (−Σ zᵢ / σ, (n − Σ zᵢ²) / σ)` of [`gaussian_nll`].
pub fn gaussian_nll_gradient(mu: f64, sigma: f64, data: &[f64]) -> (f64, f64) {
    let (n, sum_z, sum_z2) = standardized_sums(mu, sigma, data);
    (-sum_z / sigma, (n - sum_z2) / sigma)
}

/// Closed-form Hessian of [`gaussian_nll`] in `(μ, σ)`:
/// `[[n, 2 Σ zᵢ], [2 Σ zᵢ, 3 Σ zᵢ² − n]] / σ²`.
pub fn gaussian_nll_hessian(mu: f64, sigma: f64, data: &[f64]) -> [[f64; 2]; 2] {
    let (n, sum_z, sum_z2) = standardized_sums(mu, sigma, data);
    let s2 = sigma * sigma;
    [[n / s2, 2.0 * sum_z / s2], [2.0 * sum_z / s2, (3.0 * sum_z2 - n) / s2]]
}

// ---------------------------------------------------------------------------------------------
// Huber loss.

/// The Huber loss of a residual `r`: `½ r²` for `|r| ≤ delta`, `delta (|r| − ½ delta)` outside.
pub fn huber(r: f64, delta: f64) -> f64 {
    if r.abs() <= delta { 0.5 * r * r } else { delta * (r.abs() - 0.5 * delta) }
}

/// The derivative of [`huber`] in `r`: `r` for `|r| ≤ delta`, `delta · sign(r)` outside (the two
/// agree at `|r| = delta`).
pub fn huber_derivative(r: f64, delta: f64) -> f64 {
    if r.abs() <= delta { r } else { delta * r.signum() }
}

/// The second derivative of [`huber`] in `r`: `1` for `|r| ≤ delta`, `0` outside. At
/// `|r| = delta`, where it jumps, it is `1`: the branch `if r.abs() <= delta` takes.
pub fn huber_second_derivative(r: f64, delta: f64) -> f64 {
    if r.abs() <= delta { 1.0 } else { 0.0 }
}

/// Gradients and Hessian-vector products written by hand, the baselines of `benches/loops.rs`.
///
/// Each `*_grad` returns `(value, gradient)` and each `*_hvp` returns
/// `(value, gradient, H·direction)`, the gradient shaped like the differentiated parameters, as
/// the generated functions will. They are written the way an expert writes them: the adjoint of
/// each loop iteration fused into the forward sweep where it only needs that iteration's values,
/// each transcendental computed once, no heap; the HVPs are the same program with a tangent line
/// after each line (forward over reverse).
pub mod handwritten {
    /// Value and gradient of [`lessons`](super::lessons).
    ///
    /// The adjoint of iteration `i` (`sum += sin(xᵢ) x_{i−1}`) adds `cos(xᵢ) x_{i−1}` to `x̄ᵢ` and
    /// `sin xᵢ` to `x̄_{i−1}`, so one forward sweep that carries the previous coordinate and the
    /// next one's sine and cosine writes each gradient component once.
    pub fn lessons_grad<const N: usize>(x: [f64; N]) -> (f64, [f64; N]) {
        const { assert!(N >= 1, "the lessons' function needs at least one coordinate") };
        let mut grad = [0.0; N];
        let (s_first, c_first) = x[0].sin_cos();
        let (mut s, mut c) = (s_first, c_first);
        let mut prev = x[N - 1];
        let mut value = 0.0;
        for j in 0..N - 1 {
            let (s_next, c_next) = x[j + 1].sin_cos();
            value += s * prev;
            grad[j] = c * prev + s_next;
            prev = x[j];
            (s, c) = (s_next, c_next);
        }
        // The last iteration wraps: its successor is x₀ (itself when N = 1).
        value += s * prev;
        grad[N - 1] = c * prev + s_first;
        (value, grad)
    }

    /// Value, gradient and Hessian-vector product of [`lessons`](super::lessons) along `x_dot`.
    ///
    /// The tangent of `x̄ⱼ = cos(xⱼ) x_{j−1} + sin(x_{j+1})` is
    /// `−sin(xⱼ) ẋⱼ x_{j−1} + cos(xⱼ) ẋ_{j−1} + cos(x_{j+1}) ẋ_{j+1}`.
    pub fn lessons_hvp<const N: usize>(x: [f64; N], x_dot: [f64; N]) -> (f64, [f64; N], [f64; N]) {
        const { assert!(N >= 1, "the lessons' function needs at least one coordinate") };
        let mut grad = [0.0; N];
        let mut grad_dot = [0.0; N];
        let (s_first, c_first) = x[0].sin_cos();
        let (mut s, mut c) = (s_first, c_first);
        let (mut prev, mut prev_dot) = (x[N - 1], x_dot[N - 1]);
        let mut value = 0.0;
        for j in 0..N - 1 {
            let (s_next, c_next) = x[j + 1].sin_cos();
            value += s * prev;
            grad[j] = c * prev + s_next;
            grad_dot[j] = c * prev_dot - s * x_dot[j] * prev + c_next * x_dot[j + 1];
            (prev, prev_dot) = (x[j], x_dot[j]);
            (s, c) = (s_next, c_next);
        }
        value += s * prev;
        grad[N - 1] = c * prev + s_first;
        grad_dot[N - 1] = c * prev_dot - s * x_dot[N - 1] * prev + c_first * x_dot[0];
        (value, grad, grad_dot)
    }

    /// Value and gradient of [`extended_rosenbrock`](super::extended_rosenbrock).
    ///
    /// Term `i` has `d̄ = 200 dᵢ`; it gives `x̄ᵢ` its `−2 (1 − xᵢ) − 2 xᵢ d̄` and `x̄_{i+1}` its `d̄`,
    /// which the sweep carries to the next iteration, so each component is written once.
    pub fn extended_rosenbrock_grad<const N: usize>(x: [f64; N]) -> (f64, [f64; N]) {
        const { assert!(N >= 2, "the extended Rosenbrock function needs at least two coordinates") };
        let mut grad = [0.0; N];
        let mut value = 0.0;
        let mut carry = 0.0;
        for i in 0..N - 1 {
            let a = 1.0 - x[i];
            let d = x[i + 1] - x[i] * x[i];
            value += a * a + 100.0 * d * d;
            let d_bar = 200.0 * d;
            grad[i] = carry - 2.0 * a - 2.0 * x[i] * d_bar;
            carry = d_bar;
        }
        grad[N - 1] = carry;
        (value, grad)
    }

    /// Value, gradient and Hessian-vector product of
    /// [`extended_rosenbrock`](super::extended_rosenbrock) along `x_dot`: the gradient sweep with
    /// the tangent of each line.
    pub fn extended_rosenbrock_hvp<const N: usize>(
        x: [f64; N],
        x_dot: [f64; N],
    ) -> (f64, [f64; N], [f64; N]) {
        const { assert!(N >= 2, "the extended Rosenbrock function needs at least two coordinates") };
        let mut grad = [0.0; N];
        let mut grad_dot = [0.0; N];
        let mut value = 0.0;
        let (mut carry, mut carry_dot) = (0.0, 0.0);
        for i in 0..N - 1 {
            let a = 1.0 - x[i];
            let d = x[i + 1] - x[i] * x[i];
            let d_dot = x_dot[i + 1] - 2.0 * x[i] * x_dot[i];
            value += a * a + 100.0 * d * d;
            let d_bar = 200.0 * d;
            let d_bar_dot = 200.0 * d_dot;
            grad[i] = carry - 2.0 * a - 2.0 * x[i] * d_bar;
            // a_dot = −x_dot[i].
            grad_dot[i] = carry_dot + 2.0 * x_dot[i] - 2.0 * (x_dot[i] * d_bar + x[i] * d_bar_dot);
            (carry, carry_dot) = (d_bar, d_bar_dot);
        }
        grad[N - 1] = carry;
        grad_dot[N - 1] = carry_dot;
        (value, grad, grad_dot)
    }

    /// Value and gradient in `(w, b)` of [`layer_loss`](super::layer_loss), by backpropagation.
    ///
    /// Per output: `zᵢ`, `hᵢ = tanh zᵢ`, `rᵢ = hᵢ − yᵢ`; then `z̄ᵢ = 2 rᵢ (1 − hᵢ²)`,
    /// `w̄[i][j] = z̄ᵢ x[j]`, `b̄ᵢ = z̄ᵢ`. Each row's adjoint needs only that row's values, so it is
    /// written right after the row's forward pass.
    #[allow(clippy::type_complexity)] // the shape of the generated signature: (value, (w̄, b̄))
    pub fn layer_grad<const M: usize, const K: usize>(
        w: [[f64; K]; M],
        b: [f64; M],
        x: [f64; K],
        y: [f64; M],
    ) -> (f64, ([[f64; K]; M], [f64; M])) {
        let mut w_bar = [[0.0; K]; M];
        let mut b_bar = [0.0; M];
        let mut value = 0.0;
        for i in 0..M {
            let mut z = b[i];
            for j in 0..K {
                z += w[i][j] * x[j];
            }
            let h = z.tanh();
            let r = h - y[i];
            value += r * r;
            let z_bar = 2.0 * r * (1.0 - h * h);
            for j in 0..K {
                w_bar[i][j] = z_bar * x[j];
            }
            b_bar[i] = z_bar;
        }
        (value, (w_bar, b_bar))
    }

    /// Value, gradient and Hessian-vector product in `(w, b)` of
    /// [`layer_loss`](super::layer_loss) along `(w_dot, b_dot)`: backpropagation with the tangent
    /// of each line.
    ///
    /// `ż = Σⱼ ẇ[i][j] x[j] + ḃᵢ`, `ḣ = (1 − h²) ż`, and the tangent of `z̄ = 2 r (1 − h²)` is
    /// `2 ḣ (1 − h²) − 4 r h ḣ`; `x` and `y` are constants.
    #[allow(clippy::type_complexity)] // the shape of the generated signature
    pub fn layer_hvp<const M: usize, const K: usize>(
        w: [[f64; K]; M],
        b: [f64; M],
        x: [f64; K],
        y: [f64; M],
        w_dot: [[f64; K]; M],
        b_dot: [f64; M],
    ) -> (f64, ([[f64; K]; M], [f64; M]), ([[f64; K]; M], [f64; M])) {
        let mut w_bar = [[0.0; K]; M];
        let mut b_bar = [0.0; M];
        let mut w_bar_dot = [[0.0; K]; M];
        let mut b_bar_dot = [0.0; M];
        let mut value = 0.0;
        for i in 0..M {
            let (mut z, mut z_dot) = (b[i], b_dot[i]);
            for j in 0..K {
                z += w[i][j] * x[j];
                z_dot += w_dot[i][j] * x[j];
            }
            let h = z.tanh();
            let slope = 1.0 - h * h;
            let h_dot = slope * z_dot;
            let r = h - y[i];
            value += r * r;
            let z_bar = 2.0 * r * slope;
            let z_bar_dot = 2.0 * h_dot * slope - 4.0 * r * h * h_dot;
            for j in 0..K {
                w_bar[i][j] = z_bar * x[j];
                w_bar_dot[i][j] = z_bar_dot * x[j];
            }
            b_bar[i] = z_bar;
            b_bar_dot[i] = z_bar_dot;
        }
        (value, (w_bar, b_bar), (w_bar_dot, b_bar_dot))
    }
}
