//! Calls returning a struct written without a typed `let` (`src/struct_chains.rs`, issue 15):
//! each in every mode against finite differences (the rotations also against the rotation
//! matrix), and every value and derivative to the bit what the typed form computes.

use autodiff_runtime::numeric_gradient;
use autodiff_suite::struct_calls::*;
use autodiff_suite::struct_chains::*;
use autodiff_suite::structs::Quat;

use super::{
    Q, Scalar, V, Vector, a3, a4, checked, close, directions, point, quat, quat_checks, rotated,
    scalars,
};

/// The bits of every number of `parts`: values and derivatives compared exactly.
fn bits(parts: &[Vec<f64>]) -> Vec<Vec<u64>> {
    parts.iter().map(|p| p.iter().map(|x| x.to_bits()).collect()).collect()
}

/// `_vjp`, `_jvp` and `_hvp` of a method `(self, p) -> Quat`.
type PairVjp = fn(&Quat, &Quat, Quat) -> (Quat, (Quat, Quat));
type PairJvp = fn(&Quat, &Quat, &Quat, &Quat) -> (Quat, Quat);
type PairHvp =
    fn(&Quat, &Quat, Quat, &Quat, &Quat, Quat) -> (Quat, (Quat, Quat), Quat, (Quat, Quat));

/// Checks a method `(self, p) -> Quat` with the harness; returns everything it computes at
/// the point.
fn pair(
    what: &str,
    g: fn(&Quat, &Quat) -> Quat,
    vjp: PairVjp,
    jvp: PairJvp,
    hvp: PairHvp,
) -> Vec<Vec<f64>> {
    let two = |p: &[f64]| (quat(p), quat(&p[4..]));
    let both = |a: Quat, b: Quat| scalars(&a).into_iter().chain(scalars(&b)).collect::<Vec<_>>();
    let vector = Vector {
        g: &|p| scalars(&g(&quat(p), &quat(&p[4..]))),
        vjp: &|p, b| {
            let (a, o) = two(p);
            let (y, (ga, go)) = vjp(&a, &o, quat(b));
            (scalars(&y), both(ga, go))
        },
        jvp: &|p, d| {
            let ((a, o), (da, dor)) = (two(p), two(d));
            let (y, dy) = jvp(&a, &o, &da, &dor);
            (scalars(&y), scalars(&dy))
        },
        hvp: &|p, b, d, bd| {
            let ((a, o), (da, dor)) = (two(p), two(d));
            let (y, (ga, go), dy, (ha, ho)) = hvp(&a, &o, quat(b), &da, &dor, quat(bd));
            [scalars(&y), both(ga, go), scalars(&dy), both(ha, ho)]
        },
    };
    let x: Vec<f64> = Q.iter().chain(&[-0.4, 1.1, 0.7, -0.6]).copied().collect();
    let (v, _) = directions(8);
    let (b, bd) = ([0.3, -1.0, 0.2, 0.9], [1.0, 0.5, -0.25, 0.1]);
    vector.check(what, &x, &b, &v, &bd);
    let (_, c) = (vector.vjp)(&x, &b);
    let (_, d) = (vector.jvp)(&x, &v);
    let mut all = vec![(vector.g)(&x), c, d];
    all.extend((vector.hvp)(&x, &b, &v, &bd));
    all
}

#[test]
fn a_chained_sandwich_in_a_method_is_the_typed_one_to_the_bit() {
    let typed = pair(
        "sandwich",
        Quat::sandwich,
        Quat::sandwich_vjp,
        Quat::sandwich_jvp,
        Quat::sandwich_hvp,
    );
    let chained = pair(
        "sandwich_chained",
        Quat::sandwich_chained,
        Quat::sandwich_chained_vjp,
        Quat::sandwich_chained_jvp,
        Quat::sandwich_chained_hvp,
    );
    assert_eq!(bits(&typed), bits(&chained));
    let typed = pair(
        "sandwich_twice",
        Quat::sandwich_twice,
        Quat::sandwich_twice_vjp,
        Quat::sandwich_twice_jvp,
        Quat::sandwich_twice_hvp,
    );
    let chained = pair(
        "sandwich_twice_chained",
        Quat::sandwich_twice_chained,
        Quat::sandwich_twice_chained_vjp,
        Quat::sandwich_twice_chained_jvp,
        Quat::sandwich_twice_chained_hvp,
    );
    assert_eq!(bits(&typed), bits(&chained));
    // A unit quaternion's sandwich rotates: against the rotation matrix, once and twice.
    let (u, p) = (quat(&Q).normalized(), Quat { w: 0.0, x: V[0], y: V[1], z: V[2] });
    let once = u.sandwich_chained(&p);
    close("chained sandwich", &[once.x, once.y, once.z], &rotated(&u, V), 1e-14);
    let twice = u.sandwich_twice_chained(&p);
    close("chained twice", &[twice.x, twice.y, twice.z], &rotated(&u, rotated(&u, V)), 1e-14);
    // The Jacobians, to the bit.
    let (q, o) = (quat(&Q), quat(&[-0.4, 1.1, 0.7, -0.6]));
    assert_eq!(q.sandwich_chained_jacobian(&o), q.sandwich_jacobian(&o));
}

