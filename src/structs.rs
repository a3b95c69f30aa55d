//! Structs: a model's parameters in a struct (`&Model`, differentiated, the gradient a `Model`),
//! a twin taking the same parameters as separate arguments, and methods of a struct with
//! `#[grad]` on `&self` and `self`.

use autodiff_runtime::{Differentiable, grad};

/// The number of features of the logistic regression.
pub const FEATURES: usize = 8;

/// The parameters of a logistic regression: weights and a bias.
#[derive(Clone, Copy, Debug, PartialEq, Differentiable)]
pub struct Model {
    /// The weights, one per feature.
    pub w: [f64; 8],
    /// The bias.
    pub b: f64,
    /// The L2 penalty on the weights: not differentiated.
    #[no_grad]
    pub l2: f64,
}

/// The mean logistic loss of `m` over the samples `x` with labels `y` (±1), plus an L2 penalty
/// on the weights.
#[grad(jvp, hvp, hessian)]
#[allow(clippy::needless_range_loop)] // the same loops as the twin's
pub fn logistic(m: &Model, x: &[[f64; 8]], y: &[f64]) -> f64 {
    let mut s = 0.0;
    for k in 0..y.len() {
        let mut z = m.b;
        for j in 0..8 {
            z += m.w[j] * x[k][j];
        }
        s += (1.0 + (-y[k] * z).exp()).ln();
    }
    let mut r = 0.0;
    for j in 0..8 {
        r += m.w[j] * m.w[j];
    }
    s / y.len() as f64 + m.l2 * r
}

/// [`logistic`] with the model's fields as separate parameters: the same operations in the same
/// order, so the same values to the bit.
#[grad(jvp, hvp, hessian, wrt(w, b))]
#[allow(clippy::needless_range_loop)]
pub fn logistic_flat(w: &[f64; 8], b: f64, l2: f64, x: &[[f64; 8]], y: &[f64]) -> f64 {
    let mut s = 0.0;
    for k in 0..y.len() {
        let mut z = b;
        for j in 0..8 {
            z += w[j] * x[k][j];
        }
        s += (1.0 + (-y[k] * z).exp()).ln();
    }
    let mut r = 0.0;
    for j in 0..8 {
        r += w[j] * w[j];
    }
    s / y.len() as f64 + l2 * r
}

impl Model {
    /// The penalty's weight as the loss applies it: a plain method, not differentiated.
    pub fn penalty_weight(&self) -> f64 {
        2.0 * self.l2
    }
}

/// `x²` scaled by a method of a constant model (left out by `wrt`): a call whose arguments are
/// all constants is a constant, computed as written.
#[grad(hvp, wrt(x))]
pub fn scaled_by_model(x: f64, m: &Model) -> f64 {
    x * x * m.penalty_weight()
}

/// The squared margin of one sample, differentiated in the weights only (`wrt(m.w)`): the
/// gradient is still a `Model`, its bias component zero.
#[grad(jvp, hvp, hessian, wrt(m.w))]
#[allow(clippy::needless_range_loop)]
pub fn margin_in_weights(m: &Model, x: &[f64; 8]) -> f64 {
    let mut z = m.b;
    for j in 0..8 {
        z += m.w[j] * x[j];
    }
    z * z + m.l2 * m.b
}

/// A spring of stiffness `k` and rest length `rest` between two points on a line.
#[derive(Clone, Copy, Debug, PartialEq, Differentiable)]
pub struct Spring {
    /// The stiffness.
    pub k: f64,
    /// The rest length.
    pub rest: f64,
}

impl Spring {
    /// The energy stored when the points are `x` apart: `k (x - rest)² / 2`.
    #[grad(jvp, hvp, hessian)]
    pub fn energy(&self, x: f64) -> f64 {
        let d = x - self.rest;
        0.5 * self.k * d * d
    }

    /// The work to stretch the spring from `x0` to `x1`: two calls of [`Spring::energy`] by
    /// method syntax, `self` passed whole.
    #[grad(jvp, hvp, hessian)]
    pub fn work(&self, x0: f64, x1: f64) -> f64 {
        self.energy(x1) - self.energy(x0)
    }

