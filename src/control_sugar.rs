//! Everyday control flow that `#[grad]` rewrites in front of the IR: elements written through
//! `iter_mut`, `loop`s used as values, labelled `break` and `continue`, each function beside its twin written in the index form the rewrite means (the
//! same arithmetic in the same order), which `tests/control_sugar.rs` checks it against bit for
//! bit, and both against finite differences.
//!
//! The crate denies every warning and every `clippy::all` lint, so these functions are written
//! as clippy wants them, and so is what `#[grad]` generates from them.

use autodiff_runtime::grad;

/// The length of the arrays the functions take.
pub const N: usize = 4;

// ---------------------------------------------------------------------------------------------
// `iter_mut`

/// A local array updated through `iter_mut` in `for` loops (plain, `enumerate`, `zip`, `rev`,
/// `skip`), `&mut y`, and `for_each`.
#[grad(jvp, hvp, wrt(x))]
pub fn written(x: [f64; N], w: &[f64; N]) -> f64 {
    let a = x[0] * 0.5;
    let mut y = x;
    for v in y.iter_mut() {
        *v = v.sin() * a;
    }
    for (i, v) in y.iter_mut().enumerate() {
        *v += x[i];
    }
    for (v, w) in y.iter_mut().zip(w.iter()) {
        *v *= w;
    }
    let s = x[1] + 1.0;
    y.iter_mut().for_each(|v| *v *= s);
    for v in &mut y {
        *v = *v * *v + 0.5;
    }
    for (i, v) in y.iter_mut().rev().skip(1).enumerate() {
        *v -= 0.25 * i as f64 * x[3];
    }
    y.iter().sum::<f64>()
}

/// [`written`]'s twin.
#[grad(jvp, hvp, wrt(x))]
#[allow(clippy::needless_range_loop)]
pub fn written_twin(x: [f64; N], w: &[f64; N]) -> f64 {
    let a = x[0] * 0.5;
    let mut y = x;
    for i in 0..N {
        y[i] = y[i].sin() * a;
    }
    for i in 0..N {
        y[i] += x[i];
    }
    for i in 0..N {
        y[i] *= w[i];
    }
    let s = x[1] + 1.0;
    for i in 0..N {
        y[i] *= s;
    }
    for i in 0..N {
        y[i] = y[i] * y[i] + 0.5;
    }
    for i in 0..N - 1 {
        y[N - 1 - (i + 1)] -= 0.25 * i as f64 * x[3];
    }
    let mut t = -0.0;
    for i in 0..N {
        t += y[i];
    }
    t
}

/// Rows of a matrix updated through nested `iter_mut`s, and `for_each` with `enumerate`.
#[grad(jvp, hvp)]
pub fn rows(x: [f64; N]) -> f64 {
    let mut m = [[x[0], x[1]], [x[2], x[3]]];
    for (i, row) in m.iter_mut().enumerate() {
        for v in row.iter_mut() {
            *v = v.exp() * (i as f64 + 1.0);
        }
    }
    m.iter_mut().for_each(|row| row.iter_mut().enumerate().for_each(|(j, v)| *v *= x[j]));
    m[0][0] * m[1][1] - m[0][1] * m[1][0]
}

/// [`rows`]'s twin.
#[grad(jvp, hvp)]
#[allow(clippy::needless_range_loop)]
pub fn rows_twin(x: [f64; N]) -> f64 {
    let mut m = [[x[0], x[1]], [x[2], x[3]]];
    for i in 0..2 {
        for j in 0..2 {
            m[i][j] = m[i][j].exp() * (i as f64 + 1.0);
        }
    }
    for i in 0..2 {
        for j in 0..2 {
            m[i][j] *= x[j];
        }
    }
    m[0][0] * m[1][1] - m[0][1] * m[1][0]
}

// ---------------------------------------------------------------------------------------------
// A `loop` used as a value

/// `loop`s used as values (`break v`): an `f64`, an array literal, a `let` without a value
/// assigned in a loop.
#[grad(jvp, hvp)]
pub fn halved(x: [f64; N]) -> f64 {
    let mut y = x[0] * x[0] + 2.0;
    let r = loop {
        y *= 0.5 + 0.1 * x[1].sin();
        if y < 1.0 {
            break y * x[2];
        }
    };
    let pair = loop {
        y *= 1.5;
        if y > 2.0 {
            break [y, y * x[3]];
        }
    };
    let last;
    let mut t = x[3] * x[3];
    loop {
        t = t * 2.0 + 1.0 + x[1] * 0.1;
        if t > 3.0 {
            last = t * x[0];
            break;
        }
    }
    r + pair[0] * pair[1] + last
}

