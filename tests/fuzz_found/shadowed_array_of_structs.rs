// Macro bug 70: an array of structs shadowed by a local of the same name. `lower/structs/arrays.rs`
// finds the array's reads by its name, and takes the local's reads (`ps[1][j]` of a local
// `[[f64; 2]; 2]`, `s += ps` of a local `f64`) for reads of the array taken whole, refusing the
// function ("reads an element of the array of structs `ps` through its fields ... and does not
// take it whole"). Found by the fuzzer's array-of-structs twin `f_ao` (seed 1000 × 200, its names
// shadowed by `Vary`); the twin is printed without shadowing until this is fixed. The gradient
// is checked against the closed form: f = ps₀.a² + ps₁.a + 1.5 + 2.
use autodiff_runtime::{Differentiable, grad};

#[derive(Clone, Copy, Differentiable)]
pub struct P {
    pub a: f64,
}

#[grad]
pub fn f(ps: &[P; 2]) -> f64 {
    let mut s = ps[0].a * ps[0].a + ps[1].a;
    {
        let ps = 1.5;
        s += ps;
    }
    {
        let ps: [f64; 2] = [2.0, 0.0];
        s += ps[0];
    }
    s
}

fn main() {
    let ps = [P { a: 3.0 }, P { a: 0.5 }];
    let (y, g) = f_grad(&ps);
    assert_eq!(y, 9.0 + 0.5 + 1.5 + 2.0);
    assert_eq!((g[0].a, g[1].a), (6.0, 1.0));
}