    /// The energy at `x` and at `2x`: calls of [`Spring::energy_owned`], which takes `self` by
    /// value.
    #[grad(jvp, hvp)]
    pub fn energy_owned_twice(self, x: f64) -> f64 {
        self.energy_owned(x) + self.energy_owned(2.0 * x)
    }

    /// The same energy, the spring taken by value.
    #[grad(jvp, hvp)]
    pub fn energy_owned(self, x: f64) -> f64 {
        let d = x - self.rest;
        0.5 * self.k * d * d
    }
}

/// A quaternion `w + xi + yj + zk`.
#[derive(Clone, Copy, Debug, PartialEq, Differentiable)]
pub struct Quat {
    /// The real part.
    pub w: f64,
    /// The `i` part.
    pub x: f64,
    /// The `j` part.
    pub y: f64,
    /// The `k` part.
    pub z: f64,
}

impl Quat {
    /// The squared norm.
    #[grad(jvp, hvp, hessian)]
    pub fn norm2(&self) -> f64 {
        self.w * self.w + self.x * self.x + self.y * self.y + self.z * self.z
    }

    /// The dot product of two quaternions.
    #[grad(jvp, hvp)]
    pub fn dot(&self, o: &Quat) -> f64 {
        self.w * o.w + self.x * o.x + self.y * o.y + self.z * o.z
    }

    /// The cosine of the angle between two quaternions, from calls of [`Quat::dot`] and
    /// [`Quat::norm2`] on the parameters.
    #[grad(jvp, hvp, hessian)]
    pub fn cos_angle(&self, o: &Quat) -> f64 {
        self.dot(o) / (self.norm2() * o.norm2()).sqrt()
    }

    /// The Hamilton product `self · o`: a function returning a struct.
    #[grad(jvp, hvp, jacobian)]
    pub fn mul(&self, o: &Quat) -> Quat {
        Quat {
            w: self.w * o.w - self.x * o.x - self.y * o.y - self.z * o.z,
            x: self.w * o.x + self.x * o.w + self.y * o.z - self.z * o.y,
            y: self.w * o.y - self.x * o.z + self.y * o.w + self.z * o.x,
            z: self.w * o.z + self.x * o.y - self.y * o.x + self.z * o.w,
        }
    }

    /// The conjugate, taken by value.
    #[grad(jvp, hvp, jacobian)]
    pub fn conj(self) -> Quat {
        let q = Quat { w: self.w, x: 0.0, y: 0.0, z: 0.0 };
        Quat { x: -self.x, y: -self.y, z: -self.z, ..q }
    }

    /// `v` rotated by this quaternion, `q p q* / |q|²` with `p = (0, v)`, the products written
    /// with struct values of the body.
    #[grad(jvp, jacobian)]
    pub fn rotate(&self, v: [f64; 3]) -> [f64; 3] {
        let p = Quat { w: 0.0, x: v[0], y: v[1], z: v[2] };
        let mut c = Quat { w: self.w, x: self.x, y: self.y, z: self.z };
        c.x = -c.x;
        c.y = -c.y;
        c.z = -c.z;
        let qp = Quat {
            w: self.w * p.w - self.x * p.x - self.y * p.y - self.z * p.z,
            x: self.w * p.x + self.x * p.w + self.y * p.z - self.z * p.y,
            y: self.w * p.y - self.x * p.z + self.y * p.w + self.z * p.x,
            z: self.w * p.z + self.x * p.y - self.y * p.x + self.z * p.w,
        };
        let r = Quat {
            w: qp.w * c.w - qp.x * c.x - qp.y * c.y - qp.z * c.z,
            x: qp.w * c.x + qp.x * c.w + qp.y * c.z - qp.z * c.y,
            y: qp.w * c.y - qp.x * c.z + qp.y * c.w + qp.z * c.x,
            z: qp.w * c.z + qp.x * c.y - qp.y * c.x + qp.z * c.w,
        };
        let n = self.w * self.w + self.x * self.x + self.y * self.y + self.z * self.z;
        [r.x / n, r.y / n, r.z / n]
    }
}