/// [`halved`]'s twin.
#[grad(jvp, hvp)]
#[allow(unused_assignments)] // the starting values are overwritten before they are read
pub fn halved_twin(x: [f64; N]) -> f64 {
    let mut y = x[0] * x[0] + 2.0;
    let mut r = 0.0;
    loop {
        y *= 0.5 + 0.1 * x[1].sin();
        if y < 1.0 {
            r = y * x[2];
            break;
        }
    }
    let mut pair = [0.0; 2];
    loop {
        y *= 1.5;
        if y > 2.0 {
            pair = [y, y * x[3]];
            break;
        }
    }
    let mut last = 0.0;
    let mut t = x[3] * x[3];
    loop {
        t = t * 2.0 + 1.0 + x[1] * 0.1;
        if t > 3.0 {
            last = t * x[0];
            break;
        }
    }
    r + pair[0] * pair[1] + last
}

/// Newton's iteration for `√a`, the `loop` giving the function's value.
#[grad(jvp, hvp)]
pub fn root(x: [f64; N]) -> f64 {
    let a = x[0] * x[0] + x[1] * x[1] + 1.0;
    let mut g = a;
    loop {
        let next = 0.5 * (g + a / g);
        if (next - g).abs() < 1e-12 * a {
            break next * x[2] + x[3];
        }
        g = next;
    }
}

/// [`root`]'s twin.
#[grad(jvp, hvp)]
#[allow(unused_assignments)] // the starting values are overwritten before they are read
pub fn root_twin(x: [f64; N]) -> f64 {
    let a = x[0] * x[0] + x[1] * x[1] + 1.0;
    let mut g = a;
    let mut value = 0.0;
    loop {
        let next = 0.5 * (g + a / g);
        if (next - g).abs() < 1e-12 * a {
            value = next * x[2] + x[3];
            break;
        }
        g = next;
    }
    value
}

// ---------------------------------------------------------------------------------------------
// Labelled `break` and `continue`

/// `break 'rows` and `continue 'rows` out of an inner `for`, and `continue 'grow` out of a
/// `for` in a `while`.
#[grad(jvp, hvp)]
#[allow(clippy::needless_range_loop)]
pub fn first_pairs(x: [f64; N]) -> f64 {
    let mut s = 0.0;
    'rows: for i in 0..N {
        for j in 0..N {
            if x[i] * x[j] > 1.0 {
                break 'rows;
            }
            if x[j] < -0.5 {
                continue 'rows;
            }
            s += x[i] * x[j];
        }
        s *= 1.1;
    }
    let mut t = x[0] * x[0];
    'grow: while t < 10.0 {
        for v in x {
            if v < 0.0 {
                t += 1.0 + s * 0.01;
                continue 'grow;
            }
            t *= 1.0 + v * v;
        }
        t += 0.5;
    }
    s + t.sqrt()
}

/// [`first_pairs`]'s twin, its flags written by hand (as `f64`s: `#[grad]` refuses the user's
/// own `bool` variables).
#[grad(jvp, hvp)]
#[allow(clippy::needless_range_loop)]
pub fn first_pairs_twin(x: [f64; N]) -> f64 {
    let mut s = 0.0;
    for i in 0..N {
        let mut done = 0.0;
        let mut skip = 0.0;
        for j in 0..N {
            if x[i] * x[j] > 1.0 {
                done = 1.0;
                break;
            }
            if x[j] < -0.5 {
                skip = 1.0;
                break;
            }
            s += x[i] * x[j];
        }
        if done > 0.5 {
            break;
        }
        if skip > 0.5 {
            continue;
        }
        s *= 1.1;
    }
    let mut t = x[0] * x[0];
    while t < 10.0 {
        let mut skip = 0.0;
        for i in 0..N {
            if x[i] < 0.0 {
                t += 1.0 + s * 0.01;
                skip = 1.0;
                break;
            }
            t *= 1.0 + x[i] * x[i];
        }
        if skip > 0.5 {
            continue;
        }
        t += 0.5;
    }
    s + t.sqrt()
}

/// A labelled `loop` whose value a `break` gives from the loop inside it.
#[grad(jvp, hvp)]
pub fn search(x: [f64; N]) -> f64 {
    let mut y = 0.25 + x[3] * x[3];
    let r = 'search: loop {
        for v in x.iter() {
            if y * v.abs() > 1.0 {
                break 'search y * v;
            }
        }
        y *= 1.5;
    };
    r + y
}

/// [`search`]'s twin.
#[grad(jvp, hvp)]
#[allow(clippy::needless_range_loop, unused_assignments)]
pub fn search_twin(x: [f64; N]) -> f64 {
    let mut y = 0.25 + x[3] * x[3];
    let mut r = 0.0;
    loop {
        let mut done = 0.0;
        for i in 0..N {
            if y * x[i].abs() > 1.0 {
                r = y * x[i];
                done = 1.0;
                break;
            }
        }
        if done > 0.5 {
            break;
        }
        y *= 1.5;
    }
    r + y
}
