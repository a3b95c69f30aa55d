// Macro bug 25: `filter` after `enumerate` or `zip` did not compile ("`#[grad]` does not support
// a tuple here; bind its parts with a pattern"): the rewrite of a chain passes the closure of
// `filter` a reference to the item, `&(i, v)`, and lowering took a reference to a tuple for a
// scalar. A reference to a tuple (to a view, to a closure) is now what it refers to.
use autodiff_runtime::grad;

// `filter` after `enumerate`, its pattern `&(i, _)`.
#[grad(hvp)]
fn odd_positions(x: [f64; 4]) -> f64 {
    let mut s = 0.5;
    for (i, v) in x.iter().enumerate().filter(|&(i, _)| i % 2 == 1) {
        s += v * i as f64;
    }
    s
}

// `filter` after `zip`, its pattern `&(&a, &b)`, then `map` and `sum`.
#[grad(hvp)]
fn larger_pairs(x: [f64; 3], y: [f64; 3]) -> f64 {
    x.iter().zip(&y).filter(|&(&a, &b)| a > b).map(|(a, b)| a * b).sum::<f64>()
}

fn main() {
    let x = [1.0, 2.0, 3.0, 4.0];
    assert_eq!(odd_positions(x), 14.5);
    assert_eq!(odd_positions_grad(x), (14.5, [0.0, 1.0, 0.0, 3.0]));
    assert_eq!(odd_positions_hvp(x, [1.0; 4]).2, [0.0; 4]);
    let (x, y) = ([1.0, -1.0, 2.0], [0.5, 0.5, 3.0]);
    assert_eq!(larger_pairs(x, y), 0.5);
    assert_eq!(larger_pairs_grad(x, y), (0.5, ([0.5, 0.0, 0.0], [1.0, 0.0, 0.0])));
    let (_, _, hv) = larger_pairs_hvp(x, y, [1.0, 0.0, 0.0], [0.0, 0.0, 0.0]);
    assert_eq!(hv, ([0.0; 3], [1.0, 0.0, 0.0]));
}
