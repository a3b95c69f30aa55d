// Checks that `hvp` on a function returning a struct generates `_hvp` with the cotangent and its
// tangent of the struct's type (it was refused before).
use autodiff_runtime::{Differentiable, grad};

#[derive(Clone, Copy, Differentiable)]
pub struct Pair {
    pub a: f64,
    pub b: f64,
}

#[grad(hvp)]
pub fn scaled(p: &Pair, k: f64) -> Pair {
    Pair { a: p.a * k, b: p.b * k }
}

fn main() {
    let p = Pair { a: 1.0, b: 2.0 };
    let out = Pair { a: 1.0, b: 0.0 };
    let (value, (p_bar, k_bar), value_dot, (p_bar_dot, k_bar_dot)) =
        scaled_hvp(&p, 3.0, out, &p, 1.0, out);
    assert_eq!((value.a, value.b, p_bar.a, k_bar), (3.0, 6.0, 3.0, 1.0));
    assert_eq!((value_dot.a, value_dot.b, p_bar_dot.a, k_bar_dot), (4.0, 8.0, 4.0, 2.0));
}
