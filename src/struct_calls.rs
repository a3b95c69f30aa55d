//! Calls of functions returning a struct (issue 15): `let r: Quat = q.mul(&p);` by method
//! syntax and `Quat::mul(q, &p)` by path, chained (`qp.mul(&c)` on the value of a call), inside
//! loops (a product carried from one iteration to the next, and one made afresh in each), and
//! functions returning a struct that call such functions; `hvp` on functions returning a struct.

use autodiff_runtime::grad;

use crate::structs::Quat;

impl Quat {
    /// This quaternion divided by its norm: a function returning a struct that is not linear,
    /// with `hvp`.
    #[grad(jvp, hvp, jacobian)]
    pub fn normalized(&self) -> Quat {
        let n = (self.w * self.w + self.x * self.x + self.y * self.y + self.z * self.z).sqrt();
        Quat { w: self.w / n, x: self.x / n, y: self.y / n, z: self.z / n }
    }

    /// `q p q*` for this `q`: a function returning a struct through calls returning one, the
    /// last on the value of the first and returned as it is.
    #[grad(jvp, hvp, jacobian)]
    pub fn sandwich(&self, p: &Quat) -> Quat {
        let qp: Quat = self.mul(p);
        let c: Quat = self.conj();
        qp.mul(&c)
    }

    /// `p` sandwiched twice, `q (q p q*) q*`, returned as a variable bound to the second call's
    /// value.
    #[grad(jvp, hvp, jacobian)]
    pub fn sandwich_twice(&self, p: &Quat) -> Quat {
        let once: Quat = self.sandwich(p);
        let twice: Quat = self.sandwich(&once);
        twice
    }
}

/// `v` rotated by `q`, `q p q* / |q|²` with `p = (0, v)`, through calls returning a `Quat`
/// (the chain `q.mul(&p)`, then `.mul(&c)` on its value).
#[grad(jvp, hvp, jacobian)]
pub fn rotate_by_calls(q: &Quat, v: [f64; 3]) -> [f64; 3] {
    let p = Quat { w: 0.0, x: v[0], y: v[1], z: v[2] };
    let qp: Quat = q.mul(&p);
    let c: Quat = q.conj();
    let r: Quat = qp.mul(&c);
    let n = q.norm2();
    [r.x / n, r.y / n, r.z / n]
}

/// A scalar of the rotation of `v` by the unit quaternion of `q`, the calls written by path
/// (`Quat::mul(&u, &p)`) and through a function returning a struct that calls others
/// (`u.sandwich(&p)`).
#[grad(jvp, hvp, hessian)]
pub fn rotation_energy(q: &Quat, v: [f64; 3]) -> f64 {
    let u: Quat = q.normalized();
    let p = Quat { w: 0.0, x: v[0], y: v[1], z: v[2] };
    let up: Quat = Quat::mul(&u, &p);
    let c: Quat = u.conj();
    let r: Quat = up.mul(&c);
    let s: Quat = u.sandwich(&p);
    r.x * r.y + s.z * s.z * r.x - 0.5 * s.w
}

/// `q` raised to the power 6 by products carried through a loop, `acc = acc.mul(q)`, read at
/// the end.
#[grad(jvp, hvp)]
pub fn power_by_calls(q: &Quat) -> f64 {
    let mut acc: Quat = q.normalized();
    for _ in 0..5 {
        acc = acc.mul(q);
    }
    acc.w * acc.x + acc.y - acc.z * acc.z
}

/// [`power_by_calls`] with its loop checkpointed.
#[grad(jvp, hvp, checkpoint(s = 2))]
pub fn power_by_calls_checkpointed(q: &Quat) -> f64 {
    let mut acc: Quat = q.normalized();
    for _ in 0..5 {
        acc = acc.mul(q);
    }
    acc.w * acc.x + acc.y - acc.z * acc.z
}

/// A sum over turns of `q` by each angle, a product made afresh in each iteration.
#[grad(jvp, hvp)]
pub fn turns(q: &Quat, angles: [f64; 4]) -> f64 {
    let mut s = 0.0;
    for a in angles {
        let p = Quat { w: a.cos(), x: a.sin(), y: 0.5, z: 0.0 };
        let r: Quat = q.mul(&p);
        s += r.x * r.y + r.w * a;
    }
    s
}
