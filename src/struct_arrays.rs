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