/// A function `(q, v) -> [f64; 3]` and its `_vjp`, `_jvp` and `_hvp`.
type Rot = fn(&Quat, [f64; 3]) -> [f64; 3];
type RotVjp = fn(&Quat, [f64; 3], [f64; 3]) -> ([f64; 3], (Quat, [f64; 3]));
type RotJvp = fn(&Quat, [f64; 3], &Quat, [f64; 3]) -> ([f64; 3], [f64; 3]);
type RotHvp = fn(
    &Quat,
    [f64; 3],
    [f64; 3],
    &Quat,
    [f64; 3],
    [f64; 3],
) -> ([f64; 3], (Quat, [f64; 3]), [f64; 3], (Quat, [f64; 3]));

/// Checks a function `(q, v) -> [f64; 3]` with the harness; returns everything it computes at
/// the point.
fn rotation(what: &str, (g, vjp, jvp, hvp): (Rot, RotVjp, RotJvp, RotHvp)) -> Vec<Vec<f64>> {
    let both = |q: Quat, v: [f64; 3]| scalars(&q).into_iter().chain(v).collect::<Vec<_>>();
    let vector = Vector {
        g: &|p| g(&quat(p), a3(&p[4..])).to_vec(),
        vjp: &|p, b| {
            let (y, (gq, gv)) = vjp(&quat(p), a3(&p[4..]), a3(b));
            (y.to_vec(), both(gq, gv))
        },
        jvp: &|p, d| {
            let (y, dy) = jvp(&quat(p), a3(&p[4..]), &quat(d), a3(&d[4..]));
            (y.to_vec(), dy.to_vec())
        },
        hvp: &|p, b, d, bd| {
            let (y, (gq, gv), dy, (hq, hv)) =
                hvp(&quat(p), a3(&p[4..]), a3(b), &quat(d), a3(&d[4..]), a3(bd));
            [y.to_vec(), both(gq, gv), dy.to_vec(), both(hq, hv)]
        },
    };
    let (d, _) = directions(7);
    let (b, bd) = ([0.3, -1.1, 0.8], [1.0, 0.25, -0.5]);
    vector.check(what, &point(), &b, &d, &bd);
    let (_, c) = (vector.vjp)(&point(), &b);
    let (_, dy) = (vector.jvp)(&point(), &d);
    let mut all = vec![(vector.g)(&point()), c, dy];
    all.extend((vector.hvp)(&point(), &b, &d, &bd));
    all
}

#[test]
fn a_fully_chained_rotation_against_its_matrix_and_the_typed_form() {
    let (q, v) = (quat(&Q), V);
    close("rotation", &rotate_chained(&q, v), &rotated(&q, v), 1e-14);
    let typed = (
        rotate_by_calls as Rot,
        rotate_by_calls_vjp as RotVjp,
        rotate_by_calls_jvp as RotJvp,
        rotate_by_calls_hvp as RotHvp,
    );
    let chained = (
        rotate_chained as Rot,
        rotate_chained_vjp as RotVjp,
        rotate_chained_jvp as RotJvp,
        rotate_chained_hvp as RotHvp,
    );
    assert_eq!(
        bits(&rotation("rotate_by_calls", typed)),
        bits(&rotation("rotate_chained", chained))
    );
    // The Jacobian against the matrix form's, by finite differences, and the typed one's.
    let (value, j) = rotate_chained_jacobian(&q, v);
    assert_eq!((value, j), rotate_by_calls_jacobian(&q, v));
    for (i, row) in j.iter().enumerate() {
        let f = |p: &[f64]| rotated(&quat(p), a3(&p[4..]))[i];
        close("Jacobian row against the matrix form", row, &numeric_gradient(f, &point()), 1e-7);
    }
}

/// A scalar function `(q, v) -> f64`'s derivatives.
type EnergyGrad = fn(&Quat, [f64; 3]) -> (f64, (Quat, [f64; 3]));
type EnergyJvp = fn(&Quat, [f64; 3], &Quat, [f64; 3]) -> (f64, f64);
type EnergyHvp = fn(&Quat, [f64; 3], &Quat, [f64; 3]) -> (f64, (Quat, [f64; 3]), (Quat, [f64; 3]));

