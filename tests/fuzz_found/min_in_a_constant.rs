// Macro bug 26: `Ord::min` in a constant. `(0..3).zip(x)` with `x: [f64; N]`, `N` a `const`
// item, has `3.min(N)` items (and `0..N.min(3)` as many iterations): where the sweep stores a
// value per iteration, its storage `[0.0; 3usize.min(N)]` did not compile, `min` not being a
// `const fn`. The `min` and `max` of lengths the macro does not know are now written
// `if a <= b { a } else { b }`, which a constant may hold.
use autodiff_runtime::grad;

const N: usize = 4;

// The rewrite of `zip` gives the loop `3.min(N)` iterations; `s` is stored in each.
#[grad(hvp)]
fn zipped_with_a_range(x: [f64; N]) -> f64 {
    let mut s: f64 = 0.5;
    for (i, v) in (0..3).zip(x) {
        for _ in 0..2 {
            s = s.cos() * 1.5 + v * i as f64;
        }
    }
    s
}

// The same loop as written by hand, with the bound `N.min(3)`.
#[grad(hvp)]
#[allow(clippy::needless_range_loop)]
fn a_bound_with_min(x: [f64; N]) -> f64 {
    let mut s: f64 = 0.5;
    for i in 0..N.min(3) {
        for _ in 0..2 {
            s = s.cos() * 1.5 + x[i] * i as f64;
        }
    }
    s
}

// `max` likewise, in a reduction bound that is stored: `0..N.max(2) - 1` iterations.
#[grad(hvp)]
#[allow(clippy::needless_range_loop)]
fn a_bound_with_max(x: [f64; N]) -> f64 {
    let mut s = 1.0;
    for i in 0..N.max(2) - 1 {
        s = (s * x[i]).sin();
    }
    s
}

fn main() {
    let x = [0.3, -1.2, 0.7, 2.0];
    let v = [1.0, 0.5, -0.25, 2.0];
    assert_eq!(zipped_with_a_range(x), a_bound_with_min(x));
    assert_eq!(zipped_with_a_range_grad(x), a_bound_with_min_grad(x));
    assert_eq!(zipped_with_a_range_hvp(x, v), a_bound_with_min_hvp(x, v));
    // `x[3]` is not read.
    assert_eq!(a_bound_with_min_grad(x).1[3], 0.0);
    let (y, g) = a_bound_with_max_grad(x);
    assert_eq!(y, a_bound_with_max(x));
    assert_eq!(g[3], 0.0);
    assert_ne!(g[2], 0.0);
}
