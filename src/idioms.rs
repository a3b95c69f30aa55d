//! Idiomatic Rust under `#[grad]`: iterator chains, `for` over collections, `match`, closures,
//! patterns and arrays built from closures, each beside its index-loop twin (the same arithmetic
//! in the same order, written with `for i in 0..N` and indexing), which `tests/idioms.rs` checks
//! it against bit for bit, and both against finite differences and closed forms.
//!
//! This module is also the lint check of the idioms: the crate denies every warning and every
//! `clippy::all` lint, the user's own functions included, so these are written as clippy wants
//! them (no `needless_range_loop`), and so is what `#[grad]` generates from them.

use autodiff_runtime::grad;

/// Constant data the functions read.
pub const DATA: [f64; 4] = [1.5, -0.5, 2.0, 0.25];

/// The length of the arrays the functions take.
pub const N: usize = 4;

/// `const fn` giving a loop bound, as ported code often has.
pub const fn pairs(n: usize) -> usize {
    n * (n - 1) / 2
}

// ---------------------------------------------------------------------------------------------
// Reductions

/// `x·y` by an iterator chain.
#[grad(jvp, hvp, hessian, wrt(x))]
pub fn dot(x: [f64; N], y: &[f64; N]) -> f64 {
    x.iter().zip(y).map(|(a, b)| a * b).sum::<f64>()
}

/// [`dot`]'s twin.
#[grad(jvp, hvp, hessian, wrt(x))]
#[allow(clippy::needless_range_loop)]
pub fn dot_twin(x: [f64; N], y: &[f64; N]) -> f64 {
    let mut s = -0.0;
    for i in 0..N {
        s += x[i] * y[i];
    }
    s
}

/// Σ (xᵢ·dᵢ)² over constant data, with `enumerate` weights, `fold`, a `product` and `filter`.
#[grad(jvp, hvp, hessian)]
pub fn reductions(x: [f64; N], data: &[f64]) -> f64 {
    let weighted: f64 = x.iter().enumerate().map(|(i, v)| v * (i as f64 + 1.0)).sum();
    let squares = x.iter().zip(data).fold(0.5, |acc, (a, d)| acc + (a * d) * (a * d));
    let prod: f64 = x.iter().map(|v| v.cos()).product();
    let positive: f64 = x.iter().filter(|v| **v > 0.0).map(|v| v.exp()).sum();
    weighted + squares + prod + positive
}

/// [`reductions`]'s twin.
#[grad(jvp, hvp, hessian)]
#[allow(clippy::needless_range_loop)]
pub fn reductions_twin(x: [f64; N], data: &[f64]) -> f64 {
    let mut weighted = -0.0;
    for i in 0..N {
        weighted += x[i] * (i as f64 + 1.0);
    }
    let mut squares = 0.5;
    for i in 0..N.min(data.len()) {
        squares += (x[i] * data[i]) * (x[i] * data[i]);
    }
    let mut prod = 1.0;
    for i in 0..N {
        prod *= x[i].cos();
    }
    let mut positive = -0.0;
    for i in 0..N {
        if x[i] > 0.0 {
            positive += x[i].exp();
        }
    }
    weighted + squares + prod + positive
}

/// max and min by `fold` with `f64::max` and `f64::min`.
#[grad(jvp, hvp)]
pub fn extremes(x: [f64; N]) -> f64 {
    let hi = x.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let lo = x.iter().fold(f64::INFINITY, |m, v| m.min(*v));
    hi * hi - lo
}

/// [`extremes`]'s twin.
#[grad(jvp, hvp)]
#[allow(clippy::needless_range_loop)]
pub fn extremes_twin(x: [f64; N]) -> f64 {
    let mut hi = f64::NEG_INFINITY;
    let mut lo = f64::INFINITY;
    for i in 0..N {
        hi = hi.max(x[i]);
    }
    for i in 0..N {
        lo = lo.min(x[i]);
    }
    hi * hi - lo
}

/// `reduce(f)` unwrapped: a largest element, a product after a `filter`, and a closure folding
/// a log-sum-exp, with a method on what it gives.
#[grad(jvp, hvp)]
pub fn reduced(x: [f64; N]) -> f64 {
    let hi = x.iter().copied().reduce(f64::max).unwrap();
    let below = x.iter().copied().filter(|v| *v < hi).reduce(|a, b| a * b).expect("N > 1");
    let soft = x.iter().map(|v| v * 0.5).reduce(|a, b| (a.exp() + b.exp()).ln()).unwrap().exp();
    hi * below + soft
}