/// Checks a scalar function `(q, v) -> f64` with the harness; returns everything it computes.
fn energy(
    what: &str,
    f: fn(&Quat, [f64; 3]) -> f64,
    (grad, jvp, hvp): (EnergyGrad, EnergyJvp, EnergyHvp),
) -> Vec<Vec<f64>> {
    let both = |q: Quat, v: [f64; 3]| scalars(&q).into_iter().chain(v).collect::<Vec<_>>();
    let scalar = Scalar {
        f: &|p| f(&quat(p), a3(&p[4..])),
        grad: &|p| {
            let (y, (gq, gv)) = grad(&quat(p), a3(&p[4..]));
            (y, both(gq, gv))
        },
        jvp: &|p, d| jvp(&quat(p), a3(&p[4..]), &quat(d), a3(&d[4..])),
        hvp: &|p, d| {
            let (y, (gq, gv), (hq, hv)) = hvp(&quat(p), a3(&p[4..]), &quat(d), a3(&d[4..]));
            (y, both(gq, gv), both(hq, hv))
        },
    };
    checked(what, &scalar, &point())
}

#[test]
fn energies_through_untyped_calls_and_their_fields_are_the_typed_ones_to_the_bit() {
    let typed = energy(
        "rotation_energy",
        rotation_energy,
        (rotation_energy_grad, rotation_energy_jvp, rotation_energy_hvp),
    );
    let untyped = energy(
        "rotation_energy_untyped",
        rotation_energy_untyped,
        (rotation_energy_untyped_grad, rotation_energy_untyped_jvp, rotation_energy_untyped_hvp),
    );
    assert_eq!(bits(&typed), bits(&untyped));
    let typed = energy(
        "call_fields_typed",
        call_fields_typed,
        (call_fields_typed_grad, call_fields_typed_jvp, call_fields_typed_hvp),
    );
    let untyped =
        energy("call_fields", call_fields, (call_fields_grad, call_fields_jvp, call_fields_hvp));
    assert_eq!(bits(&typed), bits(&untyped));
    let h = rotation_energy_untyped_hessian(&quat(&Q), V);
    assert_eq!(h, rotation_energy_hessian(&quat(&Q), V));
    for (i, row) in h.iter().enumerate() {
        for (j, hij) in row.iter().enumerate() {
            close("symmetry", &[*hij], &[h[j][i]], 1e-12);
        }
    }
}

/// A scalar function of a quaternion and a constant one's derivatives.
type FixedGrad = fn(&Quat, &Quat) -> (f64, Quat);
type FixedJvp = fn(&Quat, &Quat, &Quat) -> (f64, f64);
type FixedHvp = fn(&Quat, &Quat, &Quat) -> (f64, Quat, Quat);

/// A scalar function `(q, angles) -> f64`'s derivatives.
type AnglesGrad = fn(&Quat, [f64; 4]) -> (f64, (Quat, [f64; 4]));
type AnglesJvp = fn(&Quat, [f64; 4], &Quat, [f64; 4]) -> (f64, f64);
type AnglesHvp = fn(&Quat, [f64; 4], &Quat, [f64; 4]) -> (f64, (Quat, [f64; 4]), (Quat, [f64; 4]));

/// Checks a scalar function `(q, angles) -> f64` with the harness at `x`; returns everything it
/// computes.
fn of_angles(
    what: &str,
    f: fn(&Quat, [f64; 4]) -> f64,
    (grad, jvp, hvp): (AnglesGrad, AnglesJvp, AnglesHvp),
    x: &[f64],
) -> Vec<Vec<f64>> {
    let both = |q: Quat, a: [f64; 4]| scalars(&q).into_iter().chain(a).collect::<Vec<_>>();
    let scalar = Scalar {
        f: &|p| f(&quat(p), a4(&p[4..])),
        grad: &|p| {
            let (y, (g, ga)) = grad(&quat(p), a4(&p[4..]));
            (y, both(g, ga))
        },
        jvp: &|p, d| jvp(&quat(p), a4(&p[4..]), &quat(d), a4(&d[4..])),
        hvp: &|p, d| {
            let (y, (g, ga), (h, ha)) = hvp(&quat(p), a4(&p[4..]), &quat(d), a4(&d[4..]));
            (y, both(g, ga), both(h, ha))
        },
    };
    checked(what, &scalar, x)
}

