//! Program corpus derivatives against a hand-written reverse sweep and finite differences.

use autodiff_runtime::{Tolerance, central_difference, check_close, check_gradient, check_hvp};
use autodiff_suite::programs::{
    Params, SCALE, calibrate, calibrate_grad, calibrate_hessian, calibrate_hvp, calibrate_jvp,
    kinematics, kinematics_grad, kinematics_hessian, kinematics_hvp, kinematics_jvp, signal_chain,
    signal_chain_grad, signal_chain_hessian, signal_chain_hvp, signal_chain_jvp,
};

/// Finite differences against analytic derivatives: about eight good digits, so 1e-6.
const FD: Tolerance = Tolerance { epsilon: 1e-6, max_relative: 1e-6 };
/// Two analytic computations of the same quantity, differing only by rounding.
const EXACT: Tolerance = Tolerance { epsilon: 1e-12, max_relative: 1e-10 };

/// Directions for JVPs and HVPs; a program with `n` differentiated parameters uses the first `n`
/// components.
const DIRECTIONS: [[f64; 4]; 3] =
    [[1.0, 0.0, 0.0, 0.0], [0.3, -1.1, 0.7, 0.5], [-0.6, 0.25, 1.2, -0.9]];

/// Flattens the tuples the generated functions return.
trait Components {
    /// The components in parameter order.
    fn components(self) -> Vec<f64>;
}

/// `f64`, once per identifier: spells a tuple type of as many `f64` as there are bindings.
macro_rules! f64_for {
    ($t:ident) => {
        f64
    };
}

macro_rules! impl_components {
    ($($t:ident),+) => {
        impl Components for ($(f64_for!($t),)+) {
            fn components(self) -> Vec<f64> {
                let ($($t,)+) = self;
                vec![$($t),+]
            }
        }
    };
}
impl_components!(a, b);
impl_components!(a, b, c);
impl_components!(a, b, c, d);

/// A Hessian array as rows.
fn rows<const N: usize>(h: [[f64; N]; N]) -> Vec<Vec<f64>> {
    h.iter().map(|row| row.to_vec()).collect()
}

/// What an HVP returns, flattened: value, gradient, H·v.
type Hvp = (f64, Vec<f64>, Vec<f64>);

/// One corpus program seen through slices. A point holds every parameter as an `f64` (integers
/// and passive data too); `active` lists the differentiated ones, in the order of the gradient.
struct Program {
    name: &'static str,
    active: &'static [usize],
    f: fn(&[f64]) -> f64,
    grad: fn(&[f64]) -> (f64, Vec<f64>),
    jvp: fn(&[f64], &[f64]) -> (f64, f64),
    hvp: fn(&[f64], &[f64]) -> Hvp,
    hessian: fn(&[f64]) -> Vec<Vec<f64>>,
    points: &'static [&'static [f64]],
}

impl Program {
    /// `point` with its active coordinates replaced by `a`.
    fn embed(&self, point: &[f64], a: &[f64]) -> Vec<f64> {
        let mut full = point.to_vec();
        for (&i, &ai) in self.active.iter().zip(a) {
            full[i] = ai;
        }
        full
    }

    /// The active coordinates of `point`.
    fn project(&self, point: &[f64]) -> Vec<f64> {
        self.active.iter().map(|&i| point[i]).collect()
    }

    /// The function of the active coordinates only, everything else fixed as in `point`.
    fn restricted(&self, point: &[f64]) -> impl Fn(&[f64]) -> f64 {
        move |a: &[f64]| (self.f)(&self.embed(point, a))
    }

    /// The generated gradient as a function of the active coordinates only.
    fn restricted_grad(&self, point: &[f64]) -> impl Fn(&[f64]) -> Vec<f64> {
        move |a: &[f64]| (self.grad)(&self.embed(point, a)).1
    }

    /// The directions, cut to the number of differentiated parameters.
    fn directions(&self) -> impl Iterator<Item = &'static [f64]> {
        DIRECTIONS.iter().map(|d| &d[..self.active.len()])
    }
}

