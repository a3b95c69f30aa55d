//! Calls returning a struct written as a Rust user writes them (issue 15), without a typed
//! `let`: `q.mul(&p).mul(&q.conj())` chained, `let r = q.mul(&p); r.w`, `&u.conj()` lent to a
//! call, `Quat::mul(&u, &p)` by path, `self.mul(p).mul(&self.conj())` in a method, and a
//! product carried by a loop, `acc = acc.mul(q)` from `let mut acc = q.normalized();`, and the
//! value of a free function returning a struct (`let r = turn(q, a); r.x`). Each is
//! the untyped form of a function of `struct_calls.rs` (or of one here), and computes the same
//! values to the bit.

use autodiff_runtime::grad;

use crate::structs::Quat;

impl Quat {
    /// [`Quat::sandwich`] chained: `self.mul(p).mul(&self.conj())`, the function's value.
    #[grad(jvp, hvp, jacobian)]
    pub fn sandwich_chained(&self, p: &Quat) -> Quat {
        self.mul(p).mul(&self.conj())
    }

    /// [`Quat::sandwich_twice`] untyped: the value of one call bound without its type, lent to
    /// the next.
    #[grad(jvp, hvp, jacobian)]
    pub fn sandwich_twice_chained(&self, p: &Quat) -> Quat {
        let once = self.sandwich_chained(p);
        self.sandwich_chained(&once)
    }

    /// The dot product of `p` sandwiched by this quaternion with `p`, the sandwich bound with
    /// its type: the typed form of [`Quat::sandwich_dot_chained`].
    #[grad(jvp, hvp)]
    pub fn sandwich_dot(&self, p: &Quat) -> f64 {
        let s: Quat = self.sandwich(p);
        p.dot(&s)
    }

    /// [`Quat::sandwich_dot`] with the sandwich lent to `dot` as it is made.
    #[grad(jvp, hvp)]
    pub fn sandwich_dot_chained(&self, p: &Quat) -> f64 {
        p.dot(&self.sandwich(p))
    }
}

/// [`crate::struct_calls::rotate_by_calls`] chained: `q.mul(&p).mul(&q.conj())`.
#[grad(jvp, hvp, jacobian)]
pub fn rotate_chained(q: &Quat, v: [f64; 3]) -> [f64; 3] {
    let p = Quat { w: 0.0, x: v[0], y: v[1], z: v[2] };
    let r = q.mul(&p).mul(&q.conj());
    let n = q.norm2();
    [r.x / n, r.y / n, r.z / n]
}

/// [`crate::struct_calls::rotation_energy`] untyped: `u` from `q.normalized()`, a call by path
/// `Quat::mul(&u, &p)`, its value's method called with `&u.conj()`, and `u.sandwich(&p)`.
#[grad(jvp, hvp, hessian)]
pub fn rotation_energy_untyped(q: &Quat, v: [f64; 3]) -> f64 {
    let u = q.normalized();
    let p = Quat { w: 0.0, x: v[0], y: v[1], z: v[2] };
    let up = Quat::mul(&u, &p);
    let r = up.mul(&u.conj());
    let s = u.sandwich(&p);
    r.x * r.y + s.z * s.z * r.x - 0.5 * s.w
}

/// [`crate::struct_calls::power_by_calls`] untyped: `let mut acc = q.normalized();` carried
/// through `acc = acc.mul(q)`.
#[grad(jvp, hvp)]
pub fn power_untyped(q: &Quat) -> f64 {
    let mut acc = q.normalized();
    for _ in 0..5 {
        acc = acc.mul(q);
    }
    acc.w * acc.x + acc.y - acc.z * acc.z
}

/// The product of [`power_untyped`] itself, the function's value: a variable bound without its
/// type and carried by the loop, returned.
#[grad(jvp, hvp, jacobian)]
pub fn power_quat(q: &Quat) -> Quat {
    let mut acc = q.normalized();
    for _ in 0..5 {
        acc = acc.mul(q);
    }
    acc
}

/// [`power_untyped`] with its loop checkpointed.
#[grad(jvp, hvp, checkpoint(s = 2))]
pub fn power_untyped_checkpointed(q: &Quat) -> f64 {
    let mut acc = q.normalized();
    for _ in 0..5 {
        acc = acc.mul(q);
    }
    acc.w * acc.x + acc.y - acc.z * acc.z
}