impl Quat {
    /// The Hamilton product `self · o`, as the array `[w, x, y, z]` (a method returning an
    /// array, which a `#[grad]` body can call).
    #[grad(jvp, hvp)]
    pub fn times(&self, o: &Quat) -> [f64; 4] {
        [
            self.w * o.w - self.x * o.x - self.y * o.y - self.z * o.z,
            self.w * o.x + self.x * o.w + self.y * o.z - self.z * o.y,
            self.w * o.y - self.x * o.z + self.y * o.w + self.z * o.x,
            self.w * o.z + self.x * o.y - self.y * o.x + self.z * o.w,
        ]
    }

    /// The conjugate, as the array `[w, x, y, z]`.
    #[grad(jvp, hvp)]
    pub fn conjugate(&self) -> [f64; 4] {
        [self.w, -self.x, -self.y, -self.z]
    }

    /// [`Quat::rotate`] written with methods: `q p q* / |q|²` as `self.times(&p)`, then
    /// `.times(&c)` with `c` from `self.conjugate()`, and `self.norm2()`.
    #[grad(jvp, hvp, jacobian)]
    pub fn rotate_by_methods(&self, v: [f64; 3]) -> [f64; 3] {
        let p = Quat { w: 0.0, x: v[0], y: v[1], z: v[2] };
        let [w, x, y, z] = self.times(&p);
        let qp = Quat { w, x, y, z };
        let [cw, cx, cy, cz] = self.conjugate();
        let c = Quat { w: cw, x: cx, y: cy, z: cz };
        let r: [f64; 4] = qp.times(&c);
        let n = self.norm2();
        [r[1] / n, r[2] / n, r[3] / n]
    }
}

/// A function of two angles through quaternions built in the body and methods called on them.
#[grad(jvp, hvp, hessian)]
pub fn twist(a: f64, b: f64) -> f64 {
    let q = Quat { w: a.cos(), x: a.sin(), y: b, z: 0.0 };
    let p = Quat { w: 1.0, x: b * b, y: 0.0, z: a };
    q.dot(&p) * q.norm2()
}

/// A model generic over its length (issue 15 d): `#[grad]` reads its fields element by element,
/// so they need no length in a type.
#[derive(Clone, Copy, Debug, PartialEq, Differentiable)]
pub struct Weights<const N: usize> {
    /// Weights.
    pub w: [f64; N],
    /// Bias.
    pub b: f64,
}

/// `(b + w·x)²`, generic over the length.
#[grad(jvp, hvp)]
#[allow(clippy::needless_range_loop, reason = "index loops are the macro's subset")]
pub fn sized_loss<const N: usize>(m: &Weights<N>, x: &[f64; N]) -> f64 {
    let mut s = m.b;
    for i in 0..N {
        s += m.w[i] * x[i];
    }
    s * s
}

/// `Weights { w: b·w, b: 2b }`, a generic function returning the generic struct.
#[grad(jvp, hvp)]
#[allow(clippy::needless_range_loop, reason = "index loops are the macro's subset")]
pub fn sized_scaled<const N: usize>(m: &Weights<N>) -> Weights<N> {
    let mut w = [0.0; N];
    for i in 0..N {
        w[i] = m.w[i] * m.b;
    }
    Weights { w, b: m.b * 2.0 }
}

/// `Weights { w, b: 2b }`, the array field copied through a typed `let` into the returned struct.
#[grad(jvp, hvp)]
pub fn sized_copied<const N: usize>(m: &Weights<N>) -> Weights<N> {
    let w: [f64; N] = m.w;
    Weights { w, b: m.b * 2.0 }
}

/// `b (Σ wᵢ²)`, the array field bound with its type and passed whole to a generic call.
#[grad(jvp, hvp)]
pub fn sized_passed<const N: usize>(m: &Weights<N>) -> f64 {
    let w: [f64; N] = m.w;
    squares(&w) * m.b
}

/// `Σ wᵢ²`.
#[grad(jvp, hvp)]
#[allow(clippy::needless_range_loop, reason = "index loops are the macro's subset")]
pub fn squares<const N: usize>(w: &[f64; N]) -> f64 {
    let mut s = 0.0;
    for i in 0..N {
        s += w[i] * w[i];
    }
    s
}
