//! Arrays of structs: a particle system as `&[Particle; 4]` (and `[Particle; 4]` by value),
//! differentiated, the gradient a `[Particle; 4]`; twins taking the fields as separate arrays.

use autodiff_runtime::{Differentiable, grad};

/// The number of particles.
pub const PARTICLES: usize = 4;

/// A particle: position, velocity, and a mass that is not differentiated.
#[derive(Clone, Copy, Debug, PartialEq, Differentiable)]
pub struct Particle {
    /// Position.
    pub x: f64,
    /// Velocity.
    pub v: f64,
    /// Weights of a small feature vector.
    pub w: [f64; 2],
    /// Mass: not differentiated.
    #[no_grad]
    pub m: f64,
}

/// Kinetic energy plus a spring between every pair, read by index.
#[grad(jvp, hvp, hessian)]
#[allow(clippy::needless_range_loop)] // the same loops as the twin's
pub fn energy(ps: &[Particle; 4], k: f64) -> f64 {
    let mut e = 0.0;
    for i in 0..4 {
        e += 0.5 * ps[i].m * ps[i].v * ps[i].v;
    }
    for i in 0..4 {
        for j in i + 1..4 {
            let d = ps[i].x - ps[j].x;
            e += 0.5 * k * d * d;
        }
    }
    e
}

/// [`energy`] with the fields as separate arrays: the same operations in the same order.
#[grad(jvp, hvp, hessian, wrt(xs, vs))]
#[allow(clippy::needless_range_loop)]
pub fn energy_flat(xs: &[f64; 4], vs: &[f64; 4], ms: &[f64; 4], k: f64) -> f64 {
    let mut e = 0.0;
    for i in 0..4 {
        e += 0.5 * ms[i] * vs[i] * vs[i];
    }
    for i in 0..4 {
        for j in i + 1..4 {
            let d = xs[i] - xs[j];
            e += 0.5 * k * d * d;
        }
    }
    e
}

/// Loops over the elements: `for p in ps.iter()`, `enumerate`, a `map` summed, a `zip`, array
/// fields, `len()`.
#[grad(jvp, hvp, wrt(ps))]
pub fn features(ps: [Particle; 4], c: &[f64; 4]) -> f64 {
    let mut s = 0.0;
    for p in ps.iter() {
        s += p.x * p.v + p.w[0] * p.w[1];
    }
    for (i, p) in ps.iter().enumerate() {
        s += c[i] * p.x.sin();
    }
    s += ps.iter().map(|p| p.v * p.v).sum::<f64>();
    for (p, ci) in ps.iter().zip(c.iter()) {
        s += ci * p.w[1].exp();
    }
    s / ps.len() as f64
}

/// A local bound to an element (`let p = &ps[i];`), a loop over the array by value
/// (`for p in ps`), `fold`, `for_each`, a `zip` whose argument is the array, `rev` and `skip`.
#[grad(hvp, wrt(ps))]
pub fn idioms(ps: [Particle; 4], xs: &[f64; 4]) -> f64 {
    let mut s = 0.0;
    for i in 0..ps.len() {
        let p = &ps[i];
        s += p.x * p.x * xs[i];
    }
    for p in ps {
        s += p.v.cos();
    }
    s += ps.iter().fold(0.0, |acc, p| acc + p.w[0] * p.x);
    ps.iter().for_each(|p| s += p.w[1] * p.v);
    for (a, p) in xs.iter().zip(&ps) {
        s += a * p.w[0] * p.w[0];
    }
    for p in ps.iter().rev().skip(1) {
        s += p.x * p.v;
    }
    for (i, p) in ps.iter().enumerate() {
        for q in ps.iter().skip(i + 1) {
            s += (p.x - q.x) * (p.w[1] - q.w[1]);
        }
    }
    s
}

/// [`idioms`] written with indices over separate field arrays: the same operations in the same
/// order.
#[grad(wrt(x, v, w))]
#[allow(clippy::needless_range_loop)]
pub fn idioms_flat(x: &[f64; 4], v: &[f64; 4], w: &[[f64; 2]; 4], xs: &[f64; 4]) -> f64 {
    let mut s = 0.0;
    for i in 0..4 {
        s += x[i] * x[i] * xs[i];
    }
    for i in 0..4 {
        s += v[i].cos();
    }
    let mut acc = 0.0;
    for i in 0..4 {
        acc += w[i][0] * x[i];
    }
    s += acc;
    for i in 0..4 {
        s += w[i][1] * v[i];
    }
    for i in 0..4 {
        s += xs[i] * w[i][0] * w[i][0];
    }
    for i in (0..3).rev() {
        s += x[i] * v[i];
    }
    for i in 0..4 {
        for j in i + 1..4 {
            s += (x[i] - x[j]) * (w[i][1] - w[j][1]);
        }
    }
    s
}

