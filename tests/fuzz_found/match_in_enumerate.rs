// Macro bug 30: a `match` on an expression of the index of an `enumerate` loop was refused:
// "`#[grad]` cannot use `m` here: it stands for `i % 2`, which reads `i`, and `i` means
// something else here; rename one of the two". The same `match` in `for i in 0..4` compiled.
// `enumerate`'s pattern binds `i` again to the loop's index, `let (i, v) = (i, &r[i]);`, and
// the scrutinee `m`, bound to `i % 2`, kept the loop index's binding among what it reads. A
// name bound again to itself now means the same. Found by the fuzzer's iterator twins (seed
// 100150).
use autodiff_runtime::grad;

#[grad(hvp)]
fn alternating(r: [f64; 4]) -> f64 {
    let mut s = 1.0;
    for (i, v) in r.iter().enumerate() {
        s += match i % 2 {
            1 => -(i as f64),
            _ => *v,
        };
    }
    s
}

fn main() {
    let r = [0.5, 2.0, -1.0, 3.0];
    // 1 + 0.5 - 1 - 1 - 3
    assert_eq!(alternating(r), -3.5);
    assert_eq!(alternating_grad(r).1, [1.0, 0.0, 1.0, 0.0]);
}