/// [`reduced`]'s twin, as written by hand.
#[grad(jvp, hvp)]
#[allow(clippy::needless_range_loop)]
pub fn reduced_twin(x: [f64; N]) -> f64 {
    let mut hi = x[0];
    for i in 1..N {
        hi = hi.max(x[i]);
    }
    let mut below = 1.0;
    for i in 0..N {
        if x[i] < hi {
            below *= x[i];
        }
    }
    let mut soft = x[0] * 0.5;
    for i in 1..N {
        soft = (soft.exp() + (x[i] * 0.5).exp()).ln();
    }
    hi * below + soft.exp()
}

/// Chains over array literals: the largest of a few values, a log-sum-exp of two terms, and a
/// repeated value `[v; 3]`.
#[grad(jvp, hvp)]
pub fn literal_chains(x: [f64; N]) -> f64 {
    let top = [x[0], x[1] * x[2], 0.5].iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let soft = [x[3], -x[0]].iter().map(|v| v.exp()).sum::<f64>().ln();
    let rep = [x[1]; 3].iter().enumerate().map(|(i, v)| v * i as f64).sum::<f64>();
    top + soft + rep
}

/// [`literal_chains`]'s twin, unrolled by hand.
#[grad(jvp, hvp)]
pub fn literal_chains_twin(x: [f64; N]) -> f64 {
    let top = f64::NEG_INFINITY.max(x[0]).max(x[1] * x[2]).max(0.5);
    let mut soft = -0.0;
    soft += x[3].exp();
    soft += (-x[0]).exp();
    let mut rep = -0.0;
    for i in 0..3 {
        rep += x[1] * i as f64;
    }
    top + soft.ln() + rep
}

/// Mean and variance by a `fold` carrying a tuple.
#[grad(jvp, hvp, hessian)]
pub fn moments(x: [f64; N]) -> f64 {
    let (s, ss) = x.iter().fold((0.0, 0.0), |(s, ss), v| (s + v, ss + v * v));
    let mean = s / N as f64;
    ss / N as f64 - mean * mean
}

/// [`moments`]'s twin.
#[grad(jvp, hvp, hessian)]
#[allow(clippy::needless_range_loop)]
pub fn moments_twin(x: [f64; N]) -> f64 {
    let mut s = 0.0;
    let mut ss = 0.0;
    for i in 0..N {
        s += x[i];
        ss += x[i] * x[i];
    }
    let mean = s / N as f64;
    ss / N as f64 - mean * mean
}

// ---------------------------------------------------------------------------------------------
// Loops over collections

/// `for` over an array, a slice, `iter()`, `copied()`, `zip` (nested), `rev`, `skip`, `take`
/// and `step_by`.
#[grad(jvp, hvp, hessian)]
pub fn loops(x: [f64; N], data: &[f64]) -> f64 {
    let mut s = 0.0;
    for v in x {
        s += v * v;
    }
    for &d in data {
        s += d * x[0];
    }
    for v in x.iter().copied().rev().skip(1) {
        s = s * 0.5 + v;
    }
    for (a, (b, d)) in x.iter().zip(x.iter().skip(1).zip(data.iter())) {
        s += a * b * d;
    }
    for (i, v) in x.iter().enumerate().take(3) {
        s += v.sin() * i as f64;
    }
    for v in x.iter().step_by(2) {
        s *= 1.0 + v * v;
    }
    s
}

/// [`loops`]'s twin.
#[grad(jvp, hvp, hessian)]
#[allow(clippy::needless_range_loop)]
pub fn loops_twin(x: [f64; N], data: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..N {
        s += x[i] * x[i];
    }
    for i in 0..data.len() {
        s += data[i] * x[0];
    }
    for i in 0..N - 1 {
        s = s * 0.5 + x[N - 1 - (i + 1)];
    }
    for i in 0..(N - 1).min(data.len()) {
        s += x[i] * x[i + 1] * data[i];
    }
    for i in 0..3 {
        s += x[i].sin() * i as f64;
    }
    for i in 0..N.div_ceil(2) {
        s *= 1.0 + x[i * 2] * x[i * 2];
    }
    s
}

/// Extended Rosenbrock by `windows(2)`, `chunks(2)` over constant data, and a slice of `x`.
#[grad(jvp, hvp, hessian)]
pub fn windows(x: [f64; N], data: &[f64]) -> f64 {
    let rosen: f64 =
        x.windows(2).map(|w| 100.0 * (w[1] - w[0] * w[0]).powi(2) + (1.0 - w[0]).powi(2)).sum();
    let mut s = rosen;
    for c in data.chunks(2) {
        s += x[1] * c[0] * c.len() as f64;
    }
    let mid = &x[1..3];
    s + mid[0] * mid[1] + mid.iter().sum::<f64>()
}