/// `signal_chain(x, y, z, n, data)` at `[x, y, z, n, data0, data1, data2]`.
const SIGNAL_CHAIN: Program = Program {
    name: "signal_chain",
    active: &[0, 1, 2],
    f: |p| signal_chain(p[0], p[1], p[2], p[3] as i32, &p[4..7]),
    grad: |p| {
        let (value, g) = signal_chain_grad(p[0], p[1], p[2], p[3] as i32, &p[4..7]);
        (value, g.components())
    },
    jvp: |p, v| signal_chain_jvp(p[0], p[1], p[2], p[3] as i32, &p[4..7], v[0], v[1], v[2]),
    hvp: |p, v| {
        let (value, g, hv) =
            signal_chain_hvp(p[0], p[1], p[2], p[3] as i32, &p[4..7], v[0], v[1], v[2]);
        (value, g.components(), hv.components())
    },
    hessian: |p| rows(signal_chain_hessian(p[0], p[1], p[2], p[3] as i32, &p[4..7])),
    points: &[
        &[0.7, -0.4, 1.1, 3.0, 0.8, -1.3, 2.0],
        &[1.3, 0.8, -0.6, 3.0, 0.8, -1.3, 2.0],
        // Here `b < c`, so `b.max(c)` takes the other branch.
        &[-0.9, 1.5, 0.3, -2.0, 1.5, 0.4, -0.7],
        &[0.4, 0.6, 0.2, 5.0, -0.3, 2.0, 0.5],
    ],
};

/// `kinematics(a, b, c, d, &r, &Params { gain, offset })` at `[a, b, c, d, r, gain, offset]`.
const KINEMATICS: Program = Program {
    name: "kinematics",
    active: &[0, 1, 2, 3],
    f: |p| kinematics(p[0], p[1], p[2], p[3], &p[4], &Params { gain: p[5], offset: p[6] }),
    grad: |p| {
        let params = Params { gain: p[5], offset: p[6] };
        let (value, g) = kinematics_grad(p[0], p[1], p[2], p[3], &p[4], &params);
        (value, g.components())
    },
    jvp: |p, v| {
        let params = Params { gain: p[5], offset: p[6] };
        kinematics_jvp(p[0], p[1], p[2], p[3], &p[4], &params, v[0], v[1], v[2], v[3])
    },
    hvp: |p, v| {
        let params = Params { gain: p[5], offset: p[6] };
        let (value, g, hv) =
            kinematics_hvp(p[0], p[1], p[2], p[3], &p[4], &params, v[0], v[1], v[2], v[3]);
        (value, g.components(), hv.components())
    },
    hessian: |p| {
        let params = Params { gain: p[5], offset: p[6] };
        rows(kinematics_hessian(p[0], p[1], p[2], p[3], &p[4], &params))
    },
    // Chosen away from the jumps of floor/ceil/round/trunc/signum and from min/max ties; the
    // `min` and the `max` take each of their branches at some point.
    points: &[
        &[0.35, 0.9, 1.7, 0.25, 1.3, 0.8, 0.2],
        &[-0.45, 1.3, 2.2, -0.3, 0.6, 1.5, -0.4],
        &[0.55, 0.6, 1.3, -0.65, 2.0, -0.7, 1.1],
    ],
};

/// `calibrate(p, q, r, s, n)` at `[p, q, r, s, n]`, differentiated in `p` and `r` only.
const CALIBRATE: Program = Program {
    name: "calibrate",
    active: &[0, 2],
    f: |p| calibrate(p[0], p[1], p[2], p[3], p[4] as i32),
    grad: |p| {
        let (value, g) = calibrate_grad(p[0], p[1], p[2], p[3], p[4] as i32);
        (value, g.components())
    },
    jvp: |p, v| calibrate_jvp(p[0], p[1], p[2], p[3], p[4] as i32, v[0], v[1]),
    hvp: |p, v| {
        let (value, g, hv) = calibrate_hvp(p[0], p[1], p[2], p[3], p[4] as i32, v[0], v[1]);
        (value, g.components(), hv.components())
    },
    hessian: |p| rows(calibrate_hessian(p[0], p[1], p[2], p[3], p[4] as i32)),
    // The second point makes `g5.max(pr * 4.0)` take its argument.
    points: &[
        &[0.6, 0.8, -0.5, 0.3, 3.0],
        &[1.1, -0.5, 0.7, -0.2, 2.0],
        &[-0.8, 1.4, 0.4, 0.9, 4.0],
    ],
};