/// A component of a Gaussian mixture in one dimension.
#[derive(Clone, Copy, Debug, PartialEq, Differentiable)]
pub struct Gaussian {
    /// The mean.
    pub mu: f64,
    /// The log of the standard deviation.
    pub log_sigma: f64,
    /// The log of the (unnormalised) weight.
    pub log_w: f64,
}

/// The negative log-likelihood of the samples `data` under a mixture of `K` Gaussians (a
/// const generic length), by a log-sum-exp over the components.
#[grad(hvp, wrt(g))]
pub fn mixture_nll<const K: usize>(g: &[Gaussian; K], data: &[f64]) -> f64 {
    let mut lw = f64::NEG_INFINITY;
    for c in g.iter() {
        lw = lw.max(c.log_w);
    }
    let mut z = 0.0;
    for c in g.iter() {
        z += (c.log_w - lw).exp();
    }
    let log_norm = lw + z.ln();
    let mut nll = 0.0;
    for x in data.iter() {
        let mut m = f64::NEG_INFINITY;
        for c in g.iter() {
            let t = (x - c.mu) * (-c.log_sigma).exp();
            m = m.max(c.log_w - c.log_sigma - 0.5 * t * t);
        }
        let mut s = 0.0;
        for c in g.iter() {
            let t = (x - c.mu) * (-c.log_sigma).exp();
            s += (c.log_w - c.log_sigma - 0.5 * t * t - m).exp();
        }
        nll -= m + s.ln() - log_norm;
    }
    nll
}

/// A body with a nested struct.
#[derive(Clone, Copy, Debug, PartialEq, Differentiable)]
pub struct Body {
    /// Its position.
    pub at: Point,
    /// Its charge.
    pub q: f64,
}

/// A point in the plane.
#[derive(Clone, Copy, Debug, PartialEq, Differentiable)]
pub struct Point {
    /// Abscissa.
    pub x: f64,
    /// Ordinate.
    pub y: f64,
}

/// The forces along `x` on each body from the others (a vector function of an array of
/// structs): its Jacobian and VJP; nested fields (`bs[i].at.x`).
#[grad(jacobian)]
pub fn forces(bs: &[Body; 3]) -> [f64; 3] {
    let mut f = [0.0; 3];
    for i in 0..3 {
        for j in 0..3 {
            if i != j {
                let (dx, dy) = (bs[i].at.x - bs[j].at.x, bs[i].at.y - bs[j].at.y);
                let r2 = dx * dx + dy * dy + 0.1;
                f[i] += bs[i].q * bs[j].q * dx / (r2 * r2.sqrt());
            }
        }
    }
    f
}

/// A struct parameter next to an array of structs, the array's fields selected by `wrt(ps.v)`,
/// a name bound to an element shadowed in the loop body (`let p = p.x;`), user names that the
/// generated code could take (`ps_x`, `e`, `ps_bar`), and a loop over `ps` (a reference).
#[grad(hvp, wrt(ps.v, c))]
pub fn mixed(ps: &[Particle; 4], c: &Point) -> f64 {
    let mut ps_x = 0.0;
    let e = 2.0;
    for p in ps {
        let q = p.v * c.x;
        let p = p.x * e;
        ps_x += p * q;
    }
    let mut ps_bar = c.y;
    for (i, p) in ps.iter().enumerate() {
        ps_bar += p.v * p.v * (i as f64 + c.y);
    }
    ps_x + ps_bar
}

/// An array field's row iterated (`p.w.iter()`), indexed by a loop over its length
/// (`p.w.len()`), and `take` over the elements.
#[grad(jvp)]
pub fn rows(ps: &[Particle; 4]) -> f64 {
    let mut s = 0.0;
    for p in ps.iter().take(3) {
        for w in p.w.iter() {
            s += w * p.x;
        }
        for j in 0..p.w.len() {
            s += p.w[j] * p.w[j] * p.v;
        }
    }
    s
}

/// `filter` over the elements, after `enumerate` too, then `map` and `sum`.
#[grad(jvp, hvp)]
pub fn filtered(ps: &[Particle; 4]) -> f64 {
    let fast = ps.iter().filter(|p| p.v > 0.4).map(|p| p.v * p.x).sum::<f64>();
    let even =
        ps.iter().enumerate().filter(|(i, _)| i % 2 == 0).map(|(_, p)| p.w[0] * p.x).sum::<f64>();
    fast + even
}

/// Elements destructured by struct patterns: a loop (`for &Particle { x, v, .. } in ps`) and a
/// closure (`|Particle { x, w, .. }|`), with the same names as the user's locals elsewhere.
#[grad(jvp, hvp)]
pub fn destructured(ps: &[Particle; 4]) -> f64 {
    let mut s = 0.0;
    for &Particle { x, v, .. } in ps.iter() {
        s += x * v;
    }
    let x = 2.0;
    s * x + ps.iter().map(|Particle { x, w, .. }| x * w[0]).sum::<f64>()
}