/// [`windows`]'s twin.
#[grad(jvp, hvp, hessian)]
pub fn windows_twin(x: [f64; N], data: &[f64]) -> f64 {
    let mut rosen = -0.0;
    for i in 0..N - 1 {
        rosen += 100.0 * (x[i + 1] - x[i] * x[i]).powi(2) + (1.0 - x[i]).powi(2);
    }
    let mut s = rosen;
    for i in 0..data.len().div_ceil(2) {
        let len = (i * 2 + 2).min(data.len()) - i * 2;
        s += x[1] * data[i * 2] * len as f64;
    }
    let mut mid = -0.0;
    for i in 0..2 {
        mid += x[1 + i];
    }
    s + x[1] * x[2] + mid
}

/// A `for_each`, an `(a..b).map(..)` and a range with `step_by`.
#[grad(jvp, hvp)]
pub fn ranges(x: [f64; N]) -> f64 {
    let mut t = 0.0;
    x.iter().for_each(|v| t += v.exp());
    let tri: f64 = (1..N).map(|i| x[i] * x[i - 1]).sum();
    let mut e = 0.0;
    for i in (0..N).step_by(2) {
        e += x[i];
    }
    t + tri * e
}

/// [`ranges`]'s twin.
#[grad(jvp, hvp)]
#[allow(clippy::needless_range_loop)]
pub fn ranges_twin(x: [f64; N]) -> f64 {
    let mut t = 0.0;
    for i in 0..N {
        t += x[i].exp();
    }
    let mut tri = -0.0;
    for i in 0..N - 1 {
        tri += x[1 + i] * x[1 + i - 1];
    }
    let mut e = 0.0;
    for i in 0..N.div_ceil(2) {
        e += x[i * 2];
    }
    t + tri * e
}

// ---------------------------------------------------------------------------------------------
// Arrays built from closures, closures, `match` and patterns

/// `x.map(..)` and `std::array::from_fn(..)`, returning an array.
#[grad(jvp, jacobian)]
pub fn built(x: [f64; 3]) -> [f64; 3] {
    let squares = x.map(|v| v * v);
    std::array::from_fn(|i| squares[i] + x[(i + 1) % 3].sin())
}

/// [`built`]'s twin.
#[grad(jvp, jacobian)]
#[allow(clippy::needless_range_loop)]
pub fn built_twin(x: [f64; 3]) -> [f64; 3] {
    let mut squares = [0.0; 3];
    for i in 0..3 {
        squares[i] = x[i] * x[i];
    }
    let mut out = [0.0; 3];
    for i in 0..3 {
        out[i] = squares[i] + x[(i + 1) % 3].sin();
    }
    out
}

/// Closures bound in the body, capturing locals (one shadowed after the closure is written),
/// returning a tuple, and passed to adaptors.
#[grad(jvp, hvp, hessian)]
pub fn closures(x: [f64; N]) -> f64 {
    let k = 3.0;
    let scaled_square = |t: f64| k * t * t;
    let k = 100.0;
    let polar = |r: f64, t: f64| (r * t.cos(), r * t.sin());
    let (a, b) = polar(x[0], x[1]);
    let total: f64 = x.iter().map(|v| scaled_square(*v)).sum();
    total + k * a * b
}

/// [`closures`]'s twin.
#[grad(jvp, hvp, hessian)]
#[allow(clippy::needless_range_loop)]
pub fn closures_twin(x: [f64; N]) -> f64 {
    let k = 100.0;
    let a = x[0] * x[1].cos();
    let b = x[0] * x[1].sin();
    let mut total = -0.0;
    for i in 0..N {
        total += 3.0 * x[i] * x[i];
    }
    total + k * a * b
}

/// `match` on an integer (literals, `|`, ranges, guards comparing `f64`s, a binding) as a value
/// and as a statement, and on a `bool`.
#[grad(jvp, hvp, hessian)]
pub fn matches(x: [f64; 2], mode: usize) -> f64 {
    let w = match mode {
        0 => 1.0,
        1 | 2 => x[0],
        3..=5 if x[0] > x[1] => x[0] * x[1],
        3..=5 => x[1].exp(),
        m => m as f64 * x[0].sin(),
    };
    let mut s = w * x[1];
    match mode % 2 {
        0 => s += x[0],
        _ => {
            s *= 2.0;
        }
    }
    match x[0] > 0.0 {
        true => s + x[0].sqrt(),
        false => s,
    }
}