/// A scalar method `(self, p) -> f64`'s derivatives.
type PairGrad = fn(&Quat, &Quat) -> (f64, (Quat, Quat));
type PairScalarJvp = fn(&Quat, &Quat, &Quat, &Quat) -> (f64, f64);
type PairScalarHvp = fn(&Quat, &Quat, &Quat, &Quat) -> (f64, (Quat, Quat), (Quat, Quat));

/// Checks a scalar method `(self, p) -> f64` with the harness; returns everything it computes.
fn of_pair(
    what: &str,
    f: fn(&Quat, &Quat) -> f64,
    (grad, jvp, hvp): (PairGrad, PairScalarJvp, PairScalarHvp),
) -> Vec<Vec<f64>> {
    let two = |p: &[f64]| (quat(p), quat(&p[4..]));
    let both = |a: Quat, b: Quat| scalars(&a).into_iter().chain(scalars(&b)).collect::<Vec<_>>();
    let scalar = Scalar {
        f: &|p| f(&quat(p), &quat(&p[4..])),
        grad: &|p| {
            let (a, o) = two(p);
            let (y, (ga, go)) = grad(&a, &o);
            (y, both(ga, go))
        },
        jvp: &|p, d| {
            let ((a, o), (da, dor)) = (two(p), two(d));
            jvp(&a, &o, &da, &dor)
        },
        hvp: &|p, d| {
            let ((a, o), (da, dor)) = (two(p), two(d));
            let (y, (ga, go), (ha, ho)) = hvp(&a, &o, &da, &dor);
            (y, both(ga, go), both(ha, ho))
        },
    };
    let x: Vec<f64> = Q.iter().chain(&[-0.4, 1.1, 0.7, -0.6]).copied().collect();
    checked(what, &scalar, &x)
}

#[test]
fn an_untyped_product_carried_by_a_loop_is_the_typed_one_to_the_bit() {
    let typed = quat_checks(
        "power_by_calls",
        power_by_calls,
        (power_by_calls_grad, power_by_calls_jvp, power_by_calls_hvp),
    );
    let untyped = quat_checks(
        "power_untyped",
        power_untyped,
        (power_untyped_grad, power_untyped_jvp, power_untyped_hvp),
    );
    assert_eq!(bits(&typed), bits(&untyped));
    let checkpointed = quat_checks(
        "power_untyped_checkpointed",
        power_untyped_checkpointed,
        (
            power_untyped_checkpointed_grad,
            power_untyped_checkpointed_jvp,
            power_untyped_checkpointed_hvp,
        ),
    );
    assert_eq!(bits(&typed), bits(&checkpointed));
    // The product itself returned: against finite differences, and the scalar above read from
    // it to the bit.
    let product = Vector {
        g: &|p| scalars(&power_quat(&quat(p))),
        vjp: &|p, b| {
            let (y, g) = power_quat_vjp(&quat(p), quat(b));
            (scalars(&y), scalars(&g))
        },
        jvp: &|p, d| {
            let (y, dy) = power_quat_jvp(&quat(p), &quat(d));
            (scalars(&y), scalars(&dy))
        },
        hvp: &|p, b, d, bd| {
            let (y, g, dy, h) = power_quat_hvp(&quat(p), quat(b), &quat(d), quat(bd));
            [scalars(&y), scalars(&g), scalars(&dy), scalars(&h)]
        },
    };
    let (v, _) = directions(4);
    product.check("power_quat", &Q, &[0.3, -1.0, 0.2, 0.9], &v, &[1.0, 0.5, -0.25, 0.1]);
    let acc = power_quat(&quat(&Q));
    let read = acc.w * acc.x + acc.y - acc.z * acc.z;
    assert_eq!(read.to_bits(), power_untyped(&quat(&Q)).to_bits());
    let (value, j) = power_quat_jacobian(&quat(&Q));
    assert_eq!(scalars(&value), scalars(&acc));
    for (i, row) in j.iter().enumerate() {
        let f = |p: &[f64]| scalars(&power_quat(&quat(p)))[i];
        close("power_quat Jacobian", row, &numeric_gradient(f, &Q), 1e-7);
    }
    // A product made afresh in each iteration, `let r = q.mul(&p);`.
    let angles = [0.3, -1.2, 2.0, 0.7];
    let x: Vec<f64> = Q.iter().chain(&angles).copied().collect();
    let typed = of_angles("turns", turns, (turns_grad, turns_jvp, turns_hvp), &x);
    let untyped = of_angles(
        "turns_untyped",
        turns_untyped,
        (turns_untyped_grad, turns_untyped_jvp, turns_untyped_hvp),
        &x,
    );
    assert_eq!(bits(&typed), bits(&untyped));
}