/// [`crate::struct_calls::turns`] untyped: a product made afresh in each iteration,
/// `let r = q.mul(&p);`.
#[grad(jvp, hvp)]
pub fn turns_untyped(q: &Quat, angles: [f64; 4]) -> f64 {
    let mut s = 0.0;
    for a in angles {
        let p = Quat { w: a.cos(), x: a.sin(), y: 0.5, z: 0.0 };
        let r = q.mul(&p);
        s += r.x * r.y + r.w * a;
    }
    s
}

/// Fields read from calls' values as they are made: `q.mul(&p).w`, and a field of a chain.
#[grad(jvp, hvp)]
pub fn call_fields(q: &Quat, v: [f64; 3]) -> f64 {
    let p = Quat { w: 0.0, x: v[0], y: v[1], z: v[2] };
    let a = q.mul(&p).w;
    a * q.mul(&p).mul(&q.conj()).x
}

/// [`call_fields`] with each call's value bound with its type.
#[grad(jvp, hvp)]
pub fn call_fields_typed(q: &Quat, v: [f64; 3]) -> f64 {
    let p = Quat { w: 0.0, x: v[0], y: v[1], z: v[2] };
    let a: Quat = q.mul(&p);
    let b: Quat = q.mul(&p);
    let c: Quat = q.conj();
    let r: Quat = b.mul(&c);
    a.w * r.x
}

/// A method called on a struct parameter left out of `wrt` (a constant receiver), its value
/// read as a struct: `fixed.mul(q)` is taken to be a `Quat` from `fixed: &Quat`.
#[grad(jvp, hvp, wrt(q))]
pub fn fixed_turn(q: &Quat, fixed: &Quat) -> f64 {
    let r = fixed.mul(q);
    r.x * r.y + fixed.mul(q).mul(&q.conj()).z
}

/// [`fixed_turn`] with each call's value bound with its type.
#[grad(jvp, hvp, wrt(q))]
pub fn fixed_turn_typed(q: &Quat, fixed: &Quat) -> f64 {
    let r: Quat = fixed.mul(q);
    let a: Quat = fixed.mul(q);
    let c: Quat = q.conj();
    let s: Quat = a.mul(&c);
    r.x * r.y + s.z
}

/// The quaternion of a turn by `a` about the axis `(1, 2, 2)/3`, scaled by `q`'s `w`: a free
/// function returning a struct (`#[grad]` writes `turn_value`, its type, for callers that bind
/// its value without it).
#[grad(jvp, hvp)]
pub fn turn(q: &Quat, a: f64) -> Quat {
    let (s, c) = (0.5 * a).sin_cos();
    let k = q.w / 3.0;
    Quat { w: k * c, x: k * s, y: 2.0 * k * s, z: 2.0 * k * s }
}

/// Turns through [`turn`] with their values bound with the type written: a field, a method of
/// the value, the value lent to a method, in a loop.
#[grad(jvp, hvp, hessian)]
pub fn turn_energy_typed(q: &Quat, a: f64) -> f64 {
    let r: Quat = turn(q, a);
    let mut s = r.x * r.y + r.norm2();
    for k in 0..3 {
        let t: Quat = turn(q, a + k as f64);
        let u: Quat = t.mul(q);
        s += u.z * t.w;
    }
    let last: Quat = turn(q, 0.3);
    let v: Quat = turn(q, 0.1);
    let vm: Quat = v.mul(q);
    s + last.w + vm.x
}

/// [`turn_energy_typed`] as Rust is written: `let r = turn(q, a);`, `t.mul(q)` on an untyped
/// value, `turn(q, 0.3).w` and `turn(q, 0.1).mul(q).x` in place.
#[grad(jvp, hvp, hessian)]
pub fn turn_energy_untyped(q: &Quat, a: f64) -> f64 {
    let r = turn(q, a);
    let mut s = r.x * r.y + r.norm2();
    for k in 0..3 {
        let t = turn(q, a + k as f64);
        let u = t.mul(q);
        s += u.z * t.w;
    }
    s + turn(q, 0.3).w + turn(q, 0.1).mul(q).x
}