/// [`matches()`]'s twin.
#[grad(jvp, hvp, hessian)]
#[allow(clippy::manual_range_contains, clippy::manual_is_multiple_of)]
pub fn matches_twin(x: [f64; 2], mode: usize) -> f64 {
    let w = if mode == 0 {
        1.0
    } else if mode == 1 || mode == 2 {
        x[0]
    } else if mode >= 3 && mode <= 5 && x[0] > x[1] {
        x[0] * x[1]
    } else if mode >= 3 && mode <= 5 {
        x[1].exp()
    } else {
        mode as f64 * x[0].sin()
    };
    let mut s = w * x[1];
    if mode % 2 == 0 {
        s += x[0];
    } else {
        s *= 2.0;
    }
    if x[0] > 0.0 { s + x[0].sqrt() } else { s }
}

/// `match` on a float: guards reading the bound name, a range of floats, a literal, `_`, a
/// computed scrutinee (evaluated once), as a value and as a statement.
#[grad(jvp, hvp, hessian)]
pub fn float_matches(x: [f64; 2]) -> f64 {
    let r = match x[0] * x[1] {
        v if v > 1.0 => v.ln() + x[0],
        v if v < -0.1 => -v * x[1],
        0.0 => x[1],
        -0.1..=0.5 => x[0].sin() * x[1],
        v => v * v,
    };
    let mut s = r;
    match x[1] {
        t if t > 0.0 => s += t.sqrt(),
        _ => s *= 2.0,
    }
    s
}

/// [`float_matches()`]'s twin.
#[grad(jvp, hvp, hessian)]
#[allow(clippy::manual_range_contains)]
pub fn float_matches_twin(x: [f64; 2]) -> f64 {
    let v = x[0] * x[1];
    let r = if v > 1.0 {
        v.ln() + x[0]
    } else if v < -0.1 {
        -v * x[1]
    } else if v == 0.0 {
        x[1]
    } else if v >= -0.1 && v <= 0.5 {
        x[0].sin() * x[1]
    } else {
        v * v
    };
    let mut s = r;
    if x[1] > 0.0 {
        s += x[1].sqrt();
    } else {
        s *= 2.0;
    }
    s
}

/// Destructuring assignment: a recurrence `(a, b) = (b, ..)`, a rotation of two elements
/// `[y[0], y[1]] = [..]`, and nested parts with `_`.
#[grad(jvp, hvp, hessian)]
pub fn destructured(x: [f64; N]) -> f64 {
    let (mut a, mut b) = (x[0], x[1]);
    let mut y = [x[2], x[3]];
    for _ in 0..3 {
        (a, b) = (b, a * b + 0.5);
        let (c, s) = (a.cos(), a.sin());
        [y[0], y[1]] = [c * y[0] - s * y[1], s * y[0] + c * y[1]];
        ((a, _), y[0]) = ((a * 0.9, b), y[0] + a);
    }
    a + b * y[0] - y[1]
}

/// [`destructured()`]'s twin, with the temporaries written by hand.
#[grad(jvp, hvp, hessian)]
pub fn destructured_twin(x: [f64; N]) -> f64 {
    let mut a = x[0];
    let mut b = x[1];
    let mut y = [x[2], x[3]];
    for _ in 0..3 {
        let t = a * b + 0.5;
        a = b;
        b = t;
        let c = a.cos();
        let s = a.sin();
        let y0 = c * y[0] - s * y[1];
        y[1] = s * y[0] + c * y[1];
        y[0] = y0;
        let y0 = y[0] + a;
        a *= 0.9;
        y[0] = y0;
    }
    a + b * y[0] - y[1]
}

/// The new sugar in a function of several outputs: a float `match`, `reduce(..).unwrap()`, a
/// destructuring assignment and a chain over an array literal, each giving one output.
#[grad(jvp, jacobian)]
pub fn sugar_outputs(x: [f64; 3]) -> [f64; 3] {
    let (mut a, mut b) = (x[0], x[1]);
    for _ in 0..2 {
        (a, b) = (b * x[2], a + b);
    }
    let m = match a * b {
        v if v > 0.5 => v.sqrt(),
        v => v * x[2],
    };
    let top = x.iter().map(|v| v * v).reduce(f64::max).unwrap();
    let lse = [a, b, x[2]].iter().map(|v| v.exp()).sum::<f64>().ln();
    [m, top + a, lse]
}