#[test]
fn a_sandwich_lent_to_a_method_as_it_is_made_is_the_bound_one_to_the_bit() {
    let typed = of_pair(
        "sandwich_dot",
        Quat::sandwich_dot,
        (Quat::sandwich_dot_grad, Quat::sandwich_dot_jvp, Quat::sandwich_dot_hvp),
    );
    let chained = of_pair(
        "sandwich_dot_chained",
        Quat::sandwich_dot_chained,
        (
            Quat::sandwich_dot_chained_grad,
            Quat::sandwich_dot_chained_jvp,
            Quat::sandwich_dot_chained_hvp,
        ),
    );
    assert_eq!(bits(&typed), bits(&chained));
}

#[test]
fn a_method_on_a_constant_struct_parameter_is_the_typed_one_to_the_bit() {
    let fixed = Quat { w: -0.4, x: 1.1, y: 0.7, z: -0.6 };
    let run =
        |what: &str, f: fn(&Quat, &Quat) -> f64, grad: FixedGrad, jvp: FixedJvp, hvp: FixedHvp| {
            let scalar = Scalar {
                f: &|p| f(&quat(p), &fixed),
                grad: &|p| {
                    let (y, g) = grad(&quat(p), &fixed);
                    (y, scalars(&g))
                },
                jvp: &|p, d| jvp(&quat(p), &fixed, &quat(d)),
                hvp: &|p, d| {
                    let (y, g, h) = hvp(&quat(p), &fixed, &quat(d));
                    (y, scalars(&g), scalars(&h))
                },
            };
            checked(what, &scalar, &Q)
        };
    let typed = run(
        "fixed_turn_typed",
        fixed_turn_typed,
        fixed_turn_typed_grad,
        fixed_turn_typed_jvp,
        fixed_turn_typed_hvp,
    );
    let untyped = run("fixed_turn", fixed_turn, fixed_turn_grad, fixed_turn_jvp, fixed_turn_hvp);
    assert_eq!(bits(&typed), bits(&untyped));
}

/// A scalar function `(q, a) -> f64`'s derivatives.
type TurnGrad = fn(&Quat, f64) -> (f64, (Quat, f64));
type TurnJvp = fn(&Quat, f64, &Quat, f64) -> (f64, f64);
type TurnHvp = fn(&Quat, f64, &Quat, f64) -> (f64, (Quat, f64), (Quat, f64));

/// Checks a scalar function `(q, a) -> f64` with the harness (finite differences, H·v, the
/// symmetry of H) and its Hessian against H·v; returns everything it computes.
fn of_turn(
    what: &str,
    f: fn(&Quat, f64) -> f64,
    (grad, jvp, hvp): (TurnGrad, TurnJvp, TurnHvp),
    hessian: fn(&Quat, f64) -> [[f64; 5]; 5],
) -> Vec<Vec<f64>> {
    let flat = |q: Quat, a: f64| scalars(&q).into_iter().chain([a]).collect::<Vec<_>>();
    let scalar = Scalar {
        f: &|p| f(&quat(p), p[4]),
        grad: &|p| {
            let (y, (q, a)) = grad(&quat(p), p[4]);
            (y, flat(q, a))
        },
        jvp: &|p, d| jvp(&quat(p), p[4], &quat(d), d[4]),
        hvp: &|p, d| {
            let (y, (q, a), (hq, ha)) = hvp(&quat(p), p[4], &quat(d), d[4]);
            (y, flat(q, a), flat(hq, ha))
        },
    };
    let x = [Q[0], Q[1], Q[2], Q[3], 0.7];
    let mut out = checked(what, &scalar, &x);
    let h = hessian(&quat(&x), x[4]);
    let (v, _) = directions(5);
    let hv: Vec<f64> = h.iter().map(|r| r.iter().zip(&v).map(|(a, b)| a * b).sum()).collect();
    close(&format!("{what}: Hessian against H·v"), &hv, &out[2], 1e-12);
    out.push(h.iter().flatten().copied().collect());
    out
}

#[test]
fn a_free_function_s_struct_value_bound_without_its_type_is_the_typed_one_to_the_bit() {
    let typed = of_turn(
        "turn_energy_typed",
        turn_energy_typed,
        (turn_energy_typed_grad, turn_energy_typed_jvp, turn_energy_typed_hvp),
        turn_energy_typed_hessian,
    );
    let untyped = of_turn(
        "turn_energy_untyped",
        turn_energy_untyped,
        (turn_energy_untyped_grad, turn_energy_untyped_jvp, turn_energy_untyped_hvp),
        turn_energy_untyped_hessian,
    );
    assert_eq!(bits(&typed), bits(&untyped));
}
