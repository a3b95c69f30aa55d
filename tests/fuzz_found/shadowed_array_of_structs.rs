// Macro bug 70: an array of structs shadowed by a local of the same name. `lower/structs/arrays.rs`
// found the array's reads by its name, and took the local's reads (`ps[0]` of a local
// `[f64; 2]`, `s += ps` of a local `f64`) for reads of the array taken whole, refusing the
// function ("reads an element of the array of structs `ps` through its fields ... and does not
// take it whole"). Found by the fuzzer's array-of-structs twin `f_ao` (seed 1000 × 200, its names
// shadowed by `Vary`). `h` shadows its array in the other scopes: a closure's parameter, a `for`
// loop's index, a `let` after a read in the same block, a `match` arm's binding, and an element
// named like it (`for qs in qs.iter()`, its index named apart). Checked against the closed
// forms: f = ps₀.a² + ps₁.a + 1.5 + 2, and
// h = Σ xᵢ² + Σ xᵢ + Σ qsᵢ.a xᵢ + 3 Σ xᵢ + x₁ + Σ qsᵢ.a + qs₁.a².
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

#[grad]
pub fn h(qs: [P; 2], xs: [f64; 2]) -> f64 {
    let mut s = xs.iter().map(|qs| qs * qs).sum::<f64>();
    for qs in 0..2 {
        s += xs[qs];
    }
    for i in 0..2 {
        s += qs[i].a * xs[i];
        let qs = 3.0;
        s += qs * xs[i];
    }
    let k = 1;
    s += match k {
        0 => 0.0,
        qs => xs[qs],
    };
    for qs in qs.iter() {
        s += qs.a;
    }
    s + qs[1].a * qs[1].a
}

fn main() {
    let ps = [P { a: 3.0 }, P { a: 0.5 }];
    let (y, g) = f_grad(&ps);
    assert_eq!(y, 9.0 + 0.5 + 1.5 + 2.0);
    assert_eq!((g[0].a, g[1].a), (6.0, 1.0));

    // a = (3, 0.5), x = (1.5, -2): 6.25 - 0.5 + 3.5 - 1.5 - 2 + 3.5 + 0.25.
    let (y, (gq, gx)) = h_grad(ps, [1.5, -2.0]);
    assert_eq!(y, 9.5);
    // ∂/∂aᵢ = xᵢ + 1 (+ 2a₁); ∂/∂xᵢ = 2xᵢ + 1 + aᵢ + 3 (+ 1 for x₁).
    assert_eq!((gq[0].a, gq[1].a), (2.5, 0.0));
    assert_eq!(gx, [10.0, 1.5]);
}