/// [`sugar_outputs`]'s twin, with the loops, temporaries and `if` written by hand.
#[grad(jvp, jacobian)]
#[allow(clippy::needless_range_loop)]
pub fn sugar_outputs_twin(x: [f64; 3]) -> [f64; 3] {
    let mut a = x[0];
    let mut b = x[1];
    for _ in 0..2 {
        let t = b * x[2];
        b += a;
        a = t;
    }
    let v = a * b;
    let m = if v > 0.5 { v.sqrt() } else { v * x[2] };
    let mut top = x[0] * x[0];
    for i in 1..3 {
        top = f64::max(top, x[i] * x[i]);
    }
    let mut sum = -0.0;
    sum += a.exp();
    sum += b.exp();
    sum += x[2].exp();
    [m, top + a, sum.ln()]
}

/// Tuple and array patterns, tuples from `if` and `match`, a swap, a block expression, a
/// constant tuple destructured, and a loop bound from a `const fn`.
#[grad(jvp, hvp, hessian, wrt(x))]
pub fn patterns(x: [f64; 3], offsets: (f64, f64), flip: usize) -> f64 {
    let [a, b, c] = x;
    let (s, d) = (a + b, a - b);
    let (s, d) = (d, s);
    let (p, q) = if c > 0.0 { (s * c, d) } else { (d, s * c) };
    let (u, v) = match flip {
        0 => (p, q),
        _ => (q, p),
    };
    let (o1, o2) = offsets;
    let sq = {
        let t = u + o1;
        t * t
    };
    let mut pairsum = 0.0;
    for xi in x.iter().take(pairs(3)) {
        pairsum += xi * (v + o2);
    }
    sq + pairsum
}

/// [`patterns`]'s twin.
#[grad(jvp, hvp, hessian, wrt(x))]
#[allow(clippy::needless_range_loop)]
pub fn patterns_twin(x: [f64; 3], offsets: (f64, f64), flip: usize) -> f64 {
    let s = x[0] - x[1];
    let d = x[0] + x[1];
    let p = if x[2] > 0.0 { s * x[2] } else { d };
    let q = if x[2] > 0.0 { d } else { s * x[2] };
    let u = if flip == 0 { p } else { q };
    let v = if flip == 0 { q } else { p };
    let t = u + offsets.0;
    let sq = t * t;
    let mut pairsum = 0.0;
    for i in 0..3 {
        pairsum += x[i] * (v + offsets.1);
    }
    sq + pairsum
}

// ---------------------------------------------------------------------------------------------
// Checkpointed loops in iterator form

/// An oscillator stepped by a `fold` over `0..steps` (a trip count known at run time, so the
/// sweep is checkpointed), with an idiomatic step.
#[grad(hvp, checkpoint(s = 4))]
pub fn stepped(x: [f64; 2], steps: usize) -> f64 {
    let dt = 0.01;
    let (q, p) = (0..steps).fold((x[0], x[1]), |(q, p), _| {
        let p = p - dt * q.sin();
        (q + dt * p, p)
    });
    q * q + p * p
}

/// [`stepped`]'s twin.
#[grad(hvp, checkpoint(s = 4))]
pub fn stepped_twin(x: [f64; 2], steps: usize) -> f64 {
    let dt = 0.01;
    let mut q = x[0];
    let mut p = x[1];
    for _ in 0..steps {
        p -= dt * q.sin();
        q += dt * p;
    }
    q * q + p * p
}

// ---------------------------------------------------------------------------------------------
// The benchmark workloads in iterator form (`benches/interleaved_idioms.rs`)

/// The lessons' function Σᵢ sin(xᵢ)·xᵢ₋₁ (cyclic) with `enumerate`: its index-loop twin is
/// `loops::lessons`.
#[grad(jvp, hvp)]
pub fn lessons_iter<const M: usize>(x: [f64; M]) -> f64 {
    x.iter().enumerate().map(|(i, xi)| xi.sin() * x[(i + M - 1) % M]).sum()
}

/// The extended Rosenbrock function by `windows(2)`: its index-loop twin is
/// `loops::ext_rosenbrock`.
#[grad(jvp, hvp)]
pub fn ext_rosenbrock_windows<const M: usize>(x: [f64; M]) -> f64 {
    x.windows(2)
        .map(|w| {
            let a = w[1] - w[0] * w[0];
            let b = 1.0 - w[0];
            100.0 * a * a + b * b
        })
        .sum()
}

/// The extended Rosenbrock function by `zip` with the array shifted by one.
#[grad(jvp, hvp)]
pub fn ext_rosenbrock_zip<const M: usize>(x: [f64; M]) -> f64 {
    x.iter()
        .zip(&x[1..])
        .map(|(xi, next)| {
            let a = next - xi * xi;
            let b = 1.0 - xi;
            100.0 * a * a + b * b
        })
        .sum()
}