const PROGRAMS: [&Program; 3] = [&SIGNAL_CHAIN, &KINEMATICS, &CALIBRATE];

/// Runs `check` at every point of every program.
fn for_each_point(check: impl Fn(&Program, &[f64])) {
    for program in PROGRAMS {
        for point in program.points {
            check(program, point);
        }
    }
}

/// Asserts that two vectors agree component by component within `tol`.
fn assert_agree(what: &str, actual: &[f64], expected: &[f64], tol: Tolerance) {
    if let Err(mismatch) = check_close(actual, expected, tol) {
        panic!("{what}: {mismatch}");
    }
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Central difference of `t -> f(point + t v)` at `t = 0`, with the step of `numeric_hvp`.
fn directional_difference(program: &Program, point: &[f64], v: &[f64]) -> f64 {
    let a = program.project(point);
    let scale = a.iter().fold(1.0_f64, |m, ai| m.max(ai.abs()));
    let norm = v.iter().fold(0.0_f64, |m, vi| m.max(vi.abs()));
    let h = f64::EPSILON.cbrt() * scale / norm;
    let along = |t: &[f64]| {
        let moved: Vec<f64> = a.iter().zip(v).map(|(ai, vi)| ai + t[0] * vi).collect();
        program.restricted(point)(&moved)
    };
    central_difference(along, &[0.0], 0, h)
}

#[test]
fn gradients_match_finite_differences() {
    for_each_point(|program, point| {
        let (value, grad) = (program.grad)(point);
        assert!(EXACT.agree(value, (program.f)(point)), "{}: value at {point:?}", program.name);
        assert_eq!(grad.len(), program.active.len());
        let checked = check_gradient(program.restricted(point), &program.project(point), &grad, FD);
        if let Err(mismatch) = checked {
            panic!("{} at {point:?}: {mismatch}", program.name);
        }
    });
}

#[test]
fn dead_nan_intermediates_leave_every_derivative_finite() {
    for_each_point(|program, point| {
        let (_, grad) = (program.grad)(point);
        let (_, _, hv) = (program.hvp)(point, &DIRECTIONS[1][..program.active.len()]);
        let hessian = (program.hessian)(point).concat();
        let all: Vec<f64> = grad.into_iter().chain(hv).chain(hessian).collect();
        assert!(all.iter().all(|d| d.is_finite()), "{} at {point:?}: {all:?}", program.name);
    });
}

#[test]
fn jvps_match_directional_differences_and_gradient_dot_direction() {
    for_each_point(|program, point| {
        let (value, grad) = (program.grad)(point);
        for v in program.directions() {
            let (jvp_value, jvp) = (program.jvp)(point, v);
            let what = format!("{} at {point:?} along {v:?}", program.name);
            assert!(EXACT.agree(jvp_value, value), "{what}: value {jvp_value} vs {value}");
            assert!(EXACT.agree(jvp, dot(&grad, v)), "{what}: jvp {jvp} vs grad·v");
            let numeric = directional_difference(program, point, v);
            assert!(FD.agree(jvp, numeric), "{what}: jvp {jvp} vs finite difference {numeric}");
        }
    });
}

#[test]
fn hvps_match_finite_differences_of_the_gradient() {
    for_each_point(|program, point| {
        let (value, grad) = (program.grad)(point);
        for v in program.directions() {
            let (hvp_value, hvp_grad, hv) = (program.hvp)(point, v);
            let what = format!("{} at {point:?} along {v:?}", program.name);
            assert!(EXACT.agree(hvp_value, value), "{what}: value {hvp_value} vs {value}");
            assert_agree(&format!("{what}: gradient"), &hvp_grad, &grad, EXACT);
            let a = program.project(point);
            if let Err(mismatch) = check_hvp(program.restricted_grad(point), &a, v, &hv, FD) {
                panic!("{what}: {mismatch}");
            }
        }
    });
}

#[test]
fn hessians_are_symmetric_and_their_columns_are_hvps() {
    for_each_point(|program, point| {
        let hessian = (program.hessian)(point);
        let n = program.active.len();
        assert_eq!(hessian.len(), n);
        let size = hessian.concat().iter().fold(1.0_f64, |m, h| m.max(h.abs()));
        for j in 0..n {
            let mut unit = vec![0.0; n];
            unit[j] = 1.0;
            let (_, _, hv) = (program.hvp)(point, &unit);
            let column: Vec<f64> = hessian.iter().map(|row| row[j]).collect();
            assert_agree(
                &format!("{} at {point:?}: column {j}", program.name),
                &column,
                &hv,
                EXACT,
            );
            for (i, row) in hessian.iter().enumerate() {
                let gap = (row[j] - hessian[j][i]).abs();
                assert!(gap <= 1e-12 * size, "{}: H[{i}][{j}] != H[{j}][{i}]", program.name);
            }
        }
    });
}

#[test]
fn hvps_are_symmetric_bilinear_forms() {
    for_each_point(|program, point| {
        let mut directions = program.directions();
        let (v, w) = (directions.nth(1).unwrap(), directions.next().unwrap());
        let (_, _, hv) = (program.hvp)(point, v);
        let (_, _, hw) = (program.hvp)(point, w);
        let (w_hv, v_hw) = (dot(w, &hv), dot(v, &hw));
        assert!(EXACT.agree(w_hv, v_hw), "{} at {point:?}: {w_hv} vs {v_hw}", program.name);
    });
}

#[test]
fn parameters_left_out_of_wrt_are_constants_that_still_shape_the_gradient() {
    // `calibrate` differentiates `p` and `r` only: its gradient has two components, and moving `q`
    // or `s` (which finite differences never perturb) changes that gradient as the finite
    // differences of the moved function do.
    let base = [0.6, 0.8, -0.5, 0.3, 3.0];
    let moved_q = [0.6, 1.1, -0.5, 0.3, 3.0];
    let moved_s = [0.6, 0.8, -0.5, -0.4, 3.0];
    let (_, g_base) = (CALIBRATE.grad)(&base);
    for moved in [moved_q, moved_s] {
        let (_, g_moved) = (CALIBRATE.grad)(&moved);
        assert!(g_moved.iter().zip(&g_base).any(|(a, b)| (a - b).abs() > 1e-3));
        let checked = check_gradient(CALIBRATE.restricted(&moved), &[0.6, -0.5], &g_moved, FD);
        assert_eq!(checked, Ok(()));
    }
}

#[test]
fn signal_chain_gradient_matches_a_hand_written_reverse_sweep() {
    for point in SIGNAL_CHAIN.points {
        let (value, grad) = (SIGNAL_CHAIN.grad)(point);
        let (expected_value, expected) =
            signal_chain_by_hand(point[0], point[1], point[2], point[3] as i32, &point[4..7]);
        assert!(EXACT.agree(value, expected_value), "value at {point:?}");
        assert_agree(&format!("gradient at {point:?}"), &grad, &expected, EXACT);
    }
}

/// `signal_chain` and its gradient, written by hand: the primal with every overwritten value
/// given its own name (`acc1`..`acc5`, `p1`..`p5`, `tot1`..`tot7`, `x2`, `y2`, `z2`), then the
/// adjoints statement by statement in reverse order. Independent of the macro.
fn signal_chain_by_hand(x: f64, y: f64, z: f64, n: i32, data: &[f64]) -> (f64, [f64; 3]) {
    use std::f64::consts::PI;
    // Primal.
    let k = f64::from(n);
    let (w0, w1, w2) = (data[0], data[1], data[2]);
    let s = x * y;
    let (c, sn) = (s.cos(), s.sin());
    let e = (0.5 * z).exp();
    let r = x.hypot(z);
    let q = (1.0 + s * s).ln();
    let acc1 = s + e;
    let acc2 = acc1 + c * w0;
    let kf = 1.0 + 0.1 * k;
    let acc3 = acc2 * kf;
    let acc4 = acc3 - sn * q;
    let acc5 = acc4 / (1.0 + r);
    let x2 = 2.0 * x;
    let t = x2.tanh();
    let u = s * t + w1;
    let v = u * u;
    let d = 1.0 + z * z;
    let a = y.atan2(d);
    let b = a * s + e;
    let b_wins = b >= c;
    let m = if b_wins { b } else { c };
    let g = (1.0 + m * m).sqrt();
    let h = 1.0 / g;
    let p1 = SCALE * s;
    let p2 = p1.sin() + h;
    let p3 = p2 * e;
    let p4 = p3 + 0.25 * v;
    let p5 = p4 - k * w2 * h;
    let ang = PI * t / 4.0;
    let (ca, sa) = (ang.cos(), ang.sin());
    let rx = ca * x2 - sa * y;
    let ry = sa * x2 + ca * y;
    let rad = (rx * rx + ry * ry).sqrt();
    let lr = (1.0 + rad).ln();
    let y2 = y * y + 1.0;
    let (yl, ys) = (y2.ln(), y2.sqrt());
    let mix = yl * ys - s / y2;
    let z2 = z - 0.1 * s;
    let (zc, ze) = (z2.cos(), (-z2 * z2).exp());
    let zz = zc * ze + s;
    let tot2 = acc5 + p5;
    let tot3 = tot2 - 0.5 * lr;
    let fm = 1.0 + 0.01 * mix * mix;
    let tot4 = tot3 * fm;
    let tot5 = tot4 + zz * s;
    let fd = 1.0 + 0.1 * s * s;
    let tot6 = tot5 / fd;
    let ab = (s - 3.0).abs();
    let sc = s.exp() * w0;
    let tot7 = tot6 + 0.1 * ab + 0.01 * sc;
    let fa = 1.0 + 0.1 * t.atan();
    let fin = tot7 * fa;
    let e_min_3 = e <= 3.0;
    let out = fin + 0.05 * s * s * s - if e_min_3 { e } else { 3.0 };

    // Adjoints, last statement first.
    let (mut s_bar, mut e_bar, mut t_bar, mut y_bar, mut z_bar) = (0.0, 0.0, 0.0, 0.0, 0.0);
    // out = fin + 0.05 s³ - e.min(3)
    let fin_bar = 1.0;
    s_bar += 0.15 * s * s;
    e_bar -= if e_min_3 { 1.0 } else { 0.0 };
    // fin = tot7 · fa; fa = 1 + 0.1 atan(t)
    let tot7_bar = fin_bar * fa;
    t_bar += fin_bar * tot7 * 0.1 / (1.0 + t * t);
    // tot7 = tot6 + 0.1 |s - 3| + 0.01 e^s w0
    let tot6_bar = tot7_bar;
    s_bar += tot7_bar * 0.1 * (s - 3.0).signum();
    s_bar += tot7_bar * 0.01 * sc;
    // tot6 = tot5 / (1 + 0.1 s²)
    let tot5_bar = tot6_bar / fd;
    s_bar -= tot6_bar * tot5 / (fd * fd) * 0.2 * s;
    // tot5 = tot4 + zz · s
    let tot4_bar = tot5_bar;
    let zz_bar = tot5_bar * s;
    s_bar += tot5_bar * zz;
    // tot4 = tot3 · (1 + 0.01 mix²)
    let tot3_bar = tot4_bar * fm;
    let mix_bar = tot4_bar * tot3 * 0.02 * mix;
    // tot3 = tot2 - 0.5 lr; tot2 = acc5 + p5
    let lr_bar = -0.5 * tot3_bar;
    let (acc5_bar, p5_bar) = (tot3_bar, tot3_bar);
    // zz = zc · ze + s; ze = exp(-z2²); zc = cos z2
    s_bar += zz_bar;
    let z2_bar = zz_bar * zc * ze * (-2.0 * z2) - zz_bar * ze * z2.sin();
    // z2 = z - 0.1 s
    z_bar += z2_bar;
    s_bar -= 0.1 * z2_bar;
    // mix = ln(y2) √y2 - s / y2
    let y2_bar = mix_bar * (ys / y2 + yl / (2.0 * ys) + s / (y2 * y2));
    s_bar -= mix_bar / y2;
    // y2 = y² + 1
    y_bar += y2_bar * 2.0 * y;
    // lr = ln(1 + rad); rad = |(rx, ry)|
    let rad_bar = lr_bar / (1.0 + rad);
    let (rx_bar, ry_bar) = (rad_bar * rx / rad, rad_bar * ry / rad);
    // ry = sa x2 + ca y; rx = ca x2 - sa y
    let sa_bar = ry_bar * x2 - rx_bar * y;
    let ca_bar = ry_bar * y + rx_bar * x2;
    let mut x2_bar = ry_bar * sa + rx_bar * ca;
    y_bar += ry_bar * ca - rx_bar * sa;
    // sa = sin ang; ca = cos ang; ang = π t / 4
    let ang_bar = sa_bar * ca - ca_bar * sa;
    t_bar += ang_bar * PI / 4.0;
    // p5 = p4 - k w2 h; p4 = p3 + 0.25 v; p3 = p2 e; p2 = sin p1 + h; p1 = SCALE s
    let mut h_bar = -p5_bar * k * w2;
    let v_bar = 0.25 * p5_bar;
    let p2_bar = p5_bar * e;
    e_bar += p5_bar * p2;
    h_bar += p2_bar;
    s_bar += p2_bar * p1.cos() * SCALE;
    // h = 1 / g; g = √(1 + m²)
    let g_bar = -h_bar / (g * g);
    let m_bar = g_bar * m / g;
    // m = b.max(c): all to the branch taken
    let (b_bar, mut c_bar) = if b_wins { (m_bar, 0.0) } else { (0.0, m_bar) };
    // b = a s + e
    let a_bar = b_bar * s;
    s_bar += b_bar * a;
    e_bar += b_bar;
    // a = atan2(y, d), d = 1 + z²
    let norm2 = y * y + d * d;
    y_bar += a_bar * d / norm2;
    z_bar += a_bar * (-y / norm2) * 2.0 * z;
    // v = u²; u = s t + w1
    let u_bar = v_bar * 2.0 * u;
    s_bar += u_bar * t;
    t_bar += u_bar * s;
    // t = tanh x2; x2 = 2x
    x2_bar += t_bar * (1.0 - t * t);
    let mut x_bar = 2.0 * x2_bar;
    // acc5 = acc4 / (1 + r)
    let acc4_bar = acc5_bar / (1.0 + r);
    let r_bar = -acc5_bar * acc4 / ((1.0 + r) * (1.0 + r));
    // acc4 = acc3 - sn q; acc3 = acc2 kf; acc2 = acc1 + c w0; acc1 = s + e
    let (sn_bar, q_bar) = (-acc4_bar * q, -acc4_bar * sn);
    let acc2_bar = acc4_bar * kf;
    c_bar += acc2_bar * w0;
    s_bar += acc2_bar;
    e_bar += acc2_bar;
    // q = ln(1 + s²); r = hypot(x, z); e = exp(z / 2); sn = sin s; c = cos s
    s_bar += q_bar * 2.0 * s / (1.0 + s * s);
    x_bar += r_bar * x / r;
    z_bar += r_bar * z / r + e_bar * 0.5 * e;
    s_bar += sn_bar * c - c_bar * sn;
    // s = x y
    x_bar += s_bar * y;
    y_bar += s_bar * x;
    (out, [x_bar, y_bar, z_bar])
}
